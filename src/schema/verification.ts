import { VERIFICATION_CODE_MINUTES } from "../mailbox/lifetimes.ts";
import {
  completeVerification,
  startVerification,
  type VerificationStatus as VerificationStatusRecord,
  verificationStatus,
} from "../mailbox/verification.ts";
import { builder } from "./builder.ts";
import { VerificationModeEnum } from "./enums.ts";
import { needing } from "./own-agent.ts";

// Verification by a public post on X: any valid key, verified or not, or the
// claim token of the agent's verification link, which can do nothing else.

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

const VerificationStatus = builder.objectRef<VerificationStatusRecord>("VerificationStatus").implement({
  fields: (t) => ({
    mode: t.expose("mode", { type: VerificationModeEnum, description: "How agents are verified on this instance" }),
    verified: t.exposeBoolean("verified"),
    verifiedAt: t.expose("verifiedAt", { type: "Timestamp", nullable: true }),
    hasActiveCode: t.exposeBoolean("hasActiveCode", { description: "An unexpired verification code exists" }),
    codeExpiresAt: t.expose("codeExpiresAt", { type: "Timestamp", nullable: true }),
  }),
});

/** Who verifies: the API key's agent, or with a verification link's claim token, that link's agent. */
const CLAIM_TOKEN_ARG = "The token at the end of the agent's verifyUrl, for a person without the API key";

builder.queryField("verificationStatus", (t) =>
  t.field({
    type: VerificationStatus,
    description: "Where the agent stands in verification.",
    args: { claimToken: t.arg.string({ description: CLAIM_TOKEN_ARG }) },
    authScopes: needing(null, (_: unknown, args: { claimToken?: string | null }) => ({
      verifier: args.claimToken ?? null,
    })),
    resolve: async (_, args, ctx) => verificationStatus(ctx, await ctx.verifying(args.claimToken)),
  }),
);

builder.mutationFields((t) => ({
  startVerification: t.field({
    type: VerificationChallenge,
    description: `Issues a code valid for ${VERIFICATION_CODE_MINUTES} minutes, replacing any earlier one.`,
    args: { claimToken: t.arg.string({ description: CLAIM_TOKEN_ARG }) },
    authScopes: needing(null, (_: unknown, args: { claimToken?: string | null }) => ({
      verifier: args.claimToken ?? null,
    })),
    resolve: async (_, args, ctx) => startVerification(ctx, await ctx.verifying(args.claimToken)),
  }),
  completeVerification: t.field({
    type: VerificationResult,
    description: "Checks the public post on X and verifies the agent.",
    args: {
      tweetUrl: t.arg.string({ required: true, description: "URL of the public post" }),
      claimToken: t.arg.string({ description: CLAIM_TOKEN_ARG }),
    },
    authScopes: needing(null, (_: unknown, args: { claimToken?: string | null }) => ({
      verifier: args.claimToken ?? null,
    })),
    resolve: async (_, args, ctx) => completeVerification(ctx, await ctx.verifying(args.claimToken), args.tweetUrl),
  }),
}));
