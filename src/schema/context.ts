import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Agent } from "../generated/prisma/sqlite/client.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "../outbound/smtp.ts";
import type { PostLookup } from "../social/posts.ts";

/** What every operation may use; one set per running service. */
export interface Services {
  config: Config;
  prisma: Db;
  clock: Clock;
  posts: PostLookup;
  /** null when SMTP_URL is not set. */
  mailer: Mailer | null;
  log: Logger;
}

/** One request's view: the services plus the caller's API key. */
export interface Context extends Services {
  apiKey: string | null;
  /** The agent behind apiKey, looked up once per request. */
  keyAgent?: Promise<Agent | null>;
}

/** `Authorization: Bearer <key>`; a header of another form holds no valid key. */
export function createContext(services: Services, authorization: string | null): Context {
  if (!authorization) return { ...services, apiKey: null };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return { ...services, apiKey: match?.[1] ?? "" };
}
