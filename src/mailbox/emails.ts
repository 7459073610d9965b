import { type EmailQuery, emailById, emailPage, firstEmailAfter, emailSlice as sliceOfEmails } from "../db/emails.ts";
import { giveStorageBack } from "../db/quota.ts";
import type { Statements } from "../db/sql.ts";
import { withDeadline } from "../deadline.ts";
import { ServiceError } from "../errors.ts";
import type { Outcome } from "./agents.ts";
import { type Emit, MAX_WAIT_SECONDS, withEvents } from "./events.ts";
import { folderName, SYSTEM_FOLDERS } from "./folders.ts";
import { type Page, type PageRequest, pageWindow, type SliceRequest } from "./pages.ts";
import type { EmailRecord } from "./records.ts";
import { filterText, type MailFilter, selectorOf } from "./search.ts";
import type { Services } from "./services.ts";

// Received mail in the agent's folders, and the folder state table: any
// folder to any folder, delete moves to trash, and deleting from trash (or
// with permanent) removes the message and frees its bytes. Reads are plain
// statements in keyset order (receivedAt, then id, newest first).

export interface Folder {
  name: string;
  total: number;
  unread: number;
}

const notFound = () => new ServiceError("NOT_FOUND", "Email not found");

/** The agent's mail the filter selects: best match first when it searches, else newest first. */
export async function listEmails(
  services: Services,
  agent: { id: string },
  request: PageRequest & MailFilter,
  query: EmailQuery = {},
): Promise<Page<EmailRecord>> {
  const window = pageWindow(request);
  return { ...(await emailPage(services, agent.id, selectorOf(request), window, query)), ...window };
}

/** Mail the filter selects after or before a position, newest first, for cursor paging. */
export function emailSlice(
  services: Services,
  agent: { id: string },
  filter: MailFilter,
  request: SliceRequest,
  query: EmailQuery = {},
): Promise<EmailRecord[]> {
  return sliceOfEmails(services, agent.id, selectorOf(filter), request, query);
}

export async function getEmail(
  services: Services,
  agent: { id: string },
  emailId: string,
  query: EmailQuery = {},
): Promise<EmailRecord> {
  const email = await emailById(services, agent.id, emailId, query);
  if (!email) throw notFound();
  return email;
}

export interface EmailChange {
  folder?: string | null;
  isRead?: boolean | null;
}

const MAX_BATCH = 100;

/** The change as it will be applied: a folder by its stored name. */
function checkedChange(change: EmailChange): { folder: string | null; isRead: boolean | null } {
  if (change.folder == null && change.isRead == null) {
    throw new ServiceError("BAD_REQUEST", "Give folder, isRead, or both");
  }
  return { folder: change.folder == null ? null : folderName(change.folder), isRead: change.isRead ?? null };
}

/** When mail went into the trash, kept while it stays there: its parameters are the new folder and now. */
const TRASHED_AT = `"trashedAt" = CASE WHEN ? = 'trash' THEN COALESCE("trashedAt", ?) ELSE NULL END`;

/** Applies the change to the agent's emails, all of them or, when one is not the agent's, none; how many changed. */
async function applyChange(
  services: Services,
  agentId: string,
  emailIds: string[],
  change: { folder: string | null; isRead: boolean | null },
): Promise<number> {
  const { sql } = services;
  return withEvents(services, async (tx, emit) => {
    const rows = await tx.all(
      `SELECT "id", "folder", "isRead" FROM "Email" WHERE "agentId" = ? AND "id" IN (${emailIds.map(() => "?").join(", ")})${sql.forUpdate}`,
      [agentId, ...emailIds],
    );
    if (rows.length !== emailIds.length) throw notFound();
    let changed = 0;
    for (const before of rows) {
      const after = {
        folder: change.folder ?? (before.folder as string),
        isRead: change.isRead ?? sql.flag(before.isRead),
      };
      if (after.folder === before.folder && after.isRead === sql.flag(before.isRead)) continue;
      await tx.run(`UPDATE "Email" SET "folder" = ?, "isRead" = ?, ${TRASHED_AT} WHERE "id" = ? AND "agentId" = ?`, [
        after.folder,
        after.isRead,
        after.folder,
        sql.at(services.clock.now()),
        before.id as string,
        agentId,
      ]);
      await emit({ type: "email.updated", agentId, data: { emailId: before.id as string, ...after } });
      changed++;
    }
    return changed;
  });
}

/** Moves an email to a folder and/or sets its read flag. */
export async function updateEmail(
  services: Services,
  agent: { id: string },
  emailId: string,
  change: EmailChange,
  query: EmailQuery = {},
): Promise<EmailRecord> {
  await applyChange(services, agent.id, [emailId], checkedChange(change));
  return getEmail(services, agent, emailId, query);
}

/** One change to up to 100 emails at once: all of them, or none when one is not the agent's. */
export async function updateEmails(
  services: Services,
  agent: { id: string },
  emailIds: string[],
  change: EmailChange,
): Promise<{ updated: number }> {
  const ids = [...new Set(emailIds)];
  if (ids.length < 1 || ids.length > MAX_BATCH) {
    throw new ServiceError("BAD_REQUEST", `emailIds must name 1-${MAX_BATCH} emails`);
  }
  return { updated: await applyChange(services, agent.id, ids, checkedChange(change)) };
}

