// The delay proxy ("Redis at a network distance"): clients see the asked RTT, bytes arrive intact
// and in order under load, backpressure reaches Redis, half-closes pass through, the proxy costs
// ~0 CPU when idle and leaves nothing behind when stopped.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import type { Socket, TCPSocketListener } from 'bun';
import { freePort, listensOn } from '../../packages/harness/src/system/net';
import { isAlive, processTree, rssMb } from '../../packages/harness/src/system/proc';
import { cli, startPrivateRedis, type RedisTarget } from '../../packages/harness/src/topology/redis';
import { measureRtt, startDelayProxy, type DelayProxy } from '../../packages/harness/src/topology/delay';

const KEY = 'OPTIONS:test:STREAM';
const XRANGE = `*4\r\n$6\r\nXRANGE\r\n$${KEY.length}\r\n${KEY}\r\n$1\r\n-\r\n$1\r\n+\r\n`;
const portOf = (url: string) => Number(new URL(url).port);

let redis: RedisTarget;
/** A proxy with no delay: the same extra hop as a delayed one, so what a delay adds can be told apart. */
let relay: DelayProxy;
/** XRANGE KEY - + as Redis sends it, byte for byte. */
let reply: Buffer;
const started: DelayProxy[] = [];
const listeners: TCPSocketListener<any>[] = [];

async function proxy(rttMs: number, targetUrl = redis.url): Promise<DelayProxy> {
  const p = await startDelayProxy({ targetUrl, rttMs });
  started.push(p);
  return p;
}

beforeAll(async () => {
  redis = await startPrivateRedis(resolve(import.meta.dir, '../../dump.rdb'));
  relay = await proxy(0);
  reply = await rawReply(portOf(redis.url));
  expect(reply.length).toBeGreaterThan(20_000);
}, 60_000);

afterAll(async () => {
  for (const l of listeners) l.stop(true);
  for (const p of started) await p.stop();
  await redis?.stop();
}, 60_000);

/** One XRANGE reply read raw; it is complete once nothing more comes for 300 ms. */
function rawReply(port: number): Promise<Buffer> {
  return new Promise((done, fail) => {
    const parts: Buffer[] = [];
    let quiet: Timer | undefined;
    const giveUp = setTimeout(() => fail(new Error('no XRANGE reply within 10 s')), 10_000);
    Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open: (s) => void s.write(XRANGE),
        data(s, d) {
          parts.push(Buffer.from(d));
          clearTimeout(quiet);
          quiet = setTimeout(() => (clearTimeout(giveUp), s.end(), done(Buffer.concat(parts))), 300);
        },
        error: (_s, e) => fail(e),
      },
    }).catch(fail);
  });
}

/**
 * Median PING round trip in ms over one connection, timed with performance.now(), PINGs 10 ms apart like redis-cli's.
 */
async function medianPing(port: number, count = 150): Promise<number> {
  let answered: (() => void) | null = null;
  const sock = await Bun.connect({ hostname: '127.0.0.1', port, socket: { data: () => answered?.() } });
  sock.setNoDelay(true);
  const times: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const pong = new Promise<void>((r) => (answered = r));
      const t = performance.now();
      sock.write('PING\r\n');
      await Promise.race([pong, Bun.sleep(2000).then(() => Promise.reject(new Error('PING not answered within 2 s')))]);
      times.push(performance.now() - t);
      await Bun.sleep(10);
    }
  } finally {
    sock.end();
  }
  return times.sort((a, b) => a - b)[count >> 1]!;
}

/**
 * Whether a socket listens on the port, from the kernel's table (listensOn, in this process's namespace). Not "can it
 * be bound": the proxy's closed connections linger in TIME_WAIT on it for a minute, which keeps a bind without
 * SO_REUSEADDR out; nor "does a connect succeed": in this VM one sometimes does with nothing there.
 */
const listening = (port: number) => listensOn(process.pid, port);

/**
 * Run check up to `attempts` times, 2 s apart, until it finds nothing wrong; fail with every attempt's findings. A VM's
 * slow spell can last the three back-to-back attempts (CI, 2026-12-03: 0.69 and 0.81 ms added at 0.2 ms).
 */
async function withAttempts(attempts: number, check: () => Promise<string[]>) {
  const found: string[] = [];
  for (let i = 1; i <= attempts; i++) {
    if (i > 1) await Bun.sleep(2000);
    const problems = await check();
    if (problems.length === 0) return;
    found.push(`attempt ${i}: ${problems.join('; ')}`);
  }
  throw new Error(found.join('\n'));
}

