import type { Config } from "./config.ts";

// What the REST layer calls things. The spec writes neutral names where
// ClawMail's published interface carries its vendors' brands; with
// WIRE_NAMES=clawmail an instance answers with ClawMail's, so its clients
// read the fields they expect. This table is the whole difference; GraphQL
// keeps the neutral names.

const CLAWMAIL = {
  fields: { socialIntentUrl: "twitterIntentUrl", socialUsername: "twitterUsername", providerId: "resendId" },
  codes: { SOCIAL_ALREADY_USED: "TWITTER_ALREADY_USED" },
  /** An error body's `error` as ClawMail's clients compare it. */
  errors: { "Rate limit exceeded": "Rate Limit Exceeded" },
  keyPrefix: "cmail_",
} as const;

const SPEC_KEY_PREFIX = "ph_";

export function keyPrefixOf(config: Pick<Config, "wireNames">): string {
  return config.wireNames === "clawmail" ? CLAWMAIL.keyPrefix : SPEC_KEY_PREFIX;
}

const renamedField = (name: string) => (CLAWMAIL.fields as Record<string, string>)[name] ?? name;
const renamedCode = (code: unknown) => (CLAWMAIL.codes as Record<string, string>)[code as string] ?? code;

/** A JSON body with ClawMail's names, at any depth. */
function toClawmail(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toClawmail);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, inner]) => [
      renamedField(name),
      name === "code" ? renamedCode(inner) : toClawmail(inner),
    ]),
  );
}

const renamedError = (error: unknown) => (CLAWMAIL.errors as Record<string, string>)[error as string] ?? error;

/** A body with ClawMail's names; an error body with its words too. */
function bodyToClawmail(body: unknown): unknown {
  const renamed = toClawmail(body);
  if (typeof renamed !== "object" || renamed === null || !("statusCode" in renamed && "error" in renamed)) {
    return renamed;
  }
  return { ...renamed, error: renamedError(renamed.error) };
}

/** How REST bodies leave this instance. */
export function wireBody(config: Pick<Config, "wireNames">): (body: unknown) => unknown {
  return config.wireNames === "clawmail" ? bodyToClawmail : (body) => body;
}