/** To trash; from trash, or with permanent, for good, freeing its bytes. */
export async function deleteEmail(
  services: Services,
  agent: { id: string },
  emailId: string,
  permanent: boolean,
): Promise<Outcome> {
  const mine = [emailId, agent.id];
  return withEvents(services, async (tx, emit) => {
    const email = await tx.one(`SELECT "folder", "size" FROM "Email" WHERE "id" = ? AND "agentId" = ?`, mine);
    if (!email) throw notFound();
    if (!permanent && email.folder !== "trash") {
      const trashed = `UPDATE "Email" SET "folder" = 'trash', "trashedAt" = ? WHERE "id" = ? AND "agentId" = ?`;
      if ((await tx.run(trashed, [services.sql.at(services.clock.now()), ...mine])) === 0) {
        throw notFound();
      }
      await emit({ type: "email.deleted", agentId: agent.id, data: { emailId, permanent: false } });
      return { success: true, message: "Email moved to trash" };
    }
    if (!(await deleteForGood(tx, emit, agent.id, emailId, Number(email.size)))) throw notFound();
    return { success: true, message: "Email permanently deleted" };
  });
}

/**
 * Deletes an email for good, freeing its bytes; false when it was gone
 * already. Conditional, so that of two concurrent deletes only one frees them.
 */
async function deleteForGood(tx: Statements, emit: Emit, agentId: string, emailId: string, size: number) {
  if ((await tx.run(`DELETE FROM "Email" WHERE "id" = ? AND "agentId" = ?`, [emailId, agentId])) === 0) return false;
  await giveStorageBack(tx, agentId, size);
  await emit({ type: "email.deleted", agentId, data: { emailId, permanent: true } });
  return true;
}

/** Deletes an email for good if the trash has held it since before `before`; false when it left the trash. */
export async function deleteFromTrash(
  services: Services,
  email: { id: string; agentId: string },
  before: Date,
): Promise<boolean> {
  const { sql } = services;
  return withEvents(services, async (tx, emit) => {
    const row = await tx.one(
      `SELECT "size" FROM "Email" WHERE "id" = ? AND "agentId" = ? AND "folder" = 'trash' AND "trashedAt" < ?${sql.forUpdate}`,
      [email.id, email.agentId, sql.at(before)],
    );
    return row !== undefined && row !== null && deleteForGood(tx, emit, email.agentId, email.id, Number(row.size));
  });
}

/** inbox, archive and trash, then every custom folder that holds mail. */
export async function folderSummary({ prisma }: Services, agent: { id: string }): Promise<Folder[]> {
  const groups = await prisma.email.groupBy({
    by: ["folder", "isRead"],
    where: { agentId: agent.id },
    _count: { _all: true },
  });
  const folders = new Map(SYSTEM_FOLDERS.map((name) => [name, { name, total: 0, unread: 0 }]));
  for (const group of groups) {
    const folder = folders.get(group.folder) ?? { name: group.folder, total: 0, unread: 0 };
    folder.total += group._count._all;
    if (!group.isRead) folder.unread += group._count._all;
    folders.set(group.folder, folder);
  }
  const rank = (name: string) => {
    const system = SYSTEM_FOLDERS.indexOf(name);
    return system < 0 ? SYSTEM_FOLDERS.length : system;
  };
  return [...folders.values()].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

export interface EmailWait {
  folder?: string | null;
  /** An address, or `@domain` for any sender there. */
  from?: string | null;
  /** Part of the subject, without regard to case. */
  subject?: string | null;
  /** Mail received after this time (ms); by default, after the wait begins. */
  after?: number | null;
  timeoutSeconds?: number | null;
}

/** The first matching email received after `after`, as soon as it is filed; null when none came in time. */
export async function waitForEmail(
  services: Services,
  agent: { id: string },
  wait: EmailWait,
  signal?: AbortSignal,
  query: EmailQuery = {},
): Promise<EmailRecord | null> {
  const timeout = wait.timeoutSeconds ?? MAX_WAIT_SECONDS;
  if (timeout < 0 || timeout > MAX_WAIT_SECONDS) {
    throw new ServiceError("BAD_REQUEST", `timeout must be 0-${MAX_WAIT_SECONDS} seconds`);
  }
  const match = {
    after: new Date(wait.after ?? services.clock.now().getTime()),
    folder: wait.folder == null ? null : folderName(wait.folder),
    from: wait.from == null ? null : filterText(wait.from, "from"),
    subject: wait.subject == null ? null : filterText(wait.subject, "subject"),
  };
  return withDeadline(timeout * 1000, signal, async (deadline) => {
    for (;;) {
      const woken = services.wakeups.next(agent.id, deadline);
      const email = await firstEmailAfter(services, agent.id, match, query);
      if (email || deadline.aborted) return email;
      await woken;
    }
  });
}

export type { EmailQuery };
