// Pothos' per-request caches (scope-auth's answers, the Prisma plugin's loader
// mappings, …), kept on the request's context instead of in a WeakMap keyed
// by it. The build puts this module in place of @pothos/core's own
// utils/context-cache.js (scripts/bundle-patches.ts); the exports and their
// meaning are the same.
//
// Why: a WeakMap that has lived long enough sits in V8's old generation, and
// V8's minor collector keeps the values of such a map alive whatever their
// keys; only a full collection lets a dead key's entry go. Each entry holds
// its request's context, so every request's context, and the HTTP request and
// answer it reaches, was promoted and left for a full collection. An entry
// held by a property of its context goes with it at the next minor collection.

export const contextCacheSymbol = Symbol.for("Pothos.contextCache");

export function initContextCache() {
  return { [contextCacheSymbol]: {} };
}

export interface ContextCache<T, C extends object, Args extends unknown[]> {
  (context: C, ...args: Args): T;
  delete: (context: C) => void;
}

/** The object a context's entries hang on: its cache key when it has one (initContextCache), else itself. */
const keyOf = (context: object): object =>
  (context as { [contextCacheSymbol]?: object })[contextCacheSymbol] || context;

export function createContextCache<T, C extends object = object, Args extends unknown[] = []>(
  create: (context: C, ...args: Args) => T,
): ContextCache<T, C, Args> {
  // One property per cache, not enumerable: spreading or assigning a context copies no cache.
  const slot = Symbol("Pothos.contextCache.entry");
  // Pothos also keys these caches by other objects (the builder, the datamodel): one that takes no
  // property (frozen) keeps its entry in a WeakMap, as Pothos' own module would.
  const sealed = new WeakMap<object, T>();
  const getOrCreate = (context: C, ...args: Args): T => {
    const key = keyOf(context) as { [slot]?: T };
    if (Object.hasOwn(key, slot)) return key[slot] as T;
    if (Object.isExtensible(key)) {
      const entry = create(context, ...args);
      Object.defineProperty(key, slot, { value: entry, configurable: true });
      return entry;
    }
    if (!sealed.has(key)) sealed.set(key, create(context, ...args));
    return sealed.get(key) as T;
  };
  getOrCreate.delete = (context: C) => {
    const key = keyOf(context) as { [slot]?: T };
    Reflect.deleteProperty(key, slot);
    sealed.delete(key);
  };
  return getOrCreate;
}
