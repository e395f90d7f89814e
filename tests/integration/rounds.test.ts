// Racing and the handicap check on contenders of known speed (tests/fixtures/apps/paced: a fixed sleep per request),
// by what each round measures: racing gives rounds only to open comparisons and measures the handicap pair in every
// round; the handicap is calibrated on its twin and judged like an answer. These check the rounds' layout, whatever
// the machine's noise decides, so they share the machine; the decisions themselves are tests/alone/answers.test.ts.
import { describe, expect, test } from 'bun:test';
import { explained, resultsIn, runCli } from '../helpers/cli';
import { burnUs } from '../../packages/harness/src/answers/handicap';
import { CHECK_ALONE, CHECK_DUETS } from '../../packages/harness/src/run/block';

const [NR, IO, IOV] = ['bun-raw-paced-node-redis', 'bun-raw-paced-ioredis', 'bun-raw-paced-iovalkey'];
// No warmup: what a round measures, not how fast, is checked here.
const PACED = ['--connections', '4', '--duration', '300ms', '--warmup', '0s'];
const answer = (json: any, a: string, b: string) =>
  json.answers.find((x: any) => x.a === a && x.b === b) ?? json.answers.find((x: any) => x.a === b && x.b === a);
const rounds = (json: any, name: string) =>
  json.contenders.find((c: any) => c.name === name).runs.map((r: any) => r.round);

describe('rounds of known contenders', () => {
  const title =
    'past the first rounds, racing measures the open comparisons and the handicap check, judged as answers are';
  test(title, async () => {
    // A bound of ±0.1% can never close the equal pair: it races to --max-runs, the slow one stops early.
    const run = await runCli([
      '--only',
      [NR, IO, IOV, `${IOV}-handicap`].join(','),
      '--runs',
      'auto',
      '--max-runs',
      '4',
      '--target-ci',
      '0.1',
      '--windows',
      '2',
      ...PACED,
    ]);
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      const interim = json.looks.filter((l: any) => !l.last);
      expect(interim.map((l: any) => l.round)).toEqual([3, 4].slice(0, interim.length));
      // It races to --max-runs (4) while a comparison is open; on a quiet machine every one may be decided sooner,
      // and the run ends at that look with none open.
      const end = json.looks.at(-1);
      expect(end.last).toBe(true);
      if (end.round !== 4) expect(end.open).toEqual([]);
      for (const c of [NR, IO]) {
        for (const round of rounds(json, c).filter((r: number) => r > 3)) {
          const before = interim.find((l: any) => l.round === round - 1);
          expect(before.open).toContain(c);
        }
      }
      // The equal pair can never close: it races to --max-runs. (Whether the slow one stops early depends on when
      // its comparisons are decided; the loop above checks that it only raced while one of them was open.)
      // ioredis costs a little more CPU per request than node-redis: on a slow machine that gap may be decided
      // ("faster"); "equal within ±0.1%" never can be, and while it stays open node-redis races to --max-runs.
      const same = answer(json, NR, IO);
      expect(same.verdict).not.toBe('equal');
      if (same.verdict === 'undecided') expect(rounds(json, NR)).toHaveLength(4);
      // The handicap check is no comparison of the family: its pair (the slow one and its twin) is measured in every
      // round while any comparison races, whatever became of the slow one's own comparisons.
      expect(json.handicap[0]).toMatchObject({ contender: `${IOV}-handicap`, compared_with: IOV });
      const last = json.looks.at(-1).round;
      for (const c of [IOV, `${IOV}-handicap`])
        expect(rounds(json, c)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      checkHandicap(json, IOV, last);
    });
  });
});

/**
 * The handicap of the run above: calibrated on its twin's wall and event-loop time, and judged as an answer is, over
 * the rounds the run measured (at least the first three), each of two windows: the check's layout and judging, not
 * its power.
 */
function checkHandicap(json: any, twinName: string, ROUNDS: number): void {
  const [h] = json.handicap;
  expect(h).toMatchObject({
    contender: `${twinName}-handicap`,
    calibrated_on: twinName,
    compared_with: twinName,
    pct: 10,
  });
  expect(h.main_thread_us_per_req).toBeGreaterThan(0);
  // The kernel here keeps each thread's wait for a CPU: the calibration reads it.
  expect(h.main_thread_wait_us_per_req).toBeGreaterThanOrEqual(0);
  const twin = {
    wallUs: h.wall_us_per_req,
    mainUs: h.main_thread_us_per_req,
    waitUs: h.main_thread_wait_us_per_req,
    cpuUs: h.cpu_us_per_req,
  };
  expect(h.us).toBe(burnUs(twin, 10));
  // What the burn costs between launches (CPU per request varies ±10% from one launch to the next) and whether
  // a 10% burn shows in req/s are the benchmark's figures (docs/runs/), not a test's: recorded, not
  // asserted. The burn's own work is tested in one process (tests/unit/handicap.test.ts).
  expect(Number.isFinite(h.measured.ratio)).toBe(true);
  expect(typeof h.detected).toBe('boolean');
  // Measured both ways in every cycle: CHECK_ALONE pairs alone, the cycle's then the others kept apart, the pair
  // launched anew before each (2 cycles of CHECK_ALONE launches a round), then the two under load at
  // once on the cycle's last launch.
  const cycles = [0, 1].map((j) => j * CHECK_ALONE);
  const later = cycles.flatMap((k) => Array.from({ length: CHECK_ALONE - 1 }, (_, i) => k + i + 1));
  for (const name of [twinName, `${twinName}-handicap`])
    for (const run of json.contenders.find((c: { name: string }) => c.name === name).points[0].runs) {
      expect(run.windows.map((w: { launch: number }) => w.launch)).toEqual(cycles);
      expect(run.check_windows.map((w: { launch: number }) => w.launch)).toEqual(later);
      const last = cycles.flatMap((k) => Array(CHECK_DUETS).fill(k + CHECK_ALONE - 1));
      expect(run.duet.map((d: { launch?: number }) => d.launch ?? 0)).toEqual(last);
    }
  // Judged as an answer is: its windows in the cycle (2 a round), each round a unit, by the answers' moderated t;
  // all its windows alone, signed-rank over its launches and (every window recorded its event loop's wait for a
  // CPU) least squares on that wait, beside it. Its duets tested beside it per launch, unless the bias check or
  // their noise (the machine's, not the test's) set them aside.
  expect(h.measured).toMatchObject({
    rounds: ROUNDS,
    pairs: 2 * ROUNDS,
    level: 0.95,
    on: 'alternate',
    procedure: 'moderated-t',
  });
  expect(h.measured.se).toBeGreaterThan(0);
  expect(json.contenders[0].points[0].runs[0].windows[0].main_thread_wait_s).toBeGreaterThanOrEqual(0);
  const beside = h.measured.diagnostics.map((d: { procedure: string }) => d.procedure);
  expect(beside.slice(0, 2)).toEqual(['moderated-t', 'signed-rank']);
  expect(h.measured.diagnostics[1].pairs).toBe(2 * ROUNDS * CHECK_ALONE);
  if (h.design.chosen === 'duet') expect(h.other).toMatchObject({ rounds: ROUNDS, launches: 2 * ROUNDS, on: 'duet' });
  else expect(h.design.why).toMatch(/^(the designs disagree \(|alternating is narrower beyond chance)/);
  expect(h.design.bias.rounds).toBe(ROUNDS);
}
