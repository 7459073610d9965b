import { expect, test } from "vitest";
import { contextCacheSymbol, createContextCache, initContextCache } from "./context-cache.ts";

// The context caches the build puts in place of Pothos' own answer as Pothos'
// do: one entry per context (or per the cache key contexts share), made once,
// dropped by delete (scripts/bundle-patches.test.ts checks the build uses them).

test("an entry is made once per context, with the first call's arguments", () => {
  let made = 0;
  const cache = createContextCache((context: object, label: string) => ({ context, label, n: ++made }));
  const [one, two] = [{}, {}];
  const first = cache(one, "a");
  expect(cache(one, "b")).toBe(first);
  expect(first).toEqual({ context: one, label: "a", n: 1 });
  expect(cache(two, "c")).toEqual({ context: two, label: "c", n: 2 });
});

test("two caches keep their own entries on one context", () => {
  const numbers = createContextCache(() => [1]);
  const words = createContextCache(() => ["one"]);
  const context = {};
  expect([numbers(context), words(context)]).toEqual([[1], ["one"]]);
});

test("contexts that share a cache key share its entries", () => {
  const cache = createContextCache(() => ({}));
  const key = initContextCache();
  expect(cache({ ...key })).toBe(cache({ ...key }));
  expect(cache({ ...key })).not.toBe(cache({}));
});

test("delete drops the entry: the next call makes another", () => {
  const cache = createContextCache(() => ({}));
  const context = {};
  const first = cache(context);
  cache.delete(context);
  expect(cache(context)).not.toBe(first);
});

test("a context's entries are not copied with it", () => {
  const cache = createContextCache(() => ({}));
  const context = { request: 1 };
  cache(context);
  expect({ ...context }).toEqual({ request: 1 });
  expect(Object.getOwnPropertySymbols({ ...context })).toEqual([]);
  expect(contextCacheSymbol).toBe(Symbol.for("Pothos.contextCache"));
});

test("a frozen key keeps its entry all the same", () => {
  let made = 0;
  const cache = createContextCache(() => ({ n: ++made }));
  const key = Object.freeze({});
  expect(cache(key)).toBe(cache(key));
  cache.delete(key);
  expect(cache(key)).toEqual({ n: 2 });
});
