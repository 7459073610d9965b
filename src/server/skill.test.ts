import { expect, test } from "vitest";
import { loadConfig } from "../config.ts";
import { ERROR_CODES, ERROR_KINDS } from "../errors.ts";
import { SYSTEM_FOLDERS } from "../mailbox/folders.ts";
import { MAX_ENTRIES } from "../mailbox/senders.ts";
import { skillJson, skillMarkdown } from "./skill.ts";

// The skill file states what the service enforces: every error kind and code
// of the error table, the instance's own reserved ids, the folders and the
// sender lists' bounds.

const config = loadConfig({ RESERVED_LOCAL_PARTS: "hr" });
const noRoutes = { paths: {} };

test("skill.md's error table has every kind's status and every code", () => {
  const text = skillMarkdown(config, noRoutes);
  for (const { status, error } of Object.values(ERROR_KINDS)) expect(text).toContain(`| ${status} | ${error} |`);
  for (const code of Object.keys(ERROR_CODES)) expect(text).toContain(code);
});

test("skill.json names the instance's reserved ids beside the built-in ones", () => {
  const facts = JSON.parse(skillJson(config, noRoutes));
  expect(facts.agentId.reserved).toEqual(expect.arrayContaining(["postmaster", "hr"]));
  expect(facts.limits).toMatchObject({ pageSize: { default: 50, max: 100 }, requestTimeoutSeconds: 30 });
});

test("skill.md tells the agent its sender lists and the junk folder, with the limits the domain keeps", () => {
  const text = skillMarkdown(config, noRoutes);
  expect(text).toContain("/agents/my-agent/senders");
  for (const field of ["allow", "block", "allowOnly"]) expect(text).toContain(`\`${field}\``);
  expect(text).toContain(`at most ${MAX_ENTRIES} per list`);
  for (const folder of SYSTEM_FOLDERS) expect(text).toContain(`\`${folder}\``);
  expect(text).toMatch(/`junk` holds[^\n]*`\?spam=false`/);
  expect(JSON.parse(skillJson(config, noRoutes))).toMatchObject({
    folders: SYSTEM_FOLDERS,
    limits: { senderListEntries: MAX_ENTRIES },
  });
});
