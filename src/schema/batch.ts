// Per-request batching: what the resolvers of one list ask for in one tick
// is loaded with one query, not one per item.

/** A loader by key: the keys asked for before the next tick go to `load` together. */
export function batched<K, V>(load: (keys: K[]) => Promise<Map<K, V>>, missing: V): (key: K) => Promise<V> {
  let pending: { keys: K[]; result: Promise<Map<K, V>> } | null = null;
  return async (key) => {
    if (!pending) {
      const batch: { keys: K[]; result: Promise<Map<K, V>> } = { keys: [], result: Promise.resolve(new Map()) };
      batch.result = new Promise((resolve) => setImmediate(resolve)).then(() => {
        pending = null;
        return load(batch.keys);
      });
      pending = batch;
    }
    pending.keys.push(key);
    return (await pending.result).get(key) ?? missing;
  };
}
