#!/usr/bin/env node
import { createInterface } from "node:readline/promises";
import { parseArgs } from "node:util";
import { setFlagsFromString } from "node:v8";
import { systemClock } from "../clock.ts";
import { type Config, ConfigError, loadConfig } from "../config.ts";
import { type Database, openDatabase, postgresTarget } from "../db/client.ts";
import { migrate, pendingMigrations } from "../db/migrate.ts";
import { ServiceError } from "../errors.ts";
import { describeFault, type Logger } from "../log.ts";
import * as admin from "../mailbox/admin.ts";
import type { KeyView } from "../mailbox/agent-keys.ts";
import { createAgent } from "../mailbox/agents.ts";
import {
  addDomain,
  type DomainView,
  deleteDomain,
  getDomain,
  listDomains,
  setDomainOpen,
  verifyDomain,
} from "../mailbox/domains.ts";
import { type Permission, POD_PERMISSIONS } from "../mailbox/permissions.ts";
import { createPodKeyAsOperator, listPodKeysAsOperator, revokePodKeyAsOperator } from "../mailbox/pod-keys.ts";
import { createPod, deletePod, findPod, listPods, type PodView, setPodSendPolicy, updatePod } from "../mailbox/pods.ts";
import { deleteQuarantinedMessage, listQuarantine, releaseQuarantined } from "../mailbox/quarantine.ts";
import { addressesOf } from "../mailbox/records.ts";
import { approveHeld, listHeld, rejectHeld } from "../mailbox/review.ts";
import {
  addListEntry,
  type Direction,
  type EntryKind,
  getLists,
  type ListOwner,
  removeListEntry,
  type ScopeLists,
  setLists,
} from "../mailbox/senders.ts";
import type { Services } from "../mailbox/services.ts";
import { createMetrics } from "../metrics.ts";
import { servicesFor } from "../services.ts";
import { databaseNotChosen, doctor } from "./doctor.ts";
import { fields, jsonOf, table } from "./output.ts";

// The operator's command line, on the box: the admin API's acts and a few
// of its own, over the same domain functions, with the database reached
// directly (DATABASE_URL and the rest of the service's configuration).

// A command lives for a few queries. V8 would also compile Prisma's query
// compiler (WebAssembly) with its optimizing tier, in threads beside the
// command and waited for at its exit: more work than so short a life repays.
// Its baseline tier (Liftoff) alone takes about a fifth off a command's CPU.
// Set before the first query, when the client compiles the module.
setFlagsFromString("--liftoff-only");

const USAGE = `Usage: pigeonhole <command> [--json]

  agents list [--verified true|false] [--prefix <id prefix>] [--limit n] [--offset n]
  agents create <id> --name <name> [--domain <domain>] [--pod <pod id>]
  agents show <id>
  agents verify <id>
  agents delete <id> [--yes]
  agents rotate-key <id>
  limits set <id> [--storage <bytes>|default] [--daily-sends <n>|default]
  suppressions list <id> [--limit n] [--offset n]
  suppressions remove <id> <address>
  policy set <id> open|review_new_recipients|review_all|default
  reviewer set <id> [--email <address>] [--webhook-url <url> --webhook-secret <whsec_…>]
  screening set <agent id> screen|quarantine
  held list [--limit n] [--offset n]
  held approve <agent id> <draft id>
  held reject <agent id> <draft id> [--reason <text>]
  quarantine list [--agent <id>] [--limit n] [--offset n]
  quarantine release <id>
  quarantine delete <id> [--yes]
  pods create <id> --name <name> [--domains <domain,domain,…>]
  pods list
  pods show <id>
  pods rename <id> --name <name>
  pods verify <id>
  pods delete <id> [--yes]
  pods policy <id> open|review_new_recipients|review_all|default
  keys list <agent id> | keys list --pod <pod id>
  keys create --pod <pod id> --name <name> --permissions <read,send,manage,events,agents>
              [--agents <id,id,…>] [--expires <ISO 8601 time>] [--hide-junk]
  keys revoke <agent id> <key id> | keys revoke --pod <pod id> <key id>
  domains add <name> [--open]
  domains show|verify|open|close|delete <name>
  domains list
  lists show [--domain <name> | --pod <id> | --agent <id>]
  lists add|remove receive|send allow|block <address, @domain or @*.domain> [--domain <name> | --pod <id> | --agent <id>]
  lists allow-only on|off --agent <id>
  stats
  migrate
  backup <file>
  doctor

Configuration comes from the same environment variables as the service.`;

