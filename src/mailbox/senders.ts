import { agentByIdKey } from "../db/agents.ts";
import { domainExists } from "../db/domains.ts";
import {
  changeEntries,
  type Direction,
  deleteEntry,
  type EntryKind,
  entriesNaming,
  entriesOf,
  insertEntry,
  type ListOwner,
  type ListScope,
  type NamingEntry,
  type StoredEntry,
  type Tightening,
} from "../db/lists.ts";
import type { Tx } from "../db/statements.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { isEmailAddress } from "../outbound/address.ts";
import { assertPermitted, assertReachesAll, type Grant } from "./permissions.ts";
import { findPod } from "./pods.ts";
import { addressParts } from "./records.ts";
import type { Services } from "./services.ts";

// Allow and block lists at four scopes: the instance's and each served
// domain's (the operator's), each pod's (the operator's, or a key of the pod
// holding manage), and each agent's (its own, or the operator's), each for
// the mail it receives and the mail it sends. An entry is an address,
// `@domain` (that domain only) or `@*.domain` (the domain and every
// subdomain), compared without case.
//
// The narrowest scope that names an address decides (agent, then the agent's
// pod, then its domain, then the instance); within one scope a block wins
// over an allow.
// Receiving: a sender decided blocked is refused (at the SMTP door's RCPT TO,
// else nothing is filed); one decided allowed is explicitly allowed (it passes
// the spam verdict's junk). An agent in allow-only mode takes mail only from
// senders its own allow list names. Sending: a recipient decided blocked is
// refused. Mail turned away is dropped like other undeliverable mail: logged,
// counted, and remembered so it never returns.

export type { Direction, EntryKind, ListOwner, ListScope };

/** One direction's lists of one scope. */
export interface SenderLists {
  allow: string[];
  block: string[];
}

/** One direction's lists as given: a list left out is empty. */
type GivenLists = { allow?: string[] | null; block?: string[] | null };

/** A change of one scope's lists: each direction given, whole; allowOnly for an agent's. */
type GivenChange = { receive?: GivenLists | null; send?: GivenLists | null; allowOnly?: boolean | null };

/** An agent's receive lists as its own doors show them. */
export interface AgentSenders extends SenderLists {
  /** Only senders its allow list names reach it. */
  allowOnly: boolean;
}

/** Every list of one scope; allowOnly only for an agent's. */
export interface ScopeLists {
  receive: SenderLists;
  send: SenderLists;
  allowOnly: boolean | null;
}

/** The scope that decides an address, and what it says; null when no scope names it. */
export type Standing = { verdict: EntryKind; scope: ListScope } | null;

/** What filing and the door need of the agent whose lists apply. */
export interface ListHolder {
  id: string;
  /** Its address's domain; null: the default domain. */
  domain: string | null;
  /** Its pod; null: none. */
  podId: string | null;
  allowOnly: boolean;
}

/** At most this many entries in one list. */
export const MAX_ENTRIES = 1000;
const NARROWEST_FIRST: ListScope[] = ["agent", "pod", "domain", "instance"];
const DIRECTIONS: Direction[] = ["receive", "send"];

/** The entries that would name the address: itself, its domain, and `@*.` of its domain and each parent. */
export function entriesFor(address: string): string[] {
  const { local, domain } = addressParts(address);
  const labels = domain.split(".");
  const wildcards = labels.map((_, n) => `@*.${labels.slice(n).join(".")}`);
  return [`${local}@${domain}`, `@${domain}`, ...wildcards];
}

/** Who decides, from the entries naming one address: the narrowest scope naming it; within it, block over allow. */
export function standingOf(entries: Pick<StoredEntry, "scope" | "kind">[]): Standing {
  for (const scope of NARROWEST_FIRST) {
    const kinds = entries.filter((entry) => entry.scope === scope).map((entry) => entry.kind);
    if (kinds.includes("block")) return { verdict: "block", scope };
    if (kinds.includes("allow")) return { verdict: "allow", scope };
  }
  return null;
}

/** Whether mail from a sender so standing is filed for an agent in, or out of, allow-only mode. */
export function received(standing: Standing, allowOnly: boolean): boolean {
  if (standing?.verdict === "block") return false;
  return !allowOnly || standing?.scope === "agent";
}

const domainOf = (services: Services, holder: ListHolder) => holder.domain ?? services.config.mailDomain;

