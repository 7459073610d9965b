import { get, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Api, createVerifiedAgent } from "./support/api.ts";
import { launchBrowser, visit } from "./support/browser.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";

// GraphiQL on a self-hosted instance: served whole by the service, opened in
// a real Chromium that may reach nothing but the service itself.

let browser: Browser;

const { svc, api, x } = served();

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const html = { accept: "text/html,application/xhtml+xml" };
/** What an editor shows, with Monaco's non-breaking spaces as spaces. */
const shown = async (locator: { innerText(): Promise<string> }) => (await locator.innerText()).replace(/\u00a0/g, " ");

test("the page comes from the service, titled, with a policy that allows its own origin only", async () => {
  const reply = await api.get("/graphql", { headers: html });
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("text/html; charset=utf-8");
  expect(reply.text).toContain("<title>Pigeonhole GraphiQL</title>");
  expect(reply.text).not.toContain("__TITLE__");
  expect(reply.text).not.toMatch(/<(?:script|link)[^>]+(?:src|href)="https?:/);
  const policy = reply.headers.get("content-security-policy") ?? "";
  const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
  expect(nonce).toBeDefined();
  expect(reply.text).toContain(`<script nonce="${nonce}" src="/assets/graphiql.`);
  expect(reply.text).toMatch(/ src="\/assets\/graphiql\.[\w-]{12}\.js"><\/script>/);
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("connect-src 'self'");
  expect(policy).not.toMatch(/https?:|\*/);
  const again = await api.get("/graphql", { headers: html });
  expect(again.headers.get("content-security-policy")).not.toBe(policy);
});

/** The raw bytes and headers of a GET, as a client that takes these encodings receives them. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

test("the page is small; the editor, its styles and icon are assets a browser keeps, brotli or gzip", async () => {
  const page = await rawGet(`${svc.url}/graphql`, { ...html, "accept-encoding": "gzip" });
  expect(page.headers["cache-control"]).toBe("no-store");
  // Yoga's page inlines 9 MB; this one links to it (too little to be worth compressing).
  const text = page.bytes.toString();
  expect(text.length).toBeLessThan(1024);
  const assets = [...text.matchAll(/(?:src|href)="(\/assets\/graphiql\.[\w-]{12}\.(?:js|css|ico))"/g)].map((m) => m[1]);
  expect(assets.map((path) => path?.split(".").at(-1)).sort()).toEqual(["css", "ico", "js"]);
  const script = assets.find((path) => path?.endsWith(".js")) ?? "";
  const plain = await rawGet(`${svc.url}${script}`, {});
  expect(plain.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(plain.headers["content-encoding"]).toBeUndefined();
  expect(plain.bytes.length).toBeGreaterThan(5_000_000);
  const brotli = await rawGet(`${svc.url}${script}`, { "accept-encoding": "gzip, deflate, br" });
  expect([brotli.headers["content-encoding"], brotli.headers.vary]).toEqual(["br", "Accept-Encoding"]);
  expect(brotli.bytes.length).toBeLessThan(plain.bytes.length / 3);
  expect(brotliDecompressSync(brotli.bytes).equals(plain.bytes)).toBe(true);
  const gzipped = await rawGet(`${svc.url}${script}`, { "accept-encoding": "gzip" });
  expect(gunzipSync(gzipped.bytes).equals(plain.bytes)).toBe(true);
  expect((await rawGet(`${svc.url}/assets/graphiql.AAAAAAAAAAAA.js`, {})).status).toBe(404);
  // An API answer too, when the client takes gzip.
  const spec = await rawGet(`${svc.url}/openapi.json`, { "accept-encoding": "gzip" });
  expect(JSON.parse(gunzipSync(spec.bytes).toString())).toHaveProperty("openapi");
});

test("in Chromium with every other origin blocked: the editor opens, runs its opening query with a key, and shows the agent", {
  timeout: 60_000,
}, async () => {
  const agent = await createVerifiedAgent(api, x);
  const page = await visit(browser, `${svc.url}/graphql`);
  try {
    const queryEditor = page.page.locator(".graphiql-query-editor .monaco-editor").first();
    await queryEditor.waitFor({ timeout: 20_000 });
    await expect.poll(() => shown(queryEditor)).toContain("  me {");
    await expect.poll(() => shown(page.page.locator(".graphiql-editor-tool"))).toContain("Bearer <your API key>");

    // The opening query runs as it is: only the key is filled in.
    const headersEditor = page.page.locator(".graphiql-editor-tool .graphiql-editor:not(.hidden) .monaco-editor");
    await headersEditor.click();
    await page.replaceText(JSON.stringify({ Authorization: `Bearer ${agent.apiKey}` }));
    await page.page.locator(".graphiql-execute-button").click();

    const result = page.page.locator(".graphiql-response");
    await expect.poll(() => shown(result), { timeout: 15_000 }).toContain(`"email": "${agent.id}@mail.example"`);
    expect(await shown(result)).toContain('"verified": true');
    await page.screenshot("graphiql");
    expect(page.blocked).toEqual([]);
    expect(page.errors).toEqual([]);
  } finally {
    await page.close();
  }
});

describe("with GRAPHQL_INTROSPECTION=false", () => {
  test("no page: GET /graphql for a browser answers as a plain GraphQL endpoint", async () => {
    await withService({ GRAPHQL_INTROSPECTION: "false" }, async (off) => {
      const reply = await new Api(off.url).get("/graphql", { headers: html });
      // What /graphql says to any client that accepts none of its answers.
      expect(reply.status).toBe(406);
      expect(reply.headers.get("content-type")).toContain("application/json");
      expect(reply.body).toEqual({
        error: "Not Acceptable",
        statusCode: 406,
        message: expect.stringContaining("application/json"),
      });
    });
  });
});
