// What the raw reader writes to Redis and how it takes what comes back, against a scripted server on 127.0.0.1 that
// records each command as Redis would parse it: the command's bytes (a key's length in bytes, not characters), the
// URL's AUTH and SELECT before the reads, a refused AUTH or SELECT (connect() rejects), a reply no read asked for,
// the size cap's edge, the reads sent once the connection is up, and openStream's DECODE=raw sending the workload's own
// command.
import { afterEach, describe, expect, test } from 'bun:test';
import { createServer, type Server, type Socket } from 'node:net';
import { DEFAULT_SETTINGS, openStream, type StreamOptions } from '@bench/stream';
import { HandshakeRefused, RawReader, statusOf } from '../../packages/raw-reader/src/reader';
import { RespError, RespFramingError } from '../../packages/raw-reader/src/transcode';

const GOOD = '*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$5\r\ncolor\r\n$3\r\nred\r\n';
const BODY = '{"entries":[{"id":"1-0","fields":{"color":"red"}}]}';

/** The commands received, each as its strings; `raw` the bytes as they came; `connections` accepted. */
interface Wire {
  port: number;
  commands: string[][];
  raw: Buffer[];
  connections: number;
}
let server: Server | null = null;
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

/** One RESP array of bulk strings from the head of `b`, and the bytes it took; null while incomplete, or not one. */
function parse(b: Buffer): { args: string[]; used: number } | null {
  let i = b.indexOf('\r\n');
  if (i < 0) return null;
  const n = Number(b.subarray(1, i).toString());
  if (b[0] !== 0x2a || !Number.isInteger(n)) return null; // not a command: left unparsed
  let pos = i + 2;
  const args: string[] = [];
  for (let k = 0; k < n; k++) {
    i = b.indexOf('\r\n', pos);
    if (i < 0) return null;
    const len = Number(b.subarray(pos + 1, i).toString());
    if (b[pos] !== 0x24 || !Number.isInteger(len)) return null;
    if (b.length < i + 2 + len + 2) return null;
    args.push(b.subarray(i + 2, i + 2 + len).toString());
    pos = i + 2 + len + 2;
  }
  return { args, used: pos };
}

/** A server that answers each command with `answer(args)` (undefined: no answer). */
function serve(answer: (args: string[]) => string | undefined): Promise<Wire> {
  const wire: Wire = { port: 0, commands: [], raw: [], connections: 0 };
  return new Promise((resolve) => {
    server = createServer((socket) => {
      sockets.add(socket);
      wire.connections++;
      let buf = Buffer.alloc(0);
      socket.on('data', (d: Buffer) => {
        wire.raw.push(d);
        buf = Buffer.concat([buf, d]);
        for (let c = parse(buf); c; c = parse(buf)) {
          buf = buf.subarray(c.used);
          wire.commands.push(c.args);
          const reply = answer(c.args);
          if (reply !== undefined) socket.write(reply);
        }
      });
    });
    server.listen(0, '127.0.0.1', () => resolve({ ...wire, port: (server!.address() as { port: number }).port }));
  }).then((w) => Object.assign(wire, w));
}

const redisLike = (args: string[]) => (args[0] === 'XRANGE' || args[0] === 'XREVRANGE' ? GOOD : '+OK\r\n');
const failed = (p: Promise<string>) =>
  p.then(
    () => null,
    (e: Error) => e,
  );

