// DECODE=raw's reader under faults, against a scripted server on 127.0.0.1 that speaks just enough RESP: an error
// reply, a reply cut off by a closed connection, a reply that stalls, Redis gone and back, each fail the reads they
// hit and never hand over part of a body; the next read succeeds.
import { afterAll, describe, expect, test } from 'bun:test';
import { createServer, type Server, type Socket } from 'node:net';
import { RawReader, refusal, statusOf, TlsRefused, Unavailable } from '../../packages/raw-reader/src/reader';
import { outputBytes, ReplyShapeError, RespError, RespFramingError } from '../../packages/raw-reader/src/transcode';

const READ = '*4\r\n$6\r\nXRANGE\r\n$1\r\nk\r\n$1\r\n-\r\n$1\r\n+\r\n';
/** The reader's probe after a stall; the server answers it unless a test has it stalled too (pong = false). */
const PING = '*1\r\n$4\r\nPING\r\n';
const GOOD = '*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$5\r\ncolor\r\n$3\r\nred\r\n';
const BODY = '{"entries":[{"id":"1-0","fields":{"color":"red"}}]}';

/** What the server does with the n-th read it gets (from 0, over all connections). */
type Script = (n: number, socket: Socket) => void;

let server: Server | null = null;
let reads = 0;
let pong = true;
const sockets = new Set<Socket>();

/**
 * Until the reader has seen its connection close (its socket dropped), at most 3 s: a fixed 50 ms was too short
 * once under a full shared lane, and a read sent before the close failed as a read in flight.
 */
async function dropped(r: RawReader): Promise<void> {
  for (let i = 0; i < 300 && (r as unknown as { socket: unknown }).socket !== null; i++) await Bun.sleep(10);
}

function serve(port: number, script: Script): Promise<number> {
  return new Promise((resolve) => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      let text = '';
      socket.on('data', (d) => {
        text += d.toString('latin1');
        // Commands in the order they came: the reads go to the script, a PING is answered PONG.
        for (;;) {
          if (text.startsWith(READ)) script(reads++, socket);
          else if (text.startsWith(PING)) pong && socket.write('+PONG\r\n');
          else break;
          text = text.slice(text.startsWith(READ) ? READ.length : PING.length);
        }
      });
    });
    server.listen(port, '127.0.0.1', () => resolve((server!.address() as { port: number }).port));
  });
}

