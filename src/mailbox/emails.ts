import {
  agentOfEmail,
  changeEmail,
  deleteEmailRow,
  type EmailQuery,
  emailById,
  emailPage,
  firstEmailAfter,
  folderCounts,
  lockEmailSize,
  lockEmails,
  lockTrashedSize,
  type MailOwner,
  type MailSelector,
  emailSlice as sliceOfEmails,
  trashEmail,
} from "../db/emails.ts";
import { writeLabels } from "../db/labels.ts";
import { giveStorageBack } from "../db/quota.ts";
import type { Tx } from "../db/statements.ts";
import { withDeadline } from "../deadline.ts";
import { ServiceError } from "../errors.ts";
import type { Outcome } from "./agents.ts";
import { type Emit, MAX_WAIT_SECONDS, withEvents } from "./events.ts";
import { folderName, folderSpelling, foldersToRead, folderToMoveTo, SYSTEM_FOLDERS } from "./folders.ts";
import { type CheckedLabels, checkedLabels, type LabelChange, labelSelector, labelsOf, relabelled } from "./labels.ts";
import { type Page, type PageRequest, readPage, type SliceRequest } from "./pages.ts";
import { type Grant, hiddenFolder } from "./permissions.ts";
import type { EmailRecord } from "./records.ts";
import { filterText, type MailFilter, selectorOf } from "./search.ts";
import type { Services } from "./services.ts";

// Received mail in the agent's folders, and the folder state table: any
// folder to any folder, delete moves to trash, and deleting from trash (or
// with permanent) removes the message and frees its bytes. A change may also
// put labels on and take them off (labels.ts). Reads are plain
// statements in keyset order (receivedAt, then id, newest first), by a
// reader: one agent's mail, or several agents' (a pod's, pod-mail.ts), less
// the folder the key is barred from (permissions.ts' hiddenFolder), which no
// read shows and no change by id reaches.

export interface Folder {
  name: string;
  total: number;
  unread: number;
}

const notFound = () => new ServiceError("NOT_FOUND", "Email not found");

/**
 * Whose mail a read reads: an agent's (its id), or several agents' (a pod's key: their ids); and the folder the key
 * is barred from (hiddenFolder), whose mail no read shows. An agent record is a reader that sees every folder.
 */
export interface Reader {
  id: MailOwner;
  hidden?: string | null;
}

/** The agent's mail as the grant lets it be read. */
export const readerOf = (agent: { id: string }, grant: Grant): Reader & { id: string } => ({
  id: agent.id,
  hidden: hiddenFolder(grant),
});

/** The selector a filter makes, its folder by the spelling the mail has, less what the reader is barred from. */
async function selectorFor(services: Services, reader: Reader, filter: MailFilter): Promise<MailSelector> {
  const folders = filter.folder == null ? null : await foldersToRead(services, reader.id, filter.folder);
  const folder = folders !== null && folders.length === 1 ? (folders[0] as string) : folders;
  return { ...selectorOf(filter), folder, hidden: reader.hidden ?? null };
}

/** The reader's mail the filter selects: best match first when it searches, else newest first. */
export async function listEmails(
  services: Services,
  reader: Reader,
  request: PageRequest & MailFilter,
  query: EmailQuery = {},
): Promise<Page<EmailRecord>> {
  return readPage(request, async (window) =>
    emailPage(services, reader.id, await selectorFor(services, reader, request), window, query),
  );
}

/** Mail the filter selects after or before a position, newest first, for cursor paging. */
export async function emailSlice(
  services: Services,
  reader: Reader,
  filter: MailFilter,
  request: SliceRequest,
  query: EmailQuery,
): Promise<EmailRecord[]> {
  return sliceOfEmails(services, reader.id, await selectorFor(services, reader, filter), request, query);
}

