// The contract on any stream (docs/methodology.md, the contract): a body that differs from the golden one only in
// ways a stream's field names force on JavaScript objects is a finding with its causes named, not a failure. Field
// names that are integer-like, repeated within an entry or `__proto__` are what objects cannot hold in stream order;
// any other difference is one of data, and the contender is invalid.

/** A JSON value with each object kept as its pairs, in the order written and with repeated names kept. */
type Value = string | number | boolean | null | Value[] | { pairs: [string, Value][] };

/** JSON text, every object's names kept in order and repeated (JSON.parse keeps neither); throws on bad JSON. */
export function parsePairs(text: string): Value {
  let i = 0;
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const token = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(text);
    if (!m) throw new SyntaxError(`bad JSON at character ${i}`);
    i = re.lastIndex;
    return JSON.parse(m[0]) as string | number | boolean | null;
  };
  // Control characters inside are refused by JSON.parse of the token.
  const STRING = /"(?:[^"\\]|\\.)*"/y;
  const SCALAR = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
  const value = (): Value => {
    ws();
    const c = text[i];
    if (c === '"') return token(STRING) as string;
    if (c !== '{' && c !== '[') return token(SCALAR);
    i++;
    const close = c === '{' ? '}' : ']';
    const items: Value[] = [];
    const pairs: [string, Value][] = [];
    ws();
    if (text[i] === close) i++;
    else
      for (;;) {
        if (c === '{') {
          ws();
          const name = token(STRING) as string;
          ws();
          if (text[i++] !== ':') throw new SyntaxError(`bad JSON at character ${i - 1}`);
          pairs.push([name, value()]);
        } else items.push(value());
        ws();
        const next = text[i++];
        if (next === close) break;
        if (next !== ',') throw new SyntaxError(`bad JSON at character ${i - 1}`);
      }
    return c === '{' ? { pairs } : items;
  };
  const v = value();
  ws();
  if (i !== text.length) throw new SyntaxError(`bad JSON at character ${i}`);
  return v;
}

/** An entry as the contract reads it: its id and its fields' pairs, in the body's order. */
interface Entry {
  id: string;
  fields: [string, string][];
}

/** The entries of a body of the contract's shape, or null when it is not of that shape. */
function entriesOf(text: string): Entry[] | null {
  let v: Value;
  try {
    v = parsePairs(text);
  } catch {
    return null;
  }
  const get = (o: Value, name: string) =>
    o && typeof o === 'object' && 'pairs' in o ? o.pairs.find(([k]) => k === name)?.[1] : undefined;
  const list = get(v, 'entries');
  if (!Array.isArray(list)) return null;
  const out: Entry[] = [];
  for (const e of list) {
    const id = get(e, 'id');
    const fields = get(e, 'fields');
    if (typeof id !== 'string' || !fields || typeof fields !== 'object' || !('pairs' in fields)) return null;
    if (fields.pairs.some(([, x]) => typeof x !== 'string')) return null;
    out.push({ id, fields: fields.pairs as [string, string][] });
  }
  return out;
}

/** A name an object moves first (an array index): "0", "7", "42", not "07", "-1" or 2³² − 1. */
export const integerLike = (k: string) => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 2 ** 32 - 1;

/** The causes a stream's field names force, each named in one line; `order`: a difference of key order only. */
export const CAUSES = {
  integer: { text: 'moves integer-like field names first', order: true },
  repeated: { text: 'keeps a repeated field name more than once', order: false },
  proto: { text: 'drops a field named __proto__', order: false },
} as const;
export type Cause = keyof typeof CAUSES;

/** How a body differs from the golden one: its named causes (each with the first entry and name), or data. */
export type Difference = { causes: { cause: Cause; at: string }[] } | { data: string };

const at = (e: Entry, name: string) => `entry ${e.id}, field ${JSON.stringify(name)}`;

/**
 * A body that repeats a name against the stream's own pairs (every pair kept, in stream order): a name repeated
 * only where the stream repeats it, and every pair, not only a name's last, the stream's pair at that place.
 */
function repeatedDifference(got: Entry, stream: Entry): string | null {
  const counts = new Map<string, number>();
  for (const [k] of stream.fields) counts.set(k, (counts.get(k) ?? 0) + 1);
  const seen = new Set<string>();
  for (const [k] of got.fields) {
    if (seen.has(k) && (counts.get(k) ?? 0) < 2) return `${at(got, k)}: repeated, and the stream does not repeat it`;
    seen.add(k);
  }
  for (let i = 0; i < Math.max(got.fields.length, stream.fields.length); i++) {
    const [gk, gv] = got.fields[i] ?? [];
    const [sk, sv] = stream.fields[i] ?? [];
    if (gk === sk && gv === sv) continue;
    if (sk === undefined) return `${at(got, gk!)}: a pair the stream does not have`;
    const was = gk === undefined ? 'no such pair' : `${JSON.stringify(gk)}:${JSON.stringify(gv)}`;
    return `${at(stream, sk)}, pair ${i + 1}: got ${was}, want ${JSON.stringify(sk)}:${JSON.stringify(sv)}`;
  }
  return null;
}

