import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { expect, test } from "vitest";

// The README is the front page and docs/ the reference: every page of docs/
// is linked from it, and every link between them lands on a file and a
// heading that exist. (The README's configuration table is checked beside
// src/config.ts, which writes it.)

const pages = ["README.md", ...readdirSync("docs").map((name) => join("docs", name))];
const read = (path: string) => readFileSync(path, "utf8");

/** A heading's anchor as GitHub makes it. */
const anchor = (heading: string) =>
  heading
    .replace(/^#+\s*/, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, "")
    .replaceAll(" ", "-");

function headings(path: string): Set<string> {
  const found = new Set<string>();
  let code = false;
  for (const line of read(path).split("\n")) {
    if (line.startsWith("```")) code = !code;
    else if (!code && /^#+ /.test(line)) found.add(anchor(line));
  }
  return found;
}

test("every page of docs/ is linked from the README", () => {
  const readme = read("README.md");
  for (const page of pages.slice(1)) expect(readme, page).toContain(`](${page})`);
});

test("every link between the README and docs/ lands on a file and a heading that exist", () => {
  for (const page of pages) {
    for (const [, target = ""] of read(page).matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?|mailto):/.test(target)) continue;
      const [path = "", hash] = target.split("#");
      const file = path ? normalize(join(dirname(page), path)) : page;
      expect(existsSync(file), `${page} → ${target}`).toBe(true);
      if (hash && file.endsWith(".md")) expect(headings(file).has(hash), `${page} → ${target}`).toBe(true);
    }
  }
});