test('bad arguments: one line saying what is wrong, exit code 2', () => {
  const script = resolve(import.meta.dir, '../../packages/harness/src/topology/delay-proxy.ts');
  const cases: [string[], RegExp][] = [
    [[], /missing --listen-port, --target-host, --target-port, --rtt-ms/],
    [
      ['--listen-port', '0', '--target-host', 'h', '--target-port', '6379', '--rtt-ms', '1ms'],
      /--rtt-ms must be a number of milliseconds/,
    ],
    [
      ['--listen-port', '99999', '--target-host', 'h', '--target-port', '6379', '--rtt-ms', '1'],
      /--listen-port must be an integer/,
    ],
    [
      ['--listen-port', '0', '--target-host', 'h', '--target-port', '6379', '--rtt-ms', '1', '--bogus', 'x'],
      /unknown argument --bogus/,
    ],
  ];
  for (const [args, message] of cases) {
    const res = spawnSync('bun', [script, ...args], { encoding: 'utf8', timeout: 10_000 });
    expect(res.status).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(message);
  }
});

// The delay is judged against the no-delay relay, measured just before: both pay for the extra hop
// (two more process wake-ups, ~0.03 ms hot, ~0.1 ms from idle on this 2-CPU VM), so the difference
// is what the delay adds. Allowance: 20% of the RTT, less 0.08 ms below it; above it 20% plus
// 0.35 ms: Redis and the client idle for the whole RTT behind a delay, not just for the relay's, and
// wake up slower from it (seen: the median adds 0.03-0.08 ms more than asked at 0.2 ms on a quiet
// VM, and 0.13-0.29 ms more on a noisy one; a machine 3× slower wakes up 3× slower). A relay that
// does not delay, or one on a millisecond timer (at least 1 ms at 0.2 ms), still fails. Medians of
// precisely timed PINGs make that
// check; redis-cli --latency only has a millisecond clock and a mean, which the scheduling stalls
// of a busy shared host move by tenths of a ms, so what measureRtt reports must only be at least
// 0.8 × RTT and at most 1.2 × RTT + the relay's + 0.5 ms (still far below what a millisecond
// timer would make of 0.2 ms: 2.2 ms). Up to 5 attempts: the neighbours' load comes and goes.
describe.each([0.2, 1, 5])('RTT %p ms', (rttMs) => {
  test('clients see it, XRANGE is intact, idle costs no CPU, stop leaves nothing', async () => {
    const p = await proxy(rttMs);
    expect(listening(portOf(p.url))).toBe(true);
    await withAttempts(5, async () => {
      const base = await medianPing(portOf(relay.url));
      const added = (await medianPing(portOf(p.url))) - base;
      const [baseCli, cliRtt] = [await measureRtt(relay.url, 2), await measureRtt(p.url, 2)];
      console.log(
        `RTT ${rttMs} ms: adds ${added.toFixed(3)} ms (median PING, relay ${base.toFixed(3)}); ` +
          `redis-cli ${JSON.stringify(cliRtt)}, relay ${baseCli.typical_ms}`,
      );
      const problems: string[] = [];
      if (added < 0.8 * rttMs - 0.08 || added > 1.2 * rttMs + 0.35)
        problems.push(`median PING adds ${added.toFixed(3)} ms`);
      if (cliRtt.typical_ms < 0.8 * rttMs || cliRtt.typical_ms > 1.2 * rttMs + baseCli.typical_ms + 0.5)
        problems.push(`redis-cli sees ${cliRtt.typical_ms} ms (relay ${baseCli.typical_ms})`);
      return problems;
    });

    expect(cli(p, ['XRANGE', KEY, '-', '+'])).toBe(cli(redis, ['XRANGE', KEY, '-', '+']));

    // Two clock ticks at most in a quiet second: nothing polls. A poller costs in every second, while the runtime's
    // own work after a burst (a collection timer) lands in one, so the quietest of three seconds in a row is judged.
    // Counted in ticks, since a difference of tick sums in seconds can read 0.020000000000000004.
    const idleTicks: number[] = [];
    for (let i = 0; i < 3 && !idleTicks.some((t) => t <= 2); i++) {
      const before = p.cpuSeconds();
      await Bun.sleep(1000);
      idleTicks.push(Math.round((p.cpuSeconds() - before) * 100));
    }
    expect(Math.min(...idleTicks)).toBeLessThanOrEqual(2);

    await p.stop();
    expect(isAlive(p.pid)).toBe(false);
    expect(listening(portOf(p.url))).toBe(false);
  }, 120_000);
});

/**
 * `clients` connections send XRANGE one after another, `total` in all; every reply is compared
 * byte for byte with Redis's own. Bounded by timeoutMs.
 */
async function hammer(port: number, clients: number, total: number, timeoutMs: number) {
  let sent = 0;
  let intact = 0;
  let broken = 0;
  const client = () =>
    new Promise<void>((done, fail) => {
      let got: Buffer[] = [];
      let length = 0;
      const next = (s: Socket<undefined>) => {
        if (sent < total) sent++, s.write(XRANGE);
        else s.end(), done();
      };
      Bun.connect({
        hostname: '127.0.0.1',
        port,
        socket: {
          open: next,
          data(s, d) {
            got.push(Buffer.from(d));
            length += d.length;
            if (length < reply.length) return;
            if (length === reply.length && Buffer.concat(got).equals(reply)) intact++;
            else broken++;
            [got, length] = [[], 0];
            next(s);
          },
          close: () => done(),
          error: (_s, e) => fail(e),
        },
      }).catch(fail);
    });
  const start = performance.now();
  await Promise.race([Promise.all(Array.from({ length: clients }, client)), Bun.sleep(timeoutMs)]);
  return { intact, broken, seconds: (performance.now() - start) / 1000 };
}

