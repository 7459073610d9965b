import { randomInt } from "node:crypto";
import type { Config, VerificationMode } from "../config.ts";
import {
  markPodAgentsVerified,
  markVerified,
  type OwnerKind,
  setVerificationCode,
  type Verification,
} from "../db/agents.ts";
import { type PodRow, setPodClaimHash } from "../db/pods.ts";
import type { Tx } from "../db/statements.ts";
import { ServiceError } from "../errors.ts";
import { containsCode, mentions, parsePostUrl } from "../social/posts.ts";
import { claimInvalid } from "./access.ts";
import { addressOf } from "./agents.ts";
import { type Emit, withEvents } from "./events.ts";
import { claimHolder, newClaimToken } from "./keys.ts";
import { expiryCutoff, isExpired, UNVERIFIED_LIFETIME_HOURS, VERIFICATION_CODE_LIFETIME_MS } from "./lifetimes.ts";
import { assertPermitted, type Grant, lacking } from "./permissions.ts";
import { podRecord } from "./pods.ts";
import type { AgentRecord } from "./records.ts";
import type { Services } from "./services.ts";

// An owner, an agent or a pod, proves a person behind it by a public post on
// X that mentions the service's handle and carries a short-lived code, or is
// verified by the operator; the rules below are the same for both. Each X
// account verifies one agent and one pod, enforced by a unique column of
// each. Verifying a pod verifies those of its agents not yet verified, and
// its keys make agents verified from then on (agents.ts). Only agents expire
// unverified (lifetimes.ts).

/** No 0/O, 1/I/L: a person copies the code by hand. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** Characters of a verification code after its prefix. */
export const CODE_LENGTH = 6;

/** What is verified: an agent, or a pod. */
export type Owner = { kind: "agent"; record: AgentRecord } | { kind: "pod"; record: PodRow };

export const agentOwner = (record: AgentRecord): Owner => ({ kind: "agent", record });

export interface VerificationStatus {
  /** Who verifies agents on this instance (VERIFICATION_MODE). */
  mode: VerificationMode;
  verified: boolean;
  verifiedAt: Date | null;
  hasActiveCode: boolean;
  codeExpiresAt: Date | null;
}

export interface Challenge {
  verificationCode: string;
  expiresAt: Date;
  tweetText: string;
  socialIntentUrl: string;
}

export interface Verified {
  success: true;
  verifiedAt: Date;
  socialUsername: string;
}

/**
 * Where a verification link stands: its agent or pod waits for a person, is
 * verified, (an agent) expired, or was never there. `shown` is what a person
 * reads beside its name: the agent's address, or the pod's id.
 */
export type Claim =
  | { state: "open" | "verified"; owner: Owner; shown: string }
  | { state: "expired" }
  | { state: "unknown" };

export async function claimOf(services: Services, claimToken: string): Promise<Claim> {
  const holder = await claimHolder(services, claimToken);
  if (!holder) return { state: "unknown" };
  const owner: Owner =
    "agent" in holder ? agentOwner(holder.agent) : { kind: "pod", record: await podRecord(services, holder.podId) };
  if (owner.kind === "agent" && isExpired(owner.record, services.clock.now())) return { state: "expired" };
  const shown = owner.kind === "agent" ? addressOf(owner.record, services.config) : `pod ${owner.record.id}`;
  return { state: owner.record.verifiedAt === null ? "open" : "verified", owner, shown };
}

/**
 * The agent or pod a verification link waits with, for the link's own
 * endpoints: 404 for a link that never was, 410 for one used or expired, as
 * its page answers.
 */
export async function openClaim(services: Services, claimToken: string): Promise<Owner> {
  const claim = await claimOf(services, claimToken);
  switch (claim.state) {
    case "open":
      return claim.owner;
    case "unknown":
      throw claimInvalid();
    case "verified":
      throw new ServiceError("GONE", `This verification link has been used: its ${claim.owner.kind} is verified`);
    case "expired":
      throw new ServiceError(
        "GONE",
        `This verification link has expired: its agent was not verified within ${UNVERIFIED_LIFETIME_HOURS} hours`,
      );
  }
}

