// Phase 3, schedule: randomized interleaved trials. Every round measures each contender that
// still needs runs once, in one block per runtime (block.ts: the block's fresh processes alive
// together, their windows interleaved), blocks and windows in orders shuffled from the recorded seed.
// With --runs auto every contender gets the design's first rounds; after each of those rounds
// the family of questions is looked at (decide.ts), and later rounds go only to the contenders
// of comparisons still undecided (racing), until none is open, max_runs, or the budget. What is
// due and in which order is planned in plan.ts; the ceilings (ceilings.ts) and the seed's method
// (seed.ts) come around the rounds.
import { workloadOfRun } from '../workloads';
import { changesRoundsNeeded, lookAt } from '../answers/racing';
import { keptRuns, noReadPerRequest, pointVerdict } from '../answers/verdicts';
import { pointLabel } from '../measure/measure';
import type { Results, Settings } from '../model/results';
import { summarize } from '../stats/stats';
import { clock, info, log, progress } from '../system/progress';
import { measureBlock } from './block';
import { calibrateHandicap } from './calibrate';
import { addCeilingSeconds, ceilingReserveS, clientCeilings, redisCeiling, timedCeilings } from './ceilings';
import { forecast, type TrialClock } from './eta';
import {
  blocksOf,
  dueSlots,
  filled,
  openNames,
  roundOrder,
  STEAL_RETRIES,
  type Slot,
  stolenAttempts,
  walkPairs,
} from './plan';
import { record, redisStopped } from './record';
import { seedMethod, seedProfile } from './seed';
import type { RunState } from './state';
import { measureTrial } from './trial';

/**
 * Seconds kept for what follows the suite, so --budget bounds the whole command: results.json, the
 * charts and the report's screenshot took 3.3 s after a live run here, and a writer's log of 3 min
 * at 10,000 writes/s (376 MB) gzipped in 1.4 s.
 */
const REPORT_RESERVE_S = 10;

/** One phase's rounds: what they measure, and what follows them. */
interface Phase {
  /** The slots still to measure (the incomplete contenders' points of this phase). */
  slotsNow: () => Slot[];
  /** 1: the closed-loop rounds (in blocks; the questions looked at after each); 2: the open-loop points. */
  phase: number;
  /** The last round there can be: max_runs, or --runs. */
  last: number;
  /** Seconds kept for what follows the rounds (the ceilings, the report), out of the budget. */
  reserveS: number;
}

export async function schedule(state: RunState): Promise<boolean> {
  const { results, rig, launcher, save } = state;
  const { settings } = results;
  if (settings.profile === 'seed') return seedProfile(launcher, results, save);
  const live = () => results.contenders.filter((r) => r.status === 'incomplete');
  const points = (openLoop: boolean) => () =>
    live().flatMap((r) => r.points.filter((p) => (p.rate !== null) === openLoop).map((point) => ({ r, point })));
  const ceilings = settings.ceilings !== false;
  if (ceilings) await timedCeilings(results, async () => redisCeiling(results, rig.servers, save));
  await calibrateHandicap(state);
  const reserveS = (ceilings ? ceilingReserveS(settings, results.contenders) : 0) + REPORT_RESERVE_S;
  let ok = await rounds(state, points(false), 1, reserveS);
  if (ok && ceilings) await timedCeilings(results, async () => redisCeiling(results, rig.servers, save));
  if (ok && ceilings) await timedCeilings(results, () => clientCeilings(results, rig, save));
  if (ok && settings.rates.length) {
    addOpenLoopPoints(results);
    ok = await rounds(state, points(true), 2);
  }
  if (ok && settings.with_seed) await seedMethod(launcher, results, save);
  if (results.schedule) results.schedule.ended_s = +((Date.now() - state.startedAt) / 1000).toFixed(1);
  return ok;
}

const names = (slots: Slot[]) => slots.map((x) => x.r.name);
const elapsedS = (startedAt: number) => (Date.now() - startedAt) / 1000;
/** The slots due in `round`, as the results stand now (the open comparisons change after each look). */
const dueIn = (results: Results, p: Phase, round: number) =>
  dueSlots(p.slotsNow(), round, results.settings, openNames(results));

