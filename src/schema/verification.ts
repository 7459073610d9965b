import { randomInt } from "node:crypto";
import { isUniqueViolation } from "../db/errors.ts";
import { ServiceError } from "../errors.ts";
import type { Agent } from "../generated/prisma/sqlite/client.ts";
import { expiredAgents, isExpired, VERIFICATION_CODE_LIFETIME_MS } from "../lifetimes.ts";
import { containsCode, mentions, parsePostUrl } from "../social/posts.ts";
import { addressOf } from "./agents.ts";
import { keyAgent } from "./auth.ts";
import { builder } from "./builder.ts";
import type { Context } from "./context.ts";

// An agent proves a human owner by a public post on X that mentions the
// service's handle and carries a short-lived code. Each X account verifies
// one agent, enforced by a unique column.

/** No 0/O, 1/I/L: a person copies the code by hand. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

function newCode(prefix: string): string {
  const chars = Array.from({ length: 6 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return `${prefix}-${chars.join("")}`;
}

/** Refuses an agent that can no longer be verified. */
function assertVerifiable(agent: Agent, now: Date): void {
  if (agent.verifiedAt !== null) throw new ServiceError("BAD_REQUEST", "Agent is already verified");
  if (isExpired(agent, now)) {
    throw new ServiceError(
      "BAD_REQUEST",
      "Agent expired: unverified agents are deleted 24 hours after creation; register it again",
      { code: "VERIFICATION_EXPIRED" },
    );
  }
}

/** Refuses a code that is missing or past its 15 minutes. */
function assertActiveCode(agent: Agent, now: Date): string {
  if (agent.verificationCode === null || agent.verificationExpires === null) {
    throw new ServiceError("BAD_REQUEST", "No verification in progress: call POST /verify/start first");
  }
  if (agent.verificationExpires <= now) {
    throw new ServiceError("BAD_REQUEST", "The verification code expired: start verification again", {
      code: "VERIFICATION_EXPIRED",
    });
  }
  return agent.verificationCode;
}

/** The key's agent, while it may still be verified. */
async function verifiableAgent(ctx: Context): Promise<Agent> {
  const agent = await keyAgent(ctx);
  assertVerifiable(agent, ctx.clock.now());
  return agent;
}

const VerificationChallenge = builder
  .objectRef<{ verificationCode: string; expiresAt: Date; tweetText: string; socialIntentUrl: string }>(
    "VerificationChallenge",
  )
  .implement({
    fields: (t) => ({
      verificationCode: t.exposeString("verificationCode"),
      expiresAt: t.expose("expiresAt", { type: "Timestamp" }),
      tweetText: t.exposeString("tweetText", { description: "Ready-made post text with the code" }),
      socialIntentUrl: t.exposeString("socialIntentUrl", { description: "Opens X with the text prefilled" }),
    }),
  });

const VerificationResult = builder
  .objectRef<{ success: boolean; verifiedAt: Date; socialUsername: string }>("VerificationResult")
  .implement({
    fields: (t) => ({
      success: t.exposeBoolean("success"),
      verifiedAt: t.expose("verifiedAt", { type: "Timestamp" }),
      socialUsername: t.exposeString("socialUsername"),
    }),
  });

const VerificationStatus = builder
  .objectRef<{ verified: boolean; verifiedAt: Date | null; hasActiveCode: boolean; codeExpiresAt: Date | null }>(
    "VerificationStatus",
  )
  .implement({
    fields: (t) => ({
      verified: t.exposeBoolean("verified"),
      verifiedAt: t.expose("verifiedAt", { type: "Timestamp", nullable: true }),
      hasActiveCode: t.exposeBoolean("hasActiveCode", { description: "An unexpired verification code exists" }),
      codeExpiresAt: t.expose("codeExpiresAt", { type: "Timestamp", nullable: true }),
    }),
  });