/** Each holder's addresses to stand on. */
type Asked = { holder: ListHolder; addresses: string[] }[];

/** How the lists of the four scopes stand on each holder's addresses, in one read for all of them. */
async function standingsForEach(db: Tx, services: Services, direction: Direction, asked: Asked): Promise<Standing[][]> {
  const each = asked.map(({ holder, addresses }) => ({
    agent: { id: holder.id, domain: domainOf(services, holder), podId: holder.podId },
    naming: addresses.map(entriesFor),
  }));
  const candidates = [...new Set(each.flatMap(({ naming }) => naming.flat()))];
  const found = await entriesNaming(
    db,
    direction,
    each.map(({ agent }) => agent),
    candidates,
  );
  return each.map(({ agent, naming }) => {
    const own = found.filter((row) => listOf(row, agent));
    return naming.map((entries) => standingOf(own.filter((row) => entries.includes(row.entry))));
  });
}

/** Whether the entry is in one of the agent's lists: the instance's, its domain's, its pod's or its own. */
function listOf(row: NamingEntry, agent: { id: string; domain: string; podId: string | null }): boolean {
  if (row.scope === "instance") return true;
  return row.scopeId === (row.scope === "domain" ? agent.domain : row.scope === "pod" ? agent.podId : agent.id);
}

/** How the lists of the four scopes stand on each address, in one read. */
async function standingsFor(
  db: Tx,
  services: Services,
  direction: Direction,
  holder: ListHolder,
  addresses: string[],
): Promise<Standing[]> {
  const [standings = []] = await standingsForEach(db, services, direction, [{ holder, addresses }]);
  return standings;
}

/**
 * How the lists stand on mail from a sender to an agent, in one read of all
 * four scopes: whether it is filed, and whether it is explicitly allowed.
 * `db`: the filing transaction, or the store's statements at RCPT TO.
 */
export async function senderStanding(
  db: Tx,
  services: Services,
  agent: ListHolder,
  sender: string,
): Promise<{ filed: boolean; allowed: boolean }> {
  const [standing = null] = await standingsFor(db, services, "receive", agent, [sender]);
  return { filed: received(standing, agent.allowOnly), allowed: standing?.verdict === "allow" };
}

/**
 * How the lists stand on mail from each sender to each agent, as
 * senderStanding, in one read for all of them (a filing transaction's): by
 * agent, then by sender.
 */
export async function senderStandings(
  db: Tx,
  services: Services,
  asked: { agent: ListHolder; senders: string[] }[],
): Promise<Map<string, Map<string, { filed: boolean; allowed: boolean }>>> {
  if (asked.length === 0) return new Map();
  const holders = asked.map(({ agent, senders }) => ({ holder: agent, addresses: senders }));
  const standings = await standingsForEach(db, services, "receive", holders);
  return new Map(
    asked.map(({ agent, senders }, n) => [
      agent.id,
      new Map(
        senders.map((sender, m) => {
          const standing = standings[n]?.[m] ?? null;
          return [sender, { filed: received(standing, agent.allowOnly), allowed: standing?.verdict === "allow" }];
        }),
      ),
    ]),
  );
}

/** Whether mail from the sender may be filed for the agent. */
export async function senderAllowed(db: Tx, services: Services, agent: ListHolder, sender: string): Promise<boolean> {
  return (await senderStanding(db, services, agent, sender)).filed;
}

/** Whether an allow entry decides for the sender: it passes the spam verdict's junk (never a malware verdict). */
export async function explicitlyAllowed(
  db: Tx,
  services: Services,
  agent: ListHolder,
  sender: string,
): Promise<boolean> {
  return (await senderStanding(db, services, agent, sender)).allowed;
}

/** A send to a recipient the lists block is refused whole, before anything is taken, naming each. */
export async function refuseBlockedRecipients(
  tx: Tx,
  services: Services,
  agent: ListHolder,
  recipients: string[],
): Promise<void> {
  if (recipients.length === 0) return;
  const standings = await standingsFor(tx, services, "send", agent, recipients);
  const blocked = recipients.flatMap((address, n) => {
    const standing = standings[n];
    return standing?.verdict === "block" ? [{ address, scope: standing.scope }] : [];
  });
  if (blocked.length === 0) return;
  const named = blocked.map(({ address, scope }) => `${address} (the ${scope}'s send list)`).join(", ");
  throw new ServiceError("BAD_REQUEST", `Sending to ${named} is blocked`, {
    code: "RECIPIENT_BLOCKED",
    recipients: blocked.map(({ address }) => address),
  });
}