/** A mistake in how the command was called: said, with the usage, exit 2. */
class UsageError extends Error {}

/** parseArgs' two kinds of option: one that takes a value, and a flag. */
const VALUE = { type: "string" } as const;
const FLAG = { type: "boolean" } as const;

const OPTIONS = {
  json: FLAG,
  yes: FLAG,
  verified: VALUE,
  prefix: VALUE,
  limit: VALUE,
  offset: VALUE,
  storage: VALUE,
  "daily-sends": VALUE,
  reason: VALUE,
  name: VALUE,
  domain: VALUE,
  agent: VALUE,
  pod: VALUE,
  domains: VALUE,
  permissions: VALUE,
  agents: VALUE,
  expires: VALUE,
  "hide-junk": FLAG,
  open: FLAG,
  email: VALUE,
  "webhook-url": VALUE,
  "webhook-secret": VALUE,
  help: { type: "boolean", short: "h" },
} as const;

type Options = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

/** What a command prints: for people, and for --json. */
interface Output {
  text: string;
  json: unknown;
  /** The exit code; 0 unless said. */
  code?: number;
}

function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) throw new UsageError(`--${name} must be a whole number`);
  return Number(value);
}

/** A limit to set: a number, or `default` for the instance's. */
function limitOption(value: string | undefined, name: string): number | null | undefined {
  return value === "default" ? null : integerOption(value, name);
}

const LIST_COLUMNS: (keyof admin.AgentOverview)[] = [
  "id",
  "verifiedBy",
  "createdAt",
  "storageUsed",
  "storageLimit",
  "sendsToday",
  "dailySendLimit",
  "lastReceivedAt",
];

async function agents(services: Services, [action, id]: string[], options: Options): Promise<Output> {
  if (action === "list") {
    const verified = options.verified === undefined ? undefined : options.verified === "true";
    if (options.verified !== undefined && !["true", "false"].includes(options.verified)) {
      throw new UsageError("--verified must be true or false");
    }
    const page = await admin.listAgents(services, {
      verified,
      prefix: options.prefix,
      limit: integerOption(options.limit, "limit"),
      offset: integerOption(options.offset, "offset"),
    });
    const shown = `${page.offset + 1}-${page.offset + page.data.length} of ${page.total}`;
    return { text: `${table(page.data, LIST_COLUMNS)}\n(${page.data.length === 0 ? "none" : shown})`, json: page };
  }
  if (!id) throw new UsageError(`agents ${action ?? "<action>"} needs an agent id`);
  switch (action) {
    case "create": {
      if (options.name === undefined) throw new UsageError("agents create <id> needs --name <name>");
      const input = { id, name: options.name, domain: options.domain, podId: options.pod };
      const { apiKey } = await createAgent(services, input, "operator");
      const agent = await admin.agentOverview(services, id);
      return {
        text: `Agent ${agent.id} created, verified: ${agent.email}\nAPI key (shown only now):\n${apiKey}`,
        json: { agent, apiKey },
      };
    }
    case "show": {
      const agent = await admin.agentOverview(services, id);
      return { text: fields({ ...agent }), json: agent };
    }
    case "verify": {
      const agent = await admin.verifyAgent(services, id);
      return { text: `Agent ${agent.id} is verified.`, json: agent };
    }
    case "rotate-key": {
      const { apiKey } = await admin.rotateKeyById(services, id);
      return {
        text: `New API key for ${id} (shown only now; the previous one stopped working):\n${apiKey}`,
        json: { apiKey },
      };
    }
    case "delete": {
      await admin.agentOverview(services, id);
      if (
        !options.yes &&
        !(await confirmed(`Delete agent ${id} with all its mail, for good? Type its id to confirm: `, id))
      ) {
        return { text: "Not deleted.", json: { success: false, message: "Not confirmed" }, code: 1 };
      }
      const outcome = await admin.deleteAgentById(services, id);
      return { text: outcome.message, json: outcome };
    }
    default:
      throw new UsageError(`unknown action: agents ${action}`);
  }
}

