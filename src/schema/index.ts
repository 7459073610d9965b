import { lexicographicSortSchema, printSchema } from "graphql";
import { builder } from "./builder.ts";
import "./agents.ts";
import "./verification.ts";
import "./emails.ts";
import "./sending.ts";
import "./drafts.ts";
import "./outbox.ts";
import "./review.ts";
import "./threads.ts";
import "./senders.ts";
import "./events.ts";
import "./webhooks.ts";
import "./keys.ts";
import "./domains.ts";
import "./pods.ts";
import "./pod-events.ts";
import "./pod-mail.ts";
import "./admin.ts";

export const schema = builder.toSchema();

/** The SDL committed as schema.graphql. */
export function printedSchema(): string {
  return `${printSchema(lexicographicSortSchema(schema))}\n`;
}
