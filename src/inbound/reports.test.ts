import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parseMime } from "../mailbox/mime.ts";
import { reportOf } from "./reports.ts";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

async function report(name: string) {
  const raw = fixture(`reports/${name}`);
  return reportOf(await parseMime(raw), raw);
}

describe("reportOf", () => {
  test("Postfix: a hard bounce, the original found in the returned message", async () => {
    expect(await report("postfix-bounce.eml")).toEqual({
      kind: "delivery",
      originalMessageIds: ["<POSTFIX-ORIGINAL@mail.example.org>"],
      recipients: [
        {
          finalRecipient: "nobody@gone.example.net",
          originalRecipient: "nobody@gone.example.net",
          status: "bounced",
          action: "failed",
          statusCode: "5.1.1",
          diagnosticCode:
            "550 5.1.1 <nobody@gone.example.net>: Recipient address rejected: User unknown in virtual mailbox table",
          remoteMta: "mx.gone.example.net",
          at: new Date("2026-11-26T09:12:02Z"),
        },
      ],
    });
  });

  test.each([
    {
      title: "Postfix: a success report (relayed) is delivered",
      file: "postfix-delivered.eml",
      originalMessageIds: ["<DELIVERED-ORIGINAL@mail.example.org>"],
      recipients: [
        { finalRecipient: "friend@example.com", status: "delivered", action: "relayed", statusCode: "2.0.0" },
      ],
    },
    {
      title: "Exim: a delay warning with the original's headers only (text/rfc822-headers)",
      file: "exim-delayed.eml",
      originalMessageIds: ["<EXIM-ORIGINAL@mail.example.org>"],
      recipients: [
        {
          finalRecipient: "slow@busy.example.com",
          status: "delayed",
          statusCode: "4.0.0",
          remoteMta: "mx.busy.example.com",
        },
      ],
    },
    {
      title: "Gmail: two recipients in one report, a hard and a soft failure",
      file: "gmail-two-recipients.eml",
      originalMessageIds: ["<GMAIL-ORIGINAL@mail.example.org>"],
      recipients: [
        {
          finalRecipient: "Gone.Person@example.com",
          status: "bounced",
          statusCode: "5.1.1",
          remoteMta: "gmail-smtp-in.l.google.com",
          diagnosticCode: expect.stringMatching(/^550-5\.1\.1 The email account .* gsmtp$/),
          at: new Date("2026-11-26T10:14:11Z"),
        },
        { finalRecipient: "full@example.com", status: "bounced", statusCode: "4.2.2" },
      ],
    },
    {
      title: "Microsoft 365: Original-Recipient beside a different Final-Recipient; the original only in In-Reply-To",
      file: "microsoft365-bounce.eml",
      originalMessageIds: ["<M365-ORIGINAL@mail.example.org>"],
      recipients: [
        {
          originalRecipient: "Ghost@Contoso.com",
          finalRecipient: "ghost.archive@contoso.com",
          status: "bounced",
          statusCode: "5.1.10",
        },
      ],
    },
    {
      title:
        "a report without Status or the returned message: the code from the diagnostic text, the original from In-Reply-To",
      file: "references-only.eml",
      originalMessageIds: ["<TINY-ORIGINAL@mail.example.org>"],
      recipients: [{ finalRecipient: "Closed@Tiny.Example", status: "bounced", statusCode: "5.7.1" }],
    },
  ])("$title", async ({ file, originalMessageIds, recipients }) => {
    expect(await report(file)).toMatchObject({ kind: "delivery", originalMessageIds, recipients });
  });

  test("an ARF complaint from a mailbox provider", async () => {
    const found = await report("yahoo-complaint.eml");
    expect(found).toMatchObject({
      kind: "complaint",
      originalMessageIds: ["<ARF-ORIGINAL@mail.example.org>"],
      recipients: [{ finalRecipient: "reader@yahoo.example", status: "complained", action: "abuse" }],
    });
  });

  test("ordinary mail and other multipart types are no report", async () => {
    for (const name of ["gmail-alternative.eml", "auto/sieve-vacation.eml"]) {
      const raw = fixture(name);
      expect(await reportOf(await parseMime(raw), raw)).toBeNull();
    }
  });
});