/**
 * Asks on the terminal (or reads a line from a pipe); true when the answer is
 * the expected word. Input that ends without a line (no terminal, nothing
 * piped) is no answer: a refusal, said, rather than a wait that never ends.
 */
async function confirmed(question: string, expected: string): Promise<boolean> {
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const ended = new Promise<null>((resolve) => prompt.once("close", () => resolve(null)));
  try {
    const answer = await Promise.race([prompt.question(question), ended]);
    // A piped answer is not echoed with its newline, as a typed one is.
    if (!process.stdin.isTTY) process.stderr.write("\n");
    if (answer === null)
      process.stderr.write("No answer came (is there a terminal?): pass --yes to delete without asking.\n");
    return answer?.trim() === expected;
  } catch {
    return false;
  } finally {
    prompt.close();
  }
}

async function limits(services: Services, [action, id]: string[], options: Options): Promise<Output> {
  if (action !== "set" || !id)
    throw new UsageError("limits set <id> [--storage <bytes>|default] [--daily-sends <n>|default]");
  const change = {
    storageLimit: limitOption(options.storage, "storage"),
    dailySendLimit: limitOption(options["daily-sends"], "daily-sends"),
  };
  if (change.storageLimit === undefined && change.dailySendLimit === undefined) {
    throw new UsageError("limits set needs --storage or --daily-sends");
  }
  const agent = await admin.setLimits(services, id, change);
  return {
    text: `Agent ${agent.id}: storage ${agent.storageLimit} bytes, ${agent.dailySendLimit} sends a day.`,
    json: agent,
  };
}

async function suppressions(services: Services, [action, id, address]: string[], options: Options): Promise<Output> {
  if (action === "list" && id) {
    const page = await admin.suppressionsOf(services, id, {
      limit: integerOption(options.limit, "limit"),
      offset: integerOption(options.offset, "offset"),
    });
    const shown = `${page.offset + 1}-${page.offset + page.data.length} of ${page.total}`;
    return {
      text: `${table(page.data, ["address", "reason", "statusCode", "sentId", "createdAt"])}\n(${page.data.length === 0 ? "none" : shown})`,
      json: page,
    };
  }
  if (action === "remove" && id && address) {
    const outcome = await admin.clearSuppression(services, id, address);
    return { text: `${address}: ${outcome.message}.`, json: outcome };
  }
  throw new UsageError("suppressions list <id> | suppressions remove <id> <address>");
}

async function policy(services: Services, [action, id, choice]: string[]): Promise<Output> {
  if (action !== "set" || !id || !choice) {
    throw new UsageError("policy set <id> open|review_new_recipients|review_all|default");
  }
  const agent = await admin.setSendPolicy(services, id, choice === "default" ? null : choice);
  const wider = agent.podId === null ? "the instance's SEND_POLICY" : `pod ${agent.podId}'s, else SEND_POLICY`;
  const own = agent.sendPolicyOverride === null ? ` (${wider})` : "";
  return { text: `Agent ${agent.id}: send policy ${agent.sendPolicy}${own}.`, json: agent };
}

/** Who decides the agent's held mail: each part left out is the instance's (REVIEWER_*). */
async function reviewer(services: Services, [action, id]: string[], options: Options): Promise<Output> {
  if (action !== "set" || !id) {
    throw new UsageError("reviewer set <id> [--email <address>] [--webhook-url <url> --webhook-secret <whsec_…>]");
  }
  const agent = await admin.setReviewer(services, id, {
    email: options.email ?? null,
    webhookUrl: options["webhook-url"] ?? null,
    webhookSecret: options["webhook-secret"] ?? null,
  });
  const told = [agent.reviewerEmail, agent.reviewerWebhookUrl].filter((to) => to !== null);
  const text =
    told.length > 0
      ? `Agent ${agent.id}: held mail's review links go to ${told.join(" and ")}.`
      : `Agent ${agent.id}: nobody is told of held mail; decide it with pigeonhole held.`;
  return { text, json: agent };
}

async function screening(services: Services, [action, id, choice]: string[]): Promise<Output> {
  if (action !== "set" || !id || !choice) throw new UsageError("screening set <agent id> screen|quarantine");
  const agent = await admin.setScreeningPolicy(services, id, choice);
  const what =
    agent.screeningPolicy === "quarantine" ? "held in quarantine until you release it" : "filed and marked suspicious";
  return { text: `Agent ${agent.id}: mail the screening finds suspicious is ${what}.`, json: agent };
}

