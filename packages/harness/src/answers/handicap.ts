// The handicap check: a known effect in every run. Its size (burnUs: run/calibrate.ts measures the
// twin and sets it up), and after the rounds its judgement: whether the run's own comparison of the
// handicapped contender and its twin saw the difference, and how big it measured it.
import { mean, sampleVariance } from '../stats/stats';
import {
  ANSWERS_PROCEDURE,
  DECISION,
  familyPrior,
  roundMeans,
  roundRatios,
  type WindowPairs,
  windowPairs,
} from './decide';
import { checkDesign, designPairs, duetPairs } from './pair-design';
import { type RatioTest, testRatio } from '../stats/procedures';
import { roundsForPower, tPower } from '../stats/moderated';
import type { CovariateRatio } from '../stats/covariate';
import type { ContenderResult, Results, WindowRecord } from '../model/results';
import type { PowerFigures } from '../model/changes';
import { isBase } from '../model/questions';

/**
 * What one launch of the calibrating twin showed, per request: wall time, its busiest thread's CPU and the time that
 * thread waited for a CPU while runnable (absent in older results), and the whole tree's CPU (µs).
 */
export interface TwinCost {
  wallUs: number;
  mainUs: number;
  waitUs?: number;
  cpuUs: number;
}

/**
 * The share of the time an event loop can be kept busy: the twin's main thread, with the pair
 * measured side by side, was busy 0.97–0.98 of the time (docs/runs/answers-by-design.md), never 1.
 */
export const MAX_BUSY = 0.975;

/**
 * The burn that makes a request take `pct`% longer on the twin's event loop. Per request the loop
 * of the plain twin runs B and waits R for a CPU while runnable (other threads had the CPUs), of
 * its wall time W; the rest it is idle. With the burn it is runnable at most MAX_BUSY of the time,
 * and a burn of b µs of CPU costs it b / s of runnable time, s = B / (B + R) being its share of
 * the CPU while runnable. Its wall time per request becomes (B + R + b / s) / MAX_BUSY; set to
 * (1 + pct)·W: b = s·((1 + pct)·MAX_BUSY·W − B − R). With R = 0 (a quiet machine) this is
 * (1 + pct)·MAX_BUSY·W − B: measured side by side on node-raw-ioredis, it predicted −11.4%,
 * −11.3% and −3.8% for three burns where the runs read −12.1%, −13.5% and −3.0%. Without R, on a
 * machine whose CPUs are contended the wait read as idle time to fill: a neighbour burning CPU
 * in bursts put the loop at 0.88 of the wall time, the burn came out at 19% of it, and the check
 * read −17% for −9% (docs/runs/against.md). Kept within pct/2 and 2·pct of the wall time: a loop
 * mostly idle is bound by something a burn does not measure, and one that reads busier than
 * MAX_BUSY still gets a burn.
 */
export function burnUs(twin: TwinCost, pct: number): number {
  const p = pct / 100;
  const bound = burnBound(twin, pct);
  const us = bound === 'most' ? 2 * p * twin.wallUs : bound === 'least' ? (p / 2) * twin.wallUs : fillUs(twin, pct);
  return +us.toFixed(1);
}

/**
 * pct of the app's wall time per request: so an app its event loop bounds serves 1 / (1 + pct) of its req/s alone.
 * --handicap NAME:pct's burn in older results (a loop idle part of the time reads less: loopBurnUs).
 */
export const wallBurnUs = (twin: Pick<TwinCost, 'wallUs'>, pct: number) => +((pct / 100) * twin.wallUs).toFixed(1);

/**
 * --handicap NAME:pct's burn: the one that makes the app pct% slower alone, 1 / (1 + pct) of its req/s. Per request
 * its event loop is taken L (busy, or runnable and waiting for a CPU) of the wall time W. Measured each app alone on
 * node-raw-node-redis, a loop taken 74–83% of the time, a burn of b = pct·W read as a slowdown of about
 * (L / W)·b / (W + b): nine runs of 3% averaged −2.24% (sd 0.62% between runs) where b / (W + b) is −2.91%, and 8
 * of 9 lay within a point of their own run's figure (docs/runs/against.md). The idle part of the loop's time takes
 * up the rest. Solved for a slowdown of pct / (1 + pct): b = pct·W² / ((1 + pct)·L − pct·W), with L read
 * within W/2 and W: pct of the wall time for a loop taken all of it (wallBurnUs), at most about twice that.
 */
