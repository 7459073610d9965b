import { agentsOfPod } from "../db/pods.ts";
import { type EmailQuery, listEmails } from "./emails.ts";
import { type Page, type PageRequest, readPage } from "./pages.ts";
import { assertPermitted, type Grant, hiddenFolder } from "./permissions.ts";
import type { EmailRecord } from "./records.ts";
import type { MailFilter } from "./search.ts";
import type { Services } from "./services.ts";

// A pod's mail as a key of the pod holding `read` reads it: the mail of
// every verified agent of the pod the key reaches, listed and searched as one
// agent's mail is (emails.ts, one set of rules), each email naming its agent.
// An agent outside the pod, or outside the key's agents, never appears; a key
// barred from junk sees none of it here either.

/** The ids of the pod's verified agents the key reaches (an unverified agent's mail is not read, as on its own routes). */
async function readableAgents(services: Services, podId: string, grant: Grant): Promise<string[]> {
  const agents = await agentsOfPod(services, podId.toLowerCase(), grant.agents ?? null);
  return agents.flatMap((agent) => (agent.verifiedAt === null ? [] : [agent.id]));
}

/** The mail of the pod's agents the key reaches that the filter selects: best match first when it searches, else newest first. */
export async function listPodEmails(
  services: Services,
  podId: string,
  grant: Grant,
  request: PageRequest & MailFilter,
  query: EmailQuery = {},
): Promise<Page<EmailRecord>> {
  assertPermitted(grant, "read");
  const agents = await readableAgents(services, podId, grant);
  // No agent: no mail, and no search to write (a search names each agent).
  if (agents.length === 0) return readPage(request, async () => ({ data: [], total: 0 }));
  return listEmails(services, { id: agents, hidden: hiddenFolder(grant) }, request, query);
}