/** An entry as given, checked: an address, @domain or @*.domain; lower case. */
function checkedEntry(entry: string, name: string): string {
  const domain = entry.startsWith("@*.") ? entry.slice(3) : entry.startsWith("@") ? entry.slice(1) : null;
  if (!isEmailAddress(domain === null ? entry : `sender@${domain}`)) {
    throw new ServiceError(
      "BAD_REQUEST",
      `${name}: ${JSON.stringify(excerpt(entry))} is not an address, @domain or @*.domain`,
    );
  }
  return entry.toLowerCase();
}

function checkedList(entries: string[], name: string): string[] {
  if (entries.length > MAX_ENTRIES) {
    throw new ServiceError("BAD_REQUEST", `${name} may hold at most ${MAX_ENTRIES} entries`);
  }
  return [...new Set(entries.map((entry) => checkedEntry(entry, name)))];
}

/** The owner as stored (an agent by its id in any case), with an agent's mode; 404 when it is not there. */
async function found(services: Services, owner: ListOwner): Promise<{ owner: ListOwner; allowOnly: boolean | null }> {
  if (owner.scope === "agent") {
    const agent = await agentByIdKey(services, owner.id.toLowerCase());
    if (!agent) throw new ServiceError("NOT_FOUND", "Agent not found");
    return { owner: { scope: "agent", id: agent.id }, allowOnly: agent.allowOnly };
  }
  if (owner.scope === "pod") await findPod(services, owner.id);
  if (owner.scope === "domain" && !(await domainExists(services, owner.name))) {
    throw new ServiceError("NOT_FOUND", `Domain ${excerpt(owner.name)} is not served here`);
  }
  return { owner, allowOnly: null };
}

function listsFrom(entries: StoredEntry[], direction: Direction): SenderLists {
  const of = (kind: EntryKind) =>
    entries.filter((entry) => entry.direction === direction && entry.kind === kind).map((entry) => entry.entry);
  return { allow: of("allow"), block: of("block") };
}

/** Every list of one scope. */
export async function getLists(services: Services, owner: ListOwner): Promise<ScopeLists> {
  const { owner: stored, allowOnly } = await found(services, owner);
  const entries = await entriesOf(services, stored);
  return { receive: listsFrom(entries, "receive"), send: listsFrom(entries, "send"), allowOnly };
}

type ListChange = { direction: Direction; kind: EntryKind; entries: string[] };

/** A direction's lists as given, checked; each named in a refusal as the caller wrote it. */
function checkedDirection(direction: Direction, given: GivenLists, prefix: string): ListChange[] {
  return (["allow", "block"] as const).map((kind) => ({
    direction,
    kind,
    entries: checkedList(given[kind] ?? [], `${prefix}${kind}`),
  }));
}

async function replaceLists(
  services: Services,
  owner: ListOwner,
  change: { replace: ListChange[]; tighten?: Tightening; allowOnly?: boolean },
) {
  const stored = (await found(services, owner)).owner;
  await changeEntries(services, stored, change, services.clock.now());
  return getLists(services, stored);
}

/** Replaces each direction's lists given, whole (a direction left out is kept); allowOnly for an agent's. */
export async function setLists(services: Services, owner: ListOwner, change: GivenChange): Promise<ScopeLists> {
  if (owner.scope !== "agent" && change.allowOnly != null) {
    throw new ServiceError("BAD_REQUEST", "allowOnly: only an agent's lists have an allow-only mode");
  }
  return replaceLists(services, owner, { replace: givenLists(change), allowOnly: change.allowOnly ?? undefined });
}

/** Each direction's lists given, checked. */
function givenLists(change: GivenChange): ListChange[] {
  return DIRECTIONS.flatMap((direction) => {
    const given = change[direction];
    return given == null ? [] : checkedDirection(direction, given, `${direction}.`);
  });
}

