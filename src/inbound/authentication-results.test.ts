import { describe, expect, test } from "vitest";
import { parseAuthenticationResults } from "./authentication-results.ts";

describe("parseAuthenticationResults", () => {
  test("Gmail's header: comments dropped, properties kept", () => {
    const header = `mx.google.com;
       dkim=pass header.i=@example.com header.s=s1 header.b=AbCd;
       spf=pass (google.com: domain of bounce@example.com designates 192.0.2.1 as permitted sender) smtp.mailfrom=bounce@example.com;
       dmarc=pass (p=REJECT sp=REJECT dis=NONE) header.from=example.com`;
    expect(parseAuthenticationResults(header)).toEqual({
      authservId: "mx.google.com",
      results: [
        { method: "dkim", result: "pass", props: { "header.i": "@example.com", "header.s": "s1", "header.b": "AbCd" } },
        { method: "spf", result: "pass", props: { "smtp.mailfrom": "bounce@example.com" } },
        { method: "dmarc", result: "pass", props: { "header.from": "example.com" } },
      ],
    });
  });

  test("a version, quoted reasons with semicolons, nested comments, method versions, case", () => {
    const header = `MX.Example.org 1; DKIM/1=Fail reason="bad; very (bad)" (a (nested) comment) header.d=Example.com; none-here`;
    expect(parseAuthenticationResults(header)).toEqual({
      authservId: "mx.example.org",
      results: [{ method: "dkim", result: "fail", props: { reason: "bad; very (bad)", "header.d": "Example.com" } }],
    });
  });

  test("no results, and headers that are not one", () => {
    expect(parseAuthenticationResults("mx.example.org; none")).toEqual({ authservId: "mx.example.org", results: [] });
    expect(parseAuthenticationResults("")).toBeNull();
    expect(parseAuthenticationResults("(only a comment)")).toBeNull();
  });
});
