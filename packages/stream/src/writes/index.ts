// The writer an app's upsert route uses: the client's write connection (its module's
// openWrites) under the strategy WRITE names.
import type { WriteConnection } from '../contract.ts';
import { functionWriter } from './function.ts';
import { luaWriter } from './lua.ts';
import type { Writer } from './upsert.ts';
import { watchWriter } from './watch.ts';

export * from './upsert.ts';
export { WATCH_POOL, WATCH_RETRIES, txPool, watchUpsert } from './watch.ts';

/** WRITE=ping: the floor, one PING per request and nothing written. */
function pingWriter(conn: WriteConnection): Writer {
  return {
    upsert: async (_id, _fields, version) => {
      await conn.call(['PING']);
      return { result: 'pong', version, retries: 0 };
    },
    close: () => conn.close(),
  };
}

const STRATEGIES = { lua: luaWriter, watch: watchWriter, function: functionWriter, ping: pingWriter } as const;

export async function writerFor(conn: WriteConnection, write: keyof typeof STRATEGIES): Promise<Writer> {
  try {
    return await STRATEGIES[write](conn);
  } catch (e) {
    await conn.close();
    throw e;
  }
}