/** When the rounds and what follows them should end, if `left` is what remains of this round. */
function forecastAt(clock: TrialClock, startedAt: number, results: Results, p: Phase, round: number, left: Slot[]) {
  const s = results.settings;
  const later: string[][] = [];
  for (let k = round + 1; k <= p.last; k++) later.push(names(dueIn(results, p, k)));
  return forecast(clock, {
    elapsedS: elapsedS(startedAt),
    budgetS: s.runs === 'auto' ? s.budget_s : null,
    reserveS: p.reserveS,
    leftInRound: names(left),
    laterRounds: later,
  });
}

/**
 * Why round `round` does not start (it would end after the budget, less `reserveS` for what
 * follows the rounds, if its trials take `todoS`), or null. The first round always runs: a budget
 * too small for it would measure nothing at all.
 */
function budgetStop(s: Settings, round: number, endS: number, reserveS: number, due: number): string | null {
  if (s.runs !== 'auto' || round === 1 || endS + reserveS <= s.budget_s) return null;
  const after = s.ceilings !== false ? 'the ceilings and the report' : 'the report';
  const kept = reserveS ? ` (${Math.round(reserveS)} s of it kept for ${after} after the rounds)` : '';
  info(
    `round ${round}: not started, it would end after the ${Math.round(s.budget_s)} s budget; ` +
      `${due} contender(s) were due in it`,
  );
  return `budget: round ${round} would end after ${Math.round(s.budget_s)} s${kept}`;
}

/**
 * After round 1 (`roundS` long): a budget that holds fewer rounds than a change needs to be answered (--against, --app
 * twice), or a --runs or --max-runs under them, is said at once with what would do, not only at the end as an open
 * answer.
 */
export function shortBudget(
  results: Pick<Results, 'settings' | 'changes'>,
  roundS: number,
  reserveS: number,
): string | null {
  const s = results.settings;
  const pairs = results.changes?.comparisons.length ?? 0;
  if (!pairs || !(roundS > 0)) return null;
  const need = changesRoundsNeeded(pairs);
  const needs = `a change needs at least ${need} to be answered`;
  // A fixed number of rounds, or a round cap under what a change needs: the flag that sets it is what to raise.
  if (s.runs !== 'auto')
    return s.runs < need ? `--runs ${s.runs} measures ${s.runs} round(s), and ${needs}; --runs ${need} would` : null;
  if (s.max_runs < need) return `--max-runs ${s.max_runs} stops before ${need} rounds, and ${needs}`;
  const holds = Math.max(1, Math.floor((s.budget_s - reserveS) / roundS));
  if (holds >= need) return null;
  const minutes = Math.ceil((need * roundS + reserveS) / 60);
  return (
    `round 1 took ${Math.round(roundS)} s: the ${clock(s.budget_s)} budget holds about ${holds} round(s), and ` +
    `${needs}; --budget ${minutes}m would hold them`
  );
}

