// The raw reader's framing is strict: each malformed reply of the table, cut at every byte and sent in two chunks by a
// scripted server on 127.0.0.1, fails its own read with its named error (never a body), and the good reply after it is
// read whole; a reply over the size cap fails; the receive buffer shrinks back under steady load; and a seeded
// differential fuzz of random replies, cut into random chunks, gives the contract's body of the decoded strings.
import { afterAll, describe, expect, test } from 'bun:test';
import { createServer, type Server, type Socket } from 'node:net';
import { RawReader, statusOf } from '../../packages/raw-reader/src/reader';
import { ReplyShapeError, RespError, RespFramingError } from '../../packages/raw-reader/src/transcode';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import { toJson } from '../../packages/stream/src/canonical';

const READ = '*4\r\n$6\r\nXRANGE\r\n$1\r\nk\r\n$1\r\n-\r\n$1\r\n+\r\n';
const GOOD = '*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$5\r\ncolor\r\n$3\r\nred\r\n';
const BODY = '{"entries":[{"id":"1-0","fields":{"color":"red"}}]}';

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});

/** A server answering the n-th read (over all its connections) with the chunks `script(n)` gives, 1 ms apart. */
function serve(script: (n: number) => (string | Buffer)[]): Promise<number> {
  let reads = 0;
  return new Promise((resolve) => {
    const server = createServer((socket: Socket) => {
      socket.on('error', () => {});
      let text = '';
      socket.on('data', async (d) => {
        text += d.toString('latin1');
        while (text.startsWith(READ)) {
          text = text.slice(READ.length);
          for (const [i, chunk] of script(reads++).entries()) {
            if (i) await Bun.sleep(1);
            if (!socket.destroyed) socket.write(chunk);
          }
        }
      });
    });
    servers.push(server);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}

const entry = (fields: string) => `*1\r\n*2\r\n$3\r\n1-0\r\n${fields}`;

/** Each shape: its bytes, the error its read fails with, and whether the connection goes on after it. */
const SHAPES: [string, string, new (m: string) => Error, RegExp][] = [
  ['an odd field count', entry('*3\r\n$1\r\na\r\n$1\r\nb\r\n$1\r\nc\r\n'), ReplyShapeError, /odd number .*\(3\)/],
  ['a nil array', '*-1\r\n', ReplyShapeError, /null reply \(\*\)/],
  ['a nil bulk string', '$-1\r\n', ReplyShapeError, /null reply \(\$\)/],
  ["RESP3's null", '_\r\n', ReplyShapeError, /null reply \(_\)/],
  ['an integer', ':3\r\n', ReplyShapeError, /expected \* at byte 0, got 0x3a/],
  ['a status', '+OK\r\n', ReplyShapeError, /expected \* at byte 0, got 0x2b/],
  ['an error reply', '-ERR no such key\r\n', RespError, /^ERR no such key$/],
  ['an entry of three', '*1\r\n*3\r\n$3\r\n1-0\r\n*0\r\n*0\r\n', ReplyShapeError, /entry is \[id/],
  ['an integer id', '*1\r\n*2\r\n:1\r\n*0\r\n', ReplyShapeError, /expected \$ at byte 8/],
  ['a nil value', entry('*2\r\n$1\r\na\r\n$-1\r\n'), ReplyShapeError, /null bulk string/],
  ['nil fields', entry('*-1\r\n'), ReplyShapeError, /null array/],
  ['a string entry', '*1\r\n$3\r\nabc\r\n', ReplyShapeError, /expected \* at byte 4/],
  ['a length that is short', entry('*2\r\n$1\r\nbc\r\n$1\r\nd\r\n'), RespFramingError, /1 bytes not followed by CRLF/],
  ['a length that is long', entry('*2\r\n$4\r\nb\r\n$1\r\nd\r\n'), RespFramingError, /4 bytes not followed by CRLF/],
  ['a CR without LF in a header', '*1\r*2\r\n$3\r\n1-0\r\n*0\r\n', RespFramingError, /CR without its LF at byte 2/],
  ['a CR without LF after a string', entry('*2\r\n$1\r\na\rX$1\r\nd\r\n'), RespFramingError, /not followed by CRLF/],
  ['LF line ends', '*1\n*2\n$3\n1-0\n*0\n'.repeat(3), RespFramingError, /without CRLF/],
  ['a count past 2^32', '*4294967297\r\n$1\r\na\r\n', RespFramingError, /4294967297 elements, over the/],
  ['a length past the cap', '$999999999\r\nab', RespFramingError, /999999999 bytes, over the/],
  ['a minus that is not -1', '*-2\r\n', RespFramingError, /not digits or -1/],
  ['an empty length', '*\r\n', RespFramingError, /a length of 0 characters/],
  ['a plus sign in a length', '*1\r\n*2\r\n$+3\r\n1-0\r\n*0\r\n', RespFramingError, /not digits or -1/],
  ['a RESP3 map', '%1\r\n$1\r\na\r\n$1\r\nb\r\n', RespFramingError, /type byte 0x25 at byte 0/],
];

describe('the raw reader: strict RESP', () => {
  test(`${SHAPES.length} malformed shapes, each cut at every byte: its read fails named, the next read`, async () => {
    await Promise.all(
      SHAPES.map(async ([what, bad, kind, said]) => {
        // Read 2k: the bad reply cut after byte k + 1; read 2k + 1: the good one.
        const port = await serve((n) => (n % 2 ? [GOOD] : [bad.slice(0, (n >> 1) + 1), bad.slice((n >> 1) + 1)]));
        // A deadline no loaded machine reaches: 23 readers connect and read at once, and none of this is about time.
        const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 20_000 });
        for (let cut = 1; cut < bad.length; cut++) {
          const failed = await r.read().then(
            (body) => new Error(`${what}, cut at ${cut}: served ${body}`),
            (e: Error) => e,
          );
          expect({ what, cut, kind: failed.constructor.name, message: failed.message }).toEqual({
            what,
            cut,
            kind: kind.name,
            message: expect.stringMatching(said),
          });
          expect(statusOf(failed)).toBe(500);
          expect(await r.read()).toBe(BODY);
        }
        await r.close();
      }),
    );
  });

  test('a reply over the size cap fails its read; the next read is answered', async () => {
    const line = `-ERR ${'x'.repeat(300_000)}`;
    const big = `*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nv\r\n$300000\r\n${'y'.repeat(300_000)}\r\n`;
    const port = await serve((n) =>
      n === 0 ? [line.slice(0, 150_000), line.slice(150_000)] : n === 1 ? [big] : [GOOD],
    );
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { maxReplyBytes: 200_000 });
    // A line that never ends, then a reply whose string passes the cap: each fails once the cap is passed.
    await expect(r.read()).rejects.toThrow('a reply over the 200000-byte cap (maxReplyBytes)');
    await expect(r.read()).rejects.toThrow('over the 200000-byte cap');
    expect(await r.read()).toBe(BODY);
    await r.close();
  });

  test('after a 32 MiB reply under steady load, the receive buffer is back under 1 MiB within 5 s', async () => {
    const huge = 'z'.repeat(32 << 20);
    const large = `*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nv\r\n$${huge.length}\r\n${huge}\r\n`;
    const port = await serve((n) => [n === 5 ? large : GOOD]);
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+']);
    // The receive buffer's size every 5 ms: its largest, when the large reply was read, and when it was back.
    let grown = 0;
    let readAt = 0;
    let back = 0;
    const watch = setInterval(() => {
      grown = Math.max(grown, r.bufferBytes);
      if (readAt && !back && r.bufferBytes < 1 << 20) back = Date.now();
    }, 5);
    const t0 = Date.now();
    // Two reads always in flight until it is back (8 s at most): the buffer never sees an idle moment to shrink in.
    const loop = async () => {
      while (Date.now() - t0 < 8_000 && !back) {
        const body = await r.read();
        if (body.length > huge.length) readAt = Date.now();
        else expect(body).toBe(BODY);
      }
    };
    await Promise.all([loop(), loop()]);
    clearInterval(watch);
    expect(grown).toBeGreaterThanOrEqual(32 << 20);
    expect(readAt).toBeGreaterThan(0);
    expect(back).toBeGreaterThan(0);
    expect(back - readAt).toBeLessThan(5_000);
    await r.close();
  });
});