/** The causes found in one entry, or a difference of data in words; `stream`: the entry's every pair, if known. */
function entryDifference(got: Entry, want: Entry, stream?: Entry): { cause: Cause; at: string }[] | string {
  if (got.id !== want.id) return `entry ${want.id}: got the id ${JSON.stringify(got.id)}`;
  const causes: { cause: Cause; at: string }[] = [];
  const seen = new Map<string, string>();
  for (const [k, v] of got.fields) {
    if (seen.has(k) && !causes.some((c) => c.cause === 'repeated')) causes.push({ cause: 'repeated', at: at(got, k) });
    seen.set(k, v);
  }
  // Only a body that keeps every pair repeats a name: where the stream's pairs are known, it must be them.
  const repeats = stream && causes.length ? repeatedDifference(got, stream) : null;
  if (repeats) return repeats;
  const wanted = want.fields.filter(([k]) => {
    const dropped = k === '__proto__' && !seen.has(k);
    if (dropped) causes.push({ cause: 'proto', at: at(want, k) });
    return !dropped;
  });
  for (const [k, v] of wanted) {
    if (seen.get(k) === v) continue;
    const got = seen.has(k) ? JSON.stringify(seen.get(k)) : 'no such field';
    return `${at(want, k)}: got ${got}, want ${JSON.stringify(v)}`;
  }
  if (seen.size !== wanted.length) {
    const extra = [...seen.keys()].find((k) => !wanted.some(([w]) => w === k))!;
    return `${at(got, extra)}: a field the stream does not have`;
  }
  const order = [...seen.keys()].join('\u0000');
  if (order !== wanted.map(([k]) => k).join('\u0000')) {
    const moved = [
      ...wanted.filter(([k]) => integerLike(k)).sort((x, y) => +x[0] - +y[0]),
      ...wanted.filter(([k]) => !integerLike(k)),
    ];
    // Only the order objects force is a named cause; any other order breaks the contract's stream order.
    if (order !== moved.map(([k]) => k).join('\u0000'))
      return `entry ${want.id}: the fields in another order than the stream's (${[...seen.keys()].join(', ')})`;
    causes.push({ cause: 'integer', at: at(want, moved.find(([k]) => integerLike(k))![0]) });
  }
  return causes;
}

/**
 * The compact body of these entries and pairs, in their order, each string as JSON.stringify writes it: the bytes an
 * app whose body differs only by named causes sends. `page`: with `<` written `\u003c`, as a page embeds the body.
 */
function compactBody(entries: Entry[], page = false): string {
  const str = JSON.stringify;
  const fields = (e: Entry) => e.fields.map(([k, v]) => `${str(k)}:${str(v)}`).join(',');
  const json = `{"entries":[${entries.map((e) => `{"id":${str(e.id)},"fields":{${fields(e)}}}`).join(',')}]}`;
  return page ? json.replaceAll('<', '\\u003c') : json;
}

/** How `contractDifference` reads a body besides the golden one it is given. */
export interface ContractOptions {
  /** The body is a page's: `<` written `\u003c` (as in the golden body it is given). */
  page?: boolean;
  /**
   * The stream's pairs, every one kept in stream order, in the contract's shape (the direct transform of a flat
   * reply, toJson). The golden body writes a repeated name once, with its last value, so it cannot tell a repeat
   * the stream has from one an app invents; with this, a body that repeats a name is checked pair by pair.
   */
  stream?: string;
}

/** How `body` differs from `golden` (both of the contract's shape), entry by entry; null when they are the same. */
export function contractDifference(body: string, golden: string, opts: ContractOptions = {}): Difference | null {
  if (body === golden) return null;
  const got = entriesOf(body);
  const want = entriesOf(golden);
  if (!got || !want) return { data: 'the body is not of the contract\'s shape {"entries":[{"id","fields"}…]}' };
  if (got.length !== want.length) return { data: `${got.length} entries, want ${want.length}` };
  const stream = opts.stream === undefined ? undefined : entriesOf(opts.stream);
  if (stream === null || (stream && stream.length !== want.length))
    throw new Error("the stream's pairs are not the golden body's entries in the contract's shape");
  const causes: { cause: Cause; at: string }[] = [];
  for (let i = 0; i < want.length; i++) {
    const d = entryDifference(got[i]!, want[i]!, stream?.[i]);
    if (typeof d === 'string') return { data: d };
    for (const c of d) if (!causes.some((x) => x.cause === c.cause)) causes.push(c);
  }
  // Same entries and pairs, other bytes (spacing, escapes, keys besides entries, id and fields): not the contract's
  // bytes, with causes or without; the causes excuse an order of names and pairs kept, never the bytes that write them.
  if (!causes.length || body !== compactBody(got, opts.page))
    return { data: 'the same entries and fields, written with other bytes' };
  return { causes };
}

/** The causes in one line: "moves integer-like field names first (entry 1-0, field "2"; key order only); …". */
export const causesLine = (causes: { cause: Cause; at: string }[]) =>
  causes.map((c) => `${CAUSES[c.cause].text} (${c.at}${CAUSES[c.cause].order ? '; key order only' : ''})`).join('; ');
