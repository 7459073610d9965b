import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Cron } from "croner";
import type { Clock } from "../clock.ts";
import { type Config, NO_WAY_IN, notSet } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate } from "../db/migrate.ts";
import { startDirectIntake } from "../inbound/direct.ts";
import { initialInboundState } from "../inbound/state.ts";
import { scheduleCleanup } from "../jobs/cleanup.ts";
import { scheduleReviewNotices } from "../jobs/review-notices.ts";
import { scheduleSends } from "../jobs/scheduled-sends.ts";
import { startWebhookWorker } from "../jobs/webhook-worker.ts";
import { listenOn } from "../listen.ts";
import type { Logger } from "../log.ts";
import { sealReviewSecrets } from "../mailbox/admin.ts";
import { ensureConfiguredDomains } from "../mailbox/domains.ts";
import { ensureReturnPathKey } from "../mailbox/return-path.ts";
import { createMetrics } from "../metrics.ts";
import { observedMailer, smtpMailer } from "../outbound/smtp.ts";
import { schema } from "../schema/index.ts";
import { createGraphql } from "../schema/pipeline.ts";
import { type Instance, servicesFor } from "../services.ts";
import { createApp } from "./app.ts";
import { answerClientErrorsWithJson, answerUnreadableRequest } from "./client-errors.ts";
import { Drain } from "./drain.ts";
import { serveGraphqlOverWebSocket } from "./graphql-ws.ts";

export interface RunningService {
  url: string;
  services: Instance;
  /** The scheduled cleanup of unverified agents. */
  cleanup: Cron;
  stop(): Promise<void>;
}

/** Opens and migrates the database, then serves HTTP and runs the scheduled jobs. */
export async function startService(config: Config, clock: Clock, log: Logger): Promise<RunningService> {
  const database = await openDatabase(config.databaseUrl);
  const applied = await migrate(database);
  if (applied.length > 0) log("info", "migrations_applied", { migrations: applied });
  const outbound = config.smtp ? { lastSuccessAt: null, lastErrorAt: null, lastError: null } : null;
  const inbound = config.imap ? initialInboundState() : null;
  const metrics = createMetrics(inbound);
  const mailer =
    config.smtp && outbound
      ? observedMailer(smtpMailer(config.smtp, config.smtpTimeoutMs), { state: outbound, metrics, clock })
      : null;
  if (!mailer) log("info", "outbound_off", { reason: notSet("SMTP_URL") });
  const { email, webhook } = config.reviewer;
  if (config.sendPolicy !== "open" && email === null && webhook === null) {
    log("warn", "review_unannounced", {
      reason: `SEND_POLICY=${config.sendPolicy} holds mail and no reviewer is set: nobody is told; decide with GET /admin/held or pigeonhole held`,
    });
  }
  const services = servicesFor(database, { config, clock, log, mailer, inbound, outbound, metrics });
  await ensureConfiguredDomains(services);
  await sealReviewSecrets(services);
  await ensureReturnPathKey(services);
  const graphql = createGraphql(schema, services);
  const drain = new Drain();
  const intake = startDirectIntake(services);
  const app = createApp(services, graphql, drain, intake);
  const listener = getRequestListener(app.fetch, { hostname: config.host, errorHandler: answerUnreadableRequest });
  // The patient side of a keep-alive connection: clients and proxies close an idle one first (Node's 5 s
  // would race a request sent on it as it closes, and reset that request). 65 s outlasts common proxies' 60 s.
  const server = createServer({ keepAliveTimeout: 65_000 }, listener);
  drain.watch(server);
  await listenOn(server, config.port, config.host, "PORT");
  answerClientErrorsWithJson(server);
  const webSockets = serveGraphqlOverWebSocket(server, graphql);
  const { port } = server.address() as AddressInfo;
  const cleanup = scheduleCleanup(services);
  const webhooks = startWebhookWorker(services);
  const scheduled = scheduleSends(services);
  const notices = scheduleReviewNotices(services);
  // The mail doors' libraries (IMAP, SMTP) are loaded only by an instance that opens them.
  const poller =
    config.imap && services.inbound
      ? (await import("../inbound/imap-poller.ts")).startImapPoller(services, config.imap, services.inbound)
      : null;
  const door = config.smtpIngress
    ? await (await import("../inbound/smtp-door.ts")).startSmtpDoor(services, config.smtpIngress, intake)
    : null;
  if (!poller && !door) {
    log("info", "inbound_off", { reason: NO_WAY_IN });
  }
  log("info", "listening", { port, database: database.provider });
  return {
    url: `http://${config.host === "0.0.0.0" ? "127.0.0.1" : config.host}:${port}`,
    services,
    cleanup,
    async stop() {
      // Requests under way get SHUTDOWN_GRACE_MS to finish; see drain.ts for what arrives meanwhile.
      const grace = AbortSignal.timeout(config.shutdownGraceMs);
      const http = webSockets.close().then(() => drain.close(server, grace));
      // The poller finishes the batch it is filing (one transaction), then lets go of the mailbox.
      await Promise.all([http, poller?.stop(), door?.close(), webhooks.stop(), scheduled.stop(), notices.stop()]);
      await services.reader.close();
      cleanup.stop();
      mailer?.close();
      await services.wakeups.close();
      await services.takeover.close();
      await database.close();
      log("info", "stopped", {});
    },
  };
}
