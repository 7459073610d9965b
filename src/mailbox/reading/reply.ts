// What the sender wrote in this message: without the quoted history below
// it and without the signature. Read line by line, top down: history starts
// at a client's attribution ("On … wrote:" in the common languages, wrapped
// over two lines or not), Outlook's rule or From:/Sent: header block, an
// original-message or forwarded-message divider; the signature at "-- " or a
// client's "Sent from my …". Lines quoted with ">" are left out wherever they
// stand. The attributions and signatures are those email-reply-parser knows,
// rewritten as tests of a line's start, end and words: that library's
// patterns take quadratic or worse time on hostile lines, ours linear.

/** Longer lines are text, never an attribution, a divider or a signature. */
const MARK_MAX = 500;

/** An attribution as clients write it: how the line starts, how it ends (a colon unless said), a word it holds. */
interface Attribution {
  start: RegExp;
  end?: string;
  word?: string;
}

const ATTRIBUTIONS: Attribution[] = [
  { start: /^On\s/, end: "wrote:" },
  { start: /^On\s/, end: "wrote" },
  { start: /^Le\s/, end: "écrit :" },
  { start: /^Le\s/, end: "écrit:" },
  { start: /^El\s/, end: "escribió:" },
  { start: /^(?:Il|In data)\s/, end: "scritto:" },
  { start: /^Em\s/, end: "escreveu:" },
  { start: /^Am\s/, word: " schrieb" },
  { start: /^Op\s/, word: " schreef" },
  { start: /^(?:W dniu|Dnia)\s/, word: " pisze" },
  { start: /^(?:W dniu|Dnia)\s/, word: " napisał" },
  { start: /^(?:Den\s|[a-z]{3,4}\.\s)/i, word: " skrev " },
  { start: /^pe\s/, end: "kirjoitti:" },
  { start: /^[а-я]{2},\s/, word: " г. в " },
  { start: /^在/, end: "写道：" },
  { start: /^20\d\d\./, end: "작성:" },
  { start: /^20\d\d\//, end: "のメッセージ:" },
  { start: /^20\d\d-\d\d.\d\d /, end: ">:" },
  { start: /^\d\d.\d\d.20\d\d /, end: ">:" },
  { start: /^\d\d:\d\d/, end: ">:" },
  { start: /^\S/, end: "> schrieb:" },
  { start: /^\S/, end: "wrote:", word: " on " },
];

/** Lines that start the history whatever follows them. */
const DIVIDERS = [
  // Outlook on the web: a rule above the quoted header block.
  /^_{10,}$/,
  /^-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original|Oprindelig besked)\s*-{0,}$/i,
  /^-{5,}\s*(?:Forwarded message|Weitergeleitete Nachricht|Message transféré|Mensaje reenviado)\s*-{5,}$/i,
  /^Begin forwarded message:$/i,
];

/** Outlook's header block: From: (or its German, French, Spanish word), then Sent: or Date: within three lines. */
const HEADER_FROM = /^(?:From|Von|De):\s/i;
const HEADER_SENT = /^(?:Sent|Gesendet|Envoyé|Enviado(?: el)?|Date|Datum):\s/i;

/** Where a signature starts. */
const SIGNATURES = [
  /^(?:--|-- |---|----|__|___|____|\+\+|\+\+\+|\+\+\+\+|==|===|====)$/,
  /^(?:Sent from|Get Outlook for|Sendt fra|Envoyé depuis|Envoyé de mon|Envoyé à partir de|Télécharger Outlook pour|Enviado desde|Verzonden vanaf|Verstuurd vanaf|Gesendet von)\s/,
  /^Von \S.* gesendet$/,
  /^(?:Cheers|Best wishes|Bien à vous|Bonne journée|Bonne soirée)[,!]?$/i,
  /^(?:\w{1,20}\s)?(?:\w{1,20}\sand\s)?Regards[,!！]?$/i,
  /^(?:\w{1,20}\s)?cordialement[,!]?$/i,
];

function isAttribution(line: string): boolean {
  return ATTRIBUTIONS.some(
    ({ start, end = ":", word }) =>
      start.test(line) && line.endsWith(end) && (word === undefined || line.includes(word)),
  );
}

const isQuoted = (line: string) => line.trimStart().startsWith(">");

/** Whether the history or the signature starts at this line. */
function endsReply(lines: string[], index: number): boolean {
  const line = (lines[index] ?? "").trim();
  if (line.length === 0 || line.length > MARK_MAX || isQuoted(line)) return false;
  if (DIVIDERS.some((divider) => divider.test(line)) || SIGNATURES.some((signature) => signature.test(line))) {
    return true;
  }
  if (HEADER_FROM.test(line)) {
    for (const next of lines.slice(index + 1, index + 4)) if (HEADER_SENT.test(next.trim())) return true;
  }
  if (isAttribution(line)) return true;
  // An attribution wrapped over two lines.
  const next = (lines[index + 1] ?? "").trim();
  return next.length > 0 && next.length <= MARK_MAX && isAttribution(`${line} ${next}`);
}

export function replyTextOf(text: string | null): string | null {
  if (!text) return null;
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const own: string[] = [];
  for (let index = 0; index < lines.length && !endsReply(lines, index); index++) {
    const line = lines[index] as string;
    if (!isQuoted(line)) own.push(line);
  }
  return own.join("\n").trim();
}
