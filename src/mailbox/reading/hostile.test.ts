import { describe, expect, test } from "vitest";
import { readingOf } from "./index.ts";

// Texts written to make a reader take quadratic time or worse: a long run
// without blanks, many lines, many candidates on one line, many attribution
// starts, deep HTML. Each is read in linear time from a bounded head; the
// budget below is a hundred times what that takes, and what read them
// before took hours over the first two.

const MB = 1024 * 1024;

const TEXTS: [string, string][] = [
  ["one 4 MB word", "x".repeat(4 * MB)],
  ["150,000 short lines", Array.from({ length: 150_000 }, (_, n) => `line ${n}`).join("\n")],
  ["a line of 300,000 announced candidates", "code 123456 ".repeat(300_000)],
  ["4 MB of at-signs and dots", "a@b.".repeat(MB)],
  ["4 MB of blank lines", "\n".repeat(4 * MB)],
  ["400,000 attribution starts", "On x\n".repeat(400_000)],
  ["400,000 header starts", "From: x\n".repeat(400_000)],
  ["4 MB of quote marks", ">".repeat(4 * MB)],
];

describe("reading help on hostile text", () => {
  test.each(TEXTS)(
    "%s, as text and as HTML",
    (_, text) => {
      const asText = readingOf({ subject: text.slice(0, 100_000), bodyText: text, bodyHtml: null });
      expect([text, null]).toContain(asText.text);
      expect([...asText.preview].length).toBeLessThanOrEqual(200);
      readingOf({ subject: null, bodyText: null, bodyHtml: text });
    },
    10_000,
  );

  test.each([
    ["200,000 unclosed divs", "<div>".repeat(200_000)],
    ["50,000 unclosed tables", "<table><tr><td>".repeat(50_000)],
    ["100,000 links", '<a href="https://example.com/x">x</a>'.repeat(100_000)],
  ])(
    "%s of HTML",
    (_, html) => {
      const reading = readingOf({ subject: null, bodyText: null, bodyHtml: html });
      expect(reading.links.length).toBeLessThanOrEqual(100);
    },
    10_000,
  );

  test("a code past the first 256 KiB of text is not looked for", () => {
    const far = `${"filler words ".repeat(30_000)}\nYour verification code is 482913`;
    expect(readingOf({ subject: null, bodyText: far, bodyHtml: null }).codes).toEqual([]);
    const near = "Your verification code is 482913";
    expect(readingOf({ subject: null, bodyText: near, bodyHtml: null }).codes).toEqual(["482913"]);
  });
});
