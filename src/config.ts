// Configuration comes from environment variables only. Every variable is
// optional; a bad value stops start-up with a message naming the variable.

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  mailDomain: string;
  publicUrl: string;
  socialHandle: string;
  verificationCodePrefix: string;
  socialOembedUrl: string;
  socialIntentUrl: string;
  dailySendLimit: number;
  storageLimitBytes: number;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const HOSTNAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function read(env: Env, name: string, fallback: string, valid: (value: string) => boolean, expected: string): string {
  const value = env[name] ?? fallback;
  if (!valid(value)) throw new ConfigError(`${name} must be ${expected}, got ${JSON.stringify(value)}`);
  return value;
}

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = read(
    env,
    name,
    String(fallback),
    (v) => /^\d+$/.test(v) && +v >= min && +v <= max,
    `an integer from ${min} to ${max}`,
  );
  return Number(value);
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

export function loadConfig(env: Env): Config {
  const port = readInt(env, "PORT", 3000, 0, 65535);
  return {
    port,
    host: read(env, "HOST", "0.0.0.0", (v) => v.length > 0, "a listen address"),
    databaseUrl: read(
      env,
      "DATABASE_URL",
      "file:./data/pigeonhole.db",
      (v) => /^(file:.+|postgres(ql)?:\/\/.+)$/.test(v),
      "file:<path> or a postgres:// or postgresql:// URL",
    ),
    mailDomain: read(env, "MAIL_DOMAIN", "localhost", (v) => HOSTNAME.test(v), "a domain name").toLowerCase(),
    publicUrl: read(env, "PUBLIC_URL", `http://localhost:${port}`, isHttpUrl, "an http(s) URL").replace(/\/+$/, ""),
    socialHandle: read(
      env,
      "SOCIAL_HANDLE",
      "pigeonhole",
      (v) => /^[A-Za-z0-9_]{1,15}$/.test(v),
      "an X handle without @",
    ),
    verificationCodePrefix: read(
      env,
      "VERIFICATION_CODE_PREFIX",
      "PIGEON",
      (v) => /^[A-Z0-9]{1,16}$/.test(v),
      "1-16 capital letters or digits",
    ),
    socialOembedUrl: read(env, "SOCIAL_OEMBED_URL", "https://publish.twitter.com/oembed", isHttpUrl, "an http(s) URL"),
    socialIntentUrl: read(env, "SOCIAL_INTENT_URL", "https://twitter.com/intent/tweet", isHttpUrl, "an http(s) URL"),
    dailySendLimit: readInt(env, "DAILY_SEND_LIMIT", 25, 1, 1_000_000),
    // Stored in a 32-bit integer column.
    storageLimitBytes: readInt(env, "STORAGE_LIMIT_BYTES", 52_428_800, 1, 2_147_483_647),
  };
}
