// The response contract: {"entries":[{"id":"…","fields":{"color":"…",…}},…]}, compact,
// entries and fields in stream order. Building the string directly (rather than objects
// and then JSON.stringify) is the fast path every adapter shares, so the transform cost
// is the same for every contender using the same client.

export const STREAM_KEY = 'OPTIONS:test:STREAM';
export const WORKLOADS = ['xrange', 'xread'] as const;
export type Workload = (typeof WORKLOADS)[number];

/** RESP2-style entry: [id, [field, value, field, value, …]] (ioredis, Bun's client, redis-cli). */
export type FlatEntry = [id: string, fieldsAndValues: string[]];
/** node-redis entry: {id, message: {field: value}}. */
export type ObjectEntry = { id: string; message: Record<string, string> };

const str = JSON.stringify;

export function flatEntriesToJson(entries: readonly FlatEntry[]): string {
  let out = '{"entries":[';
  for (let i = 0; i < entries.length; i++) {
    const [id, kv] = entries[i]!;
    out += (i === 0 ? '{"id":' : ',{"id":') + str(id) + ',"fields":{';
    for (let j = 0; j < kv.length; j += 2) {
      out += (j === 0 ? '' : ',') + str(kv[j]) + ':' + str(kv[j + 1]);
    }
    out += '}}';
  }
  return out + ']}';
}

export function objectEntriesToJson(entries: readonly ObjectEntry[] | null): string {
  let out = '{"entries":[';
  for (let i = 0; entries && i < entries.length; i++) {
    const { id, message } = entries[i]!;
    out += (i === 0 ? '{"id":' : ',{"id":') + str(id) + ',"fields":{';
    let first = true;
    for (const field in message) {
      out += (first ? '' : ',') + str(field) + ':' + str(message[field]);
      first = false;
    }
    out += '}}';
  }
  return out + ']}';
}

/** XREAD reply in RESP2 shape: [[key, entries]] or null when the stream is empty/missing. */
export function flatXReadToJson(reply: [string, FlatEntry[]][] | null): string {
  return flatEntriesToJson(reply?.[0]?.[1] ?? []);
}

/** node-redis XREAD reply: [{name, messages}] or null. */
export function objectXReadToJson(reply: { name: string; messages: ObjectEntry[] }[] | null): string {
  return objectEntriesToJson(reply?.[0]?.messages ?? []);
}
