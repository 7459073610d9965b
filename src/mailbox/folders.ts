import { excerpt, ServiceError } from "../errors.ts";

// Folder names: inbox, archive and trash, and the agent's own.

export const SYSTEM_FOLDERS = ["inbox", "archive", "trash"];

/**
 * Letters of other scripts, and digits, that pass for the Latin letters of
 * inbox, archive and trash. NFKC has already folded full-width and other
 * compatibility forms; accents are stripped before this table is read.
 */
const LOOKALIKES: [latin: string, lookalikes: string][] = [
  ["a", "\u0430\u03b1\u0251"], // Cyrillic а, Greek α, Latin ɑ
  ["b", "\u044c\u0184"], // Cyrillic ь, Latin Ƅ
  ["c", "\u0441\u03f2"], // Cyrillic с, Greek ϲ
  ["e", "\u0435\u04bd"], // Cyrillic е, ҽ
  ["h", "\u04bb"], // Cyrillic һ
  ["i", "\u0456\u03b9\u0131\u0269\u04cfl1"], // Cyrillic і ӏ, Greek ι, Latin ı ɩ, l, one
  ["n", "\u0578"], // Armenian ո
  ["o", "\u043e\u03bf\u05850"], // Cyrillic о, Greek ο, Armenian օ, zero
  ["r", "\u0433"], // Cyrillic г
  ["s", "\u0455"], // Cyrillic ѕ
  ["t", "\u0442\u03c4"], // Cyrillic т, Greek τ
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
 * inbox, archive and trash without regard to case; a custom name in NFKC, as
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
      "folder must be inbox, archive, trash, or a custom name of 1-64 printable characters without /",
    );
  }
  if (SYSTEM_FOLDERS.includes(normalized.toLowerCase())) return normalized.toLowerCase();
  const lookalike = SYSTEM_FOLDERS.find((system) => skeleton(normalized) === system);
  if (lookalike) {
    throw new ServiceError("BAD_REQUEST", `folder ${excerpt(name)} passes for ${lookalike}: name it ${lookalike}`);
  }
  return normalized;
}