function newCode(prefix: string): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]);
  return `${prefix}-${chars.join("")}`;
}

/** Refuses the post-on-X flow where the operator verifies agents and pods. */
function assertSocialMode(config: Config, kind: OwnerKind): void {
  if (config.verificationMode === "admin") {
    throw new ServiceError(
      "BAD_REQUEST",
      `On this instance the operator verifies ${kind}s (VERIFICATION_MODE=admin): ask them to verify this one`,
    );
  }
}

const shownKind = (kind: OwnerKind) => (kind === "agent" ? "Agent" : "Pod");

/** Refuses an owner that can no longer be verified. */
function assertVerifiable({ kind, record }: Owner, now: Date): void {
  if (record.verifiedAt !== null) throw new ServiceError("BAD_REQUEST", `${shownKind(kind)} is already verified`);
  if (kind === "agent" && isExpired(record, now)) {
    throw new ServiceError(
      "BAD_REQUEST",
      `Agent expired: unverified agents are deleted ${UNVERIFIED_LIFETIME_HOURS} hours after creation; register it again`,
      { code: "VERIFICATION_EXPIRED" },
    );
  }
}

type Verifiable = Owner["record"];

/** A code issued to a still unverified owner and not past its lifetime. */
function hasActiveCode(record: Verifiable, now: Date): boolean {
  return record.verifiedAt === null && record.verificationExpires !== null && record.verificationExpires > now;
}

/** Refuses a code that is missing or past its lifetime. */
function assertActiveCode({ kind, record }: Owner, now: Date): string {
  if (record.verificationCode === null || record.verificationExpires === null) {
    const start = kind === "agent" ? "/verify/start" : `/pods/${record.id}/verify/start`;
    throw new ServiceError("BAD_REQUEST", `No verification in progress: call POST ${start} first`);
  }
  if (!hasActiveCode(record, now)) {
    throw new ServiceError("BAD_REQUEST", "The verification code expired: start verification again", {
      code: "VERIFICATION_EXPIRED",
    });
  }
  return record.verificationCode;
}

export function verificationStatus({ clock, config }: Services, { record }: Owner): VerificationStatus {
  const active = hasActiveCode(record, clock.now());
  return {
    mode: config.verificationMode,
    verified: record.verifiedAt !== null,
    verifiedAt: record.verifiedAt,
    hasActiveCode: active,
    codeExpiresAt: active ? record.verificationExpires : null,
  };
}

/** What the post says it verifies: the agent's address, or the pod and where it is. */
function postSubject({ kind, record }: Owner, config: Config): string {
  if (kind === "agent") return `my AI agent's mailbox ${addressOf(record, config)}`;
  return `my AI agents' pod ${record.id} at ${new URL(config.publicUrl).host}`;
}

/** A code valid for its lifetime (VERIFICATION_CODE_MINUTES), replacing any earlier one. */
export async function startVerification(services: Services, owner: Owner): Promise<Challenge> {
  const { config, clock } = services;
  assertSocialMode(config, owner.kind);
  assertVerifiable(owner, clock.now());
  const verificationCode = newCode(config.verificationCodePrefix);
  const expiresAt = new Date(clock.now().getTime() + VERIFICATION_CODE_LIFETIME_MS);
  if (!(await setVerificationCode(services, owner.kind, owner.record.id, verificationCode, expiresAt)))
    throw new ServiceError("BAD_REQUEST", `${shownKind(owner.kind)} is already verified`);
  const tweetText = `Verifying ${postSubject(owner, config)} with @${config.socialHandle} ${verificationCode}`;
  const intent = new URL(config.socialIntentUrl);
  intent.searchParams.set("text", tweetText);
  return { verificationCode, expiresAt, tweetText, socialIntentUrl: intent.toString() };
}

/**
 * Inside the events' transaction: marks the owner verified and emits
 * agent.verified for each agent verified by it (a pod's, with it); false when
 * its verification changed meanwhile.
 */
