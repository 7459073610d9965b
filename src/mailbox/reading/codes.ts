// Likely one-time codes and verification tokens in a message, best first:
// runs of 4-10 digits or capitals-and-digits near a word such as code,
// verification, OTP, passcode, PIN or confirm (English, German, French,
// Spanish), but not years, prices, phone numbers, dates, or numbers named as
// orders, invoices and the like. A heuristic: it reads what people write in
// such mails, not a grammar of them.

/** Words that announce a code, as lower-case stems. */
const ANNOUNCES =
  /(?:\bcodes?\b|code\b|\bverif|\bo\.?t\.?p\b|passcode|pass code|\bpin\b|\bconfirm|one[- ]time|security|\blog ?in\b|sign[- ]?in|\btoken\b|bestätig|verifizier|einmal|sicherheit|anmelde|vérifi|connexion|código|codigo|verificaci|confirmaci|contraseña|clave|acceso)/giu;
/** Codes for something else: a promotion or a postal address, named shortly before. */
const OTHER_CODE =
  /(?:promo|discount|coupon|voucher|gutschein|rabatt|cupón|cupon|descuento|zip|postal|postleitzahl)[^.!?\n]{0,20}$/iu;
/** Numbers named as something else: orders, invoices, tickets, accounts and the like. */
const NAMED_NUMBER =
  /(?:order|bestell\w*|commande|pedido|invoice|rechnung|facture|factura|receipt|quittung|ticket|case|reference|ref|referenz|référence|referencia|tracking|sendung\w*|suivi|seguimiento|account|kunden\w*|customer|client|meeting)(?:\s*(?:number|no\.?|nr\.?|n°|nummer|numéro|número|id))?\s*[:.#]?\s*$|(?:#|n°|nr\.|no\.)\s*$/iu;
/** Where a sentence ends. */
const SENTENCE_END = /[.!?](?:\s|$)/;
const PHONE_LINE = /(?:\+\d|\b(?:tel|phone|call|fax|telefon|téléphone|appel|teléfono|llam)\w*\b)/iu;
const CURRENCY_BEFORE = /[$€£¥]\s*$|\b(?:usd|eur|gbp|chf)\s*$/i;
const CURRENCY_AFTER = /^\s*(?:[$€£¥%]|usd\b|eur\b|euro|gbp\b|chf\b|dollars?\b)/i;
/** Candidates: digits (alone, or two groups of 3-4 joined by a space or a hyphen), or capitals with digits. */
const CANDIDATE =
  /(?<![\p{L}\p{N}@$€£¥+/.:_#-]|[\p{L}\p{N}][.:-])(?:G-)?(\d{3,4}[ -]\d{3,4}|\d{4,10}|[A-Z0-9]{4,10})(?![\p{L}\p{N}@/_%€$£¥]|[.,:/-]\p{N})/gu;
/** How far before a code a word announcing it may stand, in characters. */
const REACH = 120;

export interface Scored {
  code: string;
  score: number;
}

/** How much of a line a pattern looks at around a candidate: past REACH, nothing announces it. */
const WINDOW = REACH + 40;

/** A run of non-blank characters that is an address (something@something.something), which holds no code. */
function isAddress(run: string): boolean {
  const at = run.indexOf("@", 1);
  if (at < 0) return false;
  const dot = run.indexOf(".", at + 2);
  return dot > 0 && dot < run.length - 1;
}

/**
 * Lines to read: the subject first, without URLs or addresses, whose digits
 * are not codes. Split on blanks by hand: a pattern such as \S+@\S+ would
 * try every start of a long run without blanks, in quadratic time.
 */
function linesOf(subject: string | null, text: string | null): string[] {
  const whole = `${subject ?? ""}\n${text ?? ""}`.replace(/\bhttps?:\/\/\S+/gi, " ");
  return whole.split(/\r?\n/).map((line) => line.replace(/\S+/g, (run) => (isAddress(run) ? " " : run)));
}

function isYear(token: string): boolean {
  return /^(?:19|20)\d\d$/.test(token);
}

/** How well the words before the token announce it; 0 when nothing does. */
function announcement(before: string): number {
  let best = 0;
  for (const match of before.matchAll(ANNOUNCES)) {
    const distance = before.length - (match.index ?? 0);
    best = Math.max(best, REACH - distance);
  }
  return best;
}

/**
 * The candidates on one line, scored. Each is judged by a window of the
 * line around it, never the whole line: a line of many candidates costs
 * each the same, whatever its length.
 */
function candidatesOn(line: string, above: string, first: boolean): Scored[] {
  if (PHONE_LINE.test(line)) return [];
  const whole = line.trim();
  const found: Scored[] = [];
  for (const match of line.matchAll(CANDIDATE)) {
    const token = match[1] as string;
    const at = match.index ?? 0;
    const before = line.slice(Math.max(0, at - WINDOW), at);
    const after = line.slice(at + match[0].length, at + match[0].length + WINDOW);
    if (!/\d/.test(token) || isYear(token)) continue;
    if (OTHER_CODE.test(before) || NAMED_NUMBER.test(before)) continue;
    if (CURRENCY_BEFORE.test(before) || CURRENCY_AFTER.test(after)) continue;
    // A code on a line of its own is announced by the lines above it; else by its own sentence.
    const alone = whole === match[0].trim();
    const near = alone
      ? announcement(`${above}\n${before}`.slice(-REACH))
      : announcement(before.split(SENTENCE_END).at(-1) ?? "") || announcement(after.split(SENTENCE_END)[0] ?? "") / 2;
    if (near <= 0) continue;
    const usual = /^\d{6}$/.test(token.replace(/[ -]/g, "")) ? 20 : 0;
    const score = near + (alone ? 30 : 0) + usual + (first ? 10 : 0);
    found.push({ code: token.replace(/[ -]/g, ""), score });
  }
  return found;
}

export function codesOf(subject: string | null, text: string | null): string[] {
  const best = new Map<string, number>();
  // The two lines with words above the one read, kept as the lines go by.
  const above: string[] = [];
  for (const [index, line] of linesOf(subject, text).entries()) {
    for (const { code, score } of candidatesOn(line, above.join("\n").slice(-REACH), index === 0)) {
      best.set(code, Math.max(best.get(code) ?? 0, score));
    }
    if (!line.trim()) continue;
    above.push(line.slice(-REACH));
    if (above.length > 2) above.shift();
  }
  return [...best.entries()].sort((a, b) => b[1] - a[1]).map(([code]) => code);
}
