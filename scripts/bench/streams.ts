import { type Result, type Stream, sseSubscription } from "../../test/support/streams.ts";
import type { SeedAgent } from "./seed.ts";

// Subscribers for the stream scenarios: Server-Sent Events clients in the
// benchmark's process, as an agent's program would hold them.

const MAIL_EVENTS = `subscription($agentId: ID!) { mailEvents(agentId: $agentId, types: ["email.received"]) { id } }`;

export interface Subscribers {
  /** Milliseconds (performance.now) at which each subscriber had its next event. */
  nextEvent(): Promise<number[]>;
  close(): void;
}

/** `perAgent` streams for each agent, opened a few at a time; resolves once all answered. */
export async function subscribe(url: string, agents: SeedAgent[], perAgent: number): Promise<Subscribers> {
  const streams: Stream<Result>[] = [];
  for (const agent of agents) {
    const opened = Array.from({ length: perAgent }, () =>
      sseSubscription(url, MAIL_EVENTS, { agentId: agent.id }, agent.apiKey),
    );
    streams.push(...(await Promise.all(opened)));
  }
  // An answered request has its subscription started; give the last ones a moment to reach the live part.
  await new Promise((resolve) => setTimeout(resolve, 500));
  return {
    nextEvent: () => Promise.all(streams.map((stream) => stream.next(30_000).then(() => performance.now()))),
    close: () => {
      for (const stream of streams) stream.close();
    },
  };
}
