// The raw reader against a real redis-server loaded from dump.rdb: over TLS (rediss://, a CA and certificates made here
// by the harness's own topology/tls.ts) the same body as over TCP, and a certificate it cannot trust refused at start
// by name; and Redis killed and started again under 50 reads at a time: no body but the stream's, every read settled
// within its deadline and a second, and reads answered again within a second of Redis's return.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RawReader, TlsRefused, Unavailable } from '../../packages/raw-reader/src/reader';
import { freePort } from '../../packages/harness/src/system/net';
import { ROOT } from '../../packages/harness/src/system/paths';
import { makeCertificates, type TlsFiles, tlsServerArgs } from '../../packages/harness/src/topology/tls';

const KEY = 'OPTIONS:test:STREAM';
const dir = mkdtempSync(join(tmpdir(), 'rsb-raw-redis-'));
const file = (name: string) => join(dir, name);
let redis: ChildProcess | null = null;
let port = 0;
let tlsPort = 0;
let certs: TlsFiles;

/** redis-server on both ports, from a copy of dump.rdb; resolves once it answers PING. */
async function startRedis(): Promise<void> {
  redis = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      ...tlsServerArgs(tlsPort, certs),
      '--dir',
      dir,
      '--dbfilename',
      'dump.rdb',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 200; i++) {
    if (spawnSync('redis-cli', ['-p', String(port), 'PING'], { encoding: 'utf8' }).stdout.trim() === 'PONG') return;
    await Bun.sleep(25);
  }
  throw new Error('redis-server did not start');
}

beforeAll(async () => {
  // The run's certificates (topology/tls.ts), and another CA that signed nothing Redis holds.
  certs = makeCertificates(dir);
  mkdirSync(file('other'));
  makeCertificates(file('other'));
  copyFileSync(join(ROOT, 'dump.rdb'), file('dump.rdb'));
  [port, tlsPort] = [await freePort(), await freePort()];
  await startRedis();
});

afterAll(() => {
  redis?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const args = ['XRANGE', KEY, '-', '+'];

describe('the raw reader against redis-server', () => {
  test('over TLS (rediss://, its CA): the body read over TCP; a CA that did not sign it refused at start', async () => {
    const plain = new RawReader(`redis://127.0.0.1:${port}`, args);
    const body = await plain.read();
    expect(JSON.parse(body).entries.length).toBe(339);
    const tls = new RawReader(`rediss://localhost:${tlsPort}`, args, { tls: { ca: readFileSync(file('ca.crt')) } });
    await tls.connect();
    expect(await tls.read()).toBe(body);
    const wrong = new RawReader(`rediss://localhost:${tlsPort}`, args, {
      tls: { ca: readFileSync(file('other/ca.crt')) },
      deadlineMs: 5_000,
    });
    // At start: connect() rejects with the handshake's own error and the fix, not after the read deadline.
    const t0 = performance.now();
    const e = await wrong.connect().then(
      () => null,
      (x: Error) => x,
    );
    expect(performance.now() - t0).toBeLessThan(4_000);
    expect(e).toBeInstanceOf(TlsRefused);
    expect(e).toBeInstanceOf(Unavailable); // an app answers it 503
    expect(e!.message).toMatch(
      /^the TLS handshake with Redis failed: .*(certificate|self.signed|issuer).*REDIS_TLS_CA/i,
    );
    // A read fails at once with the same cause while the handshake is refused.
    const t1 = performance.now();
    await expect(wrong.read()).rejects.toBeInstanceOf(TlsRefused);
    expect(performance.now() - t1).toBeLessThan(1_000);
    for (const r of [plain, tls, wrong]) await r.close();
    // Nothing left running: no socket, no retry and no deadline timer held by the refused reader.
    const held = wrong as unknown as { socket: unknown; retry: unknown; timer: unknown };
    expect([held.socket, held.retry, held.timer]).toEqual([null, null, null]);
  });

  test('Redis killed and started again under 50 reads at a time: no wrong body, reads settled in time', async () => {
    const deadlineMs = 2_000;
    const r = new RawReader(`redis://127.0.0.1:${port}`, args, { deadlineMs });
    const golden = await r.read();
    const outcomes: { start: number; end: number; ok: boolean }[] = [];
    let stop = false;
    const loop = async () => {
      while (!stop) {
        const start = Date.now();
        const ok = await r.read().then(
          (body) => {
            if (body !== golden) throw new Error(`a wrong body of ${body.length} bytes`);
            return true;
          },
          (e: Error) => {
            if (!(e instanceof Unavailable)) throw e;
            return false;
          },
        );
        outcomes.push({ start, end: Date.now(), ok });
        if (!ok) await Bun.sleep(5);
      }
    };
    const loops = Array.from({ length: 50 }, loop);
    await Bun.sleep(500);
    redis!.kill('SIGKILL');
    const killedAt = Date.now();
    await Bun.sleep(700);
    await startRedis();
    const backAt = Date.now();
    await Bun.sleep(1_500);
    stop = true;
    await Promise.all(loops);
    await r.close();
    const after = outcomes.filter((o) => o.ok && o.end > backAt).map((o) => o.end);
    const slowest = Math.max(...outcomes.map((o) => o.end - o.start));
    console.log(
      `Redis killed under 50 reads: ${outcomes.filter((o) => o.ok).length} bodies, ` +
        `${outcomes.filter((o) => !o.ok).length} Unavailable; the first body ${Math.min(...after) - backAt} ms ` +
        `after its return; the slowest read settled in ${slowest} ms (deadline ${deadlineMs} ms)`,
    );
    expect(outcomes.filter((o) => o.ok && o.end < killedAt).length).toBeGreaterThan(50);
    expect(after.length).toBeGreaterThan(50);
    expect(Math.min(...after) - backAt).toBeLessThan(1_000);
    expect(slowest).toBeLessThan(deadlineMs + 1_000);
  });
});