async function markOwnerVerified(
  tx: Tx,
  emit: Emit,
  { kind, record }: Owner,
  verification: Verification,
  /** The X account as the post's author is spelled, for the events. */
  socialUsername: string | null,
) {
  const { at } = verification;
  const cutoff = expiryCutoff(at);
  const outcome = await markVerified(tx, kind, record.id, verification, cutoff);
  if (outcome === "taken") {
    throw new ServiceError("BAD_REQUEST", `The X account @${socialUsername} already verified another ${kind}`, {
      code: "SOCIAL_ALREADY_USED",
    });
  }
  if (outcome === "changed") return false;
  const agentIds = kind === "agent" ? [record.id] : await markPodAgentsVerified(tx, record.id, at, cutoff);
  for (const agentId of agentIds) {
    await emit({ type: "agent.verified", agentId, data: { verifiedAt: at.getTime(), socialUsername } });
  }
  return true;
}

/** Checks the public post on X and verifies the owner. */
export async function completeVerification(services: Services, owner: Owner, tweetUrl: string): Promise<Verified> {
  const { config, clock, posts } = services;
  assertSocialMode(config, owner.kind);
  assertVerifiable(owner, clock.now());
  const url = parsePostUrl(tweetUrl);
  if (!url) {
    throw new ServiceError("BAD_REQUEST", "tweetUrl must be the URL of a post: https://x.com/<user>/status/<id>");
  }
  const code = assertActiveCode(owner, clock.now());
  const post = await posts.find(url);
  const invalid = (message: string) => new ServiceError("BAD_REQUEST", message, { code: "INVALID_TWEET" });
  if (!post) throw invalid("Post not found or not accessible: it must exist and be public");
  if (!mentions(post.text, config.socialHandle)) throw invalid(`The post does not mention @${config.socialHandle}`);
  if (!containsCode(post.text, code)) throw invalid(`The post does not contain the verification code ${code}`);
  const verifiedAt = clock.now();
  const socialUsername = post.authorUsername;
  // The lookup took time: the owner and its code must still be valid now, on whichever instance.
  const verification = { at: verifiedAt, by: "social", socialUsername: socialUsername.toLowerCase(), code } as const;
  const verified = await withEvents(services, (tx, emit) =>
    markOwnerVerified(tx, emit, owner, verification, socialUsername),
  );
  if (!verified) {
    throw new ServiceError(
      "BAD_REQUEST",
      "Verification changed meanwhile (completed or restarted): see whether it is verified",
    );
  }
  return { success: true, verifiedAt, socialUsername };
}

/** The operator verifies an agent or a pod (admin API or CLI), in any mode; refused when verified already or expired. */
export async function verifyByOperator(services: Services, owner: Owner): Promise<Date> {
  const { clock } = services;
  assertVerifiable(owner, clock.now());
  const verifiedAt = clock.now();
  const verification = { at: verifiedAt, by: "admin", socialUsername: null, code: null } as const;
  const verified = await withEvents(services, (tx, emit) => markOwnerVerified(tx, emit, owner, verification, null));
  if (!verified) throw new ServiceError("BAD_REQUEST", `${shownKind(owner.kind)} is already verified or expired`);
  return verifiedAt;
}

/** A pod's start by a key of it: the code, and a new verification link (replacing any earlier) for a person. */
export async function startPodVerification(
  services: Services,
  owner: Owner,
): Promise<Challenge & { verifyUrl: string }> {
  const challenge = await startVerification(services, owner);
  const { claimToken, claimTokenHash } = newClaimToken();
  if (!(await setPodClaimHash(services, owner.record.id, claimTokenHash))) {
    throw new ServiceError("BAD_REQUEST", "Pod is already verified");
  }
  return { ...challenge, verifyUrl: `${services.config.publicUrl}/verify/${claimToken}` };
}

/**
 * The pod a key of it verifies: one holding `agents` and reaching all the
 * pod's agents, since the pod's verification vouches for every one of them.
 */
export async function podOwner(services: Services, podId: string, grant: Grant): Promise<Owner> {
  assertPermitted(grant, "agents");
  if (grant.agents) throw lacking("agents", "A key limited to some of the pod's agents does not verify the pod");
  return { kind: "pod", record: await podRecord(services, podId.toLowerCase()) };
}