/** One of the agent's received emails; 404 as for none when it is in the folder the reader is barred from. */
export async function getEmail(
  services: Services,
  reader: Reader & { id: string },
  emailId: string,
  query: EmailQuery = {},
): Promise<EmailRecord> {
  const email = await emailById(services, reader.id, emailId, query, reader.hidden ?? null);
  if (!email) throw notFound();
  return email;
}

export interface EmailChange extends LabelChange {
  folder?: string | null;
  isRead?: boolean | null;
}

interface CheckedChange {
  folder: string | null;
  isRead: boolean | null;
  labels: CheckedLabels | null;
}

const MAX_BATCH = 100;

/** The change as it will be applied: a folder by its stored name, labels by theirs. */
function checkedChange(change: EmailChange): CheckedChange {
  const labels = checkedLabels(change);
  if (change.folder == null && change.isRead == null && labels === null) {
    throw new ServiceError("BAD_REQUEST", "Give folder, isRead, addLabels or removeLabels");
  }
  return { folder: change.folder == null ? null : folderName(change.folder), isRead: change.isRead ?? null, labels };
}

/**
 * Applies the change to the agent's emails, all of them or, when one is not the agent's (or is in the folder the
 * reader is barred from), none; how many changed.
 */
async function applyChange(
  services: Services,
  reader: Reader & { id: string },
  emailIds: string[],
  change: CheckedChange,
): Promise<number> {
  const agentId = reader.id;
  return withEvents(services, async (tx, emit) => {
    const found = await lockEmails(tx, agentId, emailIds, reader.hidden ?? null);
    if (found.length !== emailIds.length) throw notFound();
    const folder = change.folder === null ? null : await folderToMoveTo(tx, agentId, change.folder);
    let changed = 0;
    for (const before of found) {
      const after = { folder: folder ?? before.folder, isRead: change.isRead ?? before.isRead };
      const moved = after.folder !== before.folder || after.isRead !== before.isRead;
      const labels = change.labels && relabelled(labelsOf(before.labels), change.labels, "email");
      const relabels = labels !== null && labels.added.length + labels.removed.length > 0;
      if (!moved && !relabels) continue;
      if (moved) await changeEmail(tx, agentId, { id: before.id, ...after }, services.clock.now());
      if (relabels) await writeLabels(tx, "Email", before.id, labels);
      const labelled = relabels ? { labels: { added: labels.added, removed: labels.removed } } : {};
      await emit({ type: "email.updated", agentId, data: { emailId: before.id, ...after, ...labelled } });
      changed++;
    }
    return changed;
  });
}

/** Moves an email to a folder and/or sets its read flag. */
export async function updateEmail(
  services: Services,
  reader: Reader & { id: string },
  emailId: string,
  change: EmailChange,
  query: EmailQuery = {},
): Promise<EmailRecord> {
  await applyChange(services, reader, [emailId], checkedChange(change));
  // As changed, even into the folder the reader is barred from: the email it just reached.
  return getEmail(services, { id: reader.id }, emailId, query);
}

/** One change to up to 100 emails at once: all of them, or none when one is not the agent's. */
export async function updateEmails(
  services: Services,
  reader: Reader & { id: string },
  emailIds: string[],
  change: EmailChange,
): Promise<{ updated: number }> {
  const ids = [...new Set(emailIds)];
  if (ids.length < 1 || ids.length > MAX_BATCH) {
    throw new ServiceError("BAD_REQUEST", `emailIds must name 1-${MAX_BATCH} emails`);
  }
  return { updated: await applyChange(services, reader, ids, checkedChange(change)) };
}

/** To trash; from trash, or with permanent, for good, freeing its bytes. */
export async function deleteEmail(
  services: Services,
  agent: Reader & { id: string },
  emailId: string,
  permanent: boolean,
): Promise<Outcome> {
  return withEvents(services, async (tx, emit) => {
    const email = await lockEmailSize(tx, agent.id, emailId, agent.hidden ?? null);
    if (!email) throw notFound();
    if (!permanent && email.folder !== "trash") {
      if (!(await trashEmail(tx, agent.id, emailId, services.clock.now()))) throw notFound();
      await emit({
        type: "email.deleted",
        agentId: agent.id,
        data: { emailId, folder: email.folder, permanent: false },
      });
      return { success: true, message: "Email moved to trash" };
    }
    if (!(await deleteForGood(tx, emit, agent.id, { id: emailId, ...email }))) throw notFound();
    return { success: true, message: "Email permanently deleted" };
  });
}

