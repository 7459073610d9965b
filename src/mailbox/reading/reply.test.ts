import { describe, expect, test } from "vitest";
import { replyTextOf } from "./reply.ts";

// Replies as the common clients write them: the new text on top, then the
// client's attribution line or header block, then the quoted history.

const SAMPLES: [string, string, string][] = [
  [
    "Gmail, English",
    "Sounds good, see you Friday.\n\nOn Mon, Nov 23, 2026 at 10:00 AM Jordan Example <jordan@sender.example> wrote:\n> Lunch on Friday?\n>\n> Jordan\n",
    "Sounds good, see you Friday.",
  ],
  [
    "Gmail, its attribution wrapped over two lines",
    "Sure.\n\nOn Mon, Nov 23, 2026 at 10:00 AM Jordan Example From The Finance Department <\njordan@sender.example> wrote:\n\n> Can you send the report?\n",
    "Sure.",
  ],
  [
    "Gmail, German",
    "Passt, bis Freitag.\n\nAm Mo., 23. Nov. 2026 um 10:00 Uhr schrieb Jordan Example <jordan@sender.example>:\n> Mittagessen am Freitag?\n",
    "Passt, bis Freitag.",
  ],
  [
    "Gmail, French",
    "D'accord pour vendredi.\n\nLe lun. 23 nov. 2026 à 10:00, Jordan Example <jordan@sender.example> a écrit :\n> Déjeuner vendredi ?\n",
    "D'accord pour vendredi.",
  ],
  [
    "Gmail, Spanish",
    "De acuerdo, nos vemos el viernes.\n\nEl lun, 23 nov 2026 a las 10:00, Jordan Example (<jordan@sender.example>) escribió:\n> ¿Comemos el viernes?\n",
    "De acuerdo, nos vemos el viernes.",
  ],
  [
    "Outlook on the web: a rule, then From, Sent, To, Subject",
    "Yes, approved.\n\n________________________________\nFrom: Jordan Example <jordan@sender.example>\nSent: Monday, November 23, 2026 10:00 AM\nTo: Pat <pat@example.com>\nSubject: Budget\n\nCan you approve the budget?\n",
    "Yes, approved.",
  ],
  [
    "Outlook desktop: From with mailto, no rule",
    "Approved, go ahead.\n\nFrom: Jordan Example [mailto:jordan@sender.example]\nSent: Monday, November 23, 2026 10:00 AM\nTo: Pat\nSubject: RE: Budget\n\nCan you approve the budget?\n",
    "Approved, go ahead.",
  ],
  [
    "Outlook, German",
    "Ja, freigegeben.\n\nVon: Jordan Example <jordan@sender.example>\nGesendet: Montag, 23. November 2026 10:00\nAn: Pat <pat@example.com>\nBetreff: Budget\n\nKannst du das Budget freigeben?\n",
    "Ja, freigegeben.",
  ],
  [
    "Outlook: an original-message divider",
    "Noted, thanks.\n\n-----Original Message-----\nFrom: Jordan Example\nSent: Monday, November 23, 2026 10:00 AM\nSubject: Heads-up\n\nThe office is closed on Friday.\n",
    "Noted, thanks.",
  ],
  [
    "Apple Mail on iPhone: a signature and a quoted attribution",
    "Works for me.\n\nSent from my iPhone\n\n> On Nov 23, 2026, at 10:00, Jordan Example <jordan@sender.example> wrote:\n>\n> Lunch on Friday?\n",
    "Works for me.",
  ],
  [
    "Apple Mail on a Mac",
    "Thanks, I'll take a look.\n\n> On 23 Nov 2026, at 10:00, Jordan Example <jordan@sender.example> wrote:\n> \n> Here is the draft.\n",
    "Thanks, I'll take a look.",
  ],
  [
    "Thunderbird: a -- signature above the quote",
    "Thanks, received.\n\n-- \nScout\nAgent at Example\n\nOn 11/23/26 10:00 AM, Jordan Example wrote:\n> Here is the file.\n",
    "Thanks, received.",
  ],
  [
    "Thunderbird, German",
    "Danke, ist angekommen.\n\nAm 23.11.26 um 10:00 schrieb Jordan Example:\n> Hier ist die Datei.\n",
    "Danke, ist angekommen.",
  ],
  [
    "a forward's note above the forwarded block",
    "Please see below.\n\n---------- Forwarded message ---------\nFrom: Jordan Example <jordan@sender.example>\nDate: Mon, Nov 23, 2026 at 10:00 AM\nSubject: Invoice\nTo: <scout@mail.example>\n\nPlease pay.\n",
    "Please see below.",
  ],
  ["no history at all", "Just a new message.\nTwo lines of it.", "Just a new message.\nTwo lines of it."],
];

describe("replyTextOf", () => {
  test.each(SAMPLES)("%s", (_, text, expected) => {
    expect(replyTextOf(text)).toBe(expected);
  });

  test("nothing to read is null", () => {
    expect(replyTextOf(null)).toBeNull();
  });
});
