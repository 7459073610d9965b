import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, test } from "vitest";

// `npm install` on a fresh machine prints no warning a newcomer would read
// as a failed install: no peer dependency npm has to override, and no
// install script that package.json's allowScripts does not decide on.

const root = JSON.parse(readFileSync("package.json", "utf8")) as { allowScripts: Record<string, boolean> };

/** Every installed package's directory, scoped ones included. */
function packages(dir = "node_modules"): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (!entry.isDirectory() || entry.name.startsWith(".")) return [];
    const path = join(dir, entry.name);
    if (entry.name.startsWith("@")) return packages(path);
    const nested = join(path, "node_modules");
    return [path, ...(readdirSync(path).includes("node_modules") ? packages(nested) : [])];
  });
}

test("every dependency's install script is allowed or denied in package.json", () => {
  const withScripts = packages().flatMap((dir) => {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const scripts = pkg.scripts ?? {};
      return ["preinstall", "install", "postinstall"].some((name) => scripts[name]) ? [pkg.name as string] : [];
    } catch {
      return [];
    }
  });
  expect(withScripts.length).toBeGreaterThan(0);
  for (const name of new Set(withScripts)) expect(root.allowScripts, name).toHaveProperty([name]);
});

test("npm finds every peer dependency met, none overridden", async () => {
  const { stdout } = await promisify(execFile)("npm", ["ls", "--all"], { maxBuffer: 64 * 1024 * 1024 });
  expect(stdout).not.toMatch(/\binvalid\b|\bUNMET (?!OPTIONAL)/);
}, 60_000);
