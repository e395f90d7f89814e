// The raw read path's transcoder: XRANGE's RESP bytes to the contract's JSON, checked against what a decoding client
// and the direct transform make of the same reply (TextDecoder, then toJson), on hostile values, on thousands of
// seeded random strings and byte strings, and on invalid UTF-8; and the framing of replies cut anywhere.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toBody, toJson } from '../../packages/stream/src/canonical';
import { openAdapter, settingsFromEnv } from '../../packages/stream/src/index';
import {
  bytesToJson,
  fallbacks,
  MORE,
  outputBytes,
  RespError,
  RespFramingError,
  ReplyBuffer,
  ReplyShapeError,
  replyEnd,
  scanReply,
  wasmMemoryBytes,
  xrangeToJson,
} from '../../packages/raw-reader/src/transcode';
import { ROOT } from '../../packages/harness/src/system/paths';
import { wasmModuleSource } from '../../scripts/build-wasm';
import { seededRandom } from '../../packages/harness/src/stats/stats';

type Raw = [id: Uint8Array, kv: Uint8Array[]][];
const enc = new TextEncoder();
/** A decoding client, as node-redis's Buffer#toString decodes: a leading BOM kept (the contract). */
const dec = new TextDecoder('utf-8', { ignoreBOM: true });

/** XRANGE's reply to these entries, as Redis sends it. */
function reply(entries: Raw): Uint8Array {
  const parts: Uint8Array[] = [];
  const line = (s: string) => parts.push(enc.encode(`${s}\r\n`));
  const bulk = (b: Uint8Array) => {
    line(`$${b.length}`);
    parts.push(b, enc.encode('\r\n'));
  };
  line(`*${entries.length}`);
  for (const [id, kv] of entries) {
    line('*2');
    bulk(id);
    line(`*${kv.length}`);
    for (const b of kv) bulk(b);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/** What a decoding client gives (each bulk string through the runtime's decoder), written by the direct transform. */
const decoded = (entries: Raw) =>
  toJson({ shape: 'flat', entries: entries.map(([id, kv]) => [dec.decode(id), kv.map((b) => dec.decode(b))]) });

/** The raw path's body, checked to be the bytes path's (DECODE=bytes: the client's Buffers) too. */
const transcoded = (entries: Raw) => {
  const r = reply(entries);
  expect(replyEnd(r, 0, r.length)).toBe(r.length);
  const body = xrangeToJson(r, 0, r.length);
  expect(toJson({ shape: 'bytes', entries })).toBe(body);
  return body;
};

const entry = (id: string, ...kv: (string | Uint8Array)[]): Raw[number] => [
  enc.encode(id),
  kv.map((x) => (typeof x === 'string' ? enc.encode(x) : x)),
];

describe('the transcoder', () => {
  test('hostile values: quotes, backslashes, every control character, emoji, U+2028/2029, DEL, long values', () => {
    const controls = String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i));
    const entries: Raw = [
      entry('1-0', 'color', 'say "hi" \\ back\\slash', 'ctl', controls),
      entry('1-1', 'emoji', '😀 café ☃ 𝄞', 'seps', 'a\u2028b\u2029c', 'del', '\x7f'),
      entry('1-2', 'long', 'x"y'.repeat(40_000)),
      entry('2-0'),
      entry('3-0', '', ''),
    ];
    const body = transcoded(entries);
    expect(body).toBe(decoded(entries));
    expect(JSON.parse(body).entries[1].fields.seps).toBe('a\u2028b\u2029c');
    // With field names unique in each entry and none like an array index, the plain transform's objects agree.
    expect(JSON.stringify(toBody({ shape: 'bytes', entries }))).toBe(body);
    expect(transcoded([])).toBe('{"entries":[]}');
  });

  test('invalid UTF-8 reads as the runtime decodes it (U+FFFD), on the counted slow path', () => {
    const bad = [
      [0xff],
      [0x80],
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf0, 0x9f, 0x98],
      [0x61, 0xc3],
      [0x22, 0xe2, 0x82, 0x5c],
    ].map((b) => Uint8Array.from(b));
    const before = fallbacks.strings;
    const entries: Raw = bad.map((b, i) => entry(`${i}-0`, 'v', b, 'ok', 'plain "text"'));
    expect(transcoded(entries)).toBe(decoded(entries));
    // Once on the raw path and once on the bytes path (transcoded checks both).
    expect(fallbacks.strings - before).toBe(2 * bad.length);
  });

  test('a leading BOM is kept on every path: raw, bytes (direct and plain), valid or not after it', () => {
    const bom = [0xef, 0xbb, 0xbf];
    const entries: Raw = [
      entry('1-0', 'k', Uint8Array.from([...bom, 0x41])),
      entry('2-0', 'k', Uint8Array.from([...bom, 0xff])),
    ];
    const body = transcoded(entries);
    expect(body).toBe('{"entries":[{"id":"1-0","fields":{"k":"\uFEFFA"}},{"id":"2-0","fields":{"k":"\uFEFF\uFFFD"}}]}');
    expect(JSON.stringify(toBody({ shape: 'bytes', entries }))).toBe(body);
  });

  test('bodies longer than their reply: entries without fields, escapes that grow a string sixfold, then more', () => {
    // The fast path asks for room once, for twice the reply: an entry of 17 bytes of framing writes 25 (1.47×). An
    // escaped control character writes 6 bytes for 1, eating into that room without growing the buffer, so the
    // entries after it must ask again.
    const idOnly = (n: number) => Array.from({ length: n }, (_, i) => entry(`${i % 10}-${i % 7}`));
    const entries: Raw = [...idOnly(3_000), entry('9-0', 'ctl', '\u0001'.repeat(150_000)), ...idOnly(30_000)];
    const r = reply(entries);
    const body = transcoded(entries);
    expect(body.length).toBeGreaterThan(2 * r.length);
    expect(body).toBe(decoded(entries));
  });

  test('5,000 seeded random entries of strings and byte strings: the same body as a decoding client', () => {
    const random = seededRandom(39);
    const pick = (s: string) => s[Math.floor(random() * s.length)]!;
    const chars = 'abc"\\\n\t\u0000\u001f\u007f\u00e9\u2028\u2029\u4e2d😀 ';
    const text = () => Array.from({ length: Math.floor(random() * 12) }, () => pick(chars)).join('');
    const bytes = () => Uint8Array.from({ length: Math.floor(random() * 8) }, () => Math.floor(random() * 256));
    for (let run = 0; run < 50; run++) {
      const entries: Raw = Array.from({ length: 100 }, (_, i) =>
        entry(
          `${run}-${i}`,
          ...Array.from({ length: 2 * Math.floor(random() * 4) }, () => (random() < 0.8 ? text() : bytes())),
        ),
      );
      expect(transcoded(entries)).toBe(decoded(entries));
    }
  });

  test('printable ASCII is walked in WebAssembly to the same body; another byte hands the reply to JavaScript', () => {
    const random = seededRandom(41);
    // Printable ASCII but " and \: the bytes the WebAssembly walk copies as they are.
    const plain = ' !#$%&()*+,-./0123456789:;<=>?@ABCXYZ[]^_`abcxyz{|}~\x7f';
    const text = () =>
      Array.from({ length: Math.floor(random() * 16) }, () => plain[Math.floor(random() * plain.length)]).join('');
    const replies = (n: number) =>
      Array.from(
        { length: n },
        (_, run): Raw =>
          Array.from({ length: Math.floor(random() * 40) }, (_, i) =>
            entry(`${run}-${i}`, ...Array.from({ length: 2 * Math.floor(random() * 5) }, text)),
          ),
      );
    const before = fallbacks.replies;
    for (const entries of replies(200))
      expect(xrangeToJson(reply(entries), 0, reply(entries).length)).toBe(decoded(entries));
    expect(fallbacks.replies).toBe(before);
    // One byte of another kind anywhere hands the whole reply over, and the body is the same.
    const others = ['"', '\\', '\n', '\u00e9', Uint8Array.from([0xff])];
    for (const [k, entries] of replies(50).entries()) {
      const odd = others[k % others.length]!;
      const all: Raw = [...entries, entry('9-9', 'odd', odd)];
      expect(xrangeToJson(reply(all), 0, reply(all).length)).toBe(decoded(all));
    }
    expect(fallbacks.replies).toBe(before + 50);
    // A reply cut short is no body on either walk.
    const r = reply(replies(1)[0]!.concat([entry('1-1', 'a', 'b')]));
    for (const cut of [1, 5, r.length >> 1, r.length - 3, r.length - 1])
      expect(() => xrangeToJson(r, 0, cut)).toThrow();
  });

  test("the WebAssembly walk's memory is back under 1 MiB after a larger reply", () => {
    const big: Raw = Array.from({ length: 30_000 }, (_, i) => entry(`${i}-0`, 'field', 'v'.repeat(100)));
    const r = reply(big);
    expect(r.length).toBeGreaterThan(3_000_000);
    const before = fallbacks.replies;
    expect(xrangeToJson(r, 0, r.length)).toBe(decoded(big));
    expect(fallbacks.replies).toBe(before);
    expect(wasmMemoryBytes()).toBeLessThanOrEqual(1 << 20);
  });

  test("a reply's end found in WebAssembly as in JavaScript (scanReply), cut anywhere and arriving in chunks", () => {
    const random = seededRandom(43);
    const entries: Raw = Array.from({ length: 30 }, (_, i) => entry(`${i}-0`, 'k', 'v'.repeat(i), 'q', 'x"y\\n'));
    const two = [...reply(entries), ...enc.encode('-ERR no\r\n'), ...enc.encode('$-1\r\n'), ...reply([])];
    const all = Uint8Array.from(two);
    const ends = [reply(entries).length];
    ends.push(ends[0]! + 9, ends[0]! + 14, all.length);
    for (let run = 0; run < 40; run++) {
      const buffer = new ReplyBuffer(64);
      const state = { pos: 0, pending: 1 };
      let start = 0;
      const found: number[] = [];
      for (let at = 0; at < all.length; ) {
        const n = 1 + Math.floor(random() * 600);
        buffer.append(all.subarray(at, at + n));
        at += n;
        while (start < buffer.len && buffer.scan(state)) {
          found.push(state.pos);
          start = state.pos;
          state.pending = 1;
        }
      }
      expect(found).toEqual(ends);
    }
    // A type byte RESP does not have: the JavaScript scan names it.
    const bad = new ReplyBuffer(64);
    bad.append(enc.encode('!3\r\n'));
    expect(() => bad.scan({ pos: 0, pending: 1 })).toThrow(/unexpected RESP type byte 0x21/);
  });

  test('a reply walked to its body as it arrives (step): cut anywhere, in chunks, the buffer grown or taken', () => {
    const r = reply([entry('1-0', 'a', 'b'), entry('1-1'), entry('12-3', 'long', 'v'.repeat(200))]);
    const body = decoded([entry('1-0', 'a', 'b'), entry('1-1'), entry('12-3', 'long', 'v'.repeat(200))]);
    // Every cut: not complete before the last byte, then the body, wherever the first call stopped.
    for (let cut = 0; cut < r.length; cut++) {
      const buffer = new ReplyBuffer(64);
      buffer.append(r.subarray(0, cut));
      buffer.begin(0);
      expect(buffer.step()).toBe(MORE);
      buffer.append(r.subarray(cut));
      const n = buffer.step();
      expect(n).toBeGreaterThan(0);
      expect(buffer.end).toBe(r.length);
      expect(buffer.walked(n)).toBe(body);
    }
    // Many replies in random chunks, as the reader takes them: a reply of printable ASCII is walked as it comes; one
    // with another byte is handed over (-1), its end then scanned and its body the JavaScript walk's.
    const random = seededRandom(44);
    const plain = (k: number): Raw => Array.from({ length: k }, (_, i) => entry(`${k}-${i}`, 'f', 'x'.repeat(i * 7)));
    const lists = [plain(3), plain(0), [entry('5-5', 'q', 'say "hi"')], plain(40), [entry('6-6', 'e', '\u00e9')]];
    const all = Uint8Array.from(lists.flatMap((l) => [...reply(l)]));
    // A buffer that grows (the walk begun again at the reply's start), and one that never does (the walk moved on).
    for (let run = 0; run < 40; run++) {
      const buffer = new ReplyBuffer(run % 2 ? 64 : 1 << 16);
      const bodies: string[] = [];
      const before = fallbacks.replies;
      let mode: 'new' | 'walk' | 'scan' = 'new';
      const scan = { pos: 0, pending: 1 };
      for (let at = 0; at < all.length; ) {
        const n = 1 + Math.floor(random() * 900);
        buffer.append(all.subarray(at, at + n));
        at += n;
        let start = 0;
        while (start < buffer.len) {
          if (mode === 'new') {
            mode = 'walk';
            buffer.begin(start);
          }
          let end: number;
          if (mode === 'walk') {
            const len = buffer.step();
            if (len === MORE) break;
            if (len < 0) {
              mode = 'scan';
              continue;
            }
            bodies.push(buffer.walked(len));
            end = buffer.end;
          } else {
            if (!buffer.scan(scan)) break;
            end = scan.pos;
            bodies.push(buffer.body(start, end));
          }
          start = end;
          Object.assign(scan, { pos: end, pending: 1 });
          mode = 'new';
        }
        buffer.consume(start);
        scan.pos -= start;
      }
      expect(bodies).toEqual(lists.map(decoded));
      // Only the two replies with another byte took the JavaScript walk: every other was walked where it was.
      expect(fallbacks.replies - before).toBe(2);
      expect(buffer.len).toBe(0);
    }
  });

  test('transcode-wasm.ts is transcode.wat compiled (scripts/build-wasm.ts)', async () => {
    const file = join(ROOT, 'packages/raw-reader/src/transcode-wasm.ts');
    expect(await wasmModuleSource()).toBe(readFileSync(file, 'utf8'));
  });

  test('a reply cut anywhere is not complete yet; an error reply throws its text', () => {
    const r = reply([entry('1-0', 'a', 'b'), entry('1-1', 'c', 'd"e')]);
    for (let cut = 0; cut < r.length; cut++) expect(replyEnd(r, 0, cut)).toBe(-1);
    const err = enc.encode('-LOADING Redis is loading the dataset in memory\r\n');
    expect(replyEnd(err, 0, err.length)).toBe(err.length);
    expect(() => xrangeToJson(err, 0, err.length)).toThrow(
      new RespError('LOADING Redis is loading the dataset in memory'),
    );
    const other = enc.encode(':3\r\n');
    expect(() => xrangeToJson(other, 0, other.length)).toThrow(/expected \*/);
  });
});

