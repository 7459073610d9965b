import { ServiceError } from "../errors.ts";
import { requestScope } from "../log.ts";
import { keyInvalid, keyNotBearer, keyRequired, reachedAgent } from "../mailbox/access.ts";
import { holderOfKey, isKey, type KeyHolder, sameSecret } from "../mailbox/keys.ts";
import { type Grant, hiddenFolder } from "../mailbox/permissions.ts";
import type { AgentRecord } from "../mailbox/records.ts";
import { openReview, type Review } from "../mailbox/review.ts";
import type { Services } from "../mailbox/services.ts";
import { agentOwner, type Owner, openClaim } from "../mailbox/verification.ts";
import type { Instance } from "../services.ts";
import { AnswerBudget } from "./limits.ts";
import type { Streams } from "./streams.ts";

/** One request's view: the services, the caller behind its API key, and its answer's budget. */
export interface Context extends Instance {
  /**
   * The agent the request's key belongs to: 401 without a key or with a wrong one, 403 for a pod's key (which has
   * none of its own). Looked up once.
   */
  caller(): Promise<AgentRecord>;
  /**
   * The agent a field acts on by its id: the key's own (an agent's key), or one of its pod's agents it reaches (a
   * pod's key); any other 403, none 404 (access.ts). Looked up once per id.
   */
  acting(agentId: string): Promise<AgentRecord>;
  /** The agent acting(agentId) found, once it has; undefined before, or when it refused. */
  knownActing(agentId: string): AgentRecord | undefined;
  /** What the request's key may do: its permissions and limits (401 as caller() for no key). */
  grant(): Promise<Grant>;
  /** Both: the key's agent and grant, looked up once. */
  holder(): Promise<KeyHolder>;
  /** The request's key's grant once a scope has looked it up; undefined before. */
  knownGrant(): Grant | undefined;
  /**
   * The folder the request's key is barred from (hiddenFolder), for what Prisma plans from a selection, which is
   * planned without waiting: known once the field's scope has looked the key up, as every scope reading mail has.
   */
  barredFolder(): string | null;
  /** What a verification acts on: a verification link's agent or pod (by its claim token) when given, else the key's agent. */
  verifying(claimToken: string | null | undefined): Promise<Owner>;
  /** The held message a review link is for: 404 for no such link, 410 once decided. Looked up once per token. */
  reviewing(token: string): Promise<Review>;
  /** A person's request, or the operator's: 403 with an agent's key (its held mail is never its own to decide). */
  notAnAgent(): Promise<void>;
  /** The request carries ADMIN_TOKEN: 404 when the admin API is off, 401 without the token, 403 with an agent's key. */
  operator(): Promise<void>;
  /** Whether the key still holds: still the caller's agent's (not rotated, the agent not deleted), or not revoked. */
  stillCaller(): Promise<boolean>;
  /** The mail bodies this request's answer carries so far. */
  answer: AnswerBudget;
  /** The operation's document was found at most LIMITS.cost whatever its variables (a REST route's): not costed again. */
  costBounded: boolean;
  /** Aborts when the client goes away, where the transport tells. */
  signal(): AbortSignal | undefined;
  streams: Streams;
}

/** What the transport knows of the request, and the one budget of everything answered to it. */
export interface RequestFacts {
  /** The key its Authorization header presents, parsed once (keyOf). */
  key: string | null;
  signal: () => AbortSignal | undefined;
  /** Shared by every operation the request runs: a batch of MCP calls, or a REST route's. */
  answer: AnswerBudget;
}

/** A request as a door received it: its Authorization header, and the signal of its client going away. */
export function requestFacts(authorization: string | null, signal: () => AbortSignal | undefined): RequestFacts {
  return { key: keyOf(authorization), signal, answer: new AnswerBudget() };
}

/**
 * The key in `Authorization: Bearer <key>` (RFC 6750): null without the
 * header, "" for a header of another form, which holds no valid key. The one
 * reading of the header.
 */
export function keyOf(authorization: string | null): string | null {
  if (!authorization) return null;
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? "";
}

