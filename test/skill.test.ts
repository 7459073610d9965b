import { expect, test } from "vitest";
import { publicOperations as publicRoutes } from "../src/schema/operations.ts";
import { served } from "./support/served.ts";

// The files agent frameworks load: written from this instance's settings and
// the operations' declarations, so they tell the limits, handle and endpoints in force.

const { api } = served({
  env: {
    PUBLIC_URL: "https://mail.agents.example",
    MAIL_DOMAIN: "agents.example",
    SOCIAL_HANDLE: "agentmail",
    VERIFICATION_CODE_PREFIX: "AGENT",
    DAILY_SEND_LIMIT: "7",
    STORAGE_LIMIT_BYTES: "1000000",
  },
});

test("skill.md: frontmatter, the sections of a skill file, this instance's facts, every endpoint", async () => {
  const reply = await api.get("/skill.md");
  expect(reply.status).toBe(200);
  expect(reply.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
  const text = reply.text;
  expect(text).toMatch(
    /^---\nname: pigeonhole-mail\ndescription: .+agents\.example.+\nhomepage: https:\/\/mail\.agents\.example\n---\n/,
  );
  for (const section of [
    "## Register",
    "## Verify",
    "## Read",
    "## Send",
    "## Limits",
    "## Errors",
    "## Every endpoint",
  ]) {
    expect(text).toContain(section);
  }
  expect(text).toContain("curl -s -X POST https://mail.agents.example/agents");
  expect(text).toContain("@agentmail");
  expect(text).toContain("AGENT-XXXXXX");
  expect(text).toContain("| sends per agent per UTC day | 7 |");
  expect(text).toContain("| storage per agent | 1000000 bytes |");
  for (const route of publicRoutes) {
    expect(text).toContain(`| ${route.method} | \`${route.path.replace(/:(\w+)/g, "{$1}")}\` |`);
  }
});

test("skill.json carries the same facts; llms.txt points at both and at the OpenAPI document", async () => {
  const json = (await api.get("/skill.json")).body;
  expect(json).toMatchObject({
    baseUrl: "https://mail.agents.example",
    openapi: "https://mail.agents.example/openapi.json",
    auth: { header: "Authorization", scheme: "Bearer", keyPrefix: "ph_" },
    limits: { dailySends: 7, storageBytes: 1000000 },
    verification: { handle: "@agentmail", codePrefix: "AGENT" },
  });
  expect(json.endpoints).toHaveLength(publicRoutes.length);
  expect(json.endpoints).toContainEqual({
    method: "POST",
    path: "/agents/{agentId}/send",
    summary: expect.stringContaining("Sends"),
  });
  const llms = await api.get("/llms.txt");
  expect(llms.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  expect(llms.text).toMatch(/^# Pigeonhole\n\n> /);
  for (const file of ["skill.md", "skill.json", "openapi.json", "docs", "mcp"]) {
    expect(llms.text).toContain(`(https://mail.agents.example/${file})`);
  }
});
