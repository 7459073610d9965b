import { describe, expect, test } from "vitest";
import { aligned, resultWord, verdictOf } from "./authentication.ts";

describe("verdictOf", () => {
  test.each([
    ["pass", false, "pass"],
    ["fail", true, "fail"],
    ["none", true, "pass"],
    ["none", false, "none"],
    ["temperror", true, "pass"],
    [null, false, "none"],
  ] as const)("dmarc %s, aligned SPF or DKIM pass %s: %s", (dmarc, alignedPass, verdict) => {
    expect(verdictOf(dmarc, alignedPass)).toBe(verdict);
  });
});

describe("aligned", () => {
  test.each([
    ["example.com", "example.com", true],
    ["mail.example.com", "example.com", true],
    ["example.com", "news.Example.COM", true],
    ["example.co.uk", "other.co.uk", false],
    ["esp.example", "nopolicy.example", false],
    // Private suffixes (the public suffix list's private part) are organizations of their own, as for DMARC.
    ["attacker.duckdns.org", "victim.duckdns.org", false],
    ["attacker.eu.org", "ceo.eu.org", false],
    ["", "example.com", false],
  ])("%s for %s: %s", (signer, from, expected) => {
    expect(aligned(signer, from)).toBe(expected);
  });
});

test("resultWord keeps Authentication-Results' words only", () => {
  expect(resultWord("PASS")).toBe("pass");
  expect(resultWord("temperr")).toBe("temperror");
  expect(resultWord("skipped")).toBeNull();
  expect(resultWord(undefined)).toBeNull();
});