describe('the raw reader on the wire', () => {
  test("a key's length is sent in bytes, not characters, so Redis reads the key the app names", async () => {
    const w = await serve(redisLike);
    const r = new RawReader(`redis://127.0.0.1:${w.port}`, ['XRANGE', 'ключ:é', '-', '+'], { deadlineMs: 1000 });
    const read = r.read().catch((e: Error) => e);
    const sent = () => Buffer.concat(w.raw).toString();
    for (let i = 0; i < 100 && !sent().endsWith('+\r\n'); i++) await Bun.sleep(5);
    expect(sent()).toBe('*4\r\n$6\r\nXRANGE\r\n$11\r\nключ:é\r\n$1\r\n-\r\n$1\r\n+\r\n');
    expect(await read).toBe(BODY);
    await r.close();
  });

  test('AUTH (user and decoded password, or the password alone) and SELECT go before the reads', async () => {
    const w = await serve(redisLike);
    const r = new RawReader(`redis://app:p%40ss%2C@127.0.0.1:${w.port}/3`, ['XRANGE', 'k', '-', '+']);
    expect(await r.read()).toBe(BODY);
    expect(w.commands).toEqual([
      ['AUTH', 'app', 'p@ss,'],
      ['SELECT', '3'],
      ['XRANGE', 'k', '-', '+'],
    ]);
    await r.close();
    w.commands.length = 0;
    const bare = new RawReader(`redis://:secret@127.0.0.1:${w.port}/0`, ['XRANGE', 'k', '-', '+']);
    expect(await bare.read()).toBe(BODY);
    expect(w.commands).toEqual([
      ['AUTH', 'secret'],
      ['XRANGE', 'k', '-', '+'],
    ]);
    await bare.close();
  });

  test('a refused AUTH or SELECT: connect() rejects, reads fail at once (500), a mended password reads', async () => {
    let password = 'right';
    const w = await serve((args) =>
      args[0] === 'AUTH' && args[1] !== password
        ? '-WRONGPASS invalid username-password pair\r\n'
        : args[0] === 'SELECT' && args[1] === '99'
          ? '-ERR DB index is out of range\r\n'
          : redisLike(args),
    );
    const refused = async (url: string) => {
      const r = new RawReader(url, ['XRANGE', 'k', '-', '+'], { deadlineMs: 5_000 });
      const t0 = performance.now();
      const e = await r.connect().then(
        () => null,
        (x: Error) => x,
      );
      // At once, not after the read deadline; then a read fails at once with the same refusal, on no new connection.
      const [at, connections] = [performance.now(), w.connections];
      expect(await failed(r.read())).toBe(e!);
      expect([at - t0 < 4_000, performance.now() - at < 1_000, w.connections]).toEqual([true, true, connections]);
      expect([e instanceof HandshakeRefused, statusOf(e)]).toEqual([true, 500]);
      return { r, e: e! };
    };
    const auth = await refused(`redis://:nope@127.0.0.1:${w.port}`);
    expect(auth.e.message).toBe('AUTH failed: WRONGPASS invalid username-password pair');
    const select = await refused(`redis://:right@127.0.0.1:${w.port}/99`);
    expect(select.e.message).toBe('SELECT failed: ERR DB index is out of range');
    // The password Redis holds becomes the URL's: the refused reader reads again, after its backoff.
    // Refused again and again, under reads every 5 ms for a second: each new connection waits longer (the backoff,
    // 20 ms doubling to 500 ms), not 10–20 ms after the last (about 64 connections a second when it never grew).
    const tried = w.connections;
    for (const until = Date.now() + 1000; Date.now() < until; await Bun.sleep(5)) await failed(auth.r.read());
    expect(w.connections - tried).toBeLessThan(15);
    password = 'nope';
    let body: string | null = null;
    for (let i = 0; i < 100 && !body; i++) body = await auth.r.read().catch(() => Bun.sleep(50).then(() => null));
    expect(body).toBe(BODY);
    await auth.r.connect(); // up and greeted: answered at once
    for (const r of [auth.r, select.r]) await r.close();
  });

  test('a reply no read asked for drops the connection; the next read is answered on a new one', async () => {
    let n = 0;
    const w = await serve(() => (n++ === 0 ? GOOD + GOOD : GOOD));
    const r = new RawReader(`redis://127.0.0.1:${w.port}`, ['XRANGE', 'k', '-', '+']);
    expect(await r.read()).toBe(BODY);
    expect(await r.read()).toBe(BODY);
    expect(w.connections).toBe(2);
    await r.close();
  });

  test('maxReplyBytes: a reply of exactly that size is read, one byte over fails as RespFramingError', async () => {
    const w = await serve(redisLike);
    const at = new RawReader(`redis://127.0.0.1:${w.port}`, ['XRANGE', 'k', '-', '+'], { maxReplyBytes: GOOD.length });
    expect(await at.read()).toBe(BODY);
    await at.close();
    const o = { maxReplyBytes: GOOD.length - 1 };
    const over = new RawReader(`redis://127.0.0.1:${w.port}`, ['XRANGE', 'k', '-', '+'], o);
    expect(await failed(over.read())).toBeInstanceOf(RespFramingError);
    await over.close();
  });

  test('-ASK, as -MOVED, is named as a Redis Cluster node answering', async () => {
    const w = await serve(() => '-ASK 3999 127.0.0.1:6381\r\n');
    const r = new RawReader(`redis://127.0.0.1:${w.port}`, ['XRANGE', 'k', '-', '+']);
    const e = await failed(r.read());
    expect(e).toBeInstanceOf(RespError);
    expect(e?.message).toBe(
      'a node of a Redis Cluster answered (ASK 3999 127.0.0.1:6381): the raw reader reads one standalone Redis',
    );
    await r.close();
  });

  test('on a connection already up, at most 128 reads are sent unanswered', async () => {
    let answering = false;
    const w = await serve(() => (answering ? GOOD : undefined));
    const r = new RawReader(`redis://127.0.0.1:${w.port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 10_000 });
    await r.connect();
    const all = Promise.all(Array.from({ length: 200 }, () => r.read()));
    for (let i = 0; i < 100 && w.commands.length < 128; i++) await Bun.sleep(10);
    await Bun.sleep(50);
    expect(w.commands.length).toBe(128);
    answering = true;
    [...sockets][0]!.write(GOOD.repeat(128));
    expect(await all).toEqual(Array(200).fill(BODY));
    await r.close();
  });
});

describe('openStream with DECODE=raw', () => {
  const options = (port: number, more: Partial<StreamOptions>): StreamOptions => ({
    client: 'node-redis',
    url: `redis://127.0.0.1:${port}`,
    workload: 'xrange',
    key: 'k',
    settings: { ...DEFAULT_SETTINGS, decode: 'raw' },
    handicapUs: 0,
    ...more,
  });

  test("sends the workload's own command: a page's read is XRANGE … COUNT 100", async () => {
    const w = await serve(redisLike);
    const s = await openStream(options(w.port, { workload: 'xrange-count' }));
    expect(await s.readJson()).toBe(BODY);
    expect(s.direct).toBe(true);
    expect(w.commands).toEqual([['XRANGE', 'k', '-', '+', 'COUNT', '100']]);
    await s.close();
  });

  test('is refused at start beside a CACHE, in one line, before any connection', async () => {
    const w = await serve(redisLike);
    const o = options(w.port, { settings: { ...DEFAULT_SETTINGS, decode: 'raw', cache: 'tail' } });
    await expect(openStream(o)).rejects.toThrow(
      'DECODE=raw is not supported with a CACHE, POOL or TRANSFORM: it is measured alone',
    );
    expect(w.connections).toBe(0);
  });
});
