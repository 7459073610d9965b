import { compile } from "html-to-text";

// The plain text of a message for reading: its text part when it has one,
// else its HTML as text, links kept as `text (url)`, no style or script.

const htmlToText = compile({
  wordwrap: false,
  // Deeper than any real mail nests is skipped, not recursed into.
  limits: { maxDepth: 100, ellipsis: "" },
  selectors: [
    { selector: "a", options: { linkBrackets: ["(", ")"], hideLinkHrefIfSameAsText: true, ignoreHref: false } },
    // Mail is laid out with tables: each cell reads as a block of its own.
    { selector: "table", format: "block" },
    { selector: "tr", format: "block" },
    { selector: "td", format: "block" },
    { selector: "th", format: "block" },
    { selector: "img", format: "skip" },
    { selector: "style", format: "skip" },
    { selector: "script", format: "skip" },
    { selector: "head", format: "skip" },
  ],
});

const PREVIEW_LENGTH = 200;

export function readableText(bodyText: string | null, bodyHtml: string | null): string | null {
  if (bodyText?.trim()) return bodyText;
  if (bodyHtml?.trim()) return htmlToText(bodyHtml).trim();
  return null;
}

/** The first 200 characters of the text, whitespace collapsed: read from no more of it than that takes. */
export function previewOf(text: string | null): string {
  let preview = "";
  for (const [word] of (text ?? "").matchAll(/\S+/g)) {
    preview += preview ? ` ${word}` : word;
    if (preview.length >= PREVIEW_LENGTH * 2) break;
  }
  return [...preview.slice(0, PREVIEW_LENGTH * 2)].slice(0, PREVIEW_LENGTH).join("");
}
