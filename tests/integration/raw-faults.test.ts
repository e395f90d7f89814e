// DECODE=raw through the apps, under faults: each raw server with the raw reader, against a scripted server on
// 127.0.0.1 that answers XRANGE as told. An error reply (-ERR, -MOVED, -LOADING), a reply cut off by a dropped
// connection, and Redis gone each get an HTTP error for the request they hit, never part of a body; the next requests
// get the whole body once the server answers again. And a client with no byte mode is refused in one line.
import { afterAll, describe, expect, test } from 'bun:test';
import { createServer, type Server, type Socket } from 'node:net';
import { STREAM_KEY } from '@bench/stream';
import { AppError, buildApp, startApp } from '../../packages/harness/src/measure/apps';
import { loadContenders } from '../../packages/harness/src/model/contenders';
import { appEnvironment } from '../../packages/harness/src/run/prepare';
import { freePort } from '../../packages/harness/src/system/net';
import { isAlive } from '../../packages/harness/src/system/proc';

const bulk = (s: string) => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
const READ = `*4\r\n${bulk('XRANGE')}${bulk(STREAM_KEY)}${bulk('-')}${bulk('+')}`;
const GOOD = `*1\r\n*2\r\n${bulk('1-0')}*2\r\n${bulk('color')}${bulk('red')}`;
const BODY = '{"entries":[{"id":"1-0","fields":{"color":"red"}}]}';

/** What the scripted server does with a read: answer it, answer an error, or send half and drop the connection. */
let mode: 'good' | 'drop' | string = 'good';
let server: Server | null = null;
const sockets = new Set<Socket>();
const pids: number[] = [];

function serve(port: number): Promise<number> {
  return new Promise((resolve) => {
    server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      let text = '';
      socket.on('data', (d) => {
        text += d.toString('latin1');
        for (let i = text.indexOf(READ); i >= 0; i = text.indexOf(READ)) {
          text = text.slice(i + READ.length);
          if (mode === 'good') socket.write(GOOD);
          else if (mode === 'drop') socket.end(GOOD.slice(0, 25));
          else socket.write(`${mode}\r\n`);
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

const get = async (url: string) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: res.status, body: await res.text() };
};

const all = loadContenders();

describe('the raw read path through each raw server', () => {
  for (const c of all.filter((x) => x.settings.decode === 'raw')) {
    test(`${c.name}: error replies, a drop mid-reply and Redis gone get 5xx; then the whole body again`, async () => {
      mode = 'good';
      const port = await serve(0);
      const env = appEnvironment(c, `redis://127.0.0.1:${port}`, 'xrange');
      await buildApp(c, env, 'raw-faults');
      const app = await startApp(c, { port: await freePort(), env, timeoutMs: 60_000 });
      pids.push(app.pid);
      try {
        expect(await get(app.url)).toEqual({ status: 200, body: BODY });
        for (const reply of [
          '-ERR wrong kind of value',
          '-MOVED 3999 127.0.0.1:6381',
          '-LOADING Redis is loading the dataset in memory',
          'drop',
        ]) {
          mode = reply;
          const r = await get(app.url);
          expect(r.status).toBeGreaterThanOrEqual(500);
          expect(r.body).not.toContain('entries');
          mode = 'good';
          expect(await get(app.url)).toEqual({ status: 200, body: BODY });
        }
        // Redis gone: an error at once; back on its port: the body.
        await stop();
        expect((await get(app.url)).status).toBeGreaterThanOrEqual(500);
        await serve(port);
        expect(await get(app.url)).toEqual({ status: 200, body: BODY });
      } finally {
        await app.stop();
        await stop();
      }
    }, 120_000);
  }

  test("DECODE=bytes with Bun's client: the app exits at start with one line naming the client", async () => {
    const c = all.find((x) => x.name === 'bun-raw-bun-redis')!;
    const env = { ...appEnvironment(c, 'redis://127.0.0.1:1', 'xrange'), DECODE: 'bytes' };
    const started = startApp(c, { port: await freePort(), env, timeoutMs: 30_000 });
    const e = (await started.then(
      () => null,
      (x) => x,
    )) as AppError;
    expect(e).toBeInstanceOf(AppError);
    expect(e.message).toMatch(/^exited \(code 1\) before answering/);
    expect(e.output.join('\n')).toContain(
      "DECODE=bytes is not supported with REDIS_CLIENT=bun-redis: Bun's RedisClient has no byte mode for XRANGE",
    );
  }, 60_000);

  test('everything started here is stopped', async () => {
    await Bun.sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