/** Rounds until done or the budget (less `reserveS` for what follows them) would be overrun. */
async function rounds(state: RunState, slotsNow: () => Slot[], phase: number, reserveS = 0): Promise<boolean> {
  const { results, clock, startedAt } = state;
  const s = results.settings;
  const p: Phase = { slotsNow, phase, reserveS, last: s.runs === 'auto' ? s.max_runs : s.runs };
  const sched = (results.schedule ??= { rounds: 0, stop_reason: '', measuring_s: 0 });
  for (let round = 1; ; round++) {
    const due = dueIn(results, p, round);
    if (!due.length) {
      sched.stop_reason =
        s.runs === 'auto' && round <= s.max_runs ? 'every comparison decided or bounded' : `${p.last} rounds done`;
      break;
    }
    const todo = due.filter((x) => !filled(x.point, round));
    const endS = elapsedS(startedAt) + clock.sum(names(todo));
    const stop = todo.length ? budgetStop(s, round, endS, reserveS, new Set(names(todo)).size) : null;
    if (stop) {
      sched.stop_reason = stop;
      break;
    }
    const roundStart = Date.now();
    if (!(await measureRound(state, p, roundOrder(todo, s.seed, phase, round), round))) return false;
    // Round 1 timed alone (a resumed run's was measured before the interruption: not said again).
    const roundS = (Date.now() - roundStart) / 1000;
    const short =
      round === 1 && phase === 1 && !results.resumed?.length ? shortBudget(results, roundS, reserveS) : null;
    if (short) info(short);
    // The ETA's accuracy, checked against the real end: what it said once the first round was done, less the
    // report's reserve (ended_s is stamped before the report is written).
    if (round === 1 && phase === 1)
      sched.eta_after_round_1_s = +(
        elapsedS(startedAt) +
        forecastAt(clock, startedAt, results, p, round, []).etaS -
        REPORT_RESERVE_S
      ).toFixed(1);
    sched.rounds = Math.max(sched.rounds, round);
    // The look is computed by answers/ and stored here, in the run's record.
    if (phase === 1) Object.assign(results, lookAt(results, round));
    // Rounded as ended_s is, so the two keep their order (ended_s ≥ measuring_s).
    sched.measuring_s = +elapsedS(startedAt).toFixed(1);
    state.save();
  }
  return true;
}

/**
 * One round, in `order`. A run the hypervisor stole much CPU from measures the neighbours, not
 * the app: it is kept aside and its slot measured again in a later pass over this round. Steal
 * comes in bursts of minutes, which an immediate retry would land in again.
 */
async function measureRound(state: RunState, p: Phase, order: Slot[], round: number): Promise<boolean> {
  const { results, clock, startedAt } = state;
  const s = results.settings;
  const skipped = new Set<Slot>();
  for (let pass = 0; pass <= STEAL_RETRIES; pass++) {
    // The first pass of a closed-loop round measures in blocks; retries and --self-check twins are single launches.
    const blocks = pass === 0 && p.phase === 1;
    if (blocks && !(await measureBlocks(state, p, order, round))) return false;
    for (const [i, slot] of order.entries()) {
      if (slot.r.status !== 'incomplete' || filled(slot.point, round)) continue;
      // After the blocks, pass 0 measures only the --self-check twins; a stolen block run waits for a later pass.
      if (blocks && !slot.r.self_check_of) continue;
      // A stolen run measured again must fit the budget too (after round 1, which always runs whole).
      const endS = elapsedS(startedAt) + clock.of(slot.r.name) + p.reserveS;
      if (pass > 0 && s.runs === 'auto' && round > 1 && endS > s.budget_s) {
        if (skipped.has(slot)) continue;
        skipped.add(slot);
        // Counted like a round every attempt of which was stolen: the report says how many were left out.
        slot.point.left_out = (slot.point.left_out ?? 0) + 1;
        log(
          `${slot.r.name} ${pointLabel(slot.point)} run ${round}/${p.last}: not measured again, ` +
            `that would end after the ${Math.round(s.budget_s)} s budget; this round is left out`,
        );
        continue;
      }
      const left = order.slice(i).filter((x) => !filled(x.point, round));
      const f = forecastAt(clock, startedAt, results, p, round, left);
      const contender = `${slot.r.name} ${pointLabel(slot.point)}`;
      progress({ phase: 'measuring', contender, round, rounds: p.last, runsLeft: f.runsLeft, etaS: f.etaS });
      if (!(await measureSlot(state, slot, round, p.last))) return false;
    }
  }
  return true;
}

/** What the log and the progress line call a block. */
function blockName(block: Slot[], layout: Settings['layout']): string {
  if (block.length === 1) return `${block[0]!.r.name} ${pointLabel(block[0]!.point)}`;
  if (layout === 'walk') return `the round's walk (${block.length} contenders)`;
  return `${block[0]!.r.runtime} block (${block.length} contenders)`;
}

