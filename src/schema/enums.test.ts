import { parse } from "graphql";
import { expect, test } from "vitest";
import { respellerOf } from "./enums.ts";
import { schema } from "./index.ts";

const respelled = (source: string, data: unknown) => {
  const respell = respellerOf(schema, parse(source));
  respell?.(data);
  return { respells: respell !== null, data };
};

test("REST answers RFC 3834's keywords as the header spells them where the document selects one, through lists and fragments", () => {
  const source = `query {
    agent(id: "a") { metadata emails(limit: 2) { total data { ...E } } }
    thread(agentId: "a", threadId: "t") { messages { email { auto: autoSubmitted } } }
  }
  fragment E on Email { id subject autoSubmitted }`;
  const email = (id: string, subject: string | null, autoSubmitted: string | null) => ({ id, subject, autoSubmitted });
  const data = (spelled: (name: string) => string) => ({
    agent: {
      metadata: { autoSubmitted: "auto_replied" },
      emails: {
        total: 3,
        data: [email("a", "auto_replied", spelled("auto_replied")), email("b", null, null), email("c", "list", "list")],
      },
    },
    thread: { messages: [{ email: { auto: spelled("auto_generated") } }, { email: null }] },
  });
  // An agent's metadata is its own JSON, and a subject is the sender's: the same words there are left alone.
  expect(
    respelled(
      source,
      data((name) => name),
    ),
  ).toEqual({
    respells: true,
    data: data((name) => name.replace("_", "-")),
  });
});

test("an operation that selects no autoSubmitted is not walked, whatever its variables are called", () => {
  const source =
    'query($autoSubmitted: Boolean) { agent(id: "a") { emails(autoSubmitted: $autoSubmitted) { total } } }';
  expect(respelled(source, { agent: { emails: { total: 1 } } }).respells).toBe(false);
});

test("REST answers Rspamd's actions as Rspamd spells them, and leaves the enums without such words alone", () => {
  const source = `query { email(agentId: "a", emailId: "e") { spam { action status } screening { verdict signals { name where } } } }`;
  const data = {
    email: {
      spam: { action: "add_header", status: "scanned" },
      screening: { verdict: "suspicious", signals: [{ name: "ai_instruction", where: "text" }] },
    },
  };
  expect(respelled(source, data).data).toEqual({
    email: {
      spam: { action: "add header", status: "scanned" },
      screening: { verdict: "suspicious", signals: [{ name: "ai_instruction", where: "text" }] },
    },
  });
  expect(respelled(source, { email: { spam: null, screening: { verdict: "clear", signals: [] } } }).data).toEqual({
    email: { spam: null, screening: { verdict: "clear", signals: [] } },
  });
});
