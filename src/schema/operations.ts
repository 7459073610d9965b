import { adminOperations } from "./admin.rest.ts";
import { agentOperations } from "./agents.rest.ts";
import type { Route } from "./declare.ts";
import { domainOperations } from "./domains.rest.ts";
import { draftOperations } from "./drafts.rest.ts";
import { emailOperations } from "./emails.rest.ts";
import { eventOperations } from "./events.rest.ts";
import { keyOperations } from "./keys.rest.ts";
import { podEventOperations } from "./pod-events.rest.ts";
import { podMailOperations } from "./pod-mail.rest.ts";
import { podOperations } from "./pods.rest.ts";
import { reviewOperations } from "./review.rest.ts";
import { senderOperations } from "./senders.rest.ts";
import { sendingOperations } from "./sending.rest.ts";
import { threadOperations } from "./threads.rest.ts";
import { verificationOperations } from "./verification.rest.ts";
import { webhookOperations } from "./webhooks.rest.ts";

// Every operation the doors other than GraphQL serve, from each area's
// declarations: the REST router, the OpenAPI document and MCP read this list.
// Its order is the reference's; matching never depends on it.

export const operations: Route[] = [
  ...agentOperations,
  ...domainOperations,
  ...senderOperations,
  ...verificationOperations,
  ...emailOperations,
  ...threadOperations,
  ...eventOperations,
  ...sendingOperations,
  ...draftOperations,
  ...webhookOperations,
  ...keyOperations,
  ...podOperations,
  ...podEventOperations,
  ...podMailOperations,
  ...reviewOperations,
  ...adminOperations,
];

/** What agents and their developers are told of (OpenAPI, skill files): all but the operator's. */
export const publicOperations = operations.filter((route) => route.access !== "operator");
