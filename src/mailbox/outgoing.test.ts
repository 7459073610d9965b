import { describe, expect, test } from "vitest";
import { testTable } from "../testing/table.ts";
import { asFilename, asSubject, checkedOutgoing, type Outgoing } from "./outgoing.ts";

// Received mail made into mail that goes out keeps the rules of /send.

describe("asSubject", () => {
  testTable("%j → %j", asSubject, [
    ["Invoice\r\nBcc: victim@example.com", "Invoice Bcc: victim@example.com"],
    ["a\u2028b\u0000c", "a b c"],
    ["\r\n", "(no subject)"],
    ["x".repeat(2000), "x".repeat(998)],
  ]);
});

describe("asFilename", () => {
  testTable("%j → %j", (name: string) => asFilename(name, 0), [
    ["../../../etc/passwd", "passwd"],
    ["..\\..\\win.ini", "win.ini"],
    ["/", "attachment-1"],
    ["..", "attachment-1"],
    ["\u0007bell", "bell"],
    [`${"n".repeat(300)}.pdf`, `${"n".repeat(251)}.pdf`],
    [`${"n".repeat(300)}.p\u0001df`, `${"n".repeat(251)}.pdf`],
  ]);
});

describe("checkedOutgoing", () => {
  const outgoing = (subject: string, filename: string): Outgoing => ({
    to: ["a@example.com"],
    cc: [],
    bcc: [],
    subject,
    text: "hi",
    html: null,
    replyTo: null,
    autoSubmitted: "auto-generated",
    inReplyTo: null,
    references: [],
    threadId: null,
    attachments: [{ filename, contentType: null, content: Buffer.from("x"), inline: false, contentId: null }],
  });

  test("holds every message to /send's rules", () => {
    expect(() => checkedOutgoing(outgoing("one\nline", "a.txt"))).toThrow(/one line/);
    expect(() => checkedOutgoing(outgoing("fine", "../a.txt"))).toThrow(/attachments\[0\]\.filename/);
    expect(checkedOutgoing(outgoing("fine", "a.txt")).subject).toBe("fine");
  });
});
