import { describe, expect, test } from "vitest";
import { linksOf } from "./links.ts";
import { previewOf, readableText } from "./text.ts";

describe("readableText", () => {
  test("the text part when there is one", () => {
    expect(readableText("Plain words.", "<p>Other words</p>")).toBe("Plain words.");
  });

  test("else the HTML as text: links as text (url), no style or script, table cells as blocks", () => {
    const html = `<html><head><title>T</title><style>p { color: red }</style></head><body>
      <p>Hello <b>Scout</b>,</p><script>alert("x")</script>
      <table><tr><td>Your code</td><td>123456</td></tr></table>
      <p><a href="https://example.com/confirm?t=1">Confirm</a> or <a href="https://example.com/">https://example.com/</a></p>
      <img src="https://tracker.example/p.gif" alt="pixel"></body></html>`;
    const text = readableText(null, html) ?? "";
    expect(text).toContain("Hello Scout,");
    expect(text).toContain("Confirm (https://example.com/confirm?t=1)");
    expect(text).not.toContain("(https://example.com/)");
    expect(text).toMatch(/Your code\n+123456/);
    expect(text).not.toMatch(/color|alert|pixel|tracker|\bT\b/);
  });

  test("nothing to read is null", () => {
    expect(readableText(null, null)).toBeNull();
    expect(readableText("  ", "")).toBeNull();
  });
});

describe("previewOf", () => {
  test("the first 200 characters, whitespace collapsed", () => {
    const text = `  First line.\n\n\tSecond   line. ${"é".repeat(300)}`;
    const preview = previewOf(text);
    expect(preview.startsWith("First line. Second line. ééé")).toBe(true);
    expect([...preview]).toHaveLength(200);
    expect(previewOf(null)).toBe("");
  });
});

describe("linksOf", () => {
  test("anchors in document order, http and https only, each once, with their text", () => {
    const html = `<a href="https://a.example/1">One</a> <a href="mailto:x@example.com">Mail</a>
      <a href="javascript:alert(1)">Bad</a> <a href="http://b.example/2"> Two  <b>words</b></a>
      <a href="https://a.example/1">One again</a> <a>no href</a> <a href="/relative">Relative</a>`;
    expect(linksOf(null, html)).toEqual([
      { url: "https://a.example/1", text: "One" },
      { url: "http://b.example/2", text: "Two words" },
    ]);
  });

  test("URLs written in a text-only message, without the punctuation after them", () => {
    const text =
      "Confirm at https://example.com/confirm?token=abc. Or see (https://example.com/help), ftp://no.example.";
    expect(linksOf(text, null)).toEqual([
      { url: "https://example.com/confirm?token=abc", text: "https://example.com/confirm?token=abc" },
      { url: "https://example.com/help", text: "https://example.com/help" },
    ]);
  });

  test("at most 100", () => {
    const html = Array.from({ length: 150 }, (_, n) => `<a href="https://example.com/${n}">${n}</a>`).join(" ");
    const links = linksOf(null, html);
    expect(links).toHaveLength(100);
    expect(links.at(-1)?.url).toBe("https://example.com/99");
  });
});
