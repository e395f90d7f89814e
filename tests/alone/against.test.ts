// --against on the paced fakes (a fixed sleep per request), decided from load: a folder whose app sleeps 20% longer
// is decided apart, an unchanged one equal within the bound. A git ref, --resume and a failing side:
// tests/integration/against-cli.test.ts.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { explained, resultsIn, runCli } from '../helpers/cli';
import { baseFolder, change, IO, NR, PACED } from '../helpers/against';

describe('--against a folder of apps', () => {
  test('base sleeps 20% longer: the gap is decided, head faster, named and reported', async () => {
    const base = baseFolder('node-redis=24,ioredis=20,iovalkey=26,glide=22');
    const args = ['--only', NR, '--against', base, '--pair', 'auto', '--budget', '90s', ...PACED];
    const run = await runCli(args);
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { json, dir: out } = resultsIn(run.outDir);
      expect(json.contenders.map((c: any) => c.name)).toEqual([NR, `${NR}@base`]);
      expect(json.contenders.find((c: any) => c.name === `${NR}@base`).base_of).toBe(NR);
      expect(json.settings.against).toMatchObject({
        kind: 'dir',
        commit: null,
        equal_pct: 2,
        apps_dir: base,
        pair: 'auto',
      });
      // An --against run answers the changes only; the design was chosen after round 3 and recorded.
      expect(json.family.comparisons).toEqual([]);
      expect(json.changes.design).toMatchObject({ asked: 'auto', round: 3 });
      expect(['alternate', 'duet']).toContain(json.changes.design.chosen);
      const gap = change(json, NR);
      expect(gap.verdict).toBe('faster');
      expect(gap.lo).toBeGreaterThan(1);
      const md = readFileSync(join(out, 'results.md'), 'utf8');
      expect(md.startsWith('**Changes**: this checkout (head) against the apps in')).toBe(true);
      expect(md).toMatch(new RegExp(`- ${NR}: \\*\\*head is \\d+\\.?\\d*% faster\\*\\* than base`));
      expect(md).toContain('**Pair design**: **');
      // The budget counts from the first measurement; the builds before it are setup, said apart.
      expect(json.setup_s).toBeGreaterThan(0);
      expect(Date.parse(json.measured_from) - Date.parse(json.started_at)).toBeGreaterThanOrEqual(0);
      expect(md).toMatch(/; setup before the first measurement \d+m\d+s, outside the budget/);
      expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('id="chart-changes"');
    });
  });

  test('an unchanged base comes out equal within the bound', async () => {
    const base = baseFolder('node-redis=20,ioredis=20,iovalkey=26,glide=22');
    const run = await runCli(['--only', IO, '--against', base, '--equal', '15', '--budget', '90s', ...PACED]);
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const same = change(resultsIn(run.outDir).json, IO);
      expect(same.verdict).toBe('equal');
      expect(Math.max(same.hi - 1, 1 / same.lo - 1)).toBeLessThanOrEqual(0.15);
    });
  });
});
