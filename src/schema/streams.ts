import { ServiceError } from "../errors.ts";

// Open subscription streams, counted per agent (or pod: "pod:<id>", which no agent id can be) on this instance.

export const MAX_STREAMS_PER_AGENT = 20;

export class Streams {
  #open = new Map<string, number>();

  /** Counts a new stream for the agent (or pod), or refuses the one past the limit; returns its release. */
  open(agentId: string): () => void {
    const open = this.#open.get(agentId) ?? 0;
    if (open >= MAX_STREAMS_PER_AGENT) {
      throw new ServiceError(
        "RATE_LIMITED",
        `At most ${MAX_STREAMS_PER_AGENT} streams may be open for one agent or pod`,
        {
          code: "TOO_MANY_STREAMS",
          limit: MAX_STREAMS_PER_AGENT,
          current: open,
        },
      );
    }
    this.#open.set(agentId, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#open.get(agentId) ?? 1) - 1;
      if (left === 0) this.#open.delete(agentId);
      else this.#open.set(agentId, left);
    };
  }
}
