// The fleet's steps (scripts/fleet.sh, which .github/workflows/fleet.yml runs on each runner), run here as a
// contributor would: the bench step writes a run and names the machine; the pool step pools the runs of two machines
// into answers per machine. A short run stands in for the default one (it is not kept, so the pool step is given
// kept records of two machines); one of its contenders fails, as one may in a fleet's run.
import { afterAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { FAKE_APPS } from '../helpers/cli';

const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const fleet = (args: string[], env: Record<string, string> = {}, cwd = ROOT) =>
  spawnSync('bash', [join(ROOT, 'scripts/fleet.sh'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 300_000,
  });

/** A kept record of one run on `cpu`: x faster than y by 30% (se 2%). */
const kept = (started_at: string, cpu: string) => ({
  schema: 2,
  started_at,
  workload: 'xrange',
  commit: 'c0ffee0',
  machine: `${cpu}, 2 logical CPUs, Linux`,
  sd_windows: 0.1,
  host: { cpu_model: cpu, logical_cpus: 2, kernel: 'Linux', placement: 'none', shared_cpus: true },
  inputs: { x: 'h1', y: 'h2' },
  answers: [
    {
      id: 'x vs y',
      question: 'q',
      a: 'x',
      b: 'y',
      ratio: 1.3,
      lo: 1.2,
      hi: 1.4,
      verdict: 'faster',
      estimate: { ln: Math.log(1.3), se: 0.02, df: 16, procedure: 'moderated-t', rounds: [Math.log(1.3)] },
    },
  ],
});

describe('scripts/fleet.sh, the workflow steps run locally', () => {
  test('no step or no folder: the usage, exit 2', () => {
    const r = fleet(['deploy']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('usage: scripts/fleet.sh bench OUT');
  });

  test('bench: a run under OUT/runs and the machine named in OUT/machine.txt, when a contender failed too', () => {
    const out = join(dir, 'bench');
    // One contender crashes as it starts: the run is complete and written, bench exits 1, and the step still names
    // the machine before it exits with bench's code (the workflow then uploads the run all the same).
    const only = 'bun-fake-good-node-redis,bun-fake-crash-node-redis';
    const flags = ['--only', only, '--runs', '1', '--duration', '300ms', '--warmup', '0s', '--start-timeout', '10s'];
    // As the tests' own runs (helpers/cli.ts runCli): steal is recorded, never a reason to leave the one round out.
    flags.push('--max-steal', '100');
    const r = fleet(['bench', out, ...flags, '--report', 'text'], { BENCH_APPS_DIR: FAKE_APPS });
    expect(r.status, r.stderr.slice(-2000)).toBe(1);
    const runs = readdirSync(join(out, 'runs'));
    expect(runs).toHaveLength(1);
    const results = JSON.parse(readFileSync(join(out, 'runs', runs[0]!, 'results.json'), 'utf8'));
    expect(results.complete).toBe(true);
    const status = Object.fromEntries(
      results.contenders.map((c: { name: string; status: string }) => [c.name, c.status]),
    );
    expect(status).toEqual({ 'bun-fake-good-node-redis': 'ok', 'bun-fake-crash-node-redis': 'failed' });
    expect(results.environment.arch).toBe(process.arch);
    expect(readFileSync(join(out, 'machine.txt'), 'utf8')).toMatch(/, \d+ logical CPUs, (x64|arm64)\n$/);
  });

  test("git ignores the fleet's folders, so a run or pool in them leaves the checkout clean", () => {
    // A run records its checkout as changed when git status lists any file (measure/environment.ts gitState): a file
    // git ignores is never listed. The folders are read from the workflow, which the docs' local commands follow.
    const workflow = readFileSync(join(ROOT, '.github/workflows/fleet.yml'), 'utf8');
    const folders = new Set([...workflow.matchAll(/^\s*path: ([\w-]+)/gm)].map((m) => m[1]!));
    folders.add(/scripts\/fleet\.sh bench "(\w+)\//.exec(workflow)![1]!);
    expect([...folders].sort()).toEqual(['fleet', 'fleet-pool', 'fleet-runs']);
    for (const folder of folders)
      for (const file of ['run-x/runs/a-run/results.json', 'pool.json', 'machine.txt']) {
        const r = spawnSync('git', ['check-ignore', '-q', `${folder}/${file}`], { cwd: ROOT });
        expect(r.status, `${folder}/${file} is not ignored`).toBe(0);
      }
  });

  test("each choice of the workflow's boots is that many jobs per runner kind, up to the 12 that answer 2/3", () => {
    // The matrix's boot list is looked up by the choice in a JSON object (a folded scalar); a choice missing from it,
    // or a list of another length, would start no job or the wrong number (actionlint reads neither).
    const workflow = Bun.YAML.parse(readFileSync(join(ROOT, '.github/workflows/fleet.yml'), 'utf8')) as any;
    const choices: string[] = workflow.on.workflow_dispatch.inputs.boots.options;
    const lists = JSON.parse(
      /fromJSON\('([^']*)'\)\[inputs\.boots\]/.exec(workflow.jobs.bench.strategy.matrix.boot)![1]!,
    );
    expect(Object.keys(lists).sort()).toEqual([...choices].sort());
    for (const c of choices) expect(lists[c]).toEqual(Array.from({ length: Number(c) }, (_, i) => i + 1));
    // scripts/pool-boots.ts, part 3 (docs/runs/pool.md, 2026-12-08): 2/3 of the comparisons in every draw at 12 boots.
    expect(Math.max(...choices.map(Number))).toBeGreaterThanOrEqual(12);
  });

  test("pool: two machines' runs pooled into answers per machine, with where each holds", () => {
    const input = join(dir, 'runs-in');
    for (const [i, cpu] of ['Intel Xeon', 'Intel Xeon', 'AMD EPYC', 'AMD EPYC'].entries()) {
      mkdirSync(join(input, `run-${i}`), { recursive: true });
      writeFileSync(join(input, `run-${i}`, 'kept.json'), JSON.stringify(kept(`2026-11-2${i}T01:00:00.000Z`, cpu)));
    }
    // Relative folders, read from where the script is run (it runs npm from the checkout's root).
    const r = fleet(['pool', 'pool', 'runs-in', '--any-inputs'], {}, dir);
    const out = join(dir, 'pool');
    expect(r.status, r.stderr.slice(-2000)).toBe(0);
    expect(existsSync(join(out, 'pool.json'))).toBe(true);
    const pool = JSON.parse(readFileSync(join(out, 'pool.json'), 'utf8'));
    expect(pool).toMatchObject({ machines: 2, configurations: 2, any_inputs: true, keeps: 4 });
    expect(pool.answers[0].pool.on_machines.map((m: { name: string }) => m.name).sort()).toEqual([
      'AMD EPYC',
      'Intel Xeon',
    ]);
    expect(pool.answers[0].pool.where).toMatch(/^holds on every machine measured/);
    // No input, or a flag where OUT goes: the usage, exit 2, and no folder made.
    const none = join(dir, 'pool-of-nothing');
    expect(fleet(['pool', none]).status).toBe(2);
    expect(existsSync(none)).toBe(false);
    const flagFirst = fleet(['bench', '--budget', '3m']);
    expect([flagFirst.status, flagFirst.stderr]).toEqual([2, expect.stringContaining('usage: scripts/fleet.sh')]);
    // An --out of the user's would be overridden by OUT: refused, naming it.
    const twice = fleet(['pool', none, dir, '--out', join(dir, 'elsewhere')]);
    expect([twice.status, twice.stderr.trim()]).toEqual([
      2,
      'fleet pool: OUT, the argument after the step, is where it writes; leave out --out',
    ]);
  });
});
