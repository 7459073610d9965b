import { readFileSync, unwatchFile, watchFile } from "node:fs";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import type { SmtpIngressConfig } from "../config.ts";
import { listenOn } from "../listen.ts";
import { describeFault } from "../log.ts";
import { filedReply, messageReply, type Reply, recipientRefusal } from "../mailbox/intake.ts";
import type { Services } from "../mailbox/services.ts";
import { type DirectIntake, type Received, RefusedByScan } from "./direct.ts";
import { takeProxiedConnections } from "./proxy-protocol.ts";
import { Unreadable } from "./readers.ts";

// The SMTP door: every instance may be an MX for the served domains. Not a
// relay (no AUTH): each RCPT TO is answered by the filing rules, the message
// is taken in as any handed over directly (direct.ts). 250 only once the
// filing transaction committed; 451 otherwise, so the sender tries again (a
// retry of a message filed is recognised). Over LMTP each recipient is
// answered on its own after DATA.

/** RCPT TO commands of one message (taken or refused, so that nobody guesses addresses by the thousand). */
const MAX_RECIPIENTS = 50;

export interface SmtpDoor {
  port: number;
  close(): Promise<void>;
}

/** An SMTP reply as smtp-server takes a refusal: the code, with the enhanced status first in its text. */
const reply = (code: number, status: string, text: string) =>
  Object.assign(new Error(`${status} ${text}`), { responseCode: code });

/** The filing rules' reply (intake.ts), as smtp-server takes it. */
const refusal = ({ code, status, message }: Reply) => reply(code, status, message);

/** MAIL FROM; empty for a bounce. */
const senderOf = (session: SMTPServerSession) => (session.envelope.mailFrom ? session.envelope.mailFrom.address : "");

/** What the client said the message weighs at MAIL FROM (SIZE=, RFC 1870), when it did. */
function declaredSize(session: SMTPServerSession): number | undefined {
  const args = session.envelope.mailFrom ? session.envelope.mailFrom.args : false;
  const size = args ? args.SIZE : undefined;
  return typeof size === "string" ? Number(size) : undefined;
}

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

/** Each recipient's answer, in RCPT TO order: 250 with the queue id, or why it was not kept. */
function answers(received: Received): (string | Error)[] {
  return received.filed.map(({ outcome }) => {
    const answer = filedReply(outcome);
    return answer.code === 250 ? `${answer.status} Ok: queued as ${received.id}` : refusal(answer);
  });
}

/** What one connection has asked: its MAIL FROM commands, and the RCPT TO commands of the message under way. */
interface Asked {
  messages: number;
  recipients: number;
}