/** Adds one entry to one list; nothing when it is there already. */
export async function addListEntry(
  services: Services,
  owner: ListOwner,
  list: { direction: Direction; kind: EntryKind },
  entry: string,
): Promise<ScopeLists> {
  const checked = checkedEntry(entry, `${list.direction}.${list.kind}`);
  const stored = (await found(services, owner)).owner;
  await insertEntry(services, stored, { ...list, entry: checked }, services.clock.now());
  return getLists(services, stored);
}

/** Takes one entry off one list; 404 when it was not on it. */
export async function removeListEntry(
  services: Services,
  owner: ListOwner,
  list: { direction: Direction; kind: EntryKind },
  entry: string,
): Promise<ScopeLists> {
  const stored = (await found(services, owner)).owner;
  if (!(await deleteEntry(services, stored, { ...list, entry: entry.toLowerCase() }))) {
    throw new ServiceError("NOT_FOUND", `${excerpt(entry)} is not on the ${list.direction} ${list.kind} list`);
  }
  return getLists(services, stored);
}

/** The agent's own receive lists and mode, as its doors show them. */
export async function getSenders(services: Services, agent: { id: string }): Promise<AgentSenders> {
  const { receive, allowOnly } = await getLists(services, { scope: "agent", id: agent.id });
  return { ...receive, allowOnly: allowOnly === true };
}

/**
 * Replaces the agent's own receive lists, both. allowOnly left out: on when
 * the allow list has entries, as sender lists always meant.
 */
export async function setSenders(
  services: Services,
  agent: { id: string },
  lists: { allow?: string[] | null; block?: string[] | null; allowOnly?: boolean | null },
): Promise<AgentSenders> {
  const receive = checkedDirection("receive", lists, "");
  const allowOnly = lists.allowOnly ?? (lists.allow ?? []).length > 0;
  const set = await replaceLists(services, { scope: "agent", id: agent.id }, { replace: receive, allowOnly });
  return { ...set.receive, allowOnly };
}

/** A pod's lists, as a key of the pod holding manage reads them. */
export async function getPodLists(services: Services, podId: string, grant: Grant): Promise<ScopeLists> {
  assertPermitted(grant, "manage");
  return getLists(services, { scope: "pod", id: podId });
}

/**
 * Changes a pod's lists by a key of the pod reaching all its agents: its receive lists replaced as given, its send
 * lists only ever made stricter (tighteningOf); the operator sets any (setLists).
 */
export async function setPodLists(
  services: Services,
  podId: string,
  grant: Grant,
  change: GivenChange,
): Promise<ScopeLists> {
  assertPermitted(grant, "manage");
  assertReachesAll(grant);
  const owner: ListOwner = { scope: "pod", id: podId };
  if (change.allowOnly != null) return setLists(services, owner, change);
  const replace = givenLists({ receive: change.receive });
  if (change.send == null) return replaceLists(services, owner, { replace });
  const send = checkedDirection("send", change.send, "send.");
  return replaceLists(services, owner, {
    replace,
    tighten: tighteningOf((await getLists(services, owner)).send, send),
  });
}

/**
 * The change that makes a pod's send lists what a key asks, as blocks to add and allows to take away; refused (403)
 * when it is looser than they are: an allow entry added (at the pod's scope it decides over the domain's and the
 * instance's blocks) or a block lifted. Those are the operator's, never a key's, which an agent may hold: as for
 * the pod's send policy. Written as a change, not a replacement, so a block the operator adds meanwhile stays.
 */
function tighteningOf(now: SenderLists, wanted: ListChange[]): Tightening {
  const named = (changes: string[]) =>
    changes.length > 5 ? `${changes.slice(0, 5).join(", ")} and ${changes.length - 5} more` : changes.join(", ");
  const given = (kind: EntryKind) => wanted.find((list) => list.kind === kind)?.entries ?? [];
  const looser = [
    ...given("allow")
      .filter((entry) => !now.allow.includes(entry))
      .map((entry) => `allowing ${entry}`),
    ...now.block.filter((entry) => !given("block").includes(entry)).map((entry) => `lifting the block of ${entry}`),
  ];
  if (looser.length > 0) {
    throw new ServiceError(
      "FORBIDDEN",
      `A pod's key can make its send lists stricter, never looser (${named(looser)}); the operator can change them`,
    );
  }
  return {
    direction: "send",
    blocks: given("block").filter((entry) => !now.block.includes(entry)),
    droppedAllows: now.allow.filter((entry) => !given("allow").includes(entry)),
  };
}
