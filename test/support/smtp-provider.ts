import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

// A real SMTP server playing the operator's email provider. It records what
// arrives and can be told to refuse, to stall before or after the content, to
// answer late, to drop the connection, or to be down; with a relay it passes
// each message on, as a provider would towards the recipient's server.

export interface Delivery {
  from: string;
  to: string[];
  raw: Buffer;
  parsed: ParsedMail;
  /** When its content had arrived (ms since 1970). */
  arrivedAt: number;
}

/**
 * accept or refuse the message (after `delayMs`); stall: take the content and
 * never answer; stall-envelope: never answer RCPT TO, so no content is sent;
 * drop: take the content and close the connection without a reply.
 */
export type Behaviour = "accept" | "refuse" | "stall" | "stall-envelope" | "drop";

/** smtp-server's own connection object, reached only to drop it. */
interface ServerConnection {
  session: { id: string };
  _socket: { destroy(): void };
}

export class FakeProvider {
  behaviour: Behaviour = "accept";
  /** How long the final reply to a message waits. */
  delayMs = 0;
  readonly deliveries: Delivery[] = [];
  /** Messages whose content arrived, whatever the answer. */
  contentReceived = 0;
  relay: ((delivery: Delivery) => Promise<void>) | null = null;
  /** The text of the 250 reply to a message, given its number. */
  answer: (n: number) => string = (n) => `Message queued as Q${n}`;
  #queued = 0;
  #stalled: (() => void)[] = [];

  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(): Promise<FakeProvider> {
    let provider: FakeProvider | null = null;
    const server = new SMTPServer({
      secure: false,
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      authOptional: true,
      logger: false,
      // Pooled client connections stay open; on close, end them soon.
      closeTimeout: 200,
      onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
      onRcptTo: (_address, _session, callback) => {
        if (provider?.behaviour === "stall-envelope") provider.#stalled.push(() => callback(new Error("stalled")));
        else callback();
      },
      onData: (stream, session, callback) => provider?.receive(stream, session, callback),
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    provider = new FakeProvider(server, (server.server.address() as AddressInfo).port);
    return provider;
  }

  get url(): string {
    return `smtp://provider-user:provider%20pass@127.0.0.1:${this.port}`;
  }

  private async receive(
    stream: NodeJS.ReadableStream,
    session: { id: string; envelope: { mailFrom: false | { address: string }; rcptTo: { address: string }[] } },
    callback: (error?: Error | null, message?: string) => void,
  ): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    this.contentReceived++;
    if (this.behaviour === "stall") {
      this.#stalled.push(() => callback(new Error("stalled")));
      return;
    }
    if (this.behaviour === "drop") {
      for (const connection of (this.server as unknown as { connections: Set<ServerConnection> }).connections) {
        if (connection.session.id === session.id) connection._socket.destroy();
      }
      return;
    }
    if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
    if (this.behaviour === "refuse") {
      const error = Object.assign(new Error("Message rejected by policy"), { responseCode: 554 });
      return callback(error);
    }
    const raw = Buffer.concat(chunks);
    const arrivedAt = Date.now();
    const delivery: Delivery = {
      arrivedAt,
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
      to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
      raw,
      parsed: await simpleParser(raw),
    };
    this.deliveries.push(delivery);
    await this.relay?.(delivery);
    callback(null, this.answer(++this.#queued));
  }

  /** Answers everything stalled so far with a temporary failure. */
  release(): void {
    for (const answer of this.#stalled.splice(0)) answer();
  }

  /** Stops listening: new connections are refused. */
  async down(): Promise<void> {
    this.release();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