export function loopBurnUs(twin: LoopTime, pct: number): number {
  const p = pct / 100;
  return +((p * twin.wallUs) / ((1 + p) * loopShare(twin) - p)).toFixed(1);
}

type LoopTime = Pick<TwinCost, 'wallUs' | 'mainUs' | 'waitUs'>;

/** L / W of loopBurnUs: the share of the wall time the event loop was taken, read within 1/2 and 1. */
export const loopShare = (twin: LoopTime) =>
  Math.min(1, Math.max(1 / 2, (twin.mainUs + (twin.waitUs ?? 0)) / twin.wallUs));

function fillUs(twin: TwinCost, pct: number): number {
  const runnable = twin.mainUs + (twin.waitUs ?? 0);
  const share = runnable > 0 ? twin.mainUs / runnable : 1;
  return share * ((1 + pct / 100) * MAX_BUSY * twin.wallUs - runnable);
}

/** The bound of burnUs the burn took, if any: at most 2·pct of the wall time, at least pct/2. */
export function burnBound(twin: TwinCost, pct: number): 'most' | 'least' | null {
  const p = pct / 100;
  const fill = fillUs(twin, pct);
  return fill > 2 * p * twin.wallUs ? 'most' : fill < (p / 2) * twin.wallUs ? 'least' : null;
}

const roundsWithDuets = (c: ContenderResult | undefined) =>
  new Set((c?.points[0]?.runs ?? []).filter((x) => !x.fault && x.duet?.length).map((x) => x.round)).size;

/**
 * The default run's check, its windows alone: per round and launch of its pair, the n-th of each side's windows on that
 * launch paired, the cycle's first and then those after it (RunRecord.check_windows); each launch is a unit. A window
 * recorded without its launch (older results) is on the launch of its index where the pair was launched anew each
 * cycle (its duets name their launches), else on the round's one launch (under --against, its apps in a change's pair).
 */
export function checkAlonePairs(a: ContenderResult | undefined, b: ContenderResult | undefined): WindowPairs {
  const byRound = (c: ContenderResult | undefined, other: ContenderResult | undefined) =>
    new Map(
      (c?.points[0]?.runs ?? [])
        .filter((r) => !r.fault)
        .map((r) => {
          const relaunched = !!r.duet?.some((d) => d.partner === other?.name && d.launch);
          const launchOf = (w: WindowRecord) => w.launch ?? (relaunched ? w.index : 0);
          const ws = [...(r.windows ?? []), ...(r.check_windows ?? [])];
          return [r.round, byLaunch(ws, launchOf)] as const;
        }),
    );
  const wb = byRound(b, a);
  const out: WindowPairs = { a: [], b: [], rounds: 0, byRound: [], within: NaN };
  const within: number[] = [];
  const covariate: number[][] = [];
  const unitRound: number[] = [];
  for (const [round, mine] of byRound(a, b)) {
    const theirs = wb.get(round);
    if (!theirs) continue;
    let paired = false;
    for (const [launch, xs] of mine) {
      const d: number[] = [];
      const c: number[] = [];
      for (const [j, x] of xs.entries()) {
        const y = theirs.get(launch)?.[j];
        if (!(x.rps > 0 && y && y.rps > 0)) continue;
        out.a.push(x.rps);
        out.b.push(y.rps);
        d.push(Math.log(x.rps) - Math.log(y.rps));
        c.push(deniedOf(x) - deniedOf(y));
      }
      if (!d.length) continue;
      paired = true;
      out.byRound.push(d);
      unitRound.push(round);
      covariate.push(c);
      if (d.length > 1) within.push(sampleVariance(d));
    }
    if (paired) out.rounds++;
  }
  out.within = within.length ? within.reduce((s, x) => s + x, 0) / within.length : NaN;
  if (covariate.length && covariate.flat().every(Number.isFinite)) out.covariate = covariate;
  out.unitRound = unitRound;
  return out;
}

