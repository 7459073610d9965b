import { describe, expect, test } from "vitest";
import { replyRecipients } from "./answers.ts";
import type { EmailRecord } from "./records.ts";
import { forwardBodies } from "./replies.ts";
import { baseSubject, forwardSubject, replySubject } from "./subjects.ts";
import { trimReferences } from "./threads.ts";

const original = (fields: Partial<EmailRecord>): EmailRecord => ({
  id: "e1",
  agentId: "scout",
  messageId: "<m1@sender.example>",
  fromAddress: "jordan@sender.example",
  fromName: "Jordan",
  to: "scout@mail.example",
  subject: "Invoice",
  bodyText: "Please pay.",
  bodyHtml: null,
  size: 100,
  receivedAt: new Date("2026-11-23T10:00:00Z"),
  headerDate: null,
  isRead: false,
  folder: "inbox",
  toList: ["scout@mail.example", "Pat@Example.com"],
  ccList: ["finance@example.com", "pat@example.com", "SCOUT@mail.example"],
  replyToList: [],
  inReplyTo: null,
  references: null,
  threadId: "t1",
  text: "Please pay.",
  preview: "Please pay.",
  replyText: "Please pay.",
  links: [],
  codes: [],
  authSpf: null,
  authDkim: null,
  authDmarc: null,
  authArc: null,
  authVerdict: "none",
  autoSubmitted: null,
  reportIgnored: null,
  spamStatus: null,
  spamAction: null,
  spamScore: null,
  spamRequired: null,
  spamSymbols: [],
  spam: false,
  malwareStatus: null,
  screening: "clear",
  screeningSignals: [],
  labels: [],
  trashedAt: null,
  ...fields,
});

describe("replySubject and forwardSubject", () => {
  // A reply's prefixes (in any language, counted or stacked) fold into one Re:;
  // a forward keeps the subject whole unless it is one already.
  test.each([
    ["Invoice", "Re: Invoice", "Fwd: Invoice"],
    ["Re: Invoice", "Re: Invoice", "Fwd: Re: Invoice"],
    ["RE: Re: re:Invoice", "Re: Invoice", "Fwd: RE: Re: re:Invoice"],
    ["Aw: Rechnung", "Re: Rechnung", "Fwd: Aw: Rechnung"],
    ["SV: Faktura", "Re: Faktura", "Fwd: SV: Faktura"],
    ["Re[2]: Invoice", "Re: Invoice", "Fwd: Re[2]: Invoice"],
    ["Fwd: Invoice", "Re: Fwd: Invoice", "Fwd: Invoice"],
    ["FW: Invoice", "Re: FW: Invoice", "FW: Invoice"],
    ["Rebate", "Re: Rebate", "Fwd: Rebate"],
  ])("%s → %s, %s", (subject, reply, forward) => {
    expect(replySubject(subject)).toBe(reply);
    expect(forwardSubject(subject)).toBe(forward);
  });
});

describe("baseSubject", () => {
  test("strips stacked reply and forward prefixes, never words that merely start alike", () => {
    expect(baseSubject("Re: Fwd: RE: Invoice")).toBe("Invoice");
    expect(baseSubject("Aw: WG: Rechnung")).toBe("Rechnung");
    expect(baseSubject("Return policy")).toBe("Return policy");
    expect(baseSubject(null)).toBe("");
  });
});

describe("replyRecipients", () => {
  test("to the sender; reply-all adds To and Cc without the agent's own address or repeats, whatever their case", () => {
    const own = "scout@mail.example";
    expect(replyRecipients(original({}), own, false)).toEqual({ to: ["jordan@sender.example"], cc: [] });
    expect(replyRecipients(original({}), own, true)).toEqual({
      to: ["jordan@sender.example"],
      cc: ["Pat@Example.com", "finance@example.com"],
    });
  });

  test("Reply-To wins over From, and is not repeated in Cc", () => {
    const email = original({ replyToList: ["billing@example.com"], ccList: ["BILLING@example.com"] });
    expect(replyRecipients(email, "scout@mail.example", true)).toEqual({
      to: ["billing@example.com"],
      cc: ["Pat@Example.com"],
    });
  });
});

describe("trimReferences", () => {
  test("keeps the first and the last ids, dropping from the front past 998 characters", () => {
    const ids = Array.from({ length: 60 }, (_, n) => `<message-${n}-0123456789@sender.example>`);
    const trimmed = trimReferences(ids);
    expect(trimmed[0]).toBe(ids[0]);
    expect(trimmed.at(-1)).toBe(ids.at(-1));
    expect(trimmed.join(" ").length).toBeLessThanOrEqual(998 - "References: ".length);
    expect(ids.slice(-(trimmed.length - 1))).toEqual(trimmed.slice(1));
    expect(trimReferences(ids.slice(0, 3))).toEqual(ids.slice(0, 3));
  });
});

describe("forwardBodies", () => {
  test("the new text above the original's headers and body; HTML only when either has HTML", () => {
    const { text, html } = forwardBodies(original({}), "FYI", null);
    expect(text).toBe(
      [
        "FYI",
        "---------- Forwarded message ---------",
        "From: Jordan <jordan@sender.example>",
        "Date: Mon, 23 Nov 2026 10:00:00 GMT",
        "Subject: Invoice",
        "To: scout@mail.example, Pat@Example.com",
        "",
        "Please pay.",
      ].join("\n"),
    );
    expect(html).toBeNull();
    const withHtml = forwardBodies(original({ bodyHtml: "<p>Please <b>pay</b>.</p>" }), "See <below>", null);
    expect(withHtml.html).toContain("<p>See &lt;below&gt;</p>");
    expect(withHtml.html).toContain("From: Jordan &lt;jordan@sender.example&gt;");
    expect(withHtml.html).toContain("<p>Please <b>pay</b>.</p>");
  });
});
