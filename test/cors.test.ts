import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { launchBrowser, visit } from "./support/browser.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";

// Browser clients on other origins: preflights answered for GraphQL and the
// REST routes, for the origins CORS_ORIGINS names and no others; none at all
// by default. Then a page of another origin calls the API from Chromium.

let agent: TestAgent;
let pages: Server;
let pageOrigin: string;
let browser: Browser;

/** A page of its own origin whose script calls the service with a key, as a browser client would. */
const CLIENT_PAGE = `<!doctype html><meta charset="utf-8"><title>client</title><pre id="out">…</pre><script>
const params = new URLSearchParams(location.search);
const headers = { Authorization: "Bearer " + params.get("key"), "Content-Type": "application/json", "Idempotency-Key": "k1" };
const graphql = fetch(params.get("api") + "/graphql", { method: "POST", headers, body: JSON.stringify({ query: "{ verificationStatus { verified } }" }) }).then((r) => r.json());
const rest = fetch(params.get("api") + "/agents/" + params.get("agent") + "/emails?limit=1", { headers }).then((r) => r.json());
Promise.all([graphql, rest]).then(([g, r]) => { out.textContent = JSON.stringify({ verified: g.data.verificationStatus.verified, total: r.total }); })
  .catch((error) => { out.textContent = "failed: " + error.message; });
</script>`;

beforeAll(async () => {
  pages = createServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end(CLIENT_PAGE));
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => pages.close(resolve));
});
// After the page server above has started: the service allows its origin.
const { svc, api, x } = served({ env: () => ({ CORS_ORIGINS: `${pageOrigin},https://app.example` }) });
beforeAll(async () => {
  agent = await createVerifiedAgent(api, x);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const preflight = (path: string, origin: string, method = "POST") =>
  api.call("OPTIONS", path, {
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "authorization,content-type,idempotency-key",
    },
  });

test("preflights of /graphql and every kind of REST route are answered for an allowed origin", async () => {
  for (const [path, method] of [
    ["/graphql", "POST"],
    ["/agents", "POST"],
    [`/agents/${agent.id}/emails`, "GET"],
    [`/agents/${agent.id}/emails/e1`, "PATCH"],
    [`/agents/${agent.id}/send`, "POST"],
    [`/agents/${agent.id}/senders`, "PUT"],
    [`/agents/${agent.id}`, "DELETE"],
  ]) {
    const reply = await preflight(path as string, "https://app.example", method);
    expect(reply.status, path).toBe(204);
    expect(reply.headers.get("access-control-allow-origin")).toBe("https://app.example");
    expect(reply.headers.get("access-control-allow-methods")).toContain(method);
    expect(reply.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("authorization");
    expect(reply.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("idempotency-key");
    expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
  }
});

test("another origin gets no allowance; answers carry the origin they were asked from", async () => {
  const refused = await preflight("/graphql", "https://evil.example");
  expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  const answer = await api.call("GET", `/agents/${agent.id}`, {
    key: agent.apiKey,
    headers: { origin: "https://app.example" },
  });
  expect(answer.status).toBe(200);
  expect(answer.headers.get("access-control-allow-origin")).toBe("https://app.example");
});

test("by default no CORS headers at all; with * any origin, without credentials", async () => {
  await withService({}, async (plain) => {
    const reply = await new Api(plain.url).call("GET", "/healthz", { headers: { origin: "https://app.example" } });
    expect(reply.headers.get("access-control-allow-origin")).toBeNull();
  });
  await withService({ CORS_ORIGINS: "*" }, async (open) => {
    const reply = await new Api(open.url).call("OPTIONS", "/graphql", {
      headers: { origin: "https://anyone.example", "access-control-request-method": "POST" },
    });
    expect(reply.status).toBe(204);
    expect(reply.headers.get("access-control-allow-origin")).toBe("*");
  });
});

test("in Chromium, a page of an allowed origin calls GraphQL and REST with its key; one of another origin cannot", async () => {
  const query = new URLSearchParams({ api: svc.url, key: agent.apiKey, agent: agent.id });
  const allowed = await visit(browser, `${pageOrigin}/?${query}`, [svc.url]);
  try {
    await allowed.page.waitForFunction(() => document.getElementById("out")?.textContent !== "…");
    expect(JSON.parse(await allowed.page.locator("#out").innerText())).toEqual({ verified: true, total: 0 });
    expect(allowed.blocked).toEqual([]);
  } finally {
    await allowed.close();
  }
  // The same page served from localhost is another origin, which CORS_ORIGINS does not name.
  const other = await visit(browser, `${pageOrigin.replace("127.0.0.1", "localhost")}/?${query}`, [svc.url]);
  try {
    await other.page.waitForFunction(() => document.getElementById("out")?.textContent !== "…");
    expect(await other.page.locator("#out").innerText()).toMatch(/^failed: /);
  } finally {
    await other.close();
  }
});