function stop(): Promise<void> {
  for (const s of sockets) s.destroy();
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

afterAll(stop);

const outcome = (p: Promise<string>) =>
  p.then(
    (body) => ({ body }),
    (e: Error) => ({ error: e }),
  );

describe('the raw reader', () => {
  test('an error reply fails its read only; pipelined reads before and after get their bodies', async () => {
    reads = 0;
    const port = await serve(0, (n, s) =>
      s.write(n === 1 ? '-LOADING Redis is loading the dataset in memory\r\n' : GOOD),
    );
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+']);
    const [a, b, c] = await Promise.all([r.read(), r.read(), r.read()].map(outcome));
    expect(a).toEqual({ body: BODY });
    expect((b as { error: Error }).error).toBeInstanceOf(RespError);
    expect((b as { error: Error }).error.message).toStartWith('LOADING');
    expect(c).toEqual({ body: BODY });
    await r.close();
    await stop();
  });

  test('a connection dropped mid-reply, then a stalled reply: their reads fail, the next ones reconnect', async () => {
    reads = 0;
    pong = true;
    const port = await serve(0, (n, s) => {
      if (n === 0) s.end(GOOD.slice(0, 20));
      else if (n === 1) s.write(GOOD.slice(0, 30));
      else for (const ch of GOOD) s.write(ch);
    });
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 300 });
    expect((await outcome(r.read())) as object).toHaveProperty('error');
    const stalled = await outcome(r.read());
    expect((stalled as { error: Error }).error.message).toContain('no complete reply from Redis in 300 ms');
    // After a stall, a read fails at once, and a PING on a new connection probes Redis.
    const t0 = Date.now();
    const probing = await outcome(r.read());
    expect(Date.now() - t0).toBeLessThan(250); // at once: well under the 300 ms deadline, beside a GC pause
    expect((probing as { error: Error }).error).toBeInstanceOf(Unavailable);
    expect((probing as { error: Error }).error.message).toContain('has not since');
    // PONG: reads go through again, and a reply written a byte at a time still arrives whole.
    await Bun.sleep(150);
    expect(await r.read()).toBe(BODY);
    await r.close();
    await stop();
  });

  test('a stall under steady arrivals: each read fails by its deadline, then at once while it lasts', async () => {
    reads = 0;
    pong = false;
    // The server answers nothing from the 3rd read on (a Redis stopped with SIGSTOP accepts and never answers).
    const port = await serve(0, (n, s) => {
      if (n < 2) s.write(GOOD);
    });
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 300 });
    await r.connect(); // the two answered reads are not held to their deadline with a connect in it
    expect(await r.read()).toBe(BODY);
    expect(await r.read()).toBe(BODY);
    // A read every 10 ms for 1.2 s, four deadlines long: an idle timer would be reset by each and never fire.
    const waited: number[] = [];
    const all: Promise<unknown>[] = [];
    for (let i = 0; i < 120; i++) {
      const t0 = Date.now();
      all.push(
        outcome(r.read()).then((o) => {
          waited[i] = Date.now() - t0;
          return o;
        }),
      );
      await Bun.sleep(10);
    }
    const outcomes = await Promise.all(all);
    // The first stalled read waits its deadline out, not a fraction of it.
    expect(waited[0]).toBeGreaterThanOrEqual(250);
    expect(outcomes.every((o) => (o as { error?: Error }).error?.message.includes('in 300 ms'))).toBe(true);
    // Every read fails near its deadline, with a margin for a machine 3× slower. An idle timer, reset by each new
    // read, would hold the first read for the whole 1.2 s of arrivals and its 300 ms after.
    expect(Math.max(...waited)).toBeLessThan(1000);
    // After the first deadline, reads fail at once (the stall holds no requests): most of the 120 come after it.
    const atOnce = outcomes.filter((o) => (o as { error: Error }).error.message.includes('has not since'));
    expect(atOnce.length).toBeGreaterThan(40);
    expect(waited.filter((w) => w < 100).length).toBeGreaterThanOrEqual(atOnce.length);
    pong = true;
    await r.close();
    await stop();
  });

  test('the queue is bounded: a read over it fails at once; a null reply fails its read only', async () => {
    reads = 0;
    const port = await serve(0, (n, s) => {
      if (n === 0) s.write('$-1\r\n');
      else if (n === 1) s.write('_\r\n');
      else if (n === 2) s.write(GOOD);
    });
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 400, maxWaiting: 3 });
    const [a, b, c] = await Promise.all([outcome(r.read()), outcome(r.read()), outcome(r.read())]);
    expect((a as { error: Error }).error).toBeInstanceOf(ReplyShapeError);
    expect((b as { error: Error }).error).toBeInstanceOf(ReplyShapeError);
    expect(c).toEqual({ body: BODY });
    // Three waiting (the server answers no more): the fourth fails at once.
    const held = [r.read(), r.read(), r.read()].map(outcome);
    const t0 = Date.now();
    const over = await outcome(r.read());
    expect(Date.now() - t0).toBeLessThan(250); // at once: well under the 300 ms deadline, beside a GC pause
    expect((over as { error: Error }).error.message).toBe('3 reads are waiting on Redis already');
    await Promise.all(held);
    await r.close();
    await stop();
  });

  test('a reply of another shape after a large one fails its read only; the next read succeeds', async () => {
    reads = 0;
    const big = 'x'.repeat(2_000_000);
    const large = `*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nv\r\n$${big.length}\r\n${big}\r\n`;
    // The buffer has grown for the large reply when the one after it drops the connection.
    const port = await serve(0, (n, s) => s.write(n === 0 ? large : n === 1 ? ':3\r\n' : GOOD));
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+']);
    const [a, b] = await Promise.all([outcome(r.read()), outcome(r.read())]);
    expect((a as { body: string }).body.length).toBeGreaterThan(2_000_000);
    expect((b as { error: Error }).error.message).toMatch(/^expected \* at byte \d+, got 0x3a$/);
    expect(await r.read()).toBe(BODY);
    await r.close();
    await stop();
  });

  test('the buffers shrink back after a large reply', async () => {
    reads = 0;
    // One entry whose value is 2 MB, then the small reply.
    const big = 'x'.repeat(2_000_000);
    const large = `*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$1\r\nv\r\n$${big.length}\r\n${big}\r\n`;
    const port = await serve(0, (n, s) => s.write(n === 0 ? large : GOOD));
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+']);
    expect((await r.read()).length).toBeGreaterThan(2_000_000);
    expect(await r.read()).toBe(BODY);
    expect(r.bufferBytes).toBe(1 << 17);
    expect(outputBytes()).toBe(1 << 16);
    await r.close();
    await stop();
  });

  test('Redis gone: reads wait for it up to their deadline; Redis back on its port: they are answered', async () => {
    reads = 0;
    const port = await serve(0, (_n, s) => s.write(GOOD));
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 2_000 });
    expect(await r.read()).toBe(BODY);
    await stop();
    // The reader sees its connection close (a read sent on it before would fail at once, as a read in flight).
    await dropped(r);
    // Gone for 300 ms: the reads made meanwhile wait, the reader retrying with backoff, and are answered once it is
    // back (within the backoff's 500 ms at most).
    const t0 = Date.now();
    const waiting = [r.read(), r.read()];
    await Bun.sleep(300);
    await serve(port, (_n, s) => s.write(GOOD));
    const back = Date.now();
    expect(await Promise.all(waiting)).toEqual([BODY, BODY]);
    expect(Date.now() - back).toBeLessThan(1_500);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(300);
    // Gone past the deadline: the read fails as Unavailable by it.
    await stop();
    await dropped(r);
    const late = (await outcome(r.read())) as { error: Error };
    expect(late.error).toBeInstanceOf(Unavailable);
    expect(late.error.message).toMatch(/in 2000 ms/);
    // Each read keeps its own deadline: one made 1.5 s after another outlives the first's and is answered.
    await Bun.sleep(50);
    const first = outcome(r.read());
    await Bun.sleep(1500);
    const second = outcome(r.read());
    await Bun.sleep(800);
    await serve(port, (_n, s) => s.write(GOOD));
    expect(((await first) as { error: Error }).error).toBeInstanceOf(Unavailable);
    expect(await second).toEqual({ body: BODY });
    await r.close();
  });

  test('the status an app answers: 503 when Redis is unavailable (deadline, queue, connection), else 500', async () => {
    reads = 0;
    const port = await serve(0, (n, s) => (n === 0 ? s.write('-MOVED 3999 127.0.0.1:6381\r\n') : undefined));
    // Connected first, and deadlines long enough for a loaded machine: the first read must be answered, not expire
    // (under a full shared lane a 150 ms deadline once ran out before the MOVED reply came).
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 600, maxWaiting: 2 });
    await r.connect();
    const moved = (await outcome(r.read())) as { error: Error };
    expect(statusOf(moved.error)).toBe(500);
    expect(moved.error.message).toBe(
      'a node of a Redis Cluster answered (MOVED 3999 127.0.0.1:6381): the raw reader reads one standalone Redis',
    );
    // No answer now: two reads wait, a third fails at once, then the two by their deadline; all 503.
    const waiting = [r.read(), r.read(), r.read()].map(outcome);
    const errors = (await Promise.all(waiting)).map((x) => (x as { error: Error }).error);
    expect(errors.every((e) => e instanceof Unavailable && statusOf(e) === 503)).toBe(true);
    expect(errors.map((e) => e.message)).toEqual([
      'no complete reply from Redis in 600 ms',
      'no complete reply from Redis in 600 ms',
      '2 reads are waiting on Redis already',
    ]);
    await r.close();
    await stop();
  });

  test('refused in one line when made: a cluster of hosts, not a Redis URL; rediss:// is TLS', () => {
    expect(refusal('redis://u:p@127.0.0.1:6379/3')).toBeNull();
    expect(refusal('rediss://127.0.0.1:6380')).toBeNull();
    for (const cluster of ['redis://a:7000,b:7001', 'redis://u:p@a,b:7001/0'])
      expect(refusal(cluster)).toBe(
        'the raw reader reads one standalone Redis: a cluster URL is refused (it does not follow MOVED)',
      );
    expect(refusal('http://127.0.0.1')).toBe('the raw reader reads redis:// and rediss:// URLs only, not http:');
    expect(refusal('nonsense')).toBe('the raw reader reads a redis:// URL, not "nonsense"');
    expect(() => new RawReader('redis://a:1,b:2', ['XRANGE'])).toThrow('a cluster URL is refused');
    // A comma in the user or password is theirs, not a list of hosts; a bare % cannot be decoded for AUTH.
    expect(refusal('redis://:pa,ss@127.0.0.1:6379')).toBeNull();
    expect(refusal('redis://us,er:pw@127.0.0.1:6379')).toBeNull();
    expect(refusal('redis://:50%off@127.0.0.1:6379')).toBe(
      'the URL\'s user or password holds a "%" that is not an escape: write it %25',
    );
    expect(refusal('redis://:50%25off@127.0.0.1:6379')).toBeNull();
  });

  test('after a stall, a PING goes with no read waiting: the next read once Redis answers gets its body', async () => {
    reads = 0;
    pong = false;
    const port = await serve(0, (n, s) => n !== 1 && s.write(GOOD));
    // Connected first, with a deadline a loaded machine's first read meets (300 ms once ran out under a full lane).
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 600 });
    await r.connect();
    expect(await r.read()).toBe(BODY);
    expect(((await outcome(r.read())) as { error: Error }).error.message).toContain('no complete reply');
    pong = true;
    // No read for a while: the reader probed on its own (backoff at most 500 ms), so the next read is answered.
    await Bun.sleep(2000);
    expect(await r.read()).toBe(BODY);
    await r.close();
    await stop();
  });

  test('a reply over maxReplyBytes fails as RespFramingError, whether it came whole or in pieces', async () => {
    reads = 0;
    pong = true;
    const big = `*1\r\n*2\r\n$3\r\n1-0\r\n*2\r\n$5\r\ncolor\r\n$5000\r\n${'x'.repeat(5000)}\r\n`;
    const port = await serve(0, (n, s) => {
      if (n === 0) s.write(big);
      else {
        s.write(big.slice(0, 3000));
        setTimeout(() => s.write(big.slice(3000)), 100);
      }
    });
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { maxReplyBytes: 2000 });
    for (let i = 0; i < 2; i++)
      expect(((await outcome(r.read())) as { error: Error }).error).toBeInstanceOf(RespFramingError);
    await r.close();
    await stop();
  });

  test('rediss:// to a plain port (no TLS handshake answer): TlsRefused by the deadline, then at once', async () => {
    reads = 0;
    const port = await serve(0, () => {});
    // The handshake is called stuck after half the deadline: 1.5 s leaves a loaded machine (the suite's shared lane)
    // room to connect and start it; at 300 ms, a connect slower than 150 ms read as Unavailable once.
    const r = new RawReader(`rediss://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 1500 });
    const refused = await r.connect().then(
      () => null,
      (e: Error) => e,
    );
    expect(refused).toBeInstanceOf(TlsRefused);
    expect(refused!.message).toMatch(/^the TLS handshake with Redis got no answer in \d+ ms: rediss:\/\/ needs /);
    const t0 = Date.now();
    expect(((await outcome(r.read())) as { error: Error }).error).toBeInstanceOf(TlsRefused);
    expect(Date.now() - t0).toBeLessThan(250);
    await r.close();
    await stop();
  });

  test('at most 128 reads are sent unanswered; those past them are sent as replies come', async () => {
    reads = 0;
    let answer = false;
    let held: Socket | null = null;
    const port = await serve(0, (_n, s) => {
      held = s;
      if (answer) s.write(GOOD);
    });
    const r = new RawReader(`redis://127.0.0.1:${port}`, ['XRANGE', 'k', '-', '+'], { deadlineMs: 10_000 });
    const all = Promise.all(Array.from({ length: 300 }, () => r.read()));
    for (let i = 0; i < 100 && reads < 128; i++) await Bun.sleep(20);
    await Bun.sleep(100);
    // Redis stalled: it holds 128 reads, not 300.
    expect(reads).toBe(128);
    answer = true;
    (held as Socket | null)!.write(GOOD.repeat(128));
    expect(await all).toEqual(Array(300).fill(BODY));
    expect(reads).toBe(300);
    await r.close();
    await stop();
  });
});
