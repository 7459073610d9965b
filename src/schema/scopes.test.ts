import { type GraphQLField, getNamedType, isObjectType } from "graphql";
import { expect, test } from "vitest";
import { schema } from "./index.ts";
import { permissionOf } from "./own-agent.ts";

// The choke point holds only if nothing goes around it: every root field but
// registration and the list of domains names a scope, and so does every type that holds an agent's data.
// Every field an agent's key reaches says which permission it needs (null: none beyond the key).

const PUBLIC_ROOT_FIELDS = ["Mutation.createAgent", "Query.domains"];
const OWNED_TYPES = ["Agent"];

const scopesOf = (field: GraphQLField<unknown, unknown>) =>
  (field.extensions.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes;

test("every root field names a scope, but registration", () => {
  for (const root of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const name = `${root?.name}.${field.name}`;
      if (PUBLIC_ROOT_FIELDS.includes(name)) expect(scopesOf(field), name).toBeUndefined();
      else expect(scopesOf(field), name).toBeDefined();
    }
  }
});

/** Scopes no agent's key passes: the operator's, and a person's by a review link's token. */
const NOT_FOR_KEYS = ["operator", "reviewer", "quarantineReviewer"];

/** Whether the field's scopes let an agent's key in: any scope but those. */
function reachedByKeys(authScopes: unknown): boolean {
  const scopes =
    typeof authScopes === "function" ? authScopes({}, { token: "t", agentId: "a", id: "a" }, {}) : authScopes;
  return Object.keys(scopes as object).some((name) => !NOT_FOR_KEYS.includes(name));
}

test("every root field an agent's key reaches declares the permission it needs", () => {
  for (const root of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      const name = `${root?.name}.${field.name}`;
      const authScopes = scopesOf(field);
      if (PUBLIC_ROOT_FIELDS.includes(name) || permissionOf(authScopes) !== undefined) continue;
      expect(reachedByKeys(authScopes), `${name} declares no permission`).toBe(false);
    }
  }
});

test("the Agent type carries a scope of its own, and mail is reached only through scoped fields", () => {
  for (const name of OWNED_TYPES) {
    const type = schema.getType(name);
    expect((type?.extensions.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes, name).toBeDefined();
  }
  // Every field that returns mail (emails, sent emails, threads, attachments, their pages and connections) is scoped itself.
  const mail = /^(Email|SentEmail|Thread|ThreadMessage|Attachment)(Page|Connection)?$/;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const returns = getNamedType(field.type).name;
      const inside = mail.test(type.name) || type.name.endsWith("Edge");
      if (mail.test(returns) && !inside) expect(scopesOf(field), `${type.name}.${field.name}`).toBeDefined();
    }
  }
});
