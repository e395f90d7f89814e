// Answers on contenders of known speed (tests/fixtures/apps/paced: a fixed sleep per request,
// node-redis and ioredis alike, iovalkey 30% slower): the gap is decided, the equal pair comes out
// equal within a bound, racing gives rounds only to open comparisons, and the handicap costs the
// CPU per request it was calibrated to.
import { describe, expect, test } from 'bun:test';
import { explained, resultsIn, runCli } from '../helpers/cli';

const [NR, IO, IOV] = ['bun-raw-paced-node-redis', 'bun-raw-paced-ioredis', 'bun-raw-paced-iovalkey'];
const PACED = ['--connections', '4', '--duration', '300ms', '--warmup', '200ms'];
const answer = (json: any, a: string, b: string) => json.answers.find((x: any) => x.a === a && x.b === b) ?? json.answers.find((x: any) => x.a === b && x.b === a);
const rounds = (json: any, name: string) => json.contenders.find((c: any) => c.name === name).runs.map((r: any) => r.round);

describe('answers from paired windows', () => {
  test('a 30% gap is decided with its ratio over ten rounds; equal contenders come out within a bound', async () => {
    // Ten rounds of two windows: the paced apps differ little within a launch and more between launches, so
    // the design effect can near 2, and a 30% gap needs about 16 pairs to be decided at Holm's 5%/3.
    const run = await runCli(['--only', [NR, IO, IOV].join(','), '--runs', '10', '--windows', '2', '--target-ci', '25', ...PACED]);
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { json, dir } = resultsIn(run.outDir);
      expect(json.family.comparisons).toHaveLength(3); // one question: the client on bun's raw server
      const gap = answer(json, NR, IOV);
      expect(gap.verdict).toBe('faster');
      const fast = gap.a === NR ? gap.ratio : 1 / gap.ratio;
      // 26 ms against 20 ms of sleep, plus a few ms of work each: 1.14–1.25 measured here.
      expect(fast).toBeGreaterThan(1.08);
      expect(fast).toBeLessThan(1.45);
      // The same sleep, but the clients' own CPU differs (ioredis costs a few % more here): a tight
      // interval may exclude 1 ("faster", which wins over "equal"); either way it lies within the bound.
      const same = answer(json, NR, IO);
      expect(['equal', 'faster']).toContain(same.verdict);
      expect(Math.max(same.hi - 1, 1 / same.lo - 1)).toBeLessThanOrEqual(0.25);
      const md = await Bun.file(`${dir}/results.md`).text();
      expect(md).toMatch(/On bun \(raw server\), node-redis is faster than iovalkey by \d+% \(\d+%–\d+%\)\./);
      if (same.verdict === 'equal') expect(md).toMatch(/node-redis and ioredis are equal within ±\d+%/);
    });
  }, 180_000);

  test('after the first rounds, racing measures only contenders of open comparisons', async () => {
    // A bound of ±0.1% can never close the equal pair: it races to --max-runs, the slow one stops early.
    const run = await runCli(['--only', [NR, IO, IOV].join(','), '--runs', 'auto', '--max-runs', '5', '--target-ci', '0.1', '--windows', '6', ...PACED]);
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      const interim = json.looks.filter((l: any) => !l.last);
      expect(interim.map((l: any) => l.round)).toEqual([3, 4, 5].slice(0, interim.length));
      expect(json.looks.at(-1)).toMatchObject({ last: true, round: 5 });
      for (const c of [NR, IO, IOV]) {
        for (const round of rounds(json, c).filter((r: number) => r > 3)) {
          const before = interim.find((l: any) => l.round === round - 1);
          expect(before.open).toContain(c);
        }
      }
      // The equal pair can never close: it races to --max-runs. (Whether the slow one stops early depends on when
      // its comparisons are decided; the loop above checks that it only raced while one of them was open.)
      expect(rounds(json, NR)).toHaveLength(5);
      expect(answer(json, NR, IO).verdict).toBe('undecided');
    });
  }, 240_000);

  test('the handicap burns the calibrated share of its twin\'s CPU per request', async () => {
    const run = await runCli(['--only', `${NR},${NR}-handicap`, '--runs', '5', '--windows', '4', '--connections', '50', '--duration', '500ms', '--warmup', '300ms']);
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      const [h] = json.handicap;
      expect(h).toMatchObject({ contender: `${NR}-handicap`, calibrated_on: NR, compared_with: NR, pct: 10 });
      expect(h.us).toBeCloseTo(h.cpu_us_per_req / 10, 0);
      const cpu = (name: string) => json.contenders.find((c: any) => c.name === name).cpu_us_per_req;
      const added = cpu(`${NR}-handicap`) - cpu(NR);
      // CPU per request varies by about ±10% between launches, as much as the burn itself: five
      // launches a side, and a bound that asks for a clear part of it (0.4 failed once at 0.398).
      expect(added).toBeGreaterThan(h.us * 0.3);
      expect(added).toBeLessThan(h.us * 2);
      // Whether a 10% burn shows in req/s is a benchmark question (README methodology), not a test's: recorded, not asserted.
      expect(Number.isFinite(h.measured.ratio)).toBe(true);
    });
  }, 180_000);
});
