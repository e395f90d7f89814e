// The response contract: {"entries":[{"id":"…","fields":{"color":"…",…}},…]}, compact,
// entries and fields in stream order. Two transforms produce it from a client's reply:
// plain (objects, then the framework's own JSON path) and direct (the string built by hand).
import { bytesToJson } from './raw/transcode.ts';

export const STREAM_KEY = 'OPTIONS:test:STREAM';
/**
 * The workloads that read the stream per request (GET /). live: the xrange read while a writer appends to the capped
 * stream (the harness runs the writer and checks freshness).
 */
export const READ_WORKLOADS = ['xrange', 'xread', 'xrange-count', 'xrevrange-count', 'live'] as const;
/** The workloads that write per request (POST /items/:id), each a route of writes/ (WRITE_ROUTES). */
export const WRITE_WORKLOADS = ['upsert', 'xadd-trim'] as const;
export const WORKLOADS = [...READ_WORKLOADS, ...WRITE_WORKLOADS] as const;
export type Workload = (typeof WORKLOADS)[number];
export type ReadWorkload = (typeof READ_WORKLOADS)[number];
export type WriteWorkload = (typeof WRITE_WORKLOADS)[number];
export const isRead = (w: Workload): w is ReadWorkload => (READ_WORKLOADS as readonly string[]).includes(w);
/** xrange-count reads one page: the first PAGE entries; xrevrange-count the last PAGE, newest first. */
export const PAGE = 100;

/** The one Redis command each workload sends per request (the harness's golden body and ceiling use it too). */
export function workloadCommand(workload: ReadWorkload, key: string): string[] {
  switch (workload) {
    case 'xrange':
    case 'live':
      return ['XRANGE', key, '-', '+'];
    case 'xread':
      return ['XREAD', 'STREAMS', key, '0-0'];
    case 'xrange-count':
      return ['XRANGE', key, '-', '+', 'COUNT', String(PAGE)];
    case 'xrevrange-count':
      return ['XREVRANGE', key, '+', '-', 'COUNT', String(PAGE)];
  }
}

/**
 * The command whose reply, an XRANGE-shaped array of entries, is the workload's body: its own read where that is a
 * range (a page, newest first or not), else the whole stream (XREAD's entries are XRANGE's; live and upsert read it).
 */
export const replyCommand = (workload: Workload, key: string): string[] =>
  workload === 'xrange-count' || workload === 'xrevrange-count'
    ? workloadCommand(workload, key)
    : ['XRANGE', key, '-', '+'];

/**
 * The command INFO commandstats counts once per request (lower case, as it names them): the read,
 * or under upsert the write strategy's (watch: one WATCH per attempt, so retries show as more).
 */
export function perRequestCommand(workload: Workload, write: string): string {
  if (isRead(workload)) return workloadCommand(workload, 'key')[0]!.toLowerCase();
  return (
    ({ lua: 'evalsha', function: 'fcall', watch: 'watch', ping: 'ping' } as Record<string, string>)[write] ?? 'evalsha'
  );
}

/** The canonical shape, as plain objects. */
export interface StreamBody {
  entries: { id: string; fields: Record<string, string> }[];
}

/** RESP2-style entry: [id, [field, value, field, value, …]] (ioredis, iovalkey, Bun's client, redis-cli). */
export type FlatEntry = [id: string, fieldsAndValues: string[]];
/** node-redis entry: {id, message: {field: value}}. */
export type ObjectEntry = { id: string; message: Record<string, string> };
/** valkey-glide entry (customCommand): {key: id, value: [[field, value], …]}. */
export type PairsEntry = { key: string; value: [string, string][] };

/** DECODE=bytes: the flat entry with each bulk string as the client's Buffer, not decoded. */
export type BytesEntry = [id: Uint8Array, fieldsAndValues: Uint8Array[]];

/** The reply shapes the adapters hand over, tagged so each transform has one function per shape. */
export type Entries =
  | { shape: 'flat'; entries: FlatEntry[] }
  | { shape: 'object'; entries: ObjectEntry[] }
  | { shape: 'pairs'; entries: PairsEntry[] }
  | { shape: 'bytes'; entries: BytesEntry[] };

/** A leading U+FEFF is kept, on every path (the contract, docs/methodology.md). */
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

export function toBody(e: Entries): StreamBody {
  switch (e.shape) {
    case 'flat':
      return {
        entries: e.entries.map(([id, kv]) => {
          const fields: Record<string, string> = {};
          for (let j = 0; j < kv.length; j += 2) fields[kv[j]!] = kv[j + 1]!;
          return { id, fields };
        }),
      };
    case 'object':
      return { entries: e.entries.map(({ id, message }) => ({ id, fields: message })) };
    case 'pairs':
      return { entries: e.entries.map(({ key, value }) => ({ id: key, fields: Object.fromEntries(value) })) };
    case 'bytes':
      return toBody({
        shape: 'flat',
        entries: e.entries.map(([id, kv]) => [utf8.decode(id), kv.map((b) => utf8.decode(b))]),
      });
  }
}

const str = JSON.stringify;

/**
 * The contract's body of a reply's entries, for any field names: each entry's fields as a map assigned in stream
 * order, so a name repeated within an entry is written once, at its first place, with its last value (what
 * JSON.parse keeps); integer-like names stay where the stream has them, and `__proto__` is a field like any other.
 * On a stream without such names it is the plain transform's body byte for byte (docs/methodology.md, the contract).
 */
export function contractJson(entries: FlatEntry[]): string {
  let out = '{"entries":[';
  for (let i = 0; i < entries.length; i++) {
    const [id, kv] = entries[i]!;
    const fields = new Map<string, string>();
    for (let j = 0; j < kv.length; j += 2) fields.set(kv[j]!, kv[j + 1]!);
    const pairs = [...fields].map(([k, v]) => `${str(k)}:${str(v)}`).join(',');
    out += `${i ? ',' : ''}{"id":${str(id)},"fields":{${pairs}}}`;
  }
  return `${out}]}`;
}

/** The direct transform: the contract string built by hand from the reply, no intermediate objects. */
export function toJson(e: Entries): string {
  // The bytes go straight into the body, with no string per value (raw/transcode.ts).
  if (e.shape === 'bytes') return bytesToJson(e.entries);
  let out = '{"entries":[';
  for (let i = 0; i < e.entries.length; i++) {
    out += i === 0 ? '{"id":' : ',{"id":';
    if (e.shape === 'flat') {
      const [id, kv] = e.entries[i]!;
      out += `${str(id)},"fields":{`;
      for (let j = 0; j < kv.length; j += 2) out += `${(j === 0 ? '' : ',') + str(kv[j])}:${str(kv[j + 1])}`;
    } else if (e.shape === 'object') {
      const { id, message } = e.entries[i]!;
      out += `${str(id)},"fields":{`;
      let first = true;
      for (const field in message) {
        out += `${(first ? '' : ',') + str(field)}:${str(message[field])}`;
        first = false;
      }
    } else {
      const { key, value } = e.entries[i]!;
      out += `${str(key)},"fields":{`;
      for (let j = 0; j < value.length; j++) out += `${(j === 0 ? '' : ',') + str(value[j]![0])}:${str(value[j]![1])}`;
    }
    out += '}}';
  }
  return `${out}]}`;
}
