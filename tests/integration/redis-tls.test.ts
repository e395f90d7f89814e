// --redis-tls: the private Redis gets a TLS port with a CA made for the run, and the apps read it at rediss:// only
// (a client that spoke plain TCP there would fail its handshake and its verification): a fake contender on node-redis
// and one on ioredis, each verified and counted by Redis over TLS, and the run's report saying so; the flags it does
// not go with refused in one line before anything starts.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { explained, resultsIn, runCli, settle } from '../helpers/cli';

describe('--redis-tls', () => {
  test('the apps read Redis over TLS: verified, one read per response counted, the report says so', async () => {
    const only = ['--only', 'bun-fake-good-node-redis,bun-fake-other-ioredis'];
    const run = await runCli(['--redis-tls', ...only, '--runs', '2', '--windows', '1', '--duration', '500ms']);
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json, dir } = resultsIn(run.outDir);
      expect(json.settings.redis_tls).toBe(true);
      for (const c of json.contenders) {
        expect(c.status).toBe('ok');
        expect(c.redis_calls_per_req).toBeCloseTo(1, 1);
      }
      expect(readFileSync(join(dir, 'results.md'), 'utf8')).toContain('every app read Redis over TLS (--redis-tls');
      expect(run.stderr).toContain('not published');
    });
    expect(await settle(run.seen)).toEqual([]);
  });

  test('with --redis-rtt: refused before anything starts', async () => {
    const run = await runCli(['--redis-tls', '--redis-rtt', '1ms']);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'error: --redis-tls does not go with --redis-rtt: its delay proxy forwards the plain port',
    );
    expect(run.seen).toEqual([]);
  });
});