export async function startSmtpDoor(
  services: Services,
  door: SmtpIngressConfig,
  intake: DirectIntake,
): Promise<SmtpDoor> {
  const { config, log } = services;
  const connections = new Map<string, number>();
  const asked = new Map<string, Asked>();

  /** A fault of ours at a stage: logged, and answered 451 so that the sender tries again. */
  const failed = (stage: string, error: unknown) => {
    log("error", "smtp_ingress_failed", { stage, error: describeFault(error) });
    return reply(451, "4.3.0", "Temporary failure: try again later");
  };

  /** Tells the session's client why and closes its connection (a 421 closes it). */
  const hangUp = (session: SMTPServerSession, text: string) => {
    for (const connection of server.connections) {
      if (connection.session === session) connection.send(421, text);
    }
  };

  /** The message, read within the DATA timeout; null when past the size limit. */
  const readMessage = async (stream: SMTPServerDataStream, session: SMTPServerSession) => {
    const late = setTimeout(() => {
      log("warn", "smtp_ingress_timeout", { stage: "data", client: session.remoteAddress });
      hangUp(session, "4.4.2 The message took too long to arrive: closing");
    }, door.dataTimeoutMs);
    try {
      return await readAll(stream, config.inboundMaxBytes);
    } catch {
      // The connection closed before the message ended: there is nobody to answer.
      throw reply(421, "4.4.2", "The connection closed before the message ended");
    } finally {
      clearTimeout(late);
    }
  };

  const deliver = async (stream: SMTPServerDataStream, session: SMTPServerSession) => {
    const body = await readMessage(stream, session);
    if (body === null) throw reply(552, "5.3.4", "Message too big for this server");
    const { remoteAddress: ip, hostNameAppearsAs: helo, clientHostname: hostname } = session;
    const envelope = {
      from: senderOf(session),
      // One entry per address already (smtp-server folds a repeated RCPT TO), so the answers keep its order.
      recipients: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
      client: { ip, helo, hostname },
      // Only the operator's own MTA speaks LMTP to the door.
      relayed: door.lmtp,
      via: session.transmissionType,
      refusable: true,
    };
    let received: Received;
    try {
      received = await intake.receive(body, envelope);
    } catch (error) {
      if (error instanceof Unreadable) throw reply(554, "5.6.0", "The message cannot be read as mail");
      if (error instanceof RefusedByScan) throw refusal(error.reply);
      throw error;
    }
    if (door.lmtp) return answers(received);
    // SMTP has one answer for all (intake.ts says which).
    const { code, status, message } = messageReply(received.filed.map(({ outcome }) => outcome));
    if (code !== 250) throw reply(code, status, message);
    return `${status} Ok: queued as ${received.id}`;
  };

  const tls = door.tls;
  const tlsFiles = tls ? [tls.certFile, tls.keyFile] : [];
  const server = new SMTPServer({
    ...(tls ? readTls(tls) : {}),
    lmtp: door.lmtp,
    name: config.mxHost,
    banner: "Pigeonhole",
    size: config.inboundMaxBytes,
    authOptional: true,
    disabledCommands: tls ? ["AUTH"] : ["AUTH", "STARTTLS"],
    logger: false,
    socketTimeout: door.idleTimeoutMs,
    // On shutdown, what is under way has this long to end; then each open connection is told 421.
    closeTimeout: 5_000,
    onConnect(session, callback) {
      const count = connections.get(session.remoteAddress) ?? 0;
      if (count >= door.maxConnectionsPerIp) {
        return callback(reply(421, "4.7.0", "Too many connections from your address: try again later"));
      }
      connections.set(session.remoteAddress, count + 1);
      callback();
    },
    onMailFrom(_address, session, callback) {
      const messages = (asked.get(session.id)?.messages ?? 0) + 1;
      asked.set(session.id, { messages, recipients: 0 });
      if (messages > door.maxMessagesPerConnection) {
        return callback(reply(421, "4.7.0", "Too many messages on one connection: reconnect to send more"));
      }
      callback();
    },
    onClose(session) {
      asked.delete(session.id);
      const count = (connections.get(session.remoteAddress) ?? 1) - 1;
      if (count > 0) connections.set(session.remoteAddress, count);
      else connections.delete(session.remoteAddress);
    },
    onRcptTo(address, session, callback) {
      const asking = asked.get(session.id) ?? { messages: 1, recipients: 0 };
      asking.recipients += 1;
      asked.set(session.id, asking);
      if (asking.recipients > MAX_RECIPIENTS) {
        return callback(reply(452, "4.5.3", "Too many recipients: send the rest in another message"));
      }
      recipientRefusal(services, address.address, senderOf(session), declaredSize(session)).then(
        (refused) => callback(refused ? refusal(refused) : undefined),
        (error) => callback(failed("rcpt", error)),
      );
    },
    onData(stream, session, callback) {
      deliver(stream, session).then(
        (answer) => callback(null, answer),
        (error: Error & { responseCode?: number }) => callback(error.responseCode ? error : failed("data", error)),
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
  for (const file of tlsFiles) watchFile(file, { interval: 1_000 }, reload);
  const dropWaitingForHeaders = takeProxiedConnections(server, door, log);
  await listenOn(server, door.port, door.host, "SMTP_INGRESS_PORT");
  // smtp-server re-emits a socket error in a transaction (a client's reset after MAIL FROM) on the
  // server itself, and an 'error' nobody listens for ends the process: one client's connection is all it was.
  server.on("error", (error: NodeJS.ErrnoException) => {
    log("info", "smtp_ingress_connection_lost", { code: error.code ?? "unknown" });
  });
  const { port } = server.server.address() as AddressInfo;
  log("info", "smtp_ingress_listening", { port, lmtp: door.lmtp });
  return {
    port,
    async close() {
      for (const file of tlsFiles) unwatchFile(file, reload);
      dropWaitingForHeaders();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
