// A published run's view (publish/kept-runs.ts, publish/index.ts): pooled with the kept runs of the same code, once
// each, from two boots of a machine up; pool.json beside it as the pool says; its own answers when it is not kept.
import { afterAll, describe, expect, mock, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze, type Analysis } from '../../packages/harness/src/answers/analysis';
import { familyShares } from '../../packages/harness/src/answers/across-runs';
import { picksFamily } from '../../packages/harness/src/answers/picks';
import { whyNotKept } from '../../packages/harness/src/cli/keep';
import type { KeptAnswers } from '../../packages/harness/src/model/kept';
import { familyOf } from '../../packages/harness/src/model/questions';
import type { Results } from '../../packages/harness/src/model/results';
import * as files from '../../packages/harness/src/publish/files';
import { publishRun, republish } from '../../packages/harness/src/publish/index';
import * as keptRuns from '../../packages/harness/src/publish/kept-runs';
import * as readme from '../../packages/harness/src/publish/readme';
import { USED_SCHEME } from '../../packages/harness/src/run/inputs';
import { defaultRun } from '../helpers/runs';

// publish/index.ts reads and writes results/runs/, README.md and screenshots/: while a test sets `into`, the kept runs
// are those of that folder, and the reports and README blocks written are only noted. Otherwise the real ones.
const redirect: { into: string | null; reports: [string, Analysis][]; readme: number } = {
  into: null,
  reports: [],
  readme: 0,
};
// Taken before the mocks: a mocked module's namespace object then holds the mocks.
const real = { keepAndPool: keptRuns.keepAndPool, keptFor: keptRuns.keptFor };
const [realReport, realReadme] = [files.writeReport, readme.publishReport];
mock.module('../../packages/harness/src/publish/kept-runs', () => ({
  ...keptRuns,
  keepAndPool: (an: Analysis, dir: string, latest: string, rule: (r: Results) => string | null) =>
    real.keepAndPool(an, redirect.into ?? dir, latest, rule),
  keptFor: (r: Results, dir: string) => real.keptFor(r, redirect.into ?? dir),
}));
mock.module('../../packages/harness/src/publish/files', () => ({
  ...files,
  writeReport: async (dir: string, an: Analysis, kind?: Parameters<typeof files.writeReport>[2]) =>
    redirect.into ? void redirect.reports.push([dir, an]) : realReport(dir, an, kind),
}));
mock.module('../../packages/harness/src/publish/readme', () => ({
  ...readme,
  publishReport: async (dir: string, an: Analysis) => (redirect.into ? void redirect.readme++ : realReadme(dir, an)),
}));
const { keepAndPool, pooledView, readKept, recordOf } = keptRuns;