/** RESP for XRANGE's reply to these entries. */
function reply(entries: [Buffer, Buffer[]][]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${entries.length}\r\n`)];
  const bulk = (b: Buffer) => parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  for (const [id, kv] of entries) {
    parts.push(Buffer.from(`*2\r\n`));
    bulk(id);
    parts.push(Buffer.from(`*${kv.length}\r\n`));
    for (const b of kv) bulk(b);
  }
  return Buffer.concat(parts);
}

/** 1,000 replies: the count docs/methodology.md states for the fuzz in the suite. */
const FUZZ_REPLIES = 1_000;

test(`differential fuzz: ${FUZZ_REPLIES} seeded random replies in random chunks: the decoded body`, async () => {
  const rand = seededRandom(79);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: T[]) => xs[int(xs.length)]!;
  // Every class of byte: printable ASCII, `"` and `\`, controls, UTF-8 of 2-4 bytes, invalid UTF-8, a BOM.
  const pieces = [
    ...['a', 'Z', '0', ' ', '"', '\\', '\n', '\r', '\t', '\0', '\x7f', 'é', '€', '😀', '\u2028'].map((s) =>
      Buffer.from(s),
    ),
    ...[[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0x80], [0xef, 0xbb, 0xbf]].map(
      (b) => Buffer.from(b),
    ),
  ];
  const str = () => Buffer.concat(Array.from({ length: int(12) }, () => pick(pieces)));
  const names = () => pick([str(), Buffer.from('__proto__'), Buffer.from('1'), Buffer.from('color')]);
  const cases = Array.from({ length: FUZZ_REPLIES }, () =>
    Array.from({ length: int(6) }, (): [Buffer, Buffer[]] => [
      Buffer.from(`${int(1e6)}-${int(9)}`),
      Array.from({ length: 2 * int(4) }, (_, i) => (i % 2 ? str() : names())),
    ]),
  );
  // What a decoding client makes of each string, written as the contract writes it (the direct transform: stream
  // order, repeated and `__proto__` names as they come).
  const dec = new TextDecoder('utf-8', { ignoreBOM: true });
  const want = cases.map((entries) =>
    toJson({ shape: 'flat', entries: entries.map(([id, kv]) => [dec.decode(id), kv.map((b) => dec.decode(b))]) }),
  );
  const port = await serve((n) => {
    const bytes = reply(cases[n]!);
    const cuts = [0, ...Array.from({ length: int(4) }, () => int(bytes.length)).sort((a, b) => a - b), bytes.length];
    return cuts.slice(1).map((c, i) => bytes.subarray(cuts[i], c));
  });
  const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+']);
  let mismatches = 0;
  for (let n = 0; n < FUZZ_REPLIES; n++) if ((await r.read()) !== want[n]) mismatches++;
  await r.close();
  expect(mismatches).toBe(0);
});
