import type { Config } from "../config.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { ServiceError } from "../errors.ts";
import type { Agent, Prisma } from "../generated/prisma/sqlite/client.ts";
import { expiredAgents } from "../lifetimes.ts";
import { newApiKey, ownAgent } from "./auth.ts";
import { builder, Outcome } from "./builder.ts";

const AGENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** RFC 2142 mailbox names: they belong to the domain's operator, not to an agent. */
const ROLE_NAMES = new Set(["postmaster", "abuse", "hostmaster", "webmaster", "mailer-daemon", "noc", "security"]);
const NAME_MAX = 128;
const METADATA_MAX_BYTES = 16 * 1024;

export function addressOf(agent: { id: string }, config: Config): string {
  return `${agent.id}@${config.mailDomain}`;
}

export const AgentType = builder.prismaObject("Agent", {
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.string({
      description: "The agent's mailbox address",
      resolve: (agent, _, ctx) => addressOf(agent, ctx.config),
    }),
    name: t.exposeString("name"),
    metadata: t.field({
      type: "JSONObject",
      nullable: true,
      resolve: (agent) => agent.metadata,
    }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    verified: t.boolean({ resolve: (agent) => agent.verifiedAt !== null }),
    verifiedAt: t.expose("verifiedAt", { type: "Timestamp", nullable: true }),
    storageUsed: t.exposeInt("storageUsed", { description: "Bytes in use" }),
    storageLimit: t.int({ description: "Bytes allowed", resolve: (_, __, ctx) => ctx.config.storageLimitBytes }),
  }),
});

const CreateAgentInput = builder.inputType("CreateAgentInput", {
  fields: (t) => ({
    id: t.string({
      required: true,
      description: "1-64 letters, digits, dashes or underscores; the address's local part",
    }),
    name: t.string({ required: true, description: "Display name, 1-128 characters" }),
    metadata: t.field({ type: "JSONObject", description: "Custom key-value data, at most 16 KiB as JSON" }),
  }),
});

function validateNewAgent(input: { id: string; name: string; metadata?: Record<string, unknown> | null }) {
  if (!AGENT_ID.test(input.id)) {
    throw new ServiceError("BAD_REQUEST", "id must be 1-64 characters: letters, digits, dashes and underscores");
  }
  if (ROLE_NAMES.has(input.id.toLowerCase())) {
    throw new ServiceError("BAD_REQUEST", `id ${input.id} is a reserved mailbox name`);
  }
  const name = input.name.trim();
  if ([...name].length < 1 || [...name].length > NAME_MAX) {
    throw new ServiceError("BAD_REQUEST", `name must be 1-${NAME_MAX} characters`);
  }
  const metadata = (input.metadata ?? undefined) as Prisma.InputJsonObject | undefined;
  if (metadata && Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES) {
    throw new ServiceError("BAD_REQUEST", `metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON`);
  }
  return { id: input.id, name, metadata };
}

function instructionFor(address: string, config: Config): string {
  return [
    `Welcome! Your agent's mailbox is ${address}. Before it can receive or send mail, a human must verify it within 24 hours;`,
    "unverified agents are deleted after that.",
    `1. Call POST ${config.publicUrl}/verify/start with your API key to get a verification code and a ready-made post.`,
    `2. Publish that post on X from a public account: it must mention @${config.socialHandle} and contain the code.`,
    `3. Call POST ${config.publicUrl}/verify/complete with {"tweetUrl": "<the post's URL>"}.`,
    "Keep your API key safe: it is shown only once. If it is lost, POST /agents/{agentId}/rotate-key issues a new one.",
  ].join(" ");
}

const CreateAgentPayload = builder
  .objectRef<{ agent: Agent; apiKey: string; instruction: string }>("CreateAgentPayload")
  .implement({
    fields: (t) => ({
      agent: t.field({ type: AgentType, resolve: (payload) => payload.agent }),
      apiKey: t.exposeString("apiKey", { description: "Shown only now" }),
      instruction: t.exposeString("instruction", { description: "What a person does next to verify the agent" }),
    }),
  });

const RotateApiKeyPayload = builder.objectRef<{ apiKey: string; message: string }>("RotateApiKeyPayload").implement({
  fields: (t) => ({
    apiKey: t.exposeString("apiKey", { description: "Shown only now; the previous key stopped working" }),
    message: t.exposeString("message"),
  }),
});

builder.queryField("agent", (t) =>
  t.prismaField({
    type: "Agent",
    nullable: true,
    description: "Your own agent; it must be verified.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_query, _root, args, ctx) => ownAgent(ctx, String(args.id), { verified: true }),
  }),
);

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: CreateAgentPayload,
    description: "Registers an agent. Needs no API key.",
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      const { id, name, metadata } = validateNewAgent(input);
      const now = ctx.clock.now();
      const { apiKey, apiKeyHash } = newApiKey();
      const idKey = id.toLowerCase();
      const [, agent] = await ctx.prisma
        .$transaction([
          // An expired agent the cleanup job has not reached yet no longer holds its id.
          ctx.prisma.agent.deleteMany({ where: { idKey, ...expiredAgents(now) } }),
          ctx.prisma.agent.create({ data: { id, idKey, name, metadata, apiKeyHash, createdAt: now } }),
        ])
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new ServiceError("CONFLICT", `Agent id ${id} is already taken`);
          throw error;
        });
      return { agent, apiKey, instruction: instructionFor(addressOf(agent, ctx.config), ctx.config) };
    },
  }),
  rotateApiKey: t.field({
    type: RotateApiKeyPayload,
    description: "Issues a new API key; the current one stops working at once.",
    args: { agentId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const agent = await ownAgent(ctx, String(args.agentId), { verified: false });
      const { apiKey, apiKeyHash } = newApiKey();
      // Conditional on the old hash: of two rotations with one key, only the first wins.
      const { count } = await ctx.prisma.agent.updateMany({
        where: { id: agent.id, apiKeyHash: agent.apiKeyHash },
        data: { apiKeyHash },
      });
      if (count === 0) throw new ServiceError("UNAUTHORIZED", "API key is invalid");
      return { apiKey, message: "API key rotated. The previous key no longer works; store this one safely." };
    },
  }),
  deleteAgent: t.field({
    type: Outcome,
    description: "Deletes the agent with all its mail and data, permanently.",
    args: { agentId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const agent = await ownAgent(ctx, String(args.agentId), { verified: false });
      const { count } = await ctx.prisma.agent.deleteMany({ where: { id: agent.id } });
      if (count === 0) throw new ServiceError("NOT_FOUND", `Agent ${agent.id} not found`);
      return { success: true, message: `Agent ${agent.id} and all its data were deleted permanently` };
    },
  }),
}));