/**
 * The covariate of a window of the check: ln of the share of its time its event loop was not kept waiting for a CPU
 * while runnable (schedstat's run_delay, RunRecord.main_thread_wait_s); NaN where not recorded. Beside a neighbour
 * burning two threads in bursts, the check's window pairs read ln ratios from −58% to +46% (sd 27.5%) while their
 * CPU per request varied by sd 3.2%, and a window's req/s followed the CPU its app got (correlation 0.98 of their
 * logs): the CPU the machine denied the app, not the app, moved its windows. Taken at an equal share of that, the
 * pairs' sd fell from 19.7% to 3.8% in the next run (docs/runs/against.md).
 */
export function deniedOf(w: Pick<WindowRecord, 'ok' | 'rps' | 'main_thread_wait_s'>): number {
  if (w.main_thread_wait_s === undefined || !(w.rps > 0)) return NaN;
  return Math.log(Math.max(0.01, 1 - w.main_thread_wait_s / (w.ok / w.rps)));
}

/** Windows by their launch, in order. */
function byLaunch<W>(ws: W[], launchOf: (w: W) => number): Map<number, W[]> {
  const out = new Map<number, W[]>();
  for (const w of ws) out.set(launchOf(w), [...(out.get(launchOf(w)) ?? []), w]);
  return out;
}

/**
 * After the rounds: the handicapped contender against its twin at 95%. A --handicap pair (its twin <name>@base) is one
 * of the changes, tested as they are: on its pair design's rounds with the signed-rank test. The default run's check is
 * measured both ways (checkDesign) and judged as an answer is (answersTest): on its windows in the cycle, paired as
 * the answers' are, each round a unit, by the answers' moderated t with the family's prior: the run's proof that the
 * answers see and size a known 10%. Beside it, never its verdict: the same test on all its windows alone (with the
 * extra pairs alone, CHECK_ALONE a cycle: checkAlonePairs), signed-rank over its launches, and least squares on the
 * event loops' CPU wait (covariate-t, where every window recorded it): the burn moves that wait itself (the plain twin
 * waited more in every recorded run), so the adjusted figure leans toward the injected one (docs/runs/against.md).
 * Where its duets can be judged, they are tested by signed-rank and said beside it, with their CPU per request.
 * Returned as new records; the run's are left as they were.
 */
export function handicapJudged(results: Results): Results['handicap'] {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  return results.handicap?.map((given) => {
    const h = { ...given };
    if (!h.compared_with) return h;
    const [a, b] = [byName.get(h.contender), byName.get(h.compared_with)];
    if (isBase(h.compared_with)) {
      const d = designPairs(results, h.contender, h.compared_with);
      if (!d.a.length) return h;
      const r = signedRank(d);
      h.measured = { ...figuresOf(r), pairs: d.a.length, rounds: r.n };
      h.detected = r.hi < 1;
      return h;
    }
    const design = checkDesign(results, h.contender, h.compared_with);
    // Recorded where it was measured both ways (not where its apps are in a change's pair, under --against).
    if (design.duet) h.design = design;
    if (design.chosen === 'duet') {
      const d = duetPairs(a, b, true);
      const r = signedRank(d);
      h.other = { ...figuresOf(r), ...units(d, r, roundsWithDuets(a)), on: 'duet' };
      const cpu = signedRank(duetPairs(a, b, true, 'cpu_us_per_req'));
      if (Number.isFinite(cpu.ratio)) h.cpu = { ratio: cpu.ratio, lo: cpu.lo, hi: cpu.hi, p: cpu.p, seen: cpu.lo > 1 };
    }
    const measured = asAnswerMeasured(results, h, a, b);
    return measured ? { ...h, measured, detected: measured.hi < 1 } : h;
  });
}

type Check = NonNullable<Results['handicap']>[number];

