import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery, Transaction } from "@prisma/driver-adapter-utils";
import { countingFactory } from "./statements.ts";

// better-sqlite3 gives Prisma one connection. Prisma's adapter keeps other
// transactions out while one is open, but not single statements: a request's
// write could land inside another request's transaction and be rolled back
// with it. Here every statement waits its turn behind an open transaction,
// and so do the writes of our own statements (sql.ts), on the same lock.

/** Holders take turns, in order. */
export class Lock {
  #tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const granted = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return granted;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }
}

function serialize(adapter: SqlDriverAdapter, lock: Lock): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (query: SqlQuery) => lock.run(() => adapter.queryRaw(query)),
    executeRaw: (query: SqlQuery) => lock.run(() => adapter.executeRaw(query)),
    executeScript: (script: string) => lock.run(() => adapter.executeScript(script)),
    dispose: () => adapter.dispose(),
    async startTransaction(isolationLevel): Promise<Transaction> {
      const release = await lock.acquire();
      try {
        const transaction = await adapter.startTransaction(isolationLevel);
        const end = (finish: () => Promise<void>) => () => finish().finally(release);
        return Object.assign(Object.create(transaction) as Transaction, {
          commit: end(() => transaction.commit()),
          rollback: end(() => transaction.rollback()),
        });
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}

export function serializedSqlite(url: string, lock: Lock): SqlDriverAdapterFactory {
  const inner = countingFactory(new PrismaBetterSQLite3({ url }));
  return {
    provider: inner.provider,
    adapterName: inner.adapterName,
    connect: async () => serialize(await inner.connect(), lock),
  };
}
