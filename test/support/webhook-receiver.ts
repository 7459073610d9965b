import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { WAIT_MS, waitFor } from "./wait.ts";

// A webhook receiver as an agent's owner would run one: a real HTTP server
// that checks each request's signature with the standardwebhooks library
// against the secrets it was given, and answers the status it is told to.
// It can go down (its port closed: connection refused) and come back up on
// the same port.

export interface Received {
  id: string;
  timestamp: string;
  // biome-ignore lint/suspicious/noExplicitAny: whatever the service sent
  body: any;
  /** The secret the signature verified with, or null when none did. */
  verifiedWith: string | null;
  headers: IncomingMessage["headers"];
}

export class WebhookReceiver {
  readonly received: Received[] = [];
  /** Secrets a signature may verify with. */
  secrets: string[] = [];
  /** What to answer: a status, or "hang" for no answer at all. */
  answer: number | "hang" = 204;
  /** How long to wait before answering. */
  delayMs = 0;
  /** Requests that came in and have not been answered yet. */
  open = 0;
  /** The most requests open at once. */
  mostOpen = 0;
  #server: Server;
  #port = 0;

  private constructor() {
    this.#server = this.#create();
  }

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.up();
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}/hook`;
  }

  /** Listens again, on the same port as before. */
  async up(): Promise<void> {
    if (this.#server.listening) return;
    this.#server = this.#create();
    await new Promise<void>((resolve) => this.#server.listen(this.#port, "127.0.0.1", resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
  }

  /** Stops listening: the service's attempts meet a refused connection. */
  async down(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** The deliveries of one event (by webhook-id), as many as came. */
  of(eventId: string): Received[] {
    return this.received.filter((r) => r.id === eventId);
  }

  /** Waits until `count` requests have come in all. */
  async count(count: number, timeoutMs = WAIT_MS): Promise<Received[]> {
    await waitFor(() => this.received.length >= count, timeoutMs, `${count} webhook requests`);
    return this.received;
  }

  #create(): Server {
    return createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const payload = Buffer.concat(chunks).toString();
        const headers = request.headers as Record<string, string>;
        this.received.push({
          id: headers["webhook-id"] ?? "",
          timestamp: headers["webhook-timestamp"] ?? "",
          body: JSON.parse(payload),
          verifiedWith: this.secrets.find((secret) => verifies(secret, payload, headers)) ?? null,
          headers: request.headers,
        });
        this.open++;
        this.mostOpen = Math.max(this.mostOpen, this.open);
        response.on("close", () => this.open--);
        const { answer } = this;
        if (answer === "hang") return;
        setTimeout(() => {
          response.writeHead(answer, answer >= 300 && answer < 400 ? { location: "/elsewhere" } : {});
          response.end();
        }, this.delayMs);
      });
    });
  }
}

function verifies(secret: string, payload: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(payload, headers);
    return true;
  } catch {
    return false;
  }
}