/** The check as an answer: its windows in the cycle paired as the answers' are, each round a unit; with diagnostics. */
function asAnswerMeasured(
  results: Results,
  h: Check,
  a: ContenderResult | undefined,
  b: ContenderResult | undefined,
): Check['measured'] | null {
  const asAnswer = windowPairs(a, b);
  const alone = checkAlonePairs(a, b);
  if (!asAnswer.a.length || !alone.a.length) return null;
  const r = answersTest(results, asAnswer);
  const all = answersTest(results, byRoundOf(alone));
  const plain = signedRank(alone);
  const adjusted = adjustedTest(alone);
  const said = (x: RatioTest) => ({ ratio: x.ratio, lo: x.lo, hi: x.hi, p: x.p, detected: x.hi < 1 });
  const se = r.sd / Math.sqrt(r.n);
  return {
    ...figuresOf(r),
    se,
    power: powerOf(Math.log(h.injected_ratio), se, r),
    pairs: asAnswer.a.length,
    rounds: r.n,
    on: 'alternate',
    procedure: ANSWERS_PROCEDURE,
    diagnostics: [
      { procedure: ANSWERS_PROCEDURE, ...said(all), pairs: alone.a.length },
      { procedure: 'signed-rank', ...said(plain), pairs: alone.a.length },
      ...(adjusted
        ? [
            {
              procedure: 'covariate-t' as const,
              ...said(adjusted),
              pairs: alone.a.length,
              slope: adjusted.slope,
              corr: adjusted.corr,
            },
          ]
        : []),
    ],
  };
}

/**
 * The check as an answer is tested (decide.ts look): per round the mean ln ratio of its window pairs `d`, the moderated
 * t at DECISION.handicapLevel with the prior the family's comparisons give, fitted with the check among them (a pair
 * side by side) and at its own noise. The check vouches for the answers only when it is judged as they are
 * (tests/unit/handicap.test.ts).
 */
export function answersTest(results: Results, d: WindowPairs): RatioTest {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  const comparisons = results.family?.comparisons ?? [];
  const family = comparisons.map((c) => windowPairs(byName.get(c.a), byName.get(c.b)));
  const { reps, prior, covariates } = familyPrior([...family, d], [...comparisons.map((c) => !!c.side_by_side), true]);
  const i = family.length;
  const data = { rounds: roundMeans(d), reps: reps[i]!, prior, s02: prior.scale(covariates[i]) };
  return testRatio(ANSWERS_PROCEDURE, data, DECISION.handicapLevel);
}

/** The chance of detecting the check that powerOf prices in rounds. */
const POWER_TARGET = 0.8;

/**
 * What this run could see: the chance that its test, at the se it measured, detects the injected size (tPower), and
 * about how many rounds would make that chance 80%. On a noisy machine a miss is what this predicts, not a fault.
 */
function powerOf(delta: number, se: number, r: RatioTest): PowerFigures | undefined {
  const chance = tPower(delta, se, r.df, r.level);
  if (!Number.isFinite(chance)) return undefined;
  const rounds = roundsForPower(delta, se, r.n, r.df, r.level, POWER_TARGET);
  return { chance: +chance.toFixed(3), target: POWER_TARGET, rounds_for_target: rounds };
}

/** The check's pairs with their units merged by round: the answers' unit, a round's mean ln ratio. */
function byRoundOf(d: WindowPairs): WindowPairs {
  const rounds = new Map<number, number[]>();
  for (const [u, xs] of d.byRound.entries()) {
    const round = d.unitRound?.[u] ?? u;
    rounds.set(round, [...(rounds.get(round) ?? []), ...xs]);
  }
  return { ...d, byRound: [...rounds.values()], rounds: rounds.size };
}

/** Tested per launch (a round may hold several): its window pairs, its rounds, and its launches if more. */
const units = (d: WindowPairs, r: RatioTest, rounds: number) => ({
  pairs: d.a.length,
  rounds,
  ...(r.n > rounds ? { launches: r.n } : {}),
});

/**
 * The check's windows alone, each unit's ln ratio taken where the two event loops were denied a CPU for an equal share
 * of their time (deniedOf; stats/covariate.ts); null where a window lacks it or the units cannot give an interval.
 */
function adjustedTest(d: WindowPairs): CovariateRatio | null {
  if (!d.covariate) return null;
  const data = {
    rounds: roundMeans(d),
    reps: roundRatios(d),
    covariate: d.covariate.filter((c) => c.length).map(mean),
  };
  const r = testRatio('covariate-t', data, DECISION.handicapLevel) as CovariateRatio;
  return r.short ? null : r;
}

/** A change's test, at the check's level: signed-rank over the pairs' units (rounds, or launches where set). */
const signedRank = (d: WindowPairs) =>
  testRatio('signed-rank', { rounds: roundMeans(d), reps: roundRatios(d) }, DECISION.handicapLevel);

const figuresOf = (r: RatioTest) => ({ ratio: r.ratio, lo: r.lo, hi: r.hi, level: r.level, p: r.p, df: r.df });
