// The upsert workload: POST /items/:id applies a last-writer-wins upsert of a small record to the
// hash item:{id}: created if absent, updated if the request's version is newer, left alone
// (ignored) if not. Every applied write also increments the key's `applied` counter in the same
// atomic step, which is what makes a lost update countable (the harness sums them after each
// window). The strategies (WRITE=lua|watch|function, and the PING floor) are one file each here;
// each client module provides the connections they run on (WriteConnection).

export type Branch = 'created' | 'updated' | 'ignored';
/** What one request did: a branch; `conflict` when WATCH lost every retry; `pong` for the PING floor. */
export interface UpsertReply {
  result: Branch | 'conflict' | 'pong';
  version: number;
  /** WATCH only: transactions that a concurrent write aborted before this one ran (or gave up). */
  retries: number;
}

export interface Writer {
  upsert(id: string, fields: Record<string, string>, version: number): Promise<UpsertReply>;
  close(): Promise<void>;
}

/**
 * The hash a request's id names; the braces make the id the hash tag, so a script or a transaction stays in one slot.
 */
export const itemKey = (id: string) => `item:{${id}}`;

/** The record's fields the route accepts: a few short strings, about 200 bytes in all. */
export const RECORD_FIELDS = ['name', 'color', 'size', 'note'] as const;

/**
 * One script for Lua (EVALSHA) and for FUNCTION (FCALL): read the version, decide, write and count in one atomic step.
 */
export const UPSERT_LUA = `
local cur = redis.call('HGET', KEYS[1], 'version')
if cur and tonumber(cur) >= tonumber(ARGV[1]) then return 'ignored' end
redis.call('HSET', KEYS[1], 'version', ARGV[1], unpack(ARGV, 2))
redis.call('HINCRBY', KEYS[1], 'applied', 1)
if cur then return 'updated' end
return 'created'
`;

/**
 * REDIS_CLUSTER=1: the key a write command is routed by (EVAL, EVALSHA, FCALL: the first of
 * `numkeys` keys), none for PING or SCRIPT LOAD (any node).
 */
export function routingKey(args: string[]): string | undefined {
  return /^(EVAL|EVALSHA|FCALL)$/i.test(args[0] ?? '') && Number(args[2]) > 0 ? args[3] : undefined;
}

/** What the cluster write connections answer for WATCH (and what the harness lists as not measured). */
export const NO_CLUSTER_WATCH =
  "WATCH needs a connection of its own to the key's primary, which the write connections here do not open on a cluster";
/** A cluster write connection's dedicated(): refused, with NO_CLUSTER_WATCH. */
export const refuseClusterWatch = async (): Promise<never> => {
  throw new Error(NO_CLUSTER_WATCH);
};

/** The arguments after the key: the version, then field, value pairs. */
export const upsertArgs = (fields: Record<string, string>, version: number) => [
  String(version),
  ...Object.entries(fields).flat(),
];

/**
 * The app's version for a request: a monotonic clock (µs) and a per-process sequence, so two
 * requests of one process never share a version and concurrent requests race for real.
 */
export function versionClock(): () => number {
  let last = 0;
  return () => (last = Math.max(last + 1, Date.now() * 1000));
}

/** How a reply is answered over HTTP: the branch in the status (oha counts statuses) and in the body. */
export const UPSERT_STATUS: Record<UpsertReply['result'], number> = {
  created: 201,
  updated: 200,
  ignored: 202,
  conflict: 409,
  pong: 200,
};

/**
 * The body of the request, as text or as the object a framework parsed it into: the record's
 * fields (strings), and `version` to set one (the harness's checks use it).
 */
export function parseUpsertBody(input: unknown): { fields: Record<string, string>; version: number | null } | null {
  let body = input;
  if (typeof input === 'string') {
    try {
      body = JSON.parse(input);
    } catch {
      return null;
    }
  }
  if (!body || typeof body !== 'object') return null;
  const b = body as Record<string, unknown>;
  const fields: Record<string, string> = {};
  for (const f of RECORD_FIELDS) if (typeof b[f] === 'string') fields[f] = b[f] as string;
  const version = b.version === undefined ? null : Number(b.version);
  if (version !== null && !(Number.isSafeInteger(version) && version > 0)) return null;
  return { fields, version };
}