async function quarantine(services: Services, [action, id]: string[], options: Options): Promise<Output> {
  if (action === "list") {
    const page = await listQuarantine(
      services,
      { agentId: options.agent },
      { limit: integerOption(options.limit, "limit"), offset: integerOption(options.offset, "offset") },
    );
    const data = page.data.map(({ fromAddress, ...held }) => ({ ...held, from: fromAddress }));
    const shown = `${page.offset + 1}-${page.offset + page.data.length} of ${page.total}`;
    return {
      text: `${table(data, ["id", "agentId", "reason", "from", "subject", "receivedAt", "detail"])}\n(${page.data.length === 0 ? "none" : shown})`,
      json: { ...page, data },
    };
  }
  if (action === "release" && id) {
    const released = await releaseQuarantined(services, id);
    return { text: `Released into its agent's inbox as email ${released.emailId}.`, json: released };
  }
  if (action === "delete" && id) {
    if (!options.yes && !(await confirmed(`Delete ${id} from quarantine, for good? Type its id to confirm: `, id))) {
      return { text: "Not deleted.", json: { success: false, message: "Not confirmed" }, code: 1 };
    }
    const outcome = await deleteQuarantinedMessage(services, id);
    return { text: `${outcome.message}.`, json: outcome };
  }
  throw new UsageError("quarantine list [--agent <id>] | quarantine release <id> | quarantine delete <id> [--yes]");
}

async function held(services: Services, [action, agentId, draftId]: string[], options: Options): Promise<Output> {
  if (action === "list") {
    const page = await listHeld(services, {
      limit: integerOption(options.limit, "limit"),
      offset: integerOption(options.offset, "offset"),
    });
    const rows = page.data.map((draft) => ({ ...draft, to: addressesOf(draft.toList).join(", ") }));
    const shown = `${page.offset + 1}-${page.offset + page.data.length} of ${page.total}`;
    return {
      text: `${table(rows, ["agentId", "id", "to", "subject", "reviewExpiresAt"])}\n(${page.data.length === 0 ? "none" : shown})`,
      json: page,
    };
  }
  if (action === "approve" && agentId && draftId) {
    const decision = await approveHeld(services, agentId, draftId);
    return { text: `Approved: it goes out at ${decision.sendAt?.toISOString()}.`, json: decision };
  }
  if (action === "reject" && agentId && draftId) {
    const decision = await rejectHeld(services, agentId, draftId, options.reason ?? null);
    return { text: "Rejected: it will not be sent.", json: decision };
  }
  throw new UsageError(
    "held list | held approve <agent id> <draft id> | held reject <agent id> <draft id> [--reason <text>]",
  );
}

const POD_COLUMNS: (keyof PodView)[] = ["id", "name", "domains", "agents", "sendPolicy", "verifiedAt", "createdAt"];

async function pods(services: Services, [action, id, choice]: string[], options: Options): Promise<Output> {
  if (action === "list") {
    const all = await listPods(services);
    return { text: table(all, POD_COLUMNS), json: { data: all } };
  }
  if (!id) throw new UsageError(`pods ${action ?? "<action>"} needs a pod id`);
  const shown = (pod: PodView, said: string) => ({ text: `${said}\n${fields({ ...pod })}`, json: pod });
  switch (action) {
    case "create": {
      if (options.name === undefined) throw new UsageError("pods create <id> needs --name <name>");
      const domains = options.domains?.split(",").filter((domain) => domain !== "");
      return shown(await createPod(services, { id, name: options.name, domains }), `Pod ${id} created.`);
    }
    case "show":
      return shown(await findPod(services, id), `Pod ${id}:`);
    case "rename": {
      if (options.name === undefined) throw new UsageError("pods rename <id> needs --name <name>");
      return shown(await updatePod(services, id, { name: options.name }), `Pod ${id} renamed.`);
    }
    case "verify": {
      const pod = await admin.verifyPod(services, id);
      return shown(pod, `Pod ${id} verified: its agents are verified with it.`);
    }
    case "policy": {
      if (!choice) throw new UsageError("pods policy <id> open|review_new_recipients|review_all|default");
      const pod = await setPodSendPolicy(services, id, choice === "default" ? null : choice);
      const own = pod.sendPolicyOverride === null ? " (the instance's SEND_POLICY)" : "";
      return shown(pod, `Pod ${id}: send policy ${pod.sendPolicy}${own}.`);
    }
    case "delete": {
      await findPod(services, id);
      if (
        !options.yes &&
        !(await confirmed(`Delete pod ${id}, its keys and its lists? Type its id to confirm: `, id))
      ) {
        return { text: "Not deleted.", json: { success: false, message: "Not confirmed" }, code: 1 };
      }
      const outcome = await deletePod(services, id);
      return { text: outcome.message, json: outcome };
    }
    default:
      throw new UsageError(`unknown action: pods ${action}`);
  }
}

