import { lockAgent } from "../db/agents.ts";
import { folderNamesBut, type MailOwner } from "../db/emails.ts";
import type { Tx } from "../db/statements.ts";
import { excerpt, ServiceError } from "../errors.ts";
import type { Services } from "./services.ts";

// Folder names: inbox, archive, trash and junk, and the agent's own, which compare
// without case (a folder keeps the spelling it was first given).

/** junk: where mail the spam verdict doubts is filed (mailbox/inspection.ts). */
export const SYSTEM_FOLDERS = ["inbox", "archive", "trash", "junk"];

/**
 * Letters of other scripts, and digits, that pass for the Latin letters of
 * inbox, archive, trash and junk. NFKC has already folded full-width and other
 * compatibility forms; accents are stripped before this table is read.
 */
const LOOKALIKES: [latin: string, lookalikes: string][] = [
  ["a", "\u0430\u03b1\u0251"], // Cyrillic а, Greek α, Latin ɑ
  ["b", "\u044c\u0184"], // Cyrillic ь, Latin Ƅ
  ["c", "\u0441\u03f2"], // Cyrillic с, Greek ϲ
  ["e", "\u0435\u04bd"], // Cyrillic е, ҽ
  ["h", "\u04bb"], // Cyrillic һ
  ["i", "\u0456\u03b9\u0131\u0269\u04cfl1"], // Cyrillic і ӏ, Greek ι, Latin ı ɩ, l, one
  ["j", "\u0458\u03f3"], // Cyrillic ј, Greek ϳ
  ["n", "\u0578"], // Armenian ո
  ["o", "\u043e\u03bf\u05850"], // Cyrillic о, Greek ο, Armenian օ, zero
  ["r", "\u0433"], // Cyrillic г
  ["s", "\u0455"], // Cyrillic ѕ
  ["t", "\u0442\u03c4"], // Cyrillic т, Greek τ
  ["u", "\u03c5\u057d"], // Greek υ, Armenian ս
  ["v", "\u03bd\u0475"], // Greek ν, Cyrillic ѵ
  ["x", "\u0445\u03c7"], // Cyrillic х, Greek χ
];
const LATIN_OF = new Map(LOOKALIKES.flatMap(([latin, chars]) => [...chars].map((char) => [char, latin] as const)));

/** What a name looks like: lower case, no accents or spaces, lookalikes read as Latin. */
function skeleton(name: string): string {
  const bare = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\p{M}\s]/gu, "");
  return [...bare].map((char) => LATIN_OF.get(char) ?? char).join("");
}

/**
 * inbox, archive, trash and junk without regard to case; a custom name in NFKC, as
 * long as it does not pass for one of those three.
 */
export function folderName(name: string): string {
  if (SYSTEM_FOLDERS.includes(name.toLowerCase())) return name.toLowerCase();
  const normalized = name.normalize("NFKC");
  const length = [...normalized].length;
  if (
    length < 1 ||
    length > 64 ||
    normalized.includes("/") ||
    /[\p{C}\p{Zl}\p{Zp}]/u.test(normalized) ||
    normalized.trim() === ""
  ) {
    throw new ServiceError(
      "BAD_REQUEST",
      "folder must be inbox, archive, trash, junk, or a custom name of 1-64 printable characters without /",
    );
  }
  if (SYSTEM_FOLDERS.includes(normalized.toLowerCase())) return normalized.toLowerCase();
  const lookalike = SYSTEM_FOLDERS.find((system) => skeleton(normalized) === system);
  if (lookalike) {
    throw new ServiceError("BAD_REQUEST", `folder ${excerpt(name)} passes for ${lookalike}: name it ${lookalike}`);
  }
  return normalized;
}

/** Whether two names (checked) name one folder: custom names that differ only in case do. */
export const sameFolder = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A custom name (checked) as the agent's mail spells it, from its own folders' names; undefined when none holds mail. */
const spellingAmong = (custom: string[], checked: string) => custom.find((stored) => sameFolder(stored, checked));

/** A folder by the spelling its mail has, or as given when none holds mail yet. */
export async function folderSpelling(tx: Tx, agentId: string, name: string): Promise<string> {
  const checked = folderName(name);
  if (SYSTEM_FOLDERS.includes(checked)) return checked;
  return spellingAmong(await folderNamesBut(tx, agentId, SYSTEM_FOLDERS), checked) ?? checked;
}

/**
 * Inside a move's transaction: the folder to move into, by the spelling it
 * was first given. The agent is locked first, so two moves to a new folder,
 * spelled two ways, agree on one.
 */
export async function folderToMoveTo(tx: Tx, agentId: string, name: string): Promise<string> {
  if (!SYSTEM_FOLDERS.includes(folderName(name))) await lockAgent(tx, agentId);
  return folderSpelling(tx, agentId, name);
}

/**
 * A folder to list, by the spellings the owner's mail has it in (an agent's mail one; several agents' may have
 * several); one that holds no mail and is not inbox, archive, trash or junk is not found.
 */
export async function foldersToRead(services: Services, owner: MailOwner, name: string): Promise<string[]> {
  const checked = folderName(name);
  if (SYSTEM_FOLDERS.includes(checked)) return [checked];
  const custom = await folderNamesBut(services.sql, owner, SYSTEM_FOLDERS);
  const stored = custom.filter((spelling) => sameFolder(spelling, checked));
  if (stored.length > 0) return stored;
  const known = [...SYSTEM_FOLDERS, ...custom.sort()].join(", ");
  throw new ServiceError("NOT_FOUND", `Folder ${excerpt(name)} not found: the folders are ${known}`);
}

/** A folder of the agent's to list, by its stored spelling (foldersToRead). */
export const folderToRead = async (services: Services, agentId: string, name: string): Promise<string> =>
  (await foldersToRead(services, agentId, name))[0] as string;
