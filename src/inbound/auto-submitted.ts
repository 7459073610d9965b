import type { ParsedMail } from "mailparser";
import type { AutoSubmitted } from "../mailbox/reports.ts";

// Whether a machine sent a message, from its headers (RFC 3834 and what
// common servers write instead), so an agent can tell people from robots and
// need not answer an out-of-office reply.

/** Headers that vacation responders and out-of-office rules of common servers set. */
const AUTOREPLY_HEADERS = ["x-autoreply", "x-autorespond", "x-autoresponder", "x-mail-autoreply"];
const LIST_HEADERS = ["list-id", "list-unsubscribe"];

function header(mail: ParsedMail, name: string): string {
  const value = mail.headers.get(name);
  return (typeof value === "string" ? value : value === undefined ? "" : "present").trim().toLowerCase();
}

/** `report`: whether the message is a delivery report (which no sent email matched). */
export function autoSubmittedOf(mail: ParsedMail, report: boolean): AutoSubmitted {
  const autoSubmitted = header(mail, "auto-submitted").split(/[\s;(]/)[0] ?? "";
  const precedence = header(mail, "precedence");
  if (report) return "auto-generated";
  if (autoSubmitted === "auto-replied" || AUTOREPLY_HEADERS.some((name) => mail.headers.has(name)))
    return "auto-replied";
  if (autoSubmitted !== "" && autoSubmitted !== "no") return "auto-generated";
  if (["bulk", "junk", "auto_reply"].includes(precedence) || mail.headers.has("x-auto-response-suppress")) {
    return "auto-generated";
  }
  // mailparser folds the List-* fields into one parsed `list` header: asked by their names as they were written.
  if (precedence === "list" || mail.headerLines.some((line) => LIST_HEADERS.includes(line.key))) return "list";
  return null;
}
