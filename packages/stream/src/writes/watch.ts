// WRITE=watch: the optimistic transaction. WATCH the key, read its version, decide, then MULTI,
// HSET, HINCRBY, EXEC; EXEC answers nil when another write touched the key after the WATCH, and
// the request tries again, at most WATCH_RETRIES times, then answers 409 (counted). WATCH belongs
// to a connection, and every client here multiplexes its connection between requests in flight,
// so each transaction runs on a connection of its own taken from a pool (what each client's
// documentation says is safe): nothing else is sent on it between its WATCH and its EXEC.
import type { TxConnection, WriteConnection } from '../contract.ts';
import { itemKey, type Writer } from './upsert.ts';

/** Transactions a request tries before it answers 409. */
export const WATCH_RETRIES = 10;
/** Connections the pool opens at most (as many as the load's 50 connections: a request never waits for one). */
export const WATCH_POOL = 50;

/** A pool of dedicated connections: taken for one transaction, returned after it. */
export function txPool(open: () => Promise<TxConnection>, max = WATCH_POOL) {
  const idle: TxConnection[] = [];
  const all: TxConnection[] = [];
  const waiting: ((c: TxConnection) => void)[] = [];
  return {
    async take(): Promise<TxConnection> {
      const c = idle.pop();
      if (c) return c;
      if (all.length < max) {
        const fresh = await open();
        all.push(fresh);
        return fresh;
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
    give(c: TxConnection): void {
      const next = waiting.shift();
      if (next) next(c);
      else idle.push(c);
    },
    close: () => Promise.all(all.map((c) => c.close())).then(() => undefined),
  };
}

/**
 * One request's upsert on a connection of its own: WATCH, HGET, then EXEC or UNWATCH, retried while EXEC is aborted.
 */
export async function watchUpsert(
  tx: TxConnection,
  id: string,
  fields: Record<string, string>,
  version: number,
  retries = WATCH_RETRIES,
) {
  const key = itemKey(id);
  for (let attempt = 0; attempt <= retries; attempt++) {
    await tx.watch(key);
    const cur = await tx.hget(key, 'version');
    if (cur !== null && Number(cur) >= version) {
      await tx.unwatch();
      return { result: 'ignored' as const, version, retries: attempt };
    }
    if (await tx.commit(key, { version: String(version), ...fields }))
      return { result: cur === null ? ('created' as const) : ('updated' as const), version, retries: attempt };
  }
  return { result: 'conflict' as const, version, retries: retries + 1 };
}

export async function watchWriter(conn: WriteConnection): Promise<Writer> {
  const pool = txPool(() => conn.dedicated());
  return {
    async upsert(id, fields, version) {
      const tx = await pool.take();
      try {
        return await watchUpsert(tx, id, fields, version);
      } finally {
        pool.give(tx);
      }
    },
    close: async () => {
      await pool.close();
      await conn.close();
    },
  };
}
