import { TRANSACTION, type Tx } from "../db/client.ts";
import type { Lease } from "../db/lease.ts";
import { takeStorage } from "../db/quota.ts";
import type { Services } from "../schema/context.ts";
import type { ParsedMessage } from "./parse.ts";

// Storage side of ingestion: files one batch of messages and moves the
// mailbox cursor past them in the same transaction, so a crash anywhere
// leaves either both or neither.

export interface Arrival {
  uid: bigint;
  raw: Buffer;
  message: ParsedMessage;
  /** Local parts at the mail domain. */
  recipients: string[];
}

export type Outcome = "stored" | "duplicate" | "unknown_recipient" | "unverified" | "over_quota";

export interface Filed {
  uid: bigint;
  recipient: string;
  outcome: Outcome;
}

export interface Cursor {
  mailbox: string;
  uidValidity: bigint;
  /** The highest UID of the batch: everything up to it is done once this commits. */
  lastUid: bigint;
}

/** The batch is not this poller's to file any more; it reconnects and reads the cursor again. */
export class BatchRefused extends Error {}

async function fileOne(tx: Tx, services: Services, arrival: Arrival, localPart: string): Promise<Outcome> {
  const agent = await tx.agent.findUnique({ where: { idKey: localPart }, select: { id: true, verifiedAt: true } });
  if (!agent) return "unknown_recipient";
  const { message, raw } = arrival;
  const delivery = { agentId: agent.id, dedupeKey: message.dedupeKey };
  if (await tx.delivery.findUnique({ where: { agentId_dedupeKey: delivery } })) return "duplicate";
  // Remembered whatever becomes of it: a message dropped or deleted is not filed again.
  await tx.delivery.create({ data: delivery });
  if (agent.verifiedAt === null) return "unverified";
  if (!(await takeStorage(tx, agent.id, raw.length, services.config.storageLimitBytes))) return "over_quota";
  await tx.email.create({
    data: {
      agentId: agent.id,
      messageId: message.messageId,
      fromAddress: message.from.address,
      fromName: message.from.name,
      to: `${agent.id}@${services.config.mailDomain}`,
      subject: message.subject,
      bodyText: message.bodyText,
      bodyHtml: message.bodyHtml,
      raw: new Uint8Array(raw),
      size: raw.length,
      receivedAt: services.clock.now(),
    },
  });
  return "stored";
}

export async function fileBatch(
  services: Services,
  cursor: Cursor,
  arrivals: Arrival[],
  lease: Lease,
): Promise<Filed[]> {
  return services.prisma.$transaction(async (tx) => {
    // First, so that an instance taking the lease over waits for this commit.
    if (!(await lease.confirm(tx))) throw new BatchRefused("the poller lease was taken over");
    const current = await tx.imapCursor.findUnique({ where: { mailbox: cursor.mailbox } });
    if (current?.uidValidity === cursor.uidValidity && current.lastUid >= cursor.lastUid) {
      throw new BatchRefused("the cursor is past this batch already");
    }
    const filed: Filed[] = [];
    for (const arrival of arrivals) {
      for (const recipient of arrival.recipients) {
        filed.push({ uid: arrival.uid, recipient, outcome: await fileOne(tx, services, arrival, recipient) });
      }
    }
    await tx.imapCursor.upsert({
      where: { mailbox: cursor.mailbox },
      create: cursor,
      update: { uidValidity: cursor.uidValidity, lastUid: cursor.lastUid },
    });
    return filed;
  }, TRANSACTION);
}
