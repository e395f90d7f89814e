// --entries: deterministic streams of each size, one run per size, and the cost fit against size.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { ROOT } from '../../packages/harness/src/system/paths';
import { goldenBody, startPrivateRedis, streamInfo } from '../../packages/harness/src/topology/redis';
import { FAKE_APPS, runCli, settle } from '../helpers/cli';

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
    await resumedAndRedrawn(dir);
  });
});

/**
 * The sweep of the test above as if stopped while measuring its second size: --resume of its folder keeps the size it
 * finished, resumes the one that saved partial results and runs the one not started, then writes the summary; npm run
 * report on the folder draws the summary again, chart included.
 */
async function resumedAndRedrawn(dir: string): Promise<void> {
  const sweep = JSON.parse(readFileSync(join(dir, 'sweep.json'), 'utf8'));
  expect(sweep).toMatchObject({ kind: 'entries', values: [40, 80], dirs: ['entries-40', 'entries-80'] });
  expect(sweep.argv.slice(0, 2)).toEqual(['--entries', '80,40']);
  const file = (n: number) => join(dir, `entries-${n}`, 'results.json');
  const kept = readFileSync(file(40), 'utf8');
  // The second size stopped part way; nothing after it ran.
  writeFileSync(file(80), JSON.stringify({ ...JSON.parse(readFileSync(file(80), 'utf8')), complete: false }));
  for (const f of ['scaling.json', 'scaling.md', 'scaling.png']) rmSync(join(dir, f));
  const refused = await runCli(['--resume', dir, '--runs', '3']);
  expect(refused.code).toBe(2);
  expect(refused.stderr).toContain('continues a sweep with the flags it started with (--entries 80,40');
  const resumed = await runCli(['--resume', dir]);
  expect(resumed.code).toBe(0);
  expect(resumed.stderr).toContain('the run on 40 entries: complete, kept');
  expect(resumed.stderr).toContain('the run on 80 entries: resumed');
  expect(JSON.parse(readFileSync(file(80), 'utf8'))).toMatchObject({ complete: true, resumed: [{}] });
  // The size it finished is not measured again: only the scaling is added to it.
  expect(JSON.parse(readFileSync(file(40), 'utf8')).started_at).toBe(JSON.parse(kept).started_at);
  expect(JSON.parse(readFileSync(join(dir, 'scaling.json'), 'utf8')).runs).toHaveLength(2);
  rmSync(join(dir, 'scaling.md'));
  const report = spawnSync('bun', [join(ROOT, 'packages/harness/src/cli/report.ts'), dir], {
    encoding: 'utf8',
    env: { ...process.env, BENCH_APPS_DIR: FAKE_APPS },
  });
  expect(report.status).toBe(0);
  expect(existsSync(join(dir, 'scaling.md')) && existsSync(join(dir, 'scaling.png'))).toBe(true);
}
