// The xadd-trim workload: POST /items/:id appends the record in the body to the stream as one entry, the stream kept
// to about TRIM_MAXLEN entries as a capped feed is (XADD key MAXLEN ~ TRIM_MAXLEN * id <id> field value …), answered
// 201 with the entry's id. One XADD per request: nothing read, nothing retried.
import type { StreamOptions, WriteConnection } from '../contract.ts';
import { parseUpsertBody } from './upsert.ts';

/** The cap: `~` lets Redis trim whole nodes only, so the stream may hold one node (stream-node-max-entries) more. */
export const TRIM_MAXLEN = 1000;

/** The entry's fields: the request's id first, then the record's (RECORD_FIELDS) in the body's order. */
const trimArgs = (key: string, id: string, fields: Record<string, string>) => [
  'XADD',
  key,
  'MAXLEN',
  '~',
  String(TRIM_MAXLEN),
  '*',
  'id',
  id,
  ...Object.entries(fields).flat(),
];

export async function trimHandler(conn: WriteConnection, opts: StreamOptions) {
  return async (id: string, input: unknown) => {
    const body = parseUpsertBody(input);
    if (!body || !id) return { status: 400, json: '{"error":"want a JSON object of string fields"}' };
    const entry = await conn.call(trimArgs(opts.key, id, body.fields));
    return { status: 201, json: JSON.stringify({ id: String(entry) }) };
  };
}
