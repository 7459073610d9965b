import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Api } from "./support/api.ts";
import { launchBrowser, visit } from "./support/browser.ts";
import { served } from "./support/served.ts";

// /docs in Chromium: Redoc, served by the service itself, renders every
// operation of /openapi.json without fetching anything from elsewhere and
// without a policy violation.

const { svc } = served();
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser.close();
});

test("the page and its script come from the service, under a policy naming nothing else", async () => {
  const api = new Api(svc.url);
  const page = await api.get("/docs");
  expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
  const policy = page.headers.get("content-security-policy") ?? "";
  expect(policy).toMatch(/^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]+';/);
  expect(policy).not.toMatch(/https?:|'unsafe-eval'/);
  expect(page.text).toContain('<redoc spec-url="/openapi.json">');
  const src = /<script nonce="[^"]+" src="(\/assets\/redoc\.[\w-]{12}\.js)">/.exec(page.text)?.[1];
  const script = await api.get(src ?? "/assets/missing");
  expect([script.status, script.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
  expect(script.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  expect(script.text.length).toBeGreaterThan(500_000);
});

test("in Chromium: every documented operation is shown, nothing fetched from elsewhere, no errors", async () => {
  const operations = Object.values((await new Api(svc.url).get("/openapi.json")).body.paths).flatMap((path) =>
    Object.values(path as Record<string, { summary: string }>).map((operation) => operation.summary),
  );
  expect(operations.length).toBeGreaterThan(30);
  const docs = await visit(browser, `${svc.url}/docs`);
  await docs.page.getByRole("heading", { name: "Pigeonhole", exact: false }).first().waitFor({ timeout: 20_000 });
  const shown = await docs.page.locator("body").innerText();
  for (const summary of operations) expect(shown, summary).toContain(summary.split("\n")[0]);
  await docs.screenshot("docs", false);
  expect(docs.blocked).toEqual([]);
  // Redoc's footer asks its CDN for a logo (and hides it when that fails): the policy stops it in the browser.
  const logo = /^Loading the image 'https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini\.svg' violates/;
  expect(docs.errors.filter((error) => !logo.test(error))).toEqual([]);
  await docs.close();
});
