import { randomInt } from "node:crypto";
import type { Config, VerificationMode } from "../config.ts";
import { markVerified, setVerificationCode } from "../db/agents.ts";
import { ServiceError } from "../errors.ts";
import { containsCode, mentions, parsePostUrl } from "../social/posts.ts";
import { claimInvalid } from "./access.ts";
import { addressOf } from "./agents.ts";
import { withEvents } from "./events.ts";
import { agentByClaimToken } from "./keys.ts";
import { expiryCutoff, isExpired, UNVERIFIED_LIFETIME_HOURS, VERIFICATION_CODE_LIFETIME_MS } from "./lifetimes.ts";
import type { AgentRecord } from "./records.ts";
import type { Services } from "./services.ts";

// An agent proves a human owner by a public post on X that mentions the
// service's handle and carries a short-lived code. Each X account verifies
// one agent, enforced by a unique column.

/** No 0/O, 1/I/L: a person copies the code by hand. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** Characters of a verification code after its prefix. */
export const CODE_LENGTH = 6;

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

/** Where a verification link stands: its agent waits for a person, is verified, expired, or was never there. */
export type Claim =
  | { state: "open"; agent: AgentRecord; address: string }
  | { state: "verified"; agent: AgentRecord; address: string }
  | { state: "expired" }
  | { state: "unknown" };

export async function claimOf(services: Services, claimToken: string): Promise<Claim> {
  const agent = await agentByClaimToken(services, claimToken);
  if (!agent) return { state: "unknown" };
  if (isExpired(agent, services.clock.now())) return { state: "expired" };
  const address = addressOf(agent, services.config);
  return { state: agent.verifiedAt === null ? "open" : "verified", agent, address };
}

/**
 * The agent a verification link waits with, for the link's own endpoints:
 * 404 for a link that never was, 410 for one used or expired, as its page answers.
 */
