import type { Api, Reply, TestAgent } from "./api.ts";
import { WAIT_MS, waitFor } from "./wait.ts";

/** The agent's mail once it holds `count` messages (all folders). */
export async function inboxOf(api: Api, agent: TestAgent, count: number, timeoutMs = WAIT_MS): Promise<Reply> {
  return waitFor(
    async () => {
      const reply = await api.get(`/agents/${agent.id}/emails?limit=100`, { key: agent.apiKey });
      // total and data are two reads: wait until both show the mail.
      return reply.body.total >= count && reply.body.data.length >= Math.min(count, 100) ? reply : null;
    },
    timeoutMs,
    `${count} emails for ${agent.id}`,
  );
}
