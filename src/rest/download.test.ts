import { describe, expect, test } from "vitest";
import { contentDisposition, servedType } from "./download.ts";

describe("contentDisposition", () => {
  test("a plain ASCII name as it is", () => {
    expect(contentDisposition("invoice 2026.pdf")).toBe('attachment; filename="invoice 2026.pdf"');
  });

  test("quotes and backslashes cannot end the parameter", () => {
    expect(contentDisposition('a"b\\c.txt')).toBe(`attachment; filename="a_b_c.txt"; filename*=UTF-8''a%22b%5Cc.txt`);
  });

  test("a non-ASCII name in filename* (RFC 5987), with an ASCII fallback", () => {
    expect(contentDisposition("résumé (1).pdf")).toBe(
      `attachment; filename="r_sum_ (1).pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%281%29.pdf`,
    );
  });
});

describe("servedType", () => {
  test.each([
    "text/html",
    "TEXT/HTML",
    "image/svg+xml",
    "application/xml",
    "text/xml",
    "application/xhtml+xml",
    "text/javascript",
    "application/javascript",
    "application/rss+xml",
  ])("%s is served as bytes", (type) => {
    expect(servedType(type)).toBe("application/octet-stream");
  });

  test.each(["application/pdf", "image/png", "text/plain", "text/csv", "message/rfc822"])("%s is kept", (type) => {
    expect(servedType(type)).toBe(type);
  });
});
