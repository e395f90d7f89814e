// The write workloads' routes (WRITE_ROUTES), each over the client's write connection (its module's openWrites); the
// upsert's writer under the strategy WRITE names.
import type { WriteWorkload } from '../canonical.ts';
import type { StreamOptions, WriteConnection } from '../contract.ts';
import { functionWriter } from './function.ts';
import { luaWriter } from './lua.ts';
import { parseUpsertBody, UPSERT_STATUS, versionClock, type Writer } from './upsert.ts';
import { watchWriter } from './watch.ts';
import { trimHandler } from './xadd-trim.ts';

export * from './upsert.ts';
export { TRIM_MAXLEN } from './xadd-trim.ts';
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

/** What a write route answers for a request's id (the path's :id) and body (its text, or the object parsed). */
export type ItemHandler = (id: string, body: unknown) => Promise<{ status: number; json: string }>;

/**
 * POST /items/:id under WORKLOAD=upsert: the upsert (the version from the body, or the app's clock), answered with the
 * branch in the status (created 201, updated 200, ignored 202, 409 when WATCH gave up) and in the body.
 */
async function upsertHandler(conn: WriteConnection, opts: StreamOptions): Promise<ItemHandler> {
  const writer = await writerFor(conn, opts.settings.write);
  const clock = versionClock();
  return async (id, text) => {
    const body = parseUpsertBody(text);
    if (!body || !id)
      return {
        status: 400,
        json: '{"error":"want a JSON object of string fields, and a positive integer version if any"}',
      };
    const reply = await writer.upsert(id, body.fields, body.version ?? clock());
    return { status: UPSERT_STATUS[reply.result], json: JSON.stringify(reply) };
  };
}

/** Each write workload's route, made once per app from the client's write connection. */
export const WRITE_ROUTES: Record<WriteWorkload, (conn: WriteConnection, opts: StreamOptions) => Promise<ItemHandler>> =
  {
    upsert: upsertHandler,
    'xadd-trim': trimHandler,
  };
