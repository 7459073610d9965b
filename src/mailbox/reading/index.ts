import { codesOf } from "./codes.ts";
import { type Link, linksOf } from "./links.ts";
import { replyTextOf } from "./reply.ts";
import { previewOf, readableText } from "./text.ts";

// What an agent reads of a received email besides its bodies, worked out
// once when it is filed and stored with it.

export type { Link };

export interface Reading {
  text: string | null;
  preview: string;
  replyText: string | null;
  links: Link[];
  codes: string[];
}

export function readingOf(message: {
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
}): Reading {
  const text = readableText(message.bodyText, message.bodyHtml);
  return {
    text,
    preview: previewOf(text),
    replyText: replyTextOf(text),
    links: linksOf(message.bodyText, message.bodyHtml),
    codes: codesOf(message.subject, text),
  };
}
