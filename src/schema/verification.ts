import { VERIFICATION_CODE_MINUTES } from "../mailbox/lifetimes.ts";
import {
  type Challenge,
  completeVerification,
  podOwner,
  startPodVerification,
  startVerification,
  type VerificationStatus as VerificationStatusRecord,
  verificationStatus,
} from "../mailbox/verification.ts";
import { builder } from "./builder.ts";
import { VerificationModeEnum } from "./enums.ts";
import { needing } from "./own-agent.ts";
import { podArgs, podKeyArg } from "./pods.ts";

// Verification by a public post on X: any valid key, verified or not, or the
// claim token of the agent's (or pod's) verification link, which can do
// nothing else; and a pod's, by a key of the pod holding `agents`.

type Fields<Parent> = PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Parent>;

/** A code and its post, for an agent and a pod alike. */
const challengeFields = <Parent extends Challenge>(t: Fields<Parent>) => ({
  verificationCode: t.string({ resolve: (challenge) => challenge.verificationCode }),
  expiresAt: t.field({ type: "Timestamp", resolve: (challenge) => challenge.expiresAt }),
  tweetText: t.string({
    description: "Ready-made post text with the code",
    resolve: (challenge) => challenge.tweetText,
  }),
  socialIntentUrl: t.string({
    description: "Opens X with the text prefilled",
    resolve: (challenge) => challenge.socialIntentUrl,
  }),
});

const VerificationChallenge = builder
  .objectRef<Challenge>("VerificationChallenge")
  .implement({ fields: (t) => challengeFields(t) });

const PodVerificationChallenge = builder
  .objectRef<Challenge & { verifyUrl: string }>("PodVerificationChallenge")
  .implement({
    fields: (t) => ({
      ...challengeFields(t),
      verifyUrl: t.exposeString("verifyUrl", {
        description: "The page where a person verifies the pod (it can verify only this pod); replaces the earlier one",
      }),
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

builder.mutationFields((t) => ({
  startPodVerification: t.field({
    type: PodVerificationChallenge,
    description: `Issues a code for your pod valid for ${VERIFICATION_CODE_MINUTES} minutes, and a verification page's link for a person, replacing any earlier ones.`,
    args: podArgs,
    authScopes: podKeyArg("agents"),
    resolve: async (_, { podId }, ctx) => startPodVerification(ctx, await podOwner(ctx, podId, await ctx.grant())),
  }),
  completePodVerification: t.field({
    type: VerificationResult,
    description:
      "Checks the public post on X and verifies your pod: its agents not yet verified, and those its keys make, are verified with it.",
    args: { ...podArgs, tweetUrl: t.arg.string({ required: true, description: "URL of the public post" }) },
    authScopes: podKeyArg("agents"),
    resolve: async (_, { podId, tweetUrl }, ctx) =>
      completeVerification(ctx, await podOwner(ctx, podId, await ctx.grant()), tweetUrl),
  }),
}));