describe('the transcoder at its edges', () => {
  test('a string that fills the output buffer to its last byte, then grows by an escape, is written whole', () => {
    // bytesToJson writes HEAD, the id, FIELDS, the name and a colon (38 bytes) before the value; the value's room is
    // asked for once, so an escape in it must ask for the rest of the string's room again.
    const size = outputBytes();
    const value = `\u0001${'a'.repeat(size - 38 - 2 - 1)}`;
    const entries: Raw = [entry('1-0', 'f', value)];
    expect(bytesToJson(entries)).toBe(JSON.stringify({ entries: [{ id: '1-0', fields: { f: value } }] }));
    const big = 'b'.repeat(3 * outputBytes());
    expect(bytesToJson([entry('2-0', 'g', big)])).toBe(`{"entries":[{"id":"2-0","fields":{"g":"${big}"}}]}`);
  });

  test('a length or a count past the cap is refused before its bytes are awaited', () => {
    const scan = (s: string) => scanReply(enc.encode(s), { pos: 0, pending: 1 }, s.length, 1000);
    expect(() => scan('$1001\r\n')).toThrow(
      new RespFramingError('a bulk string of 1001 bytes, over the 1000-byte cap'),
    );
    expect(scan('$1000\r\n')).toBe(false);
    expect(() => scan('*334\r\n')).toThrow(new RespFramingError('an array of 334 elements, over the 1000-byte cap'));
    expect(scan('*333\r\n')).toBe(false);
  });

  test('bytes past the last entry of the span given are not the reply: refused', () => {
    const r = reply([entry('1-0', 'k', 'é')]);
    const more = new Uint8Array(r.length + 5);
    more.set(r);
    more.set(enc.encode(':1\r\n'), r.length);
    expect(() => xrangeToJson(more, 0, more.length)).toThrow(ReplyShapeError);
  });
});

