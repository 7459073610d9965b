import { htmlHead } from "../reading/index.ts";
import { hiddenTextSignals, readHtml } from "./html.ts";
import {
  type Screening,
  SIGNAL_NAMES,
  SIGNAL_PLACES,
  type Signal,
  type SignalName,
  type SignalPlace,
  type Verdict,
  verdictOf,
} from "./signals.ts";
import { textSignals } from "./text.ts";

// Prompt-injection screening: what in a received message is addressed to the
// model that reads it rather than to a person, or hidden from the person who
// might check it. Pure: no database, no network, no clock, no randomness;
// the same message always gets the same answer. Worked out in linear time
// from a bounded head of each part, as reading help is:
//
// - the subject's first 998 characters (a header line's limit);
// - the text part's first 256 KiB;
// - the HTML's first 256 KiB, cut before its 10,000th tag (the HTML parser's
//   work grows with the square of unclosed tags);
// - the names of the first 100 attachments (255 characters of each), and the
//   first 64 KiB of the text of the first 10 text attachments.
//
// Past those bounds nothing more is looked for. The verdict is `suspicious`
// with any signal but the weak ones (zero_width, misleading_link,
// encoded_blob), or with weak signals of two kinds; see signals.ts.
// The signals found are each reported once per place, with the first
// excerpt, ordered by place then name.

export { FENCE_NAME, fence, fileLabel, newNonce } from "./fence.ts";
export { type Screening, SIGNAL_NAMES, SIGNAL_PLACES, type Signal, type SignalName, type SignalPlace, type Verdict };

export interface ScreenInput {
  /** The From's display name: it reaches a model beside the fence, as the sender's name. */
  fromName: string | null;
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
  /** `text` is the decoded text of a text/* attachment, else null. */
  attachments: { filename: string | null; contentType: string; text: string | null }[];
}

/**
 * How much of the short fields screening reads: filing keeps no more of them (src/inbound/parse.ts), since an
 * answer shows them outside the fence, and words past what was read would reach a model unscreened.
 */
export const SCREENED = { fromName: 998, subject: 998, attachmentNames: 100, attachmentName: 255 } as const;
const TEXT_READ = 256 * 1024;
const ATTACHMENT_TEXTS_READ = 10;
const ATTACHMENT_TEXT_READ = 64 * 1024;

function htmlSignals(html: string, where: SignalPlace): Signal[] {
  const reading = readHtml(htmlHead(html), where);
  return [
    ...textSignals(reading.text, where, { blobs: true }),
    ...reading.tags,
    ...hiddenTextSignals(reading, where),
    ...(reading.misleading ? [reading.misleading] : []),
  ];
}

function attachmentSignals(attachments: ScreenInput["attachments"]): Signal[] {
  const names = attachments
    .slice(0, SCREENED.attachmentNames)
    .flatMap(({ filename }) =>
      filename ? textSignals(filename.slice(0, SCREENED.attachmentName), "attachment_name", { blobs: false }) : [],
    );
  const texts = attachments
    .filter((attachment) => attachment.text !== null)
    .slice(0, ATTACHMENT_TEXTS_READ)
    .flatMap(({ contentType, text }) => {
      const head = (text ?? "").slice(0, ATTACHMENT_TEXT_READ);
      return /^text\/html\b/i.test(contentType)
        ? htmlSignals(head, "attachment")
        : textSignals(head, "attachment", { blobs: false });
    });
  return [...names, ...texts];
}

/** Each name once per place, the first found kept, ordered by place then name. */
function distinct(signals: Signal[]): Signal[] {
  const kept = new Map<string, Signal>();
  for (const signal of signals) {
    const key = `${signal.where} ${signal.name}`;
    if (!kept.has(key)) kept.set(key, signal);
  }
  const rank = (signal: Signal) =>
    SIGNAL_PLACES.indexOf(signal.where) * SIGNAL_NAMES.length + SIGNAL_NAMES.indexOf(signal.name);
  return [...kept.values()].sort((a, b) => rank(a) - rank(b));
}

/**
 * An email's screening with one of its files read too, as filing reads a text attachment: for the fence a model
 * reads that file in, whether or not filing read it (JSON and XML, or past the first ten).
 */
export function withFileRead(screening: Screening, file: ScreenInput["attachments"][number]): Screening {
  const signals = distinct([...screening.signals, ...attachmentSignals([file])]);
  return { verdict: verdictOf(signals), signals };
}

export function screen(message: ScreenInput): Screening {
  const signals = distinct([
    ...(message.fromName
      ? textSignals(message.fromName.slice(0, SCREENED.fromName), "from_name", { blobs: false })
      : []),
    ...(message.subject ? textSignals(message.subject.slice(0, SCREENED.subject), "subject", { blobs: true }) : []),
    ...(message.bodyText ? textSignals(message.bodyText.slice(0, TEXT_READ), "text", { blobs: true }) : []),
    ...(message.bodyHtml ? htmlSignals(message.bodyHtml, "html") : []),
    ...attachmentSignals(message.attachments),
  ]);
  return { verdict: verdictOf(signals), signals };
}
