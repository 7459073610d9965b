import { NEGATION, PHRASES, type Phrase, START } from "./phrases.ts";
import { excerptOf, type Signal, type SignalName, type SignalPlace } from "./signals.ts";

// Screening of a piece of text: the phrases addressed to a model (read in
// views where tricks of writing are undone), and the characters that hide or
// reorder text: zero-width characters inside words, bidirectional overrides,
// long encoded blobs.

/** What a reader does not see, dropped before phrases are read: zero-width characters, soft hyphens, direction marks. */
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD]/g;

interface Views {
  lines: string;
  flat: string;
}

/** Past ASCII: text without it (most mail) NFKC leaves as it is, and holds no invisible character. */
const BEYOND_ASCII = /[\u0080-\uFFFF]/;

/**
 * The views phrases are read in: compatibility forms folded (NFKC: full-width
 * and mathematical letters read as plain ones), invisible characters dropped,
 * so `ig\u200Bnore` reads as ignore; `lines` keeps line breaks, `flat` makes
 * every whitespace run one space.
 */
function viewsOf(text: string): Views {
  const folded = BEYOND_ASCII.test(text) ? text.replace(INVISIBLE, "").normalize("NFKC") : text;
  // Only what changes is matched: a run of two or more, or one whitespace character that is not a space
  // (a lone space between words, most of any text, is already what it would become).
  const lines = folded.replace(/\r\n?/g, "\n").replace(/[^\S\n]{2,}|[^\S\n ]/g, " ");
  return { lines, flat: lines.replace(/\s{2,}|[^\S ]/g, " ") };
}

/** The first match of each phrase signal not turned into a warning by a negation before it. */
export function phraseSignals(text: string, where: SignalPlace): Signal[] {
  return phraseSignalsIn(viewsOf(text), where);
}

/**
 * Whether any phrase of a view matches anywhere in it: every pattern of the
 * view as one alternation, which matches where one of them does. One pass,
 * where reading each pattern for its first match takes one each; most mail
 * has none, and is read no further. The patterns that begin by asking not to
 * be inside a word (START) share that one look back, written once before
 * their alternation: the same matches, at a third of the cost.
 */
function anyPhrase(view: Phrase["view"]): RegExp {
  const sources = PHRASES.filter((phrase) => phrase.view === view).map(({ pattern }) => pattern.source);
  const atStart = sources.filter((source) => source.startsWith(START)).map((source) => source.slice(START.length));
  const rest = sources.filter((source) => !source.startsWith(START));
  const alternatives = atStart.length > 0 ? [`${START}(?:${eitherOf(atStart)})`, ...rest] : rest;
  return new RegExp(eitherOf(alternatives), view === "lines" ? "imu" : "iu");
}

/** Sources as one alternation, each in a group of its own. */
const eitherOf = (sources: string[]) => sources.map((source) => `(?:${source})`).join("|");

const ANY_PHRASE: Record<Phrase["view"], RegExp> = { flat: anyPhrase("flat"), lines: anyPhrase("lines") };

function phraseSignalsIn(views: Views, where: SignalPlace): Signal[] {
  if (!ANY_PHRASE.flat.test(views.flat) && !ANY_PHRASE.lines.test(views.lines)) return [];
  const found = new Map<SignalName, Signal>();
  for (const { name, pattern, view, negatable } of PHRASES) {
    if (found.has(name)) continue;
    const source = views[view];
    for (const match of source.matchAll(pattern)) {
      if (negatable && NEGATION.test(source.slice(Math.max(0, match.index - 80), match.index))) continue;
      found.set(name, { name, where, excerpt: excerptOf(source, match.index) });
      break;
    }
  }
  return [...found.values()];
}

/** A role marker line per role, as a transcript of a conversation writes them: `User:` then `Assistant:`. */
const TRANSCRIPT_LINE = /^(assistant|human|user|system) ?:/gim;
const TRANSCRIPT_LINES_READ = 50;

/** A transcript needs an assistant's line and another role's. */
function transcriptSignal(lines: string, where: SignalPlace): Signal[] {
  const roles = new Set<string>();
  let count = 0;
  for (const match of lines.matchAll(TRANSCRIPT_LINE)) {
    roles.add((match[1] ?? "").toLowerCase());
    if (roles.has("assistant") && roles.size >= 2) {
      return [{ name: "role_marker", where, excerpt: excerptOf(lines, match.index) }];
    }
    if (++count >= TRANSCRIPT_LINES_READ) break;
  }
  return [];
}

/**
 * A zero-width character between two letters of the scripts that never need
 * one (Latin, Greek, Cyrillic) or digits: the trick that splits a word so a
 * filter misses it. Emoji sequences and the joiners Persian and Indic
 * scripts write are not it, nor a byte order mark at the start.
 */
const ZERO_WIDTH_IN_WORD =
  /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}][\u200B-\u200D\u2060\uFEFF]+(?=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Nd}])/u;
/** Overrides reorder what a reader sees (`invoice\u202Egpj.exe` shows as invoiceexe.jpg): never honest. */
const BIDI_OVERRIDE = /[\u202D\u202E]/;
/** Embeddings and isolates are honest in right-to-left writing, and have no use in text without it. */
const BIDI_EMBEDDING = /[\u202A-\u202C\u2066-\u2069]/;
const RIGHT_TO_LEFT = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

function characterSignals(text: string, where: SignalPlace): Signal[] {
  const signals: Signal[] = [];
  const zeroWidth = ZERO_WIDTH_IN_WORD.exec(text);
  if (zeroWidth) signals.push({ name: "zero_width", where, excerpt: excerptOf(text, zeroWidth.index) });
  const bidi = BIDI_OVERRIDE.exec(text) ?? (RIGHT_TO_LEFT.test(text) ? null : BIDI_EMBEDDING.exec(text));
  if (bidi) signals.push({ name: "bidi_override", where, excerpt: excerptOf(text, bidi.index) });
  return signals;
}

/**
 * A run of 200 or more base64 characters with upper and lower case letters
 * and digits, not touching URL punctuation (a token in a link is not a
 * blob); or a `data:` URI written in the text. The look-behind lets a run
 * start only at its first character, so each run is read once.
 */
const BASE64_RUN = /(?<![A-Za-z0-9+/=:._%&?#-])[A-Za-z0-9+/]{200,}={0,2}/g;
const DATA_URI = /(?<![\p{L}\p{N}])data:[a-z]{1,20}\/[a-z0-9.+-]{1,60}(?:;[a-z0-9=.+-]{1,40}){0,3},/iu;

function blobSignals(text: string, where: SignalPlace): Signal[] {
  const dataUri = DATA_URI.exec(text);
  if (dataUri) return [{ name: "encoded_blob", where, excerpt: excerptOf(text, dataUri.index) }];
  for (const match of text.matchAll(BASE64_RUN)) {
    const head = match[0].slice(0, 400);
    if (/[A-Z]/.test(head) && /[a-z]/.test(head) && /[0-9]/.test(head)) {
      return [{ name: "encoded_blob", where, excerpt: excerptOf(text, match.index) }];
    }
  }
  return [];
}

/** Everything a piece of plain text is screened for. */
export function textSignals(text: string, where: SignalPlace, options: { blobs: boolean }): Signal[] {
  const views = viewsOf(text);
  return [
    ...phraseSignalsIn(views, where),
    ...transcriptSignal(views.lines, where),
    ...characterSignals(text, where),
    ...(options.blobs ? blobSignals(text, where) : []),
  ];
}
