import { randomUUID } from "node:crypto";
import { dropped, type Filed, fileDelivered } from "../mailbox/filing.ts";
import { type Reply, refusedBeforeReading, scanRefusal } from "../mailbox/intake.ts";
import type { Services } from "../mailbox/services.ts";
import { authenticator, type SpfClient, tracedClient } from "./authentication.ts";
import { scannerOf } from "./inspect.ts";

// Mail handed over directly, by the SMTP door or a provider's POST: traced as
// an MX traces it, read on the reader threads, authenticated and scanned as
// from the client that handed it over (behind the operator's MTA, the one its
// trace names; never a Received line a sender could have written) and filed
// as the poller files, in one transaction. A message that cannot be read
// throws Unreadable (readers.ts). Its header section is read first:
// recipients whose sender lists refuse its From are answered so, and a
// message no recipient takes is never parsed, screened or scanned. Put to
// the scanners then: at the SMTP door, one they condemn is refused before
// anything is kept.

export interface Envelope {
  /** MAIL FROM; empty for a bounce, null when the provider did not say. */
  from: string | null;
  /** Recipients already taken (intake.ts), in lower case. */
  recipients: string[];
  /** Who handed it over, when known. */
  client: { ip: string; helo: string; hostname: string } | null;
  /** Handed over by the operator's own MTA (the LMTP door): the client SPF checks is the one its trace names. */
  relayed: boolean;
  /** How: ESMTP, LMTP, HTTP. */
  via: string;
  /** The sender is still there to be refused (the SMTP door): a message the scanners condemn is refused, not quarantined. */
  refusable: boolean;
}

/** The scanners condemned a message the sender can still be told of; nothing of it was kept. */
export class RefusedByScan extends Error {
  constructor(readonly reply: Reply) {
    super(reply.message);
  }
}

/** The queue id a message got, and each recipient's outcome, in the envelope's order. */
export interface Received {
  id: string;
  filed: Filed[];
}

export interface DirectIntake {
  /** Files the message for its recipients. */
  receive(raw: Buffer, envelope: Envelope): Promise<Received>;
}

/** The trace an MX adds on top: the envelope sender, and who handed the message over. */
function traced(raw: Buffer, envelope: Envelope, host: string, id: string): Buffer {
  const { client } = envelope;
  const from = client ? `from ${client.helo} (${client.hostname} [${client.ip}])\r\n\t` : "";
  const received = `Received: ${from}by ${host} with ${envelope.via} id ${id};\r\n\t${new Date().toUTCString()}\r\n`;
  const returnPath = envelope.from === null ? "" : `Return-Path: <${envelope.from}>\r\n`;
  return Buffer.concat([Buffer.from(`${returnPath}${received}`), raw]);
}

/**
 * The client SPF checks and Rspamd judges: the one that handed the message over, or behind the operator's own MTA
 * the first hop from outside that its trace names (tracedClient), with the envelope sender it handed over.
 */
function outsideClientOf(body: Buffer, { client, from, relayed }: Envelope, ownHosts: string[]): SpfClient | null {
  // A sender the provider did not name is checked as a bounce's is: by the HELO.
  const sender = from ?? "";
  if (!relayed) return client && { ip: client.ip, helo: client.helo, sender };
  const outside = tracedClient(body, ownHosts);
  return outside && { ...outside, sender };
}

/**
 * Whether the sender's own server handed it over: the SMTP door is the MX (over LMTP the operator's MTA is
 * between, at /inbound/raw a provider).
 */
const fromSendersServer = ({ relayed, refusable }: Envelope) => refusable && !relayed;

/** Each recipient's outcome in the envelope's order: as filed, else refused by its sender lists before reading. */
function inEnvelopeOrder(recipients: string[], filed: Filed[]): Filed[] {
  return recipients.map(
    (recipient) =>
      filed.find((each) => each.recipient === recipient) ?? { uid: 0n, recipient, outcome: "sender_refused" },
  );
}

export function startDirectIntake(services: Services): DirectIntake {
  const { config, log } = services;
  const authenticate = authenticator(config, log);
  const scan = scannerOf(services);

  /** Reads, scans and files the message for the envelope's recipients. */
  const readAndFile = async (raw: Buffer, body: Buffer, envelope: Envelope): Promise<Filed[]> => {
    const message = await services.reader.read(raw);
    const client = outsideClientOf(body, envelope, config.trustedMxHosts);
    const { recipients } = envelope;
    const [authentication, scans] = await Promise.all([
      authenticate(raw, message.from.address, client, fromSendersServer(envelope)),
      scan(raw, {
        clientAddress: client?.ip ?? null,
        helo: client?.helo ?? null,
        mailFrom: envelope.from,
        recipients,
      }),
    ]);
    const refusal = envelope.refusable ? scanRefusal(scans, config) : null;
    if (refusal) throw new RefusedByScan(refusal);
    const recorded = { from: envelope.from, to: recipients };
    return fileDelivered(services, { uid: 0n, raw, message, recipients, authentication, scans, envelope: recorded });
  };

  return {
    async receive(body, envelope) {
      const id = randomUUID().slice(0, 13);
      const raw = traced(body, envelope, config.mxHost, id);
      const head = await services.reader.head(raw);
      const heading = { from: head?.from.address ?? "", recipients: head ? envelope.recipients : [] };
      const [refused = []] = await refusedBeforeReading(services, [heading]);
      const taken = envelope.recipients.filter((recipient) => !refused.includes(recipient));
      const read = taken.length > 0 ? await readAndFile(raw, body, { ...envelope, recipients: taken }) : [];
      const filed = inEnvelopeOrder(envelope.recipients, read);
      for (const { recipient, outcome } of filed) {
        if (dropped(outcome)) log("warn", "inbound_dropped", { reason: outcome, recipient, queueId: id });
      }
      return { id, filed };
    },
  };
}
