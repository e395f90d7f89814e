// --entries: deterministic streams of each size, one run per size, and the cost fit against size.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { ROOT } from '../../packages/harness/src/system/paths';
import { goldenBody, startPrivateRedis, streamInfo } from '../../packages/harness/src/topology/redis';
import { runCli, settle } from '../helpers/cli';

describe('--entries', () => {
  test('npm run make-rdb is deterministic: the same JSON bytes for a seed, and XLEN is the asked count', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rdb-'));
    const bodies: string[] = [];
    for (const name of ['a.rdb', 'b.rdb']) {
      const made = spawnSync(
        'bun',
        [join(ROOT, 'scripts/make-rdb.ts'), '--entries', '1234', '--out', join(dir, name)],
        { encoding: 'utf8' },
      );
      expect(made.status).toBe(0);
      const redis = await startPrivateRedis(join(dir, name));
      try {
        expect(streamInfo(redis, STREAM_KEY).length).toBe(1234);
        bodies.push(goldenBody(redis, STREAM_KEY));
      } finally {
        await redis.stop();
      }
    }
    expect(bodies[0]!.length).toBeGreaterThan(100_000);
    expect(bodies[1]).toBe(bodies[0]!);
  });

  test('one run per size, then scaling.json, scaling.md and a chart with a fit per contender', async () => {
    const run = await runCli([
      '--entries',
      '80,40',
      '--only',
      'bun-fake-good-node-redis',
      '--runs',
      '2',
      '--duration',
      '300ms',
      '--warmup',
      '0s',
      '--report',
      'full',
    ]);
    expect(run.code).toBe(0);
    const dirs = readdirSync(run.outDir);
    expect(dirs).toHaveLength(1);
    const dir = join(run.outDir, dirs[0]!);
    const scaling = JSON.parse(readFileSync(join(dir, 'scaling.json'), 'utf8'));
    expect(scaling.runs).toEqual([
      { entries: 40, dir: 'entries-40' },
      { entries: 80, dir: 'entries-80' },
    ]);
    for (const n of [40, 80]) {
      const sub = JSON.parse(readFileSync(join(dir, `entries-${n}`, 'results.json'), 'utf8'));
      expect(sub.data.entries).toBe(n);
      expect(sub.complete).toBe(true);
    }
    const row = scaling.contenders.find((c: any) => c.name === 'bun-fake-good-node-redis');
    expect(row.points.map((p: any) => p.entries)).toEqual([40, 80]);
    expect(Number.isFinite(row.cpu_fit.slope)).toBe(true);
    expect(readFileSync(join(dir, 'scaling.md'), 'utf8')).toMatch(
      /\| bun-fake-good-node-redis \| \d+, \d+ \| \d+, \d+ \| -?[\d.]+ \| -?\d+ \| [\d.]+ \|/,
    );
    expect(existsSync(join(dir, 'scaling.png'))).toBe(true);
    expect(await settle(run.seen)).toEqual([]);
  });
});
