import { readFileSync } from "node:fs";
import { expect, test } from "vitest";

// A patch of ours over a package (plan-cache.ts, scripts/bundle-patches.ts)
// reads the package as it is in the version the patch was written against:
// the test fails when another version is installed, and when package.json
// pins another for a package it names.

const manifest = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"));

/** One test: each patched package installed, and pinned when package.json names it, at its patch's version. */
export function testPatchedVersions(patched: Record<string, string>, patch: string): void {
  test(`the packages ${patch} patches are the versions it was written against`, () => {
    const { dependencies } = manifest("package.json") as { dependencies: Record<string, string> };
    for (const [name, version] of Object.entries(patched)) {
      const installed = (manifest(`node_modules/${name}/package.json`) as { version: string }).version;
      expect(installed, `${name}: read ${patch} again before moving it`).toBe(version);
      if (name in dependencies) expect(dependencies[name], `${name} in package.json`).toBe(version);
    }
  });
}
