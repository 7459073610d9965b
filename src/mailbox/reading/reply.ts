import EmailReplyParser from "email-reply-parser";

// What the sender wrote in this message: without the quoted history below
// it ("On … wrote:" in the common languages and clients, "> " quotes,
// Outlook's From:/Sent: header block, forwarded blocks) and without the
// signature ("-- " and the like). email-reply-parser knows the first three
// in about ten languages; the header blocks of Outlook and of forwards it
// does not, so they are cut here first.

/** A line that starts quoted or forwarded history in a client's words; everything from it down goes. */
const HISTORY_STARTS = [
  // Outlook: a rule, then From: … Sent: … (or their German, French, Spanish words).
  /^_{10,}\s*$/m,
  /^-{2,}\s*(?:Original Message|Ursprüngliche Nachricht|Message d'origine|Mensaje original)\s*-{2,}\s*$/im,
  /^(?:From|Von|De):\s.*\n(?:.*\n){0,2}?(?:Sent|Gesendet|Envoyé|Enviado(?: el)?|Date|Datum):\s/im,
  /^-{5,}\s*(?:Forwarded message|Weitergeleitete Nachricht|Message transféré|Mensaje reenviado)\s*-{5,}\s*$/im,
  /^Begin forwarded message:\s*$/im,
];

const parser = new EmailReplyParser();

export function replyTextOf(text: string | null): string | null {
  if (!text) return null;
  let own = text.replace(/\r\n/g, "\n");
  for (const start of HISTORY_STARTS) {
    const at = own.search(start);
    if (at >= 0) own = own.slice(0, at);
  }
  return parser.parseReply(own).trim();
}