/** A key as people read it: its permissions and agents as lists, a pod's key without `agents` reaching them all. */
const keyRow = (key: KeyView) => ({
  ...key,
  permissions: key.permissions.join(","),
  agents: key.agents?.join(",") ?? "all",
});

const POD_KEY_COLUMNS = ["id", "name", "permissions", "agents", "expiresAt", "hideJunk", "createdAt"] as const;
/** An agent's key reaches its agent alone: no `agents`. */
const AGENT_KEY_COLUMNS = POD_KEY_COLUMNS.filter((column) => column !== "agents");

/** Comma-separated names, each once; none when the option is left out. */
const namesOf = (value: string | undefined) => [...new Set(value?.split(",").filter((name) => name !== "") ?? [])];

function permissionsOption(value: string | undefined): Permission[] {
  const named = namesOf(value);
  if (named.length === 0 || named.some((name) => !(POD_PERMISSIONS as readonly string[]).includes(name))) {
    throw new UsageError(`--permissions takes ${POD_PERMISSIONS.join(", ")}, comma-separated`);
  }
  return named as Permission[];
}

/** A time in ISO 8601 (a date alone is midnight UTC). */
function timeOption(value: string | undefined, name: string): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) {
    throw new UsageError(`--${name} must be an ISO 8601 time, such as 2027-01-31T12:00:00Z`);
  }
  return time;
}

const KEYS_USAGE =
  "keys list <agent id> | keys list --pod <pod id> | keys create --pod <pod id> --name <name> --permissions <p,p,…> [--agents <id,id,…>] [--expires <time>] [--hide-junk] | keys revoke <agent id> <key id> | keys revoke --pod <pod id> <key id>";

/** An agent's keys (named first) or a pod's (--pod): listed, made (a pod's only) and revoked. */
async function keys(services: Services, [action, ...args]: string[], options: Options): Promise<Output> {
  const podId = options.pod;
  if (action === "create") {
    if (podId === undefined || args.length > 0) {
      throw new UsageError(
        "keys create makes a pod's key: --pod <pod id>; an agent's keys are made with its own key (POST /agents/{id}/keys)",
      );
    }
    if (options.name === undefined) throw new UsageError("keys create needs --name <name>");
    const agents = options.agents === undefined ? undefined : namesOf(options.agents);
    const made = await createPodKeyAsOperator(services, podId, {
      name: options.name,
      permissions: permissionsOption(options.permissions),
      agents,
      expiresAt: timeOption(options.expires, "expires"),
      hideJunk: options["hide-junk"],
    });
    const { key, ...view } = made;
    return {
      text: `Key ${made.id} made for pod ${podId}:\n${fields(keyRow(view))}\nAPI key (shown only now):\n${key}`,
      json: made,
    };
  }
  // Whose keys: the pod's with --pod, else the agent's named first.
  const [owner, ...rest] = podId === undefined ? args : [podId, ...args];
  const [keyId] = rest;
  if (action === "list" && owner !== undefined && rest.length === 0) {
    if (podId !== undefined) {
      const listed = await listPodKeysAsOperator(services, owner);
      const text = table(listed.map(keyRow), [...POD_KEY_COLUMNS]);
      return { text: listed.length === 0 ? `${text}\n(none)` : text, json: { data: listed } };
    }
    const listed = await admin.keysOfAgentById(services, owner);
    // As the API lists an agent's keys: `agents` is a pod's key's only.
    return {
      text: table(listed.map(keyRow), AGENT_KEY_COLUMNS),
      json: { data: listed.map(({ agents: _, ...key }) => key) },
    };
  }
  if (action === "revoke" && owner !== undefined && keyId !== undefined && rest.length === 1) {
    const outcome =
      podId === undefined
        ? await admin.revokeKeyById(services, owner, keyId)
        : await revokePodKeyAsOperator(services, owner, keyId);
    return { text: `${outcome.message}.`, json: outcome };
  }
  throw new UsageError(KEYS_USAGE);
}

