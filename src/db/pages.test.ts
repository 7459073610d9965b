import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { insertAgent } from "./agents.ts";
import { agree, countOf, pageOf } from "./pages.ts";

// A page and its count are two statements; what is written between them
// (mail filed, an agent made) must not come back as a count the page
// contradicts.

const memory = memoryOfFile();

const addAgent = (id: string) =>
  insertAgent(
    memory.services,
    {
      id,
      idKey: id,
      name: id,
      domain: "agents.example",
      podId: null,
      apiKeyHash: `key-${id}`,
      claimTokenHash: `claim-${id}`,
      createdAt: memory.clock.now(),
      createdBy: "agent",
    },
    { configured: true, cutoff: memory.clock.now(), withPod: false, placement: { holder: null, podDomains: [] } },
  );

test("a page and a count agree when the page holds what the count leaves past the offset, up to the limit", () => {
  expect(agree({ limit: 50, offset: 0 }, 3, 3)).toBe(true);
  expect(agree({ limit: 2, offset: 0 }, 2, 3)).toBe(true);
  expect(agree({ limit: 2, offset: 2 }, 1, 3)).toBe(true);
  expect(agree({ limit: 2, offset: 5 }, 0, 3)).toBe(true);
  expect(agree({ limit: 50, offset: 0 }, 0, 3)).toBe(false);
  expect(agree({ limit: 50, offset: 0 }, 3, 2)).toBe(false);
  expect(agree({ limit: 2, offset: 2 }, 0, 3)).toBe(false);
});

test("a count read after a write the page missed is read again with the page, until the two agree", async () => {
  const { sql } = memory.services;
  await addAgent("first");
  await addAgent("second");
  let readings = 0;
  const page = await pageOf({ limit: 50, offset: 0 }, () => {
    readings++;
    const rows = sql.all(`SELECT "id" FROM "Agent" ORDER BY "id"`, []);
    const count = (async () => {
      if (readings === 1) await addAgent("third");
      return countOf(sql.one(`SELECT COUNT(*) AS "n" FROM "Agent"`, []));
    })();
    return [rows, count];
  });
  expect(readings).toBe(2);
  expect(page).toEqual({ data: [{ id: "first" }, { id: "second" }, { id: "third" }], total: 3 });
});

test("a page and a count that agree are read once", async () => {
  const { sql } = memory.services;
  let readings = 0;
  const page = await pageOf({ limit: 2, offset: 0 }, () => {
    readings++;
    return [
      sql.all(`SELECT "id" FROM "Agent" ORDER BY "id" LIMIT 2`, []),
      countOf(sql.one(`SELECT COUNT(*) AS "n" FROM "Agent"`, [])),
    ];
  });
  expect(readings).toBe(1);
  expect(page.total).toBe(3);
});
