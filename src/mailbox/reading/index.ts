import { codesOf } from "./codes.ts";
import { type HtmlTargets, type Link, linksOf, targetsOf } from "./links.ts";
import { replyTextOf } from "./reply.ts";
import { previewOf, readableText } from "./text.ts";

// What an agent reads of a received email besides its bodies, worked out
// once when it is filed and stored with it. Each part reads a bounded head
// of the message in linear time, and one that fails is left out: reading
// help never stops a message from being filed.

export type { Link };

export interface Reading {
  text: string | null;
  preview: string;
  replyText: string | null;
  links: Link[];
  codes: string[];
}

/** How much of the text the reply, the links, the codes and the preview are read from. */
const TEXT_READ = 256 * 1024;
/** How much of the subject codes are looked for in: a subject line is at most 998 characters. */
const SUBJECT_READ = 998;
/**
 * How much of the HTML its text and links are read from: its first 256 KiB,
 * and at most 10,000 tags of it. The HTML parser keeps its open elements in
 * an array it unshifts, so unclosed tags cost it the square of their number.
 */
const HTML_READ = 256 * 1024;
const HTML_TAGS_READ = 10_000;

/** The head of the HTML that is read (the screening reads the same). */
export function htmlHead(html: string): string {
  let at = -1;
  for (let tags = 0; tags < HTML_TAGS_READ; tags++) {
    at = html.indexOf("<", at + 1);
    if (at < 0 || at >= HTML_READ) return html.slice(0, HTML_READ);
  }
  return html.slice(0, at);
}

/** The part as derived, or its empty value when deriving it failed. */
function orElse<T>(derive: () => T, empty: T): T {
  try {
    return derive();
  } catch {
    return empty;
  }
}

export function readingOf(message: {
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
}): Reading {
  const html = message.bodyHtml === null ? null : htmlHead(message.bodyHtml);
  const text = orElse(() => readableText(message.bodyText, html), message.bodyText);
  const head = text?.slice(0, TEXT_READ) ?? null;
  return {
    text,
    preview: orElse(() => previewOf(head), ""),
    replyText: orElse(() => replyTextOf(head), null),
    links: orElse(() => linksOf(message.bodyText?.slice(0, TEXT_READ) ?? null, html), []),
    codes: orElse(() => codesOf(message.subject?.slice(0, SUBJECT_READ) ?? null, head), []),
  };
}

/** What is kept when reading help could not be worked out in time: the text part as it is, nothing derived. */
export function bareReading(bodyText: string | null): Reading {
  return { text: bodyText, preview: orElse(() => previewOf(bodyText), ""), replyText: null, links: [], codes: [] };
}

/** What an HTML body links to and would load, read from its bounded head as reading help reads it. */
export function htmlTargets(html: string): HtmlTargets {
  return targetsOf(htmlHead(html));
}