/**
 * Deletes an email for good, freeing its bytes; false when it was gone
 * already. Conditional, so that of two concurrent deletes only one frees them.
 */
async function deleteForGood(tx: Tx, emit: Emit, agentId: string, email: { id: string; folder: string; size: number }) {
  if (!(await deleteEmailRow(tx, agentId, email.id))) return false;
  await giveStorageBack(tx, agentId, email.size);
  await emit({ type: "email.deleted", agentId, data: { emailId: email.id, folder: email.folder, permanent: true } });
  return true;
}

/** Deletes an email for good if the trash has held it since before `before`; false when it left the trash. */
export async function deleteFromTrash(
  services: Services,
  email: { id: string; agentId: string },
  before: Date,
): Promise<boolean> {
  return withEvents(services, async (tx, emit) => {
    const size = await lockTrashedSize(tx, email.agentId, email.id, before);
    return size !== null && deleteForGood(tx, emit, email.agentId, { id: email.id, folder: "trash", size });
  });
}

/** inbox, archive, trash and junk, then every custom folder that holds mail; none counted that the reader is barred from. */
export async function folderSummary(services: Services, reader: Reader & { id: string }): Promise<Folder[]> {
  const folders = new Map(SYSTEM_FOLDERS.map((name) => [name, { name, total: 0, unread: 0 }]));
  for (const group of await folderCounts(services, reader.id)) {
    if (group.folder === reader.hidden) continue;
    const folder = folders.get(group.folder) ?? { name: group.folder, total: 0, unread: 0 };
    folder.total += group.count;
    if (!group.isRead) folder.unread += group.count;
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
  /** Labels that must all be on it, and -label for one that must not. */
  label?: readonly string[] | null;
  /** Mail received after this time (ms); by default, after the wait begins. */
  after?: number | null;
  timeoutSeconds?: number | null;
}

/** The first matching email received after `after`, as soon as it is filed; null when none came in time. */
export async function waitForEmail(
  services: Services,
  agent: Reader & { id: string },
  wait: EmailWait,
  signal?: AbortSignal,
  query: EmailQuery = {},
): Promise<EmailRecord | null> {
  const timeout = wait.timeoutSeconds ?? MAX_WAIT_SECONDS;
  if (timeout < 0 || timeout > MAX_WAIT_SECONDS) {
    throw new ServiceError("BAD_REQUEST", `Invalid timeout: expected an integer from 0 to ${MAX_WAIT_SECONDS}`);
  }
  const match = {
    after: new Date(wait.after ?? services.clock.now().getTime()),
    folder: wait.folder == null ? null : await folderSpelling(services.sql, agent.id, wait.folder),
    from: wait.from == null ? null : filterText(wait.from, "from"),
    subject: wait.subject == null ? null : filterText(wait.subject, "subject"),
    labels: labelSelector(wait.label),
    hidden: agent.hidden ?? null,
  };
  return withDeadline(timeout * 1000, signal, async (deadline) => {
    for (;;) {
      const woken = services.wakeups.next([agent.id], deadline);
      const email = await firstEmailAfter(services, agent.id, match, query);
      if (email || deadline.aborted) return email;
      await woken;
    }
  });
}

export type { EmailQuery };

/** The id of the agent an email is filed for: 404 for no such email. */
export async function emailOwner(services: Services, emailId: string): Promise<string> {
  const agentId = await agentOfEmail(services, emailId);
  if (agentId === null) throw new ServiceError("NOT_FOUND", "Email not found");
  return agentId;
}