export async function openClaim(services: Services, claimToken: string): Promise<AgentRecord> {
  const claim = await claimOf(services, claimToken);
  switch (claim.state) {
    case "open":
      return claim.agent;
    case "unknown":
      throw claimInvalid();
    case "verified":
      throw new ServiceError("GONE", "This verification link has been used: its agent is verified");
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

/** Refuses the post-on-X flow where the operator verifies agents. */
function assertSocialMode(config: Config): void {
  if (config.verificationMode === "admin") {
    throw new ServiceError(
      "BAD_REQUEST",
      "On this instance the operator verifies agents (VERIFICATION_MODE=admin): ask them to verify this one",
    );
  }
}

/** Refuses an agent that can no longer be verified. */
function assertVerifiable(agent: AgentRecord, now: Date): void {
  if (agent.verifiedAt !== null) throw new ServiceError("BAD_REQUEST", "Agent is already verified");
  if (isExpired(agent, now)) {
    throw new ServiceError(
      "BAD_REQUEST",
      `Agent expired: unverified agents are deleted ${UNVERIFIED_LIFETIME_HOURS} hours after creation; register it again`,
      { code: "VERIFICATION_EXPIRED" },
    );
  }
}

/** A code issued to a still unverified agent and not past its lifetime. */
function hasActiveCode(agent: AgentRecord, now: Date): boolean {
  return agent.verifiedAt === null && agent.verificationExpires !== null && agent.verificationExpires > now;
}

/** Refuses a code that is missing or past its lifetime. */
function assertActiveCode(agent: AgentRecord, now: Date): string {
  if (agent.verificationCode === null || agent.verificationExpires === null) {
    throw new ServiceError("BAD_REQUEST", "No verification in progress: call POST /verify/start first");
  }
  if (!hasActiveCode(agent, now)) {
    throw new ServiceError("BAD_REQUEST", "The verification code expired: start verification again", {
      code: "VERIFICATION_EXPIRED",
    });
  }
  return agent.verificationCode;
}

export function verificationStatus({ clock, config }: Services, agent: AgentRecord): VerificationStatus {
  const active = hasActiveCode(agent, clock.now());
  return {
    mode: config.verificationMode,
    verified: agent.verifiedAt !== null,
    verifiedAt: agent.verifiedAt,
    hasActiveCode: active,
    codeExpiresAt: active ? agent.verificationExpires : null,
  };
}

/** A code valid for its lifetime (VERIFICATION_CODE_MINUTES), replacing any earlier one. */
export async function startVerification(services: Services, agent: AgentRecord): Promise<Challenge> {
  const { config, clock } = services;
  assertSocialMode(config);
  assertVerifiable(agent, clock.now());
  const verificationCode = newCode(config.verificationCodePrefix);
  const expiresAt = new Date(clock.now().getTime() + VERIFICATION_CODE_LIFETIME_MS);
  if (!(await setVerificationCode(services, agent.id, verificationCode, expiresAt)))
    throw new ServiceError("BAD_REQUEST", "Agent is already verified");
  const tweetText = `Verifying my AI agent's mailbox ${addressOf(agent, config)} with @${config.socialHandle} ${verificationCode}`;
  const intent = new URL(config.socialIntentUrl);
  intent.searchParams.set("text", tweetText);
  return { verificationCode, expiresAt, tweetText, socialIntentUrl: intent.toString() };
}

/** Checks the public post on X and verifies the agent. */
export async function completeVerification(
  services: Services,
  agent: AgentRecord,
  tweetUrl: string,
): Promise<Verified> {
  const { config, clock, posts } = services;
  assertSocialMode(config);
  assertVerifiable(agent, clock.now());
  const url = parsePostUrl(tweetUrl);
  if (!url) {
    throw new ServiceError("BAD_REQUEST", "tweetUrl must be the URL of a post: https://x.com/<user>/status/<id>");
  }
  const code = assertActiveCode(agent, clock.now());
  const post = await posts.find(url);
  const invalid = (message: string) => new ServiceError("BAD_REQUEST", message, { code: "INVALID_TWEET" });
  if (!post) throw invalid("Post not found or not accessible: it must exist and be public");
  if (!mentions(post.text, config.socialHandle)) throw invalid(`The post does not mention @${config.socialHandle}`);
  if (!containsCode(post.text, code)) throw invalid(`The post does not contain the verification code ${code}`);
  const verifiedAt = clock.now();
  const socialUsername = post.authorUsername;
  // The lookup took time: the agent and its code must still be valid now, on whichever instance.
  const verification = { at: verifiedAt, by: "social", socialUsername: socialUsername.toLowerCase(), code } as const;
  const verified = await withEvents(services, async (tx, emit) => {
    const outcome = await markVerified(tx, agent.id, verification, expiryCutoff(verifiedAt));
    if (outcome === "taken") {
      throw new ServiceError("BAD_REQUEST", `The X account @${socialUsername} already verified another agent`, {
        code: "SOCIAL_ALREADY_USED",
      });
    }
    if (outcome === "changed") return false;
    await emit({
      type: "agent.verified",
      agentId: agent.id,
      data: { verifiedAt: verifiedAt.getTime(), socialUsername },
    });
    return true;
  });
  if (!verified) {
    throw new ServiceError(
      "BAD_REQUEST",
      "Verification changed meanwhile (completed or restarted); see GET /verify/status",
    );
  }
  return { success: true, verifiedAt, socialUsername };
}

/** The operator verifies an agent (admin API or CLI), in any mode; refused when verified already or expired. */
export async function verifyByOperator(services: Services, agent: AgentRecord): Promise<Date> {
  const { clock } = services;
  assertVerifiable(agent, clock.now());
  const verifiedAt = clock.now();
  const verification = { at: verifiedAt, by: "admin", socialUsername: null, code: null } as const;
  const verified = await withEvents(services, async (tx, emit) => {
    const changed = (await markVerified(tx, agent.id, verification, expiryCutoff(verifiedAt))) === "verified";
    if (changed) {
      await emit({
        type: "agent.verified",
        agentId: agent.id,
        data: { verifiedAt: verifiedAt.getTime(), socialUsername: null },
      });
    }
    return changed;
  });
  if (!verified) throw new ServiceError("BAD_REQUEST", "Agent is already verified or expired");
  return verifiedAt;
}