/**
 * Each block of the round alive together, windows interleaved (block.ts); each slot's outcome recorded as a single
 * trial's would be.
 */
async function measureBlocks(state: RunState, p: Phase, order: Slot[], round: number): Promise<boolean> {
  const { results, clock, launcher } = state;
  const { layout } = results.settings;
  const todo = (xs: Slot[]) => xs.filter((x) => x.r.status === 'incomplete' && !filled(x.point, round));
  for (const [b, block] of blocksOf(todo(order), layout).entries()) {
    const what = blockName(block, layout);
    // Redis may have died during the block before: a verification failing now would blame the contenders.
    if (!launcher.serversAlive()) return redisStopped(results, what);
    const f = forecastAt(clock, state.startedAt, results, p, round, todo(order));
    progress({ phase: 'measuring', contender: what, round, rounds: p.last, runsLeft: f.runsLeft, etaS: f.etaS });
    const t0 = Date.now();
    const outcomes = await measureBlock(launcher, results, block, round, b, walkPairs(block, round, layout, results));
    const share = (Date.now() - t0) / 1000 / block.length;
    // Redis died during the block: a failure it caused is not the contender's, so nothing is recorded against them.
    if (!launcher.serversAlive() && !outcomes.some((o) => o.kind === 'redis-died')) return redisStopped(results, what);
    for (const [i, slot] of block.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.kind === 'runs' && !outcome.runs.length) continue; // Redis died before its turn: nothing measured
      if (outcome.runs[0]) outcome.runs[0].trial_s = +share.toFixed(2);
      clock.add(slot.r.name, share);
      if (slot.r.ceiling) addCeilingSeconds(results, share);
      const label = `${slot.r.name} ${pointLabel(slot.point)} run ${round}/${p.last}`;
      const goOn = record(results, slot.r, slot.point, outcome, label, 0);
      state.save();
      if (!goOn) return false;
    }
  }
  return true;
}

/** One trial of a slot, and what its outcome means for the contender. False: stop measuring. */
async function measureSlot(state: RunState, { r, point }: Slot, round: number, last: number): Promise<boolean> {
  const { results, clock } = state;
  const attempt = stolenAttempts(point, round);
  const t0 = Date.now();
  const outcome = await measureTrial(state.launcher, results.settings, r, point, round, attempt);
  const took = (Date.now() - t0) / 1000;
  if (outcome.runs[0]) outcome.runs[0].trial_s = +took.toFixed(2);
  clock.add(r.name, took);
  if (r.ceiling) addCeilingSeconds(results, took);
  const label = `${r.name} ${pointLabel(point)} run ${round}/${last}`;
  const goOn = record(results, r, point, outcome, label, attempt);
  state.save();
  return goOn;
}

/**
 * Open loop: offered load as absolute req/s or a share of each contender's measured median.
 * A contender its closed-loop gates already disqualify is not measured further.
 */
function addOpenLoopPoints(results: Results): void {
  const { settings } = results;
  for (const r of results.contenders) {
    if (r.status !== 'incomplete') continue;
    // Judged by answers/, stored here: each closed point's verdict in place of the point as measured.
    r.points = r.points.map((p) =>
      p.rate === null ? pointVerdict(p, settings, noReadPerRequest(r), workloadOfRun(settings).rules) : p,
    );
    const closed = r.points.filter((p) => p.rate === null);
    if (closed.some((p) => p.status !== 'ok')) continue;
    const max = summarize(keptRuns(closed[0]!).map((x) => x.rps)).median;
    for (const spec of settings.rates) {
      if (r.points.some((p) => p.rate_spec === spec)) continue; // resumed
      const rate = spec.endsWith('%') ? (max * Number(spec.slice(0, -1))) / 100 : Number(spec);
      if (rate >= 1)
        r.points.push({
          connections: settings.connections[0]!,
          rate: Math.round(rate),
          rate_spec: spec,
          status: 'incomplete',
          runs: [],
        });
    }
  }
}
