import { Plan } from "@pothos/selection-mapper";
import { type DocumentNode, execute, parse } from "graphql";
import { afterEach, expect, test } from "vitest";
import { listEmails } from "../mailbox/emails.ts";
import { FULL_GRANT } from "../mailbox/permissions.ts";
import type { AgentRecord } from "../mailbox/records.ts";
import type { Instance } from "../services.ts";
import { memoryOfFile } from "../testing/memory.ts";
import { testPatchedVersions } from "../testing/pins.ts";
import { createContext, requestFacts } from "./context.ts";
import { schema } from "./index.ts";
import { operations } from "./operations.ts";
import { freshPlan, PATCHED } from "./plan-cache.ts";
import { Streams } from "./streams.ts";

// The kept plans answer what a fresh plan would, request after request, each
// request's loader mappings on its own context; and the patch is checked
// against the versions it was written for.

const memory = memoryOfFile();
testPatchedVersions(PATCHED, "src/schema/plan-cache.ts");

const kept = Plan.fromInfo;
afterEach(() => {
  Plan.fromInfo = kept;
});

const firstEmailId = async (agent: AgentRecord) =>
  String((await listEmails(memory.services, agent, { limit: 1 })).data[0]?.id);

const GET_EMAIL = operations.find(
  (r) => r.method === "GET" && r.path === "/agents/:agentId/emails/:emailId",
)?.operation;

/** An email, with its attachments when asked: the variable changes what the plan loads. */
const WITH_ATTACHMENTS = parse(`query ($agentId: ID!, $emailId: ID!, $attachments: Boolean!) {
  email(agentId: $agentId, emailId: $emailId) { id subject attachments @include(if: $attachments) { filename } }
}`);

/** Runs a document as the agent, each plan's query beside a fresh plan's for the same field. */
async function run(document: DocumentNode | undefined, agent: AgentRecord, variables: Record<string, unknown>) {
  const seen: { got: unknown; want: unknown; sameContext: boolean; sharedWalk: boolean }[] = [];
  Plan.fromInfo = (adapter, options) => {
    const plan = kept(adapter, options);
    const fresh = freshPlan(adapter, options);
    seen.push({
      got: plan?.query(),
      want: fresh?.query(),
      sameContext: plan?.context === options.context,
      sharedWalk: plan !== undefined && Object.getPrototypeOf(plan) !== Plan.prototype,
    });
    return plan;
  };
  const context = {
    ...createContext(
      memory.services as Instance,
      requestFacts(null, () => undefined),
      new Streams(),
    ),
    caller: async () => agent,
    holder: async () => ({ agent, grant: FULL_GRANT }),
  };
  if (!document) throw new Error("no document");
  const result = await execute({
    schema,
    document,
    variableValues: { agentId: agent.id, ...variables },
    contextValue: context,
  });
  expect(result.errors).toBeUndefined();
  expect(seen.length).toBeGreaterThan(0);
  for (const call of seen) {
    expect(call.got).toEqual(call.want);
    expect(call.sameContext).toBe(true);
  }
  return { seen, email: (result.data as { email: Record<string, unknown> }).email };
}

test("a plan kept for a document answers what a fresh plan does, under another context", async () => {
  const scout = await memory.agent("scout");
  const pat = await memory.agent("pat");
  await memory.mailTo(scout, { Subject: "For scout" });
  await memory.mailTo(pat, { Subject: "For pat" });
  await run(GET_EMAIL, scout, { emailId: await firstEmailId(scout) });
  const second = await run(GET_EMAIL, pat, { emailId: await firstEmailId(pat) });
  expect(second.email.subject).toBe("For pat");
  // The second request played the first one's plan.
  expect(second.seen.every((call) => call.sharedWalk)).toBe(true);
});

test("the values of the variables a selection reads make plans of their own", async () => {
  const scout = await memory.agent("scout-2");
  await memory.mailTo(scout, { Subject: "Hello" });
  const emailId = await firstEmailId(scout);
  const without = await run(WITH_ATTACHMENTS, scout, { emailId, attachments: false });
  const withThem = await run(WITH_ATTACHMENTS, scout, { emailId, attachments: true });
  const again = await run(WITH_ATTACHMENTS, scout, { emailId, attachments: true });
  expect([without.email.attachments, withThem.email.attachments]).toEqual([undefined, []]);
  expect(withThem.seen.every((call) => !call.sharedWalk)).toBe(true);
  expect(again.seen.every((call) => call.sharedWalk)).toBe(true);
});
