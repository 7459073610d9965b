import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parseMessage, recipientsOf } from "./parse.ts";

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const CATCH_ALL = "catchall@agents.example";

describe("parseMessage", () => {
  test("an envelope header of 400 KB without a separator is read in linear time", async () => {
    const raw = Buffer.from(
      `Delivered-To: ${"x".repeat(400_000)}\r\nX-Original-To: a@b@${"c".repeat(100_000)}, scout@agents.example\r\n` +
        "From: a@sender.example\r\nTo: scout@agents.example\r\nSubject: s\r\n\r\nhi\r\n",
    );
    const message = await parseMessage(raw, { derive: true });
    expect(message.envelopeTo).toEqual([`a@b@${"c".repeat(100_000)}`, "scout@agents.example"]);
  }, 10_000);

  test("a Gmail multipart/alternative message: both bodies, decoded subject, the envelope recipients", async () => {
    const message = await parseMessage(fixture("gmail-alternative.eml"), { derive: true });
    expect(message).toMatchObject({
      messageId: "<CAF=+4kQn7yLw@mail.gmail.example>",
      from: { address: "jordan@gmail.example", name: "Jordan Example" },
      subject: "Quarterly numbers – corrected",
      envelopeTo: ["catchall@agents.example", "scout@agents.example"],
    });
    expect(message.bodyText).toContain("Café budget unchanged.");
    expect(message.bodyHtml).toContain('<div dir="ltr">Hi Scout,');
    expect(message.dedupeKey).toMatch(/^message-id:[0-9a-f]{64}$/);
  });

  test("no Message-ID: keyed by its bytes; ISO-8859-1 decoded; a group's members count as recipients", async () => {
    const raw = fixture("no-message-id-latin1.eml");
    const message = await parseMessage(raw, { derive: true });
    expect(message.messageId).toBeNull();
    expect(message.dedupeKey).toMatch(/^source:[0-9a-f]{64}$/);
    // Delivered again, with another trace on top: the same message.
    const again = await parseMessage(
      Buffer.concat([
        Buffer.from(
          "Return-Path: <renee@example.fr>\r\nReceived: by mx2.agents.example; Fri, 27 Nov 2026 10:00:00 +0000\r\n",
        ),
        raw,
      ]),
      { derive: false },
    );
    expect(again.dedupeKey).toBe(message.dedupeKey);
    const edited = await parseMessage(Buffer.from(raw.toString("latin1").replace("mon r=E9sum=E9", "ma lettre")), {
      derive: false,
    });
    expect(edited.dedupeKey).not.toBe(message.dedupeKey);
    expect(message.subject).toBe("Résumé");
    expect(message.from.name).toBe("Renée");
    expect(message.bodyText?.trim()).toBe("Voilà mon résumé.");
    expect(message.headerTo).toEqual(["AGENT-Two@Agents.Example", "first@agents.example", "second@agents.example"]);
  });

  test("the reverse path is the topmost Return-Path, which the delivering server writes: empty for <>", async () => {
    const message = (top: string) =>
      parseMessage(Buffer.from(`${top}Return-Path: <>\r\nFrom: a@sender.example\r\nSubject: s\r\n\r\nhi\r\n`), {
        derive: false,
      });
    expect((await message("")).returnPath).toBe("");
    expect((await message("Return-Path: <mallory@sender.example>\r\n")).returnPath).toBe("mallory@sender.example");
    expect((await parseMessage(fixture("bcc-only.eml"), { derive: false })).returnPath).toBeNull();
  });

  test("HTML only: no text body is made up; a NUL is stored as U+FFFD", async () => {
    const message = await parseMessage(fixture("html-only-with-nul.eml"), { derive: true });
    expect(message.bodyText).toBeNull();
    expect(message.bodyHtml).toContain("4821\uFFFD");
  });
});

const DOMAINS = new Set(["agents.example"]);

describe("recipientsOf", () => {
  test("the envelope decides, without the catch-all's own address", async () => {
    const message = await parseMessage(fixture("gmail-alternative.eml"), { derive: true });
    expect(recipientsOf(message, DOMAINS, CATCH_ALL)).toEqual(["scout@agents.example"]);
  });

  test("without an envelope header: To and Cc, without case and without repeats", async () => {
    const message = await parseMessage(fixture("no-message-id-latin1.eml"), { derive: true });
    expect(recipientsOf(message, DOMAINS, CATCH_ALL)).toEqual([
      "agent-two@agents.example",
      "first@agents.example",
      "second@agents.example",
    ]);
  });

  test("without an envelope header, Bcc too; other domains are not ours", async () => {
    const message = await parseMessage(fixture("bcc-only.eml"), { derive: true });
    expect(recipientsOf(message, DOMAINS, CATCH_ALL)).toEqual(["hidden@agents.example"]);
  });

  test("Envelope-To names the recipient over To", async () => {
    const message = await parseMessage(fixture("html-only-with-nul.eml"), { derive: true });
    expect(recipientsOf(message, DOMAINS, CATCH_ALL)).toEqual(["inbox-bot@agents.example"]);
  });
});
