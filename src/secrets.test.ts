import { expect, test } from "vitest";
import { seal, unseal } from "./secrets.ts";

const KEY = Buffer.alloc(32, 1);
const PEM = "-----BEGIN PRIVATE KEY-----\nMIIEvQ...\n-----END PRIVATE KEY-----\n";

test("sealed with the key, opened with it; in the clear without one", () => {
  const sealed = seal(PEM, KEY);
  expect(sealed).toMatch(/^sealed:[A-Za-z0-9+/=]+$/);
  expect(sealed).not.toContain("PRIVATE");
  expect(seal(PEM, KEY)).not.toBe(sealed);
  expect(unseal(sealed, KEY)).toBe(PEM);
  expect(seal(PEM, null)).toBe(PEM);
  expect(unseal(PEM, KEY)).toBe(PEM);
});

test("another key, no key, or a changed byte: refused, never wrong text", () => {
  const sealed = seal(PEM, KEY);
  expect(() => unseal(sealed, Buffer.alloc(32, 2))).toThrow();
  expect(() => unseal(sealed, null)).toThrow(/SECRETS_KEY/);
  const bytes = Buffer.from(sealed.slice("sealed:".length), "base64");
  bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
  expect(() => unseal(`sealed:${bytes.toString("base64")}`, KEY)).toThrow();
});
