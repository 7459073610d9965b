import { afterAll, beforeAll } from "vitest";
import { Api } from "./api.ts";
import { Dovecot } from "./dovecot.ts";
import { type FakeX, startFakeX } from "./oembed-server.ts";
import { startTestService, type TestDatabase, type TestService } from "./service.ts";
import { FakeProvider } from "./smtp-provider.ts";

// The service a test file runs against, with the real peers it asks for:
// started before the file's tests, stopped after them. What served() hands
// back are stand-ins, usable at once in the file's top level, that forward
// to the real service and peers once beforeAll has started them.

/** The peers that may run beside the service. */
export interface Peers {
  /** X's oEmbed, always: SOCIAL_OEMBED_URL. */
  x: FakeX;
  /** The catch-all, with `imap`: IMAP_URL. */
  dovecot: Dovecot;
  /** The provider, with `smtp`: SMTP_URL. */
  provider: FakeProvider;
}

export interface Served extends Peers {
  svc: TestService;
  api: Api;
}

export interface ServedOptions {
  imap?: boolean;
  smtp?: boolean;
  /** The rest of the service's environment; MAIL_DOMAIN is mail.example unless it says otherwise. */
  env?: Record<string, string> | ((peers: Peers) => Record<string, string>);
  /** Ties the peers together before the service starts (a provider relaying into the catch-all, say). */
  wire?: (peers: Peers) => void;
  /** The database, when the file needs its URL itself. */
  database?: TestDatabase;
}

/** An object that forwards to `target()`, which exists once beforeAll has run. */
function standIn<T extends object>(name: string, target: () => T | undefined): T {
  const real = () => {
    const found = target();
    if (!found) throw new Error(`${name} is used before beforeAll started it`);
    return found;
  };
  return new Proxy({} as T, {
    get(_, property) {
      const value = Reflect.get(real(), property);
      return typeof value === "function" ? value.bind(real()) : value;
    },
    set: (_, property, value) => Reflect.set(real(), property, value),
    has: (_, property) => Reflect.has(real(), property),
  });
}

/** The peers alone, for a file that starts its services itself. */
export function peersOf(options: Pick<ServedOptions, "imap" | "smtp"> = {}): Peers {
  const started: Partial<Peers> = {};
  beforeAll(async () => {
    const [x, dovecot, provider] = await Promise.all([
      startFakeX(),
      options.imap ? Dovecot.start() : undefined,
      options.smtp ? FakeProvider.start() : undefined,
    ]);
    Object.assign(started, { x, dovecot, provider });
  });
  afterAll(async () => {
    await started.provider?.down();
    await started.x?.close();
    await started.dovecot?.stop();
  });
  return {
    x: standIn("x", () => started.x),
    dovecot: standIn("dovecot", () => started.dovecot),
    provider: standIn("provider", () => started.provider),
  };
}

export function served(options: ServedOptions = {}): Served {
  const peers = peersOf(options);
  const started: { svc?: TestService; api?: Api } = {};
  beforeAll(async () => {
    options.wire?.(peers);
    const env = typeof options.env === "function" ? options.env(peers) : (options.env ?? {});
    started.svc = await startTestService(
      {
        SOCIAL_OEMBED_URL: peers.x.url,
        MAIL_DOMAIN: "mail.example",
        ...(options.imap ? { IMAP_URL: peers.dovecot.url() } : {}),
        ...(options.smtp ? { SMTP_URL: peers.provider.url } : {}),
        ...env,
      },
      options.database,
    );
    started.api = new Api(started.svc.url);
  });
  // Registered after the peers' own: it runs first, so the service stops before them.
  afterAll(async () => {
    await started.svc?.stop();
  });
  return {
    ...peers,
    svc: standIn("svc", () => started.svc),
    api: standIn("api", () => started.api),
  };
}
