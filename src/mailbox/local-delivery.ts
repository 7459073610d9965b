import { saveRecipientReport, setDeliveryStatus } from "../db/reports.ts";
import type { Tx } from "../db/statements.ts";
import { ServiceError } from "../errors.ts";
import { NOT_EVALUATED, type SenderChecks } from "./authentication.ts";
import { serves } from "./domains.ts";
import type { Emit } from "./events.ts";
import { type Arrival, fileForEach, type IncomingMessage } from "./filing.ts";
import { NOT_SCANNED } from "./inspection.ts";
import { filedReply } from "./intake.ts";
import { addressParts } from "./records.ts";
import { type DeliveryStatus, deliveryStatusOf } from "./reports.ts";
import { addresseeAt } from "./return-path.ts";
import type { Services } from "./services.ts";

// Mail between agents of this instance: never handed to the SMTP provider,
// but filed at once for each recipient at a served domain, through the rules
// inbound mail is filed by (filing.ts: sender lists, storage, threads, events,
// webhooks), in the transaction that marks the send as gone. Each local
// recipient gets a report on the sent email, as a provider's would read:
// delivered, or bounced with the reply the SMTP door would have given (a full
// mailbox, a sender list that refuses the sender). An address at a served
// domain that no verified agent has is refused before anything is taken.

/** The provider a sent email names when every recipient was an agent here. */
export const LOCAL_PROVIDER = "local";

/** Mail from an agent here: the instance vouches for its sender itself, so nothing is evaluated and it passes. */
const FROM_AN_AGENT_HERE: SenderChecks = { ...NOT_EVALUATED, verdict: "pass" };

/** A message's recipients: those at a domain served here, and the others, each as the message names it. */
export async function recipientsByWay(
  services: Services,
  addresses: string[],
): Promise<{ local: string[]; remote: string[] }> {
  const served = new Map<string, boolean>();
  const local: string[] = [];
  const remote: string[] = [];
  const seen = new Set<string>();
  for (const address of addresses) {
    // Named twice (in to and cc, in two cases): one envelope recipient, as an SMTP client makes it.
    if (seen.has(address.toLowerCase())) continue;
    seen.add(address.toLowerCase());
    const { domain } = addressParts(address);
    if (!served.has(domain)) served.set(domain, await serves(services, domain));
    (served.get(domain) ? local : remote).push(address);
  }
  return { local, remote };
}

/** Refuses the send when a local recipient has no mailbox: no agent has the address, or its agent is not verified. */
export async function refuseUnknownLocal(services: Services, local: string[]): Promise<void> {
  const unknown: string[] = [];
  for (const address of local) {
    const addressee = await addresseeAt(services.sql, services, address);
    if (!addressee || addressee.agent.verifiedAt === null) unknown.push(address);
  }
  if (unknown.length === 0) return;
  throw new ServiceError(
    "BAD_REQUEST",
    `No mailbox here for ${unknown.join(", ")}: no verified agent of this instance has that address`,
    { code: "NO_SUCH_MAILBOX", recipients: unknown },
  );
}

export interface LocalSend {
  sentId: string;
  agentId: string;
  threadId: string;
  /** The envelope's sender: the sent email's return path. */
  returnPath: string;
  /** The message as it went, read as inbound mail is read. */
  raw: Buffer;
  message: IncomingMessage;
  /** The local recipients, as the message names them. */
  recipients: string[];
  now: Date;
}

/** The trace a receiving server adds (RFC 5321 4.4): the return path, and the hop that filed it here. */
function traced(services: Services, send: LocalSend): Buffer {
  const trace = `Return-Path: <${send.returnPath}>\r\nReceived: by ${services.config.mxHost} with LOCAL id ${send.sentId};\r\n\t${send.now.toUTCString()}\r\n`;
  return Buffer.concat([Buffer.from(trace), send.raw]);
}

/**
 * Inside the send's transaction: files the message for each local recipient
 * and records what became of it on the sent email, with its events; answers
 * the sent email's delivery status.
 */
export async function fileLocally(
  tx: Tx,
  emit: Emit,
  services: Services,
  send: LocalSend,
): Promise<DeliveryStatus | "sent"> {
  const recipients = send.recipients.map((address) => address.toLowerCase());
  const arrival: Arrival = {
    uid: 0n,
    raw: traced(services, send),
    message: send.message,
    authentication: FROM_AN_AGENT_HERE,
    // Mail between agents here is screened (its message carries the screening), not put to the scanners.
    scans: NOT_SCANNED,
    recipients,
    envelope: { from: send.returnPath, to: recipients },
  };
  const filed = await fileForEach(tx, emit, services, arrival);
  const statuses: DeliveryStatus[] = [];
  for (const [index, { outcome }] of filed.entries()) {
    const { code, status: statusCode, message } = filedReply(outcome);
    const status: DeliveryStatus = code === 250 ? "delivered" : "bounced";
    const recipient = send.recipients[index] as string;
    const diagnosticCode = `smtp; ${code} ${statusCode} ${message}`;
    await saveRecipientReport(tx, {
      sentId: send.sentId,
      recipient,
      status,
      action: status === "delivered" ? "delivered" : "failed",
      statusCode,
      diagnosticCode,
      remoteMta: `dns; ${services.config.mxHost}`,
      at: send.now,
    });
    const data = { sentId: send.sentId, threadId: send.threadId, recipient, status, diagnosticCode };
    await emit({ type: status === "delivered" ? "email.delivered" : "email.bounced", agentId: send.agentId, data });
    statuses.push(status);
  }
  const status = deliveryStatusOf(statuses);
  await setDeliveryStatus(tx, send.sentId, status);
  return status;
}
