import { readFileSync, unwatchFile, watchFile } from "node:fs";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { SmtpIngressConfig } from "../config.ts";
import { describeFault } from "../log.ts";
import { recipientRefusal } from "../mailbox/intake.ts";
import type { Services } from "../mailbox/services.ts";
import type { DirectIntake } from "./direct.ts";
import { Unreadable } from "./readers.ts";

// The SMTP door: every instance may be an MX for the served domains. Not a
// relay (no AUTH): each RCPT TO is answered by the filing rules, the message
// is taken in as any handed over directly (direct.ts). 250 only once the
// filing transaction committed; 451 otherwise, so the sender tries again (a
// retry of a message filed is recognised).

/** RCPT TO commands of one message (taken or refused, so that nobody guesses addresses by the thousand). */
const MAX_RECIPIENTS = 50;

export interface SmtpDoor {
  port: number;
  close(): Promise<void>;
}

/** An SMTP reply: the code, with the enhanced status first in its text. */
const reply = (code: number, status: string, text: string) =>
  Object.assign(new Error(`${status} ${text}`), { responseCode: code });

/** The certificate and key, as PEM, from their files. */
function readTls({ certFile, keyFile }: { certFile: string; keyFile: string }) {
  return { cert: readFileSync(certFile), key: readFileSync(keyFile) };
}

async function readAll(stream: SMTPServerDataStream, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Read to the end whatever its size (the client waits for its answer), keeping nothing past the limit.
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return stream.sizeExceeded || size > limit ? null : Buffer.concat(chunks);
}

export async function startSmtpDoor(
  services: Services,
  door: SmtpIngressConfig,
  intake: DirectIntake,
): Promise<SmtpDoor> {
  const { config, log } = services;
  const connections = new Map<string, number>();
  /** RCPT TO commands of each session's message under way. */
  const asked = new Map<string, number>();

  const deliver = async (stream: SMTPServerDataStream, session: SMTPServerSession) => {
    const body = await readAll(stream, config.inboundMaxBytes);
    if (body === null) throw reply(552, "5.3.4", "Message too big for this server");
    const { remoteAddress: ip, hostNameAppearsAs: helo, clientHostname: hostname } = session;
    const envelope = {
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
      recipients: [...new Set(session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()))],
      client: { ip, helo, hostname },
      via: session.transmissionType,
    };
    let received: Awaited<ReturnType<DirectIntake["receive"]>>;
    try {
      received = await intake.receive(body, envelope);
    } catch (error) {
      if (error instanceof Unreadable) throw reply(554, "5.6.0", "The message cannot be read as mail");
      throw error;
    }
    // It fit in no recipient's mailbox: the sender hears so, rather than a 250 for a message kept nowhere.
    if (received.filed.every(({ outcome }) => outcome === "over_quota")) {
      throw reply(552, "5.2.2", "The recipient's mailbox is full");
    }
    return `2.0.0 Ok: queued as ${received.id}`;
  };

  const tls = door.tls;
  const server = new SMTPServer({
    ...(tls ? readTls(tls) : {}),
    lmtp: door.lmtp,
    name: config.mxHost,
    banner: "Pigeonhole",
    size: config.inboundMaxBytes,
    authOptional: true,
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    logger: false,
    socketTimeout: 60_000,
    onConnect(session, callback) {
      const count = connections.get(session.remoteAddress) ?? 0;
      if (count >= door.maxConnectionsPerIp) {
        return callback(reply(421, "4.7.0", "Too many connections from your address: try again later"));
      }
      connections.set(session.remoteAddress, count + 1);
      callback();
    },
    onMailFrom(_address, session, callback) {
      asked.set(session.id, 0);
      callback();
    },
    onClose(session) {
      asked.delete(session.id);
      const count = (connections.get(session.remoteAddress) ?? 1) - 1;
      if (count > 0) connections.set(session.remoteAddress, count);
      else connections.delete(session.remoteAddress);
    },
    onRcptTo(address, session, callback) {
      const count = (asked.get(session.id) ?? 0) + 1;
      asked.set(session.id, count);
      if (count > MAX_RECIPIENTS) {
        return callback(reply(452, "4.5.3", "Too many recipients: send the rest in another message"));
      }
      const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
      recipientRefusal(services, address.address, sender).then(
        (refused) => callback(refused ? reply(refused.code, refused.status, refused.message) : undefined),
        (error) => {
          log("error", "smtp_ingress_failed", { stage: "rcpt", error: describeFault(error) });
          callback(reply(451, "4.3.0", "Temporary failure: try again later"));
        },
      );
    },
    onData(stream, session, callback) {
      deliver(stream, session).then(
        (answer) => callback(null, answer),
        (error: Error & { responseCode?: number }) => {
          if (error.responseCode) return callback(error);
          log("error", "smtp_ingress_failed", { stage: "data", error: describeFault(error) });
          callback(reply(451, "4.3.0", "Temporary failure: try again later"));
        },
      );
    },
  });
  // A certificate renewed on disk (certbot and its kin replace the files) is taken for the next STARTTLS.
  const reload = () => {
    try {
      if (tls) server.updateSecureContext(readTls(tls));
      log("info", "smtp_ingress_tls_reloaded", {});
    } catch (error) {
      log("error", "smtp_ingress_tls_unreadable", { error: describeFault(error) });
    }
  };
  for (const file of tls ? [tls.certFile, tls.keyFile] : []) watchFile(file, { interval: 1_000 }, reload);
  await new Promise<void>((resolve) => server.listen(door.port, door.host, resolve));
  log("info", "smtp_ingress_listening", { port: (server.server.address() as AddressInfo).port, lmtp: door.lmtp });
  return {
    port: (server.server.address() as AddressInfo).port,
    async close() {
      for (const file of tls ? [tls.certFile, tls.keyFile] : []) unwatchFile(file, reload);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