const dirs: string[] = [];
const temp = (name: string) => {
  const d = mkdtempSync(join(tmpdir(), `${name}-`));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const inputsOf = (r: Results, tag = 'same') =>
  Object.fromEntries(r.contenders.map((c) => [c.name, `${tag}-${c.name}`]));
/** The fixture as a complete default run of the same code, started on `day` (of December) on a machine of `cpu`. */
function runOn(day: string, cpu = 'AMD EPYC', tag = 'same'): Results {
  const r = defaultRun();
  r.started_at = `2026-12-${day}T01:00:00.000Z`;
  r.family = familyOf(r.contenders);
  r.environment = { ...r.environment, cpu_model: cpu, inputs: inputsOf(r, tag) };
  return r;
}
const viewOf = (r: Results, kept: KeptAnswers[]) => {
  const an = analyze(r);
  return { an, ...pooledView(an, kept, recordOf(r, an)) };
};

describe('the published view: pooled with the kept runs of the same code', () => {
  test('a run kept, then another: pooled, and pool.json beside the published run is that pool', () => {
    const [kept, latest] = [join(temp('view'), 'runs'), temp('latest')];
    keepAndPool(analyze(runOn('01')), kept, latest, whyNotKept);
    expect(existsSync(join(latest, 'pool.json'))).toBe(false);
    const b = runOn('02');
    const expected = viewOf(b, readKept(kept)).pool;
    expect(expected?.runs).toHaveLength(2);
    const published = keepAndPool(analyze(b), kept, latest, whyNotKept);
    expect(published.pool?.runs).toHaveLength(2);
    expect(JSON.parse(readFileSync(join(latest, 'pool.json'), 'utf8'))).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(readdirSync(kept)).toHaveLength(2);
  });

  test('a file in results/runs that is no kept record is left out, named; the run is kept and pooled', () => {
    const [kept, latest] = [join(temp('view'), 'runs'), temp('latest')];
    keepAndPool(analyze(runOn('01')), kept, latest, whyNotKept);
    writeFileSync(join(kept, 'truncated.json'), '{"started_at": "2026-12-0');
    writeFileSync(join(kept, 'other.json'), '{}');
    const said: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((x: string) => said.push(x) > 0) as typeof write;
    try {
      expect(keepAndPool(analyze(runOn('02')), kept, latest, whyNotKept).pool?.runs).toHaveLength(2);
    } finally {
      process.stderr.write = write;
    }
    expect(readdirSync(kept)).toHaveLength(4);
    const lines = said.join('').trim().split('\n');
    expect(lines.some((l) => l.startsWith(`${join(kept, 'truncated.json')} left out: not valid JSON (`))).toBe(true);
    expect(lines).toContain(
      `${join(kept, 'other.json')} left out: not a kept record; move it out of ${kept}, or keep its run again ` +
        '(npm run report -- --keep <its results folder>)',
    );
  });

  test('a --publish run of another question, a run of the same code kept: its own answers, no pool.json', () => {
    const [kept, latest] = [join(temp('view'), 'runs'), temp('latest')];
    keepAndPool(analyze(runOn('01')), kept, latest, whyNotKept);
    const other = runOn('02');
    other.settings = { ...other.settings, connections: [64], publish: true };
    expect(whyNotKept(other)).toBe('it asks another question (connections changed)');
    const an = analyze(other);
    const published = keepAndPool(an, kept, latest, whyNotKept);
    expect(published.answers).toBe(an.answers);
    expect(published.pool).toBeFalsy();
    expect(existsSync(join(latest, 'pool.json'))).toBe(false);
    expect(readdirSync(kept)).toHaveLength(1);
  });

  test('a run published again, its record kept: it counts once', () => {
    const [a, b] = [runOn('01'), runOn('02')];
    const { pool } = viewOf(b, [recordOf(a), recordOf(b)]);
    expect(pool?.runs.map((r) => r.started_at)).toEqual([a.started_at, b.started_at]);
  });

  test('a kept estimate names each of its rounds: a round one side lost to a fault is not among them', () => {
    const r = runOn('01');
    const x = recordOf(r).answers.find((a) => a.estimate && a.estimate.rounds.length >= 3)!;
    const ids = x.estimate!.round_ids!;
    expect(ids).toHaveLength(x.estimate!.rounds.length);
    expect(ids).toEqual([...ids].sort((m, n) => m - n));
    // The second round of its first side lost to a fault: that round's number is gone, the others keep theirs.
    const lost = r.contenders.find((c) => c.name === x.a)!.points[0]!.runs.find((run) => run.round === ids[1])!;
    lost.fault = 'redis restarted';
    const y = recordOf(r).answers.find((a) => a.a === x.a && a.b === x.b)!;
    expect(y.estimate!.round_ids).toEqual(ids.filter((id) => id !== ids[1]));
    expect(y.estimate!.rounds).toEqual(x.estimate!.rounds.filter((_, i) => i !== 1));
  });

  test('two boots on one machine and a run on another: pooled, each machine left out in turn', () => {
    const { pool } = viewOf(runOn('03', 'Intel Xeon'), [recordOf(runOn('01')), recordOf(runOn('02'))]);
    expect(pool?.priors.map((p) => p.boots).sort()).toEqual([1, 2]);
    expect(pool?.leave_one_out?.map((l) => l.machine).sort()).toEqual([
      'AMD EPYC, 2 logical CPUs',
      'Intel Xeon, 2 logical CPUs',
    ]);
    // One boot on each: no machine decides, so the run's own answers.
    expect(viewOf(runOn('03', 'Intel Xeon'), [recordOf(runOn('01'))]).pool).toBeNull();
  });

  test("the pool's α leaves the picks their share; it says whose inputs it pooled on: the run's", () => {
    const b = runOn('02');
    const { pool, analysis } = viewOf(b, [recordOf(runOn('01'))]);
    const shares = familyShares(b.family!.comparisons.length, picksFamily(b.contenders).length);
    expect(shares.picks).toBeGreaterThan(0);
    expect(pool?.alpha).toBeLessThan(0.05);
    expect(pool?.alpha).toBeCloseTo(shares.answers, 12);
    expect(pool?.picks).toBeDefined();
    expect(analysis.pool?.inputs_of).toEqual({ source: 'run', commit: b.environment.git_commit, dirty: false });
    expect(pool?.inputs_of).toEqual({ source: 'run', commit: b.environment.git_commit, dirty: false });
  });

  test('a run kept, its inputs_used recovered since: pooled on them, as its record holds them now', () => {
    // The other run's whole packages differ (a README changed); what each contender runs is the same.
    const used = { inputs_used: inputsOf(runOn('01'), 'used'), inputs_used_scheme: USED_SCHEME };
    const other = { ...recordOf(runOn('01', 'AMD EPYC', 'older')), ...used };
    const b = runOn('02');
    const self = { ...recordOf(b), ...used, inputs_used_from: 'git' as const };
    const { pool } = viewOf(b, [other, self]);
    expect(pool?.runs.map((r) => r.pooled > 0)).toEqual([true, true]);
    // Without the recovered hashes, the other run is of other code.
    expect(viewOf(b, [other]).pool).toBeNull();
  });

  test('a record with one answer unestimated (one round of it) is pooled for the others', () => {
    const a = recordOf(runOn('01'));
    const [first, ...rest] = a.answers;
    const { estimate: _, ...bare } = first!;
    const partial: KeptAnswers = { ...a, answers: [{ ...bare, hi: null as unknown as number }, ...rest] };
    const b = runOn('02');
    const whole = viewOf(b, [a]).pool!.runs[0]!;
    const { pool } = viewOf(b, [partial]);
    expect(pool?.runs[0]?.left_out).toBeUndefined();
    expect(pool?.runs[0]?.pooled).toBe(whole.pooled - 1);
  });
});

describe('publishing and reporting a published run', () => {
  test('publishRun reports the published place from the pool; republish with no pool removes pool.json', async () => {
    const kept = join(temp('view'), 'runs');
    redirect.into = kept;
    try {
      keepAndPool(analyze(runOn('01')), kept, temp('latest'), whyNotKept);
      const [runDir, latest] = [temp('run'), join(temp('results'), 'latest')];
      const b = runOn('02');
      writeFileSync(join(runDir, 'results.json'), JSON.stringify(b));
      redirect.reports = [];
      await publishRun(runDir, analyze(b), latest, true, whyNotKept);
      expect(redirect.reports.map(([dir, an]) => [dir, an.pool?.runs.length])).toEqual([[latest, 2]]);
      expect(existsSync(join(latest, 'pool.json'))).toBe(true);
      expect(redirect.readme).toBeGreaterThan(0);
      // Republished with the kept runs gone: no pool now, so the pool.json left beside it goes.
      rmSync(kept, { recursive: true });
      mkdirSync(kept);
      redirect.reports = [];
      await republish(latest, b, whyNotKept);
      expect(existsSync(join(latest, 'pool.json'))).toBe(false);
      expect(redirect.reports.map(([dir, an]) => [dir, an.pool ?? null])).toEqual([[latest, null]]);
    } finally {
      redirect.into = null;
    }
  });
});