async function domains(services: Services, [action, name]: string[], options: Options): Promise<Output> {
  if (action === "list") {
    const all = await listDomains(services);
    return { text: table(all, ["name", "source", "open", "selector", "createdAt"]), json: { data: all } };
  }
  if (action === "delete" && name) {
    const outcome = await deleteDomain(services, name);
    return { text: `${name}: ${outcome.message}.`, json: outcome };
  }
  const acts: Record<string, (services: Services, name: string) => Promise<DomainView>> = {
    add: (services, name) => addDomain(services, name, options.open === true),
    show: getDomain,
    verify: verifyDomain,
    open: (services, name) => setDomainOpen(services, name, true),
    close: (services, name) => setDomainOpen(services, name, false),
  };
  const act = acts[action ?? ""];
  if (!act || !name) throw new UsageError("domains add|show|verify|open|close|delete <name> | domains list");
  const domain = await act(services, name);
  const checks = domain.lastCheck?.records ?? [];
  const rows = domain.records.map((record) => ({
    ...record,
    status: checks.find((check) => check.name === record.name && check.type === record.type)?.status ?? "",
  }));
  const registration = domain.open ? "open to registration" : "closed to registration";
  return {
    text: `${domain.name} (${domain.source}, ${registration})\n${table(rows, ["type", "name", "value", "status"])}`,
    json: domain,
  };
}

async function backup(database: Database, config: Config, [file]: string[]): Promise<Output> {
  if (!file) throw new UsageError("backup needs a file to write");
  if (database.backup) {
    await database.backup(file);
    return { text: `Backed up to ${file}.`, json: { file } };
  }
  // PostgreSQL: pg_dump does it better than we could; the password stays out of what is printed.
  const { connectionString, schema } = postgresTarget(config.databaseUrl);
  const url = new URL(connectionString);
  url.password = "";
  const command = `pg_dump --format=custom --schema='${schema}' --file='${file}' '${url}'`;
  return {
    text: `On PostgreSQL, back up with pg_dump (give the password as PGPASSWORD):\n${command}`,
    json: { command },
  };
}

/** Whose lists: --agent, --pod, --domain, or the instance's. */
function listOwnerOf(options: Options): ListOwner {
  if ([options.agent, options.pod, options.domain].filter((named) => named !== undefined).length > 1)
    throw new UsageError("one of --domain, --pod or --agent");
  if (options.agent !== undefined) return { scope: "agent", id: options.agent };
  if (options.pod !== undefined) return { scope: "pod", id: options.pod };
  if (options.domain !== undefined) return { scope: "domain", name: options.domain.toLowerCase() };
  return { scope: "instance" };
}

function listsText(owner: ListOwner, lists: ScopeLists): string {
  const whose =
    owner.scope === "instance"
      ? "The instance"
      : owner.scope === "domain"
        ? owner.name
        : `${owner.scope === "pod" ? "Pod" : "Agent"} ${owner.id}`;
  const line = (name: string, entries: string[]) =>
    `  ${name}: ${entries.length === 0 ? "(none)" : entries.join(", ")}`;
  const mode = lists.allowOnly === null ? [] : [`  allow only: ${lists.allowOnly ? "on" : "off"}`];
  return [
    `${whose}:`,
    line("receive allow", lists.receive.allow),
    line("receive block", lists.receive.block),
    line("send allow", lists.send.allow),
    line("send block", lists.send.block),
    ...mode,
  ].join("\n");
}

const LISTS_USAGE =
  "lists show | lists add|remove receive|send allow|block <entry> | lists allow-only on|off --agent <id> (each with --domain <name>, --pod <id> or --agent <id>)";

