import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { ConfigError, configurationTable, loadConfig, notSet, VARIABLES, variableNamed } from "./config.ts";

// The declarations of src/config.ts: what loadConfig makes of each variable,
// the bounds and choices it holds values to, and the README's table written
// from them.

describe("configuration", () => {
  test("every variable has a working default", () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: "0.0.0.0",
      databaseUrl: "file:./data/pigeonhole.db",
      mailDomain: "localhost",
      mailDomains: ["localhost"],
      smtpIngress: null,
      inboundToken: null,
      mxHost: "localhost",
      spfInclude: null,
      reservedLocalParts: [],
      secretsKey: null,
      publicUrl: "http://localhost:3000",
      socialHandle: "pigeonhole",
      verificationCodePrefix: "PIGEON",
      socialOembedUrl: "https://publish.twitter.com/oembed",
      socialIntentUrl: "https://twitter.com/intent/tweet",
      dailySendLimit: 25,
      threadSendLimit: 10,
      storageLimitBytes: 52428800,
      imap: null,
      imapPollIntervalMs: 30000,
      imapProcessed: { kind: "seen" },
      inboundMaxBytes: 26214400,
      smtp: null,
      smtpTimeoutMs: 20000,
      graphqlIntrospection: true,
      eventRetentionHours: 72,
      trashRetentionDays: 30,
      shutdownGraceMs: 10_000,
      logLevel: "info",
      rateLimitRequestsPerSecond: 20,
      rateLimitRegistrationsPerHour: 10,
      trustProxy: false,
      verificationMode: "social",
      sendPolicy: "open",
      approvalTimeoutHours: 72,
      reviewer: { email: null, webhook: null },
      adminToken: null,
      metricsToken: null,
      webhookAllowPrivate: false,
      dnsServers: null,
      trustedAuthservId: null,
      feedbackLoopDomains: [],
      rspamdUrl: null,
      rspamdRequired: false,
      clamavUrl: null,
      clamavRequired: false,
      trustedMxHosts: [],
      corsOrigins: [],
      wireNames: "spec",
    });
    expect(loadConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ MAIL_DOMAIN: "Mail.Example.COM" }).mailDomain).toBe("mail.example.com");
    expect(loadConfig({ DNS_SERVERS: "127.0.0.1:5353, ::1,[::1]:53" }).dnsServers).toEqual([
      "127.0.0.1:5353",
      "::1",
      "[::1]:53",
    ]);
    expect(loadConfig({ TRUSTED_AUTHSERV_ID: "MX.Example.com" }).trustedAuthservId).toBe("mx.example.com");
    expect(loadConfig({ FEEDBACK_LOOP_DOMAINS: "FBL.Example, arf.mail.example" }).feedbackLoopDomains).toEqual([
      "fbl.example",
      "arf.mail.example",
    ]);
    expect(loadConfig({ TRUSTED_MX_HOSTS: "MX.Example.com, store.example.com," }).trustedMxHosts).toEqual([
      "mx.example.com",
      "store.example.com",
    ]);
    const proxies = {
      SMTP_INGRESS_PORT: "25",
      SMTP_INGRESS_TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.7, ::ffff:192.0.2.8, fd00::/8",
    };
    expect(loadConfig(proxies).smtpIngress?.trustedProxies).toEqual([
      "10.0.0.0/8",
      "192.0.2.7/32",
      "192.0.2.8/32",
      "fd00::/8",
    ]);
    expect(loadConfig({ SMTP_INGRESS_PORT: "25" }).smtpIngress?.trustedProxies).toEqual([]);
    expect(() => loadConfig({ SMTP_INGRESS_PORT: "25", SMTP_INGRESS_TRUSTED_PROXIES: "lb.example.com" })).toThrow(
      /^SMTP_INGRESS_TRUSTED_PROXIES must be IP addresses or CIDR ranges/,
    );
    expect(loadConfig({ CORS_ORIGINS: "https://app.example, http://localhost:5173" }).corsOrigins).toEqual([
      "https://app.example",
      "http://localhost:5173",
    ]);
    expect(loadConfig({ CORS_ORIGINS: "*" }).corsOrigins).toEqual(["*"]);
    // RFC 8552's underscored labels: what a provider's SPF include is named.
    expect(loadConfig({ SPF_INCLUDE: "_SPF.Relay.example" }).spfInclude).toBe("_spf.relay.example");
    expect(loadConfig({ RESERVED_LOCAL_PARTS: " HR, legal,hr " }).reservedLocalParts).toEqual(["hr", "legal"]);
  });

  test.each([
    ["PORT", "abc"],
    ["PORT", "70000"],
    ["HOST", ""],
    ["DATABASE_URL", "mysql://x"],
    ["DATABASE_URL", "postgresql://localhost/db?schema=bad-name"],
    ["MAIL_DOMAIN", "not a domain"],
    ["PUBLIC_URL", "ftp://x"],
    ["SOCIAL_HANDLE", "@pigeonhole"],
    ["VERIFICATION_CODE_PREFIX", "pigeon"],
    ["SOCIAL_OEMBED_URL", "nope"],
    ["SOCIAL_INTENT_URL", "nope"],
    ["DAILY_SEND_LIMIT", "0"],
    ["STORAGE_LIMIT_BYTES", "-5"],
    ["STORAGE_LIMIT_BYTES", "3000000000"],
    ["GRAPHQL_INTROSPECTION", "yes"],
    ["SMTP_TIMEOUT_MS", "30000"],
    ["EVENT_RETENTION_HOURS", "0"],
    ["WEBHOOK_ALLOW_PRIVATE", "1"],
    ["DNS_SERVERS", "dns.example.com"],
    ["DNS_SERVERS", "127.0.0.1:70000"],
    ["DNS_SERVERS", "127.0.0.1,"],
    ["TRUSTED_AUTHSERV_ID", "mx example"],
    ["FEEDBACK_LOOP_DOMAINS", "fbl.example,@arf.example"],
    ["TRUSTED_MX_HOSTS", "mx.example.com, mx example"],
    ["CORS_ORIGINS", "https://app.example/path"],
    ["CORS_ORIGINS", "app.example"],
    ["CORS_ORIGINS", "*, https://app.example"],
    ["WIRE_NAMES", "resend"],
    ["VERIFICATION_MODE", "manual"],
    ["SEND_POLICY", "review_some"],
    ["MAIL_DOMAINS", "a.example,not a domain"],
    ["MX_HOST", "mx_host"],
    ["SPF_INCLUDE", "spf include.example"],
    ["SPF_INCLUDE", "__spf.example"],
    ["RESERVED_LOCAL_PARTS", "hr,ops team"],
    ["SMTP_INGRESS_PORT", "smtp"],
    ["SECRETS_KEY", "too-short"],
    ["APPROVAL_TIMEOUT_HOURS", "0"],
    ["ADMIN_TOKEN", "short"],
    ["LOG_LEVEL", "verbose"],
    ["RATE_LIMIT_REQUESTS_PER_SECOND", "-1"],
    ["TRUST_PROXY", "yes"],
    ["METRICS_TOKEN", "has spaces in it but is long enough"],
    ["TRASH_RETENTION_DAYS", "-1"],
    ["REVIEWER_EMAIL", "a person"],
    ["REVIEWER_WEBHOOK_URL", "hooks.example"],
  ])("%s=%j is refused with a message naming it", (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^${name} must be`));
  });

  test.each([
    ["RSPAMD_REQUIRED", "RSPAMD_URL", "http://127.0.0.1:11333"],
    ["CLAMAV_REQUIRED", "CLAMAV_URL", "tcp://127.0.0.1:3310"],
  ])("%s=true needs %s: requiring a scanner that is not there is refused", (name, scanner, url) => {
    expect(() => loadConfig({ [name]: "true" })).toThrow(new RegExp(`^${name} needs ${scanner}`));
    expect(loadConfig({ [name]: "true", [scanner]: url })).toMatchObject({
      [scanner.toLowerCase().replace("_url", "Url")]: url,
    });
    expect(() => loadConfig({ [name]: "false" })).not.toThrow();
  });

  test("the reviewer's webhook comes with a secret of its own, never repeated in the refusal", () => {
    const secret = `whsec_${Buffer.alloc(24, 1).toString("base64")}`;
    const url = "https://hooks.example/held";
    expect(() => loadConfig({ REVIEWER_WEBHOOK_URL: url })).toThrow(
      /^REVIEWER_WEBHOOK_URL and REVIEWER_WEBHOOK_SECRET/,
    );
    expect(() => loadConfig({ REVIEWER_WEBHOOK_SECRET: secret })).toThrow(/must be set together/);
    expect(() => loadConfig({ MAIL_DOMAINS: "a.example,mail.example", REVIEWER_EMAIL: "boss@Mail.example" })).toThrow(
      /^REVIEWER_EMAIL must be an email address outside MAIL_DOMAINS/,
    );
    expect(() => loadConfig({ REVIEWER_WEBHOOK_URL: url, REVIEWER_WEBHOOK_SECRET: "whsec_c2hvcnQ=" })).toThrow(
      /^REVIEWER_WEBHOOK_SECRET must be whsec_ and 24-64 bytes in base64/,
    );
    expect(
      loadConfig({ REVIEWER_EMAIL: "Owner@People.example", REVIEWER_WEBHOOK_URL: url, REVIEWER_WEBHOOK_SECRET: secret })
        .reviewer,
    ).toEqual({
      email: "owner@people.example",
      webhook: { url, secret },
    });
  });
});

describe("the declarations", () => {
  test("every variable is declared once, with words for its value and its meaning", () => {
    const names = VARIABLES.map((variable) => variable.name);
    expect(new Set(names).size).toBe(names.length);
    for (const variable of VARIABLES) {
      expect(variable.name).toMatch(/^[A-Z][A-Z0-9_]+$/);
      expect(variable.expected, variable.name).not.toBe("");
      expect(variable.description, variable.name).not.toBe("");
    }
  });

  test.each(VARIABLES.filter((variable) => variable.bounds))(
    "$name takes its bounds and nothing past them",
    (variable) => {
      const { min, max } = variable.bounds ?? { min: 0, max: 0 };
      // SMTP_INGRESS_* but the port are read only once the door is open.
      const base = variable.name.startsWith("SMTP_INGRESS_") ? { SMTP_INGRESS_PORT: "25" } : {};
      const load = (value: number) => loadConfig({ ...base, [variable.name]: String(value) });
      expect(() => load(min)).not.toThrow();
      expect(() => load(max)).not.toThrow();
      expect(() => load(max + 1)).toThrow(
        `${variable.name} must be an integer from ${min} to ${max}, got "${max + 1}"`,
      );
      if (min > 0) expect(() => load(min - 1)).toThrow(`${variable.name} must be an integer from ${min} to ${max}`);
    },
  );

  test.each(VARIABLES.filter((variable) => variable.choices))("$name takes each of its choices", (variable) => {
    for (const choice of variable.choices ?? []) expect(() => loadConfig({ [variable.name]: choice })).not.toThrow();
    expect(() => loadConfig({ [variable.name]: "other" })).toThrow(`${variable.name} must be ${variable.expected}`);
  });

  test("a variable's default is what loadConfig takes when it is unset", () => {
    const defaults = loadConfig({});
    expect(variableNamed("PORT").default).toEqual({ value: String(defaults.port) });
    expect(variableNamed("SMTP_TIMEOUT_MS").default).toEqual({ value: String(defaults.smtpTimeoutMs) });
    expect(variableNamed("LOG_LEVEL").default).toEqual({ value: defaults.logLevel });
    expect(variableNamed("GRAPHQL_INTROSPECTION").default).toEqual({ value: String(defaults.graphqlIntrospection) });
    for (const variable of VARIABLES) {
      if ("value" in variable.default) {
        expect(() => loadConfig({ [variable.name]: (variable.default as { value: string }).value })).not.toThrow();
      }
    }
  });

  test("secrets are never repeated in a refusal", () => {
    const secrets = VARIABLES.filter((variable) => variable.secret).map((variable) => variable.name);
    expect(secrets).toEqual(expect.arrayContaining(["SECRETS_KEY", "IMAP_URL", "SMTP_URL", "ADMIN_TOKEN"]));
    // The webhook's secret is refused for its form only beside its URL.
    const beside = (name: string) =>
      name === "REVIEWER_WEBHOOK_SECRET" ? { REVIEWER_WEBHOOK_URL: "https://h.example" } : {};
    for (const name of secrets) {
      expect(() => loadConfig({ ...beside(name), [name]: "p@ss word" })).toThrow(new RegExp(`^${name} must be [^"]*$`));
    }
  });

  test("doctor's words for an unset variable are the README's, without Markdown", () => {
    expect(notSet("ADMIN_TOKEN")).toBe("ADMIN_TOKEN is not set: the admin API is off (404)");
    expect(notSet("IMAP_URL")).toBe("IMAP_URL is not set: no catch-all mailbox is read");
    expect(notSet("METRICS_TOKEN")).toBe("METRICS_TOKEN is not set: /metrics is open");
  });

  test("the README's configuration table is the declarations' (npm run docs:config writes it)", () => {
    const readme = readFileSync("README.md", "utf8");
    const table = /<!-- configuration table[^>]*-->\n([\s\S]*?)\n<!-- end of configuration table -->/.exec(readme);
    expect(table?.[1]?.trim()).toBe(configurationTable());
  });
});