describe('under load', () => {
  test.each([0.2, 5])(
    'RTT %p ms: 50 clients, 2000 whole-stream replies, all intact',
    async (rttMs) => {
      const p = await proxy(rttMs);
      const cpuBefore = p.cpuSeconds();
      const run = await hammer(portOf(p.url), 50, 2000, 60_000);
      const cpu = p.cpuSeconds() - cpuBefore;
      console.log(
        `RTT ${rttMs} ms, 50 clients: ${run.intact} replies of ${reply.length} B in ${run.seconds.toFixed(2)} s, ` +
          `proxy CPU ${cpu.toFixed(2)} s = ${((cpu / run.intact) * 1e6).toFixed(0)} µs per request`,
      );
      expect(run).toMatchObject({ intact: 2000, broken: 0 });
      // A proxy that spins while chunks wait would burn about a CPU-second per wall second.
      expect(cpu / run.seconds).toBeLessThan(0.8);
      await p.stop();
    },
    120_000,
  );

  test('a client that stops reading makes the proxy stop reading Redis (backpressure)', async () => {
    const p = await proxy(1);
    const requests = 1000; // ~57 MB of replies: more than the proxy's 4 MB limit and the kernel's buffers
    const rssBefore = rssMb(processTree(p.pid));
    let received = 0;
    let mismatch = -1;
    const sock: Socket<undefined> = await Bun.connect({
      hostname: '127.0.0.1',
      port: portOf(p.url),
      socket: {
        data(_s, d) {
          for (let i = 0; i < d.length && mismatch < 0; i++)
            if (d[i] !== reply[(received + i) % reply.length]) mismatch = received + i;
          received += d.length;
        },
      },
    });
    sock.pause();
    sock.write(XRANGE.repeat(requests));
    // Redis keeps what the proxy does not take in the connection's output buffer (omem).
    let omem = 0;
    for (let i = 0; i < 100 && omem < 10e6; i++, await Bun.sleep(100)) {
      omem = Math.max(0, ...[...cli(redis, ['CLIENT', 'LIST']).matchAll(/ omem=(\d+)/g)].map((m) => Number(m[1])));
    }
    const rssPaused = rssMb(processTree(p.pid));
    console.log(
      `backpressure: Redis holds ${(omem / 1e6).toFixed(1)} MB, proxy ` +
        `RSS ${rssBefore.toFixed(0)} -> ${rssPaused.toFixed(0)} MB`,
    );
    expect(omem).toBeGreaterThan(10e6);
    expect(rssPaused - rssBefore).toBeLessThan(30);

    sock.resume();
    const deadline = Date.now() + 60_000;
    while (received < requests * reply.length && mismatch < 0 && Date.now() < deadline) await Bun.sleep(50);
    sock.end();
    expect(mismatch).toBe(-1);
    expect(received).toBe(requests * reply.length);
    await p.stop();
  }, 120_000);
});

describe('connection ends', () => {
  test('a half-close passes through after the data, and the reply after it still arrives', async () => {
    const events: string[] = [];
    const server = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      allowHalfOpen: true,
      socket: {
        data: (s, d) => (events.push(`data ${d}`), void s.write(d.toString().toUpperCase())),
        end: (s) => (events.push('end'), void s.end('bye')),
      },
    });
    listeners.push(server);
    const p = await proxy(1, `redis://127.0.0.1:${server.port}`);
    let heard = '';
    const closed = new Promise<void>((done) => {
      Bun.connect({
        hostname: '127.0.0.1',
        port: portOf(p.url),
        allowHalfOpen: true,
        socket: {
          open: (s) => (s.write('hello'), s.shutdown()),
          data: (_s, d) => void (heard += d.toString()),
          close: () => done(),
        },
      });
    });
    await Promise.race([closed, Bun.sleep(5000)]);
    expect(events).toEqual(['data hello', 'end']);
    expect(heard).toBe('HELLObye');
    await p.stop();
  }, 30_000);

  test('a target that refuses: the client is closed, the proxy carries on', async () => {
    const p = await proxy(0.2, `redis://127.0.0.1:${await freePort()}`);
    const closed = new Promise<boolean>((done) => {
      // The proxy may reset the connection before Bun finishes opening it: that is the client closed too.
      Bun.connect({ hostname: '127.0.0.1', port: portOf(p.url), socket: { close: () => done(true), data() {} } }).catch(
        () => done(true),
      );
    });
    expect(await Promise.race([closed, Bun.sleep(5000).then(() => false)])).toBe(true);
    expect(isAlive(p.pid)).toBe(true);
    expect(cli(relay, ['PING']).trim()).toBe('PONG');
    await p.stop();
  }, 30_000);
});