async function lists(services: Services, [action, ...args]: string[], options: Options): Promise<Output> {
  const owner = listOwnerOf(options);
  const shown = (lists: ScopeLists) => ({ text: listsText(owner, lists), json: lists });
  if (action === "show" && args.length === 0) return shown(await getLists(services, owner));
  const [direction, kind, entry] = args;
  const list = { direction: direction as Direction, kind: kind as EntryKind };
  if ((action === "add" || action === "remove") && entry && ["receive", "send"].includes(list.direction)) {
    if (!["allow", "block"].includes(list.kind)) throw new UsageError(LISTS_USAGE);
    const change = action === "add" ? addListEntry : removeListEntry;
    return shown(await change(services, owner, list, entry));
  }
  const [mode] = args;
  if (action === "allow-only" && (mode === "on" || mode === "off") && owner.scope === "agent") {
    return shown(await setLists(services, owner, { allowOnly: mode === "on" }));
  }
  throw new UsageError(LISTS_USAGE);
}

/** The database, opened only where the CLI was sent (see databaseNotChosen). */
async function withDatabase<T>(config: Config, work: (database: Database) => Promise<T>): Promise<T> {
  const notChosen = databaseNotChosen(config, process.env);
  if (notChosen) throw new ServiceError("NOT_FOUND", notChosen);
  const database = await openDatabase(config.databaseUrl);
  try {
    return await work(database);
  } finally {
    await database.close();
  }
}

/** The domain's services, once the database has every migration: the CLI never migrates by surprise. */
async function withServices<T>(config: Config, log: Logger, work: (services: Services) => Promise<T>): Promise<T> {
  return withDatabase(config, async (database) => {
    const pending = await pendingMigrations(database);
    if (pending.length > 0) {
      throw new ServiceError(
        "SERVICE_UNAVAILABLE",
        `${pending.length} migrations are pending: run pigeonhole migrate first`,
      );
    }
    const services = servicesFor(database, {
      config,
      clock: systemClock,
      log,
      mailer: null,
      inbound: null,
      outbound: null,
      metrics: createMetrics(null),
    });
    try {
      return await work(services);
    } finally {
      await services.reader.close();
      await services.wakeups.close();
      await services.takeover.close();
    }
  });
}

/** The commands that work on the domain's services, by name. */
const SERVICE_COMMANDS: Record<string, (services: Services, args: string[], options: Options) => Promise<Output>> = {
  agents,
  limits,
  suppressions,
  policy,
  reviewer,
  screening,
  held,
  quarantine,
  pods,
  keys,
  domains,
  lists,
  stats: async (services) => {
    const stats = await admin.instanceStats(services);
    return { text: fields({ ...stats }), json: stats };
  },
};

async function run(config: Config, [command, ...rest]: string[], options: Options, log: Logger): Promise<Output> {
  // Own keys only: "toString" is no command.
  const serviceCommand = command !== undefined && Object.hasOwn(SERVICE_COMMANDS, command) && SERVICE_COMMANDS[command];
  if (serviceCommand) return withServices(config, log, (services) => serviceCommand(services, rest, options));
  switch (command) {
    case "migrate":
      return withDatabase(config, async (database) => {
        const applied = await migrate(database);
        const text = applied.length === 0 ? "Nothing to apply." : `Applied:\n${applied.join("\n")}`;
        return { text, json: { applied } };
      });
    case "backup":
      return withDatabase(config, (database) => backup(database, config, rest));
    case "doctor": {
      const findings = await doctor(config);
      const mark = { ok: "ok  ", warn: "warn", fail: "FAIL" };
      const text = findings.map((f) => `${mark[f.status]}  ${f.check}: ${f.detail}`).join("\n");
      return { text, json: findings, code: findings.some((f) => f.status === "fail") ? 1 : 0 };
    }
    default:
      throw new UsageError(command ? `unknown command: ${command}` : "no command given");
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  // Warnings of the domain (a lost events listener) go to stderr, never into --json output.
  const log: Logger = (level, event, fields) => console.error(JSON.stringify({ level, event, ...fields }));
  try {
    const output = await run(loadConfig(process.env), positionals, values, log);
    console.log(values.json ? jsonOf(output.json) : output.text);
    return output.code ?? 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError || error instanceof ServiceError) {
      console.error(values.json ? jsonOf({ error: error.message }) : error.message);
      return 1;
    }
    console.error(`Failed: ${describeFault(error)}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