builder.queryField("verificationStatus", (t) =>
  t.field({
    type: VerificationStatus,
    description: "Where the key's agent stands in verification.",
    resolve: async (_root, _args, ctx) => {
      const agent = await keyAgent(ctx);
      const active =
        agent.verifiedAt === null && agent.verificationExpires !== null && agent.verificationExpires > ctx.clock.now();
      return {
        verified: agent.verifiedAt !== null,
        verifiedAt: agent.verifiedAt,
        hasActiveCode: active,
        codeExpiresAt: active ? agent.verificationExpires : null,
      };
    },
  }),
);

builder.mutationFields((t) => ({
  startVerification: t.field({
    type: VerificationChallenge,
    description: "Issues a code valid for 15 minutes, replacing any earlier one.",
    resolve: async (_root, _args, ctx) => {
      const agent = await verifiableAgent(ctx);
      const { config } = ctx;
      const verificationCode = newCode(config.verificationCodePrefix);
      const expiresAt = new Date(ctx.clock.now().getTime() + VERIFICATION_CODE_LIFETIME_MS);
      const { count } = await ctx.prisma.agent.updateMany({
        where: { id: agent.id, verifiedAt: null },
        data: { verificationCode, verificationExpires: expiresAt },
      });
      if (count === 0) throw new ServiceError("BAD_REQUEST", "Agent is already verified");
      const tweetText = `Verifying my AI agent's mailbox ${addressOf(agent, config)} with @${config.socialHandle} ${verificationCode}`;
      const intent = new URL(config.socialIntentUrl);
      intent.searchParams.set("text", tweetText);
      return { verificationCode, expiresAt, tweetText, socialIntentUrl: intent.toString() };
    },
  }),
  completeVerification: t.field({
    type: VerificationResult,
    description: "Checks the public post on X and verifies the agent.",
    args: { tweetUrl: t.arg.string({ required: true, description: "URL of the public post" }) },
    resolve: async (_root, { tweetUrl }, ctx) => {
      const agent = await verifiableAgent(ctx);
      const url = parsePostUrl(tweetUrl);
      if (!url) {
        throw new ServiceError("BAD_REQUEST", "tweetUrl must be the URL of a post: https://x.com/<user>/status/<id>");
      }
      const code = assertActiveCode(agent, ctx.clock.now());
      const post = await ctx.posts.find(url);
      const invalid = (message: string) => new ServiceError("BAD_REQUEST", message, { code: "INVALID_TWEET" });
      if (!post) throw invalid("Post not found or not accessible: it must exist and be public");
      if (!mentions(post.text, ctx.config.socialHandle)) {
        throw invalid(`The post does not mention @${ctx.config.socialHandle}`);
      }
      if (!containsCode(post.text, code)) throw invalid(`The post does not contain the verification code ${code}`);
      const verifiedAt = ctx.clock.now();
      // The lookup took time: the agent and its code must still be valid now, on whichever instance.
      const { count } = await ctx.prisma.agent
        .updateMany({
          where: {
            id: agent.id,
            verifiedAt: null,
            verificationCode: code,
            verificationExpires: { gt: verifiedAt },
            NOT: expiredAgents(verifiedAt),
          },
          data: {
            verifiedAt,
            socialUsername: post.authorUsername.toLowerCase(),
            verificationCode: null,
            verificationExpires: null,
          },
        })
        .catch((error: unknown) => {
          if (!isUniqueViolation(error)) throw error;
          throw new ServiceError(
            "BAD_REQUEST",
            `The X account @${post.authorUsername} already verified another agent`,
            {
              code: "SOCIAL_ALREADY_USED",
            },
          );
        });
      if (count === 0) {
        throw new ServiceError(
          "BAD_REQUEST",
          "Verification changed meanwhile (completed or restarted); see GET /verify/status",
        );
      }
      return { success: true, verifiedAt, socialUsername: post.authorUsername };
    },
  }),
}));
