// npm run pool: kept records (or runs' folders) from anywhere pooled into one report; a bad path is one line.
import { describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PoolResult } from '../../packages/harness/src/model/across-runs';
import { familyOf } from '../../packages/harness/src/model/questions';
import type { Results } from '../../packages/harness/src/model/results';
import { recordOf } from '../../packages/harness/src/publish/kept-runs';
import { KEPT_DIR, ROOT } from '../../packages/harness/src/system/paths';
import { defaultRun, firstRoundOnly } from '../helpers/runs';

const CLI = join(ROOT, 'packages/harness/src/cli/pool.ts');

describe('npm run pool', () => {
  test('a folder of kept records from another machine: pooled, each run said, the answers written', () => {
    const sent = mkdtempSync(join(tmpdir(), 'sent-runs-'));
    const records = readdirSync(KEPT_DIR).filter((f) => f.endsWith('.json'));
    for (const f of records) cpSync(join(KEPT_DIR, f), join(sent, f));
    const out = mkdtempSync(join(tmpdir(), 'pool-out-'));
    // An earlier pool into the same folder wrote a report: pool.md would contradict it, so it goes.
    const earlier = ['results.md', 'report.html', 'report.png', 'req-sec.png'];
    for (const f of earlier) writeFileSync(join(out, f), f === 'results.md' ? '![req-sec.png](./req-sec.png)\n' : '');
    // --any-inputs: these records are read as if their inputs were this checkout's, whatever changed since.
    const proc = Bun.spawnSync(['bun', CLI, sent, '--any-inputs', '--out', out], { cwd: ROOT });
    expect(proc.exitCode).toBe(0);
    expect(earlier.filter((f) => existsSync(join(out, f)))).toEqual([]);
    const pool = JSON.parse(readFileSync(join(out, 'pool.json'), 'utf8')) as PoolResult;
    const kept = records.map((f) => JSON.parse(readFileSync(join(KEPT_DIR, f), 'utf8')));
    const newest = kept.sort((a, b) => a.started_at.localeCompare(b.started_at)).at(-1);
    expect(pool.answers.length).toBe(newest.answers.length);
    expect(pool.runs.length).toBe(records.length);
    // Every record of schema 2 of the newest one's workload counts; older ones say what they lack.
    for (const r of pool.runs) {
      const k = kept.find((x) => x.started_at === r.started_at)!;
      if (k.workload !== pool.workload) expect(r.left_out).toBe(`another workload (${k.workload})`);
      else if (k.schema !== 2) expect(r.left_out).toMatch(/^kept before pooling: it lacks the estimates/);
      else expect(r.pooled).toBeGreaterThan(0);
    }
    expect(pool.answers.every((a) => a.pool.runs >= 1)).toBe(true);
    // Pooled as if of this checkout's inputs, said so; not on this checkout's inputs; each machine left out in turn.
    expect(pool.any_inputs).toBe(true);
    expect(pool.inputs_of).toBeUndefined();
    expect(pool.leave_one_out?.length).toBe(new Set(pool.runs.filter((r) => r.pooled).map((r) => r.machine)).size);
    expect(pool.leave_one_out?.length).toBeGreaterThan(1);
    expect(existsSync(join(out, 'pool.md'))).toBe(true);
    const said = proc.stdout.toString();
    expect(said).toMatch(/^\d+ comparisons over \d+ runs? on \d+ machines?: \d+ decided/m);
    // "open" as the page counts it: those decided on some machines only are said among them.
    const some = pool.answers.filter((a) => a.pool.holds === 'depends on the machine').length;
    // Each machine's line: a machine measured on too few boots says it decides nothing, and what to add.
    for (const p of pool.priors) {
      const head = `  ${p.machine}${p.placement === 'none' ? '' : ` (${p.placement})`}: `;
      const line = said.split('\n').find((l) => l.startsWith(head));
      expect(line?.includes('decides nothing: add a run of it after a reboot')).toBe(
        p.boots < pool.run_prior.min_boots,
      );
    }
    expect(said).toMatch(some ? new RegExp(` open \\(${some} of them decided on some machines only\\)\n`) : / open\n/);
    // A line for each run that counts; those that count in nothing in one line, by reason (pool.json lists each).
    const counted = pool.runs.filter((r) => r.pooled > 0);
    for (const r of counted) expect(said).toContain(`${r.started_at} ${r.commit.slice(0, 7)} `);
    const none = pool.runs.length - counted.length;
    expect(said.split('\n').filter((l) => / comparisons pooled/.test(l))).toHaveLength(counted.length);
    if (none)
      expect(said).toMatch(
        new RegExp(`^${none} other runs? pooled nothing \\(each in pool\\.json\\): \\d+ left out`, 'm'),
      );
  }, 120_000);

  test("a fleet's folders: runs two folders deep pooled, the report from the newest results.json, pool.md gone", () => {
    const fleet = mkdtempSync(join(tmpdir(), 'fleet-'));
    const runOn = (day: string, cpu: string): Results => {
      const r = { ...defaultRun(), started_at: `2026-12-${day}T01:00:00.000Z` };
      r.family = familyOf(r.contenders);
      r.environment = { ...r.environment, cpu_model: cpu };
      return r;
    };
    // One machine's bench folder holds its runs' folders (OUT/runs/*/results.json); the older asked 3 comparisons.
    const [older, newer] = [runOn('01', 'AMD EPYC'), runOn('02', 'AMD EPYC')];
    older.family = { ...older.family!, comparisons: older.family!.comparisons.slice(0, 3) };
    for (const r of [older, newer]) {
      mkdirSync(join(fleet, 'one', 'runs', r.started_at), { recursive: true });
      writeFileSync(join(fleet, 'one', 'runs', r.started_at, 'results.json'), JSON.stringify(r));
    }
    // Another's checkout: its kept record in results/runs/.
    mkdirSync(join(fleet, 'two', 'results', 'runs'), { recursive: true });
    const kept = recordOf(runOn('03', 'Intel Xeon'));
    writeFileSync(join(fleet, 'two', 'results', 'runs', 'kept.json'), JSON.stringify(kept));
    // An earlier pool of records alone wrote pool.md here: the report now written would contradict it.
    const out = mkdtempSync(join(tmpdir(), 'pool-out-'));
    writeFileSync(join(out, 'pool.md'), 'an earlier pool\n');
    const ins = ['one', 'two'].map((m) => join(fleet, m));
    // No browser: the report's files are what is checked, not its screenshot (a browser's start costs seconds).
    const env = { ...process.env, CHROMIUM_PATH: join(fleet, 'no-browser') };
    const proc = Bun.spawnSync(['bun', CLI, ...ins, '--any-inputs', '--out', out], { cwd: ROOT, env });
    expect(proc.stderr.toString()).not.toContain('skipped');
    expect(proc.exitCode).toBe(0);
    const pool = JSON.parse(readFileSync(join(out, 'pool.json'), 'utf8')) as PoolResult;
    expect(pool.runs.map((r) => r.started_at)).toEqual([older, newer, kept].map((r) => r.started_at));
    expect(pool.answers).toHaveLength(newer.family!.comparisons.length);
    expect(pool.leave_one_out).toHaveLength(2);
    expect(existsSync(join(out, 'pool.md'))).toBe(false);
    expect(existsSync(join(out, 'results.md'))).toBe(true);
    expect(readFileSync(join(out, 'results.md'), 'utf8')).toContain(newer.started_at.slice(0, 10));
  }, 120_000);

  test('a path that is not there, or no run in it: one line naming the fix, exit 2', () => {
    const missing = Bun.spawnSync(['bun', CLI, join(tmpdir(), 'no-such-runs')], { cwd: ROOT });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.toString()).toMatch(
      /^error: .*no-such-runs does not exist; name a run's folder, a folder of runs or a kept record\n$/,
    );
    const empty = Bun.spawnSync(['bun', CLI, mkdtempSync(join(tmpdir(), 'empty-'))], { cwd: ROOT });
    expect(empty.exitCode).toBe(2);
    expect(empty.stderr.toString()).toMatch(
      /^error: no complete run found under the paths given \(searched three folders deep below each\); /,
    );
    expect(Bun.spawnSync(['bun', CLI], { cwd: ROOT }).exitCode).toBe(2);
    // A file named that cannot be pooled: one line, its reason and what to name.
    const readme = Bun.spawnSync(['bun', CLI, join(ROOT, 'README.md')], { cwd: ROOT });
    expect([readme.exitCode, readme.stderr.toString()]).toEqual([
      2,
      expect.stringMatching(
        /^error: .*README\.md cannot be pooled \(not valid JSON .*\); name a run's folder, .* record\n$/,
      ),
    ]);
    // Into the kept records' folder, or a folder holding one: the report would sit among them.
    const holds = mkdtempSync(join(tmpdir(), 'holds-kept-'));
    const record = readdirSync(KEPT_DIR).find((f) => f.endsWith('.json'))!;
    writeFileSync(join(holds, record), readFileSync(join(KEPT_DIR, record)));
    for (const [out, what] of [
      [KEPT_DIR, 'results/runs/, where runs are kept'],
      [holds, `${record}, a kept run's record`],
    ]) {
      const into = Bun.spawnSync(['bun', CLI, '--kept', '--out', out!], { cwd: ROOT });
      expect([into.exitCode, into.stderr.toString()]).toEqual([
        2,
        expect.stringContaining(`holds kept records (${what})`),
      ]);
    }
    expect(readdirSync(holds)).toEqual([record]);
    // --out a file, or under one; --recover-inputs with a path: one line each, before anything is read.
    const file = join(mkdtempSync(join(tmpdir(), 'out-')), 'a-file');
    writeFileSync(file, '');
    for (const out of [file, join(file, 'sub')]) {
      const bad = Bun.spawnSync(['bun', CLI, '--kept', '--out', out], { cwd: ROOT });
      expect(bad.exitCode).toBe(2);
      expect(bad.stderr.toString()).toMatch(/^error: --out .* is a file; give a folder \(made if missing\)\n$/);
    }
    // A run's own folder: its report would be replaced by the pool's, so refused.
    const run = mkdtempSync(join(tmpdir(), 'a-run-'));
    writeFileSync(join(run, 'results.json'), '{}');
    const over = Bun.spawnSync(['bun', CLI, '--kept', '--out', run], { cwd: ROOT });
    expect([over.exitCode, over.stderr.toString()]).toEqual([
      2,
      expect.stringMatching(/^error: --out .* holds a run /),
    ]);
    // A folder the system will not make (under /proc, even for root): one line naming it, exit 2, before any pooling.
    const proc = Bun.spawnSync(['bun', CLI, '--kept', '--out', '/proc/no-such-folder'], { cwd: ROOT });
    expect([proc.exitCode, proc.stderr.toString()]).toEqual([
      2,
      expect.stringMatching(
        /^error: --out \/proc\/no-such-folder: \/proc cannot be written; give a folder you can write\n$/,
      ),
    ]);
    const recover = Bun.spawnSync(['bun', CLI, '--recover-inputs', tmpdir()], { cwd: ROOT });
    expect(recover.exitCode).toBe(2);
    expect(recover.stderr.toString()).toStartWith('error: --recover-inputs works on results/runs/ alone; leave out');
  }, 60_000);

  test('runs found and each skipped: how many, each with why, exit 2; a run of one round is one of them', () => {
    const sent = mkdtempSync(join(tmpdir(), 'sent-runs-'));
    const runs = { incomplete: { ...defaultRun(), complete: false }, 'one-round': firstRoundOnly(defaultRun()) };
    for (const [name, r] of Object.entries(runs)) {
      mkdirSync(join(sent, name));
      writeFileSync(join(sent, name, 'results.json'), JSON.stringify(r));
    }
    const proc = Bun.spawnSync(['bun', CLI, sent, '--out', mkdtempSync(join(tmpdir(), 'pool-out-'))], { cwd: ROOT });
    expect(proc.exitCode).toBe(2);
    expect(proc.stderr.toString().split('\n')).toEqual([
      `skipped ${join(sent, 'incomplete', 'results.json')}: it is not complete`,
      `skipped ${join(sent, 'one-round', 'results.json')}: too few rounds to estimate (1 round): measure 2 rounds ` +
        'or more (a longer --budget)',
      'error: nothing to pool: 2 runs found under the paths given, each skipped (the reasons above)',
      '',
    ]);
    // An interrupted run's own folder, named alone: a run's folder, said as skipped, not as "cannot be pooled".
    const one = Bun.spawnSync(['bun', CLI, join(sent, 'incomplete')], { cwd: ROOT });
    expect([one.exitCode, one.stderr.toString().split('\n')[0]]).toEqual([
      2,
      `skipped ${join(sent, 'incomplete', 'results.json')}: it is not complete`,
    ]);
  }, 60_000);

  test('runs read and none counting for any comparison: one line by why, exit 2, nothing written', () => {
    const sent = mkdtempSync(join(tmpdir(), 'sent-runs-'));
    const good = readdirSync(KEPT_DIR)
      .filter((f) => f.endsWith('.json'))
      .at(-1)!;
    // A record of a run that ended after one round: its answers have no interval and no estimate.
    const k = JSON.parse(readFileSync(join(KEPT_DIR, good), 'utf8'));
    k.answers = k.answers.map(({ estimate: _, ...x }: Record<string, unknown>) => ({ ...x, lo: 0, hi: null }));
    writeFileSync(join(sent, good), JSON.stringify(k));
    const out = join(mkdtempSync(join(tmpdir(), 'pool-out-')), 'pool');
    for (const flags of [[], ['--any-inputs']]) {
      const proc = Bun.spawnSync(['bun', CLI, sent, ...flags, '--out', out], { cwd: ROOT });
      expect(proc.exitCode).toBe(2);
      expect(proc.stderr.toString()).toBe(
        'error: no run counts for any comparison: 1 left out (too few rounds to estimate: measure 2 rounds or more ' +
          '(a longer --budget))\n',
      );
      expect(proc.stdout.toString()).toBe('');
      expect(existsSync(out)).toBe(false);
    }
  }, 60_000);

  test('a file it cannot read is said by name, and the runs it can read are pooled', () => {
    const sent = mkdtempSync(join(tmpdir(), 'sent-runs-'));
    const good = readdirSync(KEPT_DIR)
      .filter((f) => f.endsWith('.json'))
      .at(-1)!;
    cpSync(join(KEPT_DIR, good), join(sent, good));
    writeFileSync(join(sent, 'truncated.json'), readFileSync(join(KEPT_DIR, good), 'utf8').slice(0, 200));
    mkdirSync(join(sent, 'not-a-run'));
    writeFileSync(join(sent, 'not-a-run', 'results.json'), 'null');
    const out = mkdtempSync(join(tmpdir(), 'pool-out-'));
    const proc = Bun.spawnSync(['bun', CLI, sent, '--any-inputs', '--out', out], { cwd: ROOT });
    expect(proc.exitCode).toBe(0);
    const err = proc.stderr.toString();
    expect(err).toContain(`skipped ${join(sent, 'truncated.json')}: not valid JSON`);
    expect(err).toContain(`skipped ${join(sent, 'not-a-run', 'results.json')}: `);
    expect(err).toContain('is not a results.json of npm run bench');
    expect((JSON.parse(readFileSync(join(out, 'pool.json'), 'utf8')) as PoolResult).runs).toHaveLength(1);
  }, 60_000);
});