describe('DECODE refused where it cannot be', () => {
  const opts = (client: string, env: Record<string, string>, more = {}) =>
    ({
      client,
      url: 'redis://127.0.0.1:1',
      workload: 'xrange',
      key: 'k',
      settings: settingsFromEnv(env),
      handicapUs: 0,
      ...more,
    }) as never;
  test('one line naming the client or what it is combined with; before any connection is tried', async () => {
    await expect(openAdapter(opts('bun-redis', { DECODE: 'bytes' }))).rejects.toThrow(
      "DECODE=bytes is not supported with REDIS_CLIENT=bun-redis: Bun's RedisClient has no byte mode for XRANGE",
    );
    await expect(openAdapter(opts('ioredis', { DECODE: 'raw' }))).rejects.toThrow(
      'DECODE=raw is not supported with REDIS_CLIENT=ioredis: the raw reader is carried by node-redis contenders only',
    );
    await expect(openAdapter(opts('ioredis', { DECODE: 'bytes' }, { workload: 'xread' }))).rejects.toThrow(
      "DECODE=bytes is not supported with WORKLOAD=xread: it reads XRANGE's reply only",
    );
    await expect(openAdapter(opts('glide', { DECODE: 'bytes' }, { cluster: true }))).rejects.toThrow(
      'DECODE=bytes is not supported with REDIS_CLUSTER=1',
    );
  });
});