/**
 * The agent behind a presented key (keyOf) and what the key may do: 401 without a key or with a wrong or expired
 * one. The one place a key is checked.
 */
export async function holderOf(services: Services, apiKey: string | null): Promise<KeyHolder> {
  if (apiKey === null) throw keyRequired();
  if (apiKey === "") throw keyNotBearer();
  const holder = await holderOfKey(services, apiKey);
  if (!holder) throw keyInvalid();
  return holder;
}

const podHasNoAgent = () =>
  new ServiceError("FORBIDDEN", "A pod's API key has no agent of its own: name one of its pod's agents");

export function createContext(
  services: Instance,
  request: RequestFacts,
  streams: Streams,
  costBounded = false,
): Context {
  const apiKey = request.key;
  let holder: Promise<KeyHolder> | undefined;
  let caller: Promise<AgentRecord> | undefined;
  let grant: Promise<Grant> | undefined;
  let found: KeyHolder | undefined;
  const reviews = new Map<string, Promise<Review>>();
  const acting = new Map<string, Promise<AgentRecord>>();
  const reached = new Map<string, AgentRecord>();
  // The services last: V8 (Node 20) adds a property after a spread by a slow path, some 0.7 µs each.
  return {
    answer: request.answer,
    costBounded,
    streams,
    signal: request.signal,
    async operator() {
      const token = services.config.adminToken;
      if (token === null) throw new ServiceError("NOT_FOUND", "The admin API is off: ADMIN_TOKEN is not set");
      if (apiKey === null) throw new ServiceError("UNAUTHORIZED", "The admin token is required");
      if (sameSecret(apiKey, token)) return;
      if (apiKey !== "" && (await isKey(services, apiKey))) {
        throw new ServiceError("FORBIDDEN", "An agent's API key cannot use the admin API");
      }
      throw new ServiceError("UNAUTHORIZED", "The admin token is invalid");
    },
    async notAnAgent() {
      if (apiKey === null) return;
      const { adminToken } = services.config;
      if (adminToken !== null && sameSecret(apiKey, adminToken)) return;
      if (apiKey !== "" && (await isKey(services, apiKey))) {
        throw new ServiceError(
          "FORBIDDEN",
          "An agent's API key cannot decide held mail: its reviewer or the operator does",
        );
      }
      throw keyInvalid();
    },
    async stillCaller() {
      const [{ agent, grant }, now] = await Promise.all([this.holder(), apiKey ? holderOfKey(services, apiKey) : null]);
      if (!now) return false;
      return agent ? now.agent?.id === agent.id : now.grant.keyId === grant.keyId;
    },
    reviewing(token) {
      const review = reviews.get(token) ?? openReview(services, token);
      reviews.set(token, review);
      return review;
    },
    async verifying(claimToken) {
      if (claimToken == null) return agentOwner(await this.caller());
      return openClaim(services, claimToken);
    },
    caller() {
      caller ??= this.holder().then(({ agent }) => agent ?? Promise.reject(podHasNoAgent()));
      return caller;
    },
    acting(agentId) {
      const idKey = agentId.toLowerCase();
      let found = acting.get(idKey);
      if (!found) {
        found = this.holder().then((holder) => reachedAgent(services, holder, agentId));
        found.then((agent) => reached.set(idKey, agent)).catch(() => {});
        acting.set(idKey, found);
      }
      return found;
    },
    knownActing: (agentId) => reached.get(agentId.toLowerCase()),
    grant() {
      grant ??= this.holder().then(({ grant }) => grant);
      return grant;
    },
    knownGrant: () => found?.grant,
    barredFolder() {
      if (!found) throw new Error("The key is looked up by the field's scope before its selection is planned");
      return hiddenFolder(found.grant);
    },
    holder() {
      holder ??= (async () => {
        // Counted as presented, before the lookup: a flood of wrong keys is held back too.
        if (apiKey) await services.limits.perKey(apiKey);
        found = await holderOf(services, apiKey);
        const scope = requestScope.getStore();
        if (scope) scope.agentId = found.agent?.id ?? null;
        return found;
      })();
      return holder;
    },
    ...services,
  };
}
