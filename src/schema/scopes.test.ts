import { type GraphQLField, getNamedType, isObjectType } from "graphql";
import { expect, test } from "vitest";
import { schema } from "./index.ts";

// The choke point holds only if nothing goes around it: every root field but
// registration and the list of domains names a scope, and so does every type that holds an agent's data.

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
