// Phase 3, schedule: randomized interleaved trials. Every round measures each contender that
// still needs runs once, in one block per runtime (block.ts: the block's fresh processes alive
// together, their windows interleaved), blocks and windows in orders shuffled from the recorded seed.
// With --runs auto every contender gets the design's first rounds; after each of those rounds
// the family of questions is looked at (decide.ts), and later rounds go only to the contenders
// of comparisons still undecided (racing), until none is open, max_runs, or the budget.
import { DEFAULT_SETTINGS, isRead } from '@bench/stream';
import { pointLabel } from '../measure/measure';
import type { ContenderResult, PointResult, RunRecord, Settings } from '../model/results';
import { seededRandom, shuffled, summarize } from '../stats/stats';
import { discard, fail, serversAlive, type Suite } from './suite';
import { measureTrial, seedTrial, type TrialOutcome } from './trial';
import { measureBlock } from './block';
import { forecast, TrialClock } from './eta';
import { info, log, progress } from '../system/progress';
import { buildProbe, measureClientCeiling, measureRedisCeiling } from '../measure/ceilings';
import { appEnvironment } from './prepare';
import type { RuntimeName } from '../model/runtimes';
import { finalizePoint, keptRuns, noReadPerRequest } from '../answers/verdicts';
import { lookAt, FIRST_ROUNDS } from '../answers/racing';
import { calibrateHandicap } from './calibrate';

/** How often one run is measured again (in later passes over its round) when CPU steal spoilt it. */
const STEAL_RETRIES = 2;
/** HTTP ceilings are denominators, never ranked: one run each keeps the ceilings within 3 minutes of a default run. */
const CEILING_RUNS = 1;
/** How a run set aside for CPU steal is marked in discarded_runs. */
const STEAL_FAULT = 'CPU steal';

interface Slot {
  r: ContenderResult;
  point: PointResult;
}

const stolenAttempts = (p: PointResult, round: number) =>
  (p.discarded_runs ?? []).filter((d) => d.round === round && d.fault?.startsWith(STEAL_FAULT)).length;

/** This round has its run, or every attempt at it was stolen. */
const filled = (p: PointResult, round: number) =>
  p.runs.some((x) => x.round === round) || stolenAttempts(p, round) > STEAL_RETRIES;

export async function schedule(suite: Suite): Promise<boolean> {
  const { settings, results } = suite;
  const live = () => results.contenders.filter((r) => r.status === 'incomplete');
  if (settings.profile === 'seed') return seedProfile(suite);
  const closed = () => live().flatMap((r) => r.points.filter((p) => p.rate === null).map((point) => ({ r, point })));
  const ceilings = settings.ceilings !== false;
  if (ceilings) await timedCeilings(suite, async () => redisCeiling(suite));
  await calibrateHandicap(suite);
  let ok = await rounds(suite, closed, 1, (ceilings ? ceilingReserveS(suite) : 0) + REPORT_RESERVE_S);
  if (ok && ceilings) await timedCeilings(suite, async () => redisCeiling(suite));
  if (ok && ceilings) await timedCeilings(suite, () => clientCeilings(suite));
  if (ok && settings.rates.length) {
    addOpenLoopPoints(suite);
    ok = await rounds(
      suite,
      () => live().flatMap((r) => r.points.filter((p) => p.rate !== null).map((point) => ({ r, point }))),
      2,
    );
  }
  if (ok && settings.with_seed) await seedMethod(suite);
  if (results.schedule) results.schedule.ended_s = +((Date.now() - suite.startedAt) / 1000).toFixed(1);
  return ok;
}

/**
 * `schedule.ceilings_s`: the wall time the ceilings (HTTP ceiling runs, redis-benchmark, client probes) add to the run.
 */
function addCeilingSeconds(suite: Suite, seconds: number): void {
  const state = (suite.results.schedule ??= { rounds: 0, stop_reason: '', measuring_s: 0 });
  state.ceilings_s = +((state.ceilings_s ?? 0) + seconds).toFixed(1);
}

async function timedCeilings(suite: Suite, work: () => Promise<unknown>): Promise<void> {
  const t0 = Date.now();
  await work();
  addCeilingSeconds(suite, (Date.now() - t0) / 1000);
}

/** Redis alone, on the contenders' command and connection count; once before the rounds and once after. */
function redisCeiling(suite: Suite): void {
  const { settings, results } = suite;
  if (
    settings.profile === 'seed' ||
    !isRead(settings.workload) ||
    !results.contenders.some((r) => r.status === 'incomplete' && !noReadPerRequest(r))
  )
    return;
  const several = Object.keys(suite.servers).length > 1;
  for (const [server, target] of Object.entries(suite.servers)) {
    // redis-benchmark reads one node: a cluster has no single-server ceiling to compare with.
    if (target.nodes) continue;
    const of = several ? ` of ${server}` : '';
    try {
      // As long as one measured run of a contender.
      const c = {
        ...measureRedisCeiling(target, settings.workload, settings.connections[0]!, settings.duration_s ?? 3),
        ...(several ? { server } : {}),
      };
      (results.ceilings ??= { redis: [] }).redis.push(c);
      info(
        `Redis ceiling${of} (redis-benchmark, ${c.command}, c=${c.connections}): ${c.rps.toFixed(0)} req/s, ${c.usec_per_call.toFixed(0)} µs per call inside it`,
      );
      suite.save();
    } catch (e) {
      log(`Redis ceiling${of} not measured: ${(e as Error).message}`);
    }
  }
}

/** One contender per runtime × client of the run's dynamic contenders. */
function clientPairs(suite: Suite): ContenderResult[] {
  const pairs = new Map<string, ContenderResult>();
  for (const r of suite.results.contenders.filter(
    (x) => x.status === 'incomplete' && !noReadPerRequest(x) && !x.self_check_of,
  ))
    pairs.set(`${r.runtime} ${r.client}`, r);
  return [...pairs.values()];
}

/**
 * Seconds kept for what follows the suite, so --budget bounds the whole command: results.json, the
 * charts and the report's screenshot took 3.3 s after a live run here, and a writer's log of 3 min
 * at 10,000 writes/s (376 MB) gzipped in 1.4 s.
 */
const REPORT_RESERVE_S = 10;

/**
 * Seconds the ceilings after the rounds take (a guess: each probe's start, warmup, run and transform bench), kept out
 * of the rounds' budget.
 */
function ceilingReserveS(suite: Suite): number {
  const s = suite.settings;
  if (s.profile === 'seed' || !isRead(s.workload)) return 0;
  const run = s.duration_s ?? 3;
  return run + 2 + (s.live ? 0 : clientPairs(suite).length * (s.warmup_s + run + 2));
}

/** Each runtime × client of the run's dynamic contenders alone, with no HTTP: the client ceiling. */
async function clientCeilings(suite: Suite): Promise<void> {
  const { settings, results } = suite;
  // The probes check each body against the golden one, which a live stream does not keep; the ceilings measure reads.
  if (settings.profile === 'seed' || settings.live || !isRead(settings.workload)) return;
  const pairs = clientPairs(suite);
  if (pairs.some((r) => r.runtime.startsWith('node')))
    await buildProbe().catch((e) => log(`client ceilings: ${(e as Error).message}`));
  for (const [i, r] of pairs.entries()) {
    progress({
      phase: 'client ceilings',
      contender: `${r.runtime} + ${r.client}`,
      runsLeft: pairs.length - i,
      etaS: (ceilingReserveS(suite) * (pairs.length - i)) / pairs.length,
    });
    const c = suite.byName.get(r.self_check_of ?? r.name)!;
    // The library defaults and the plain transform, whatever settings the contender varies.
    // Under --redis-rtt through the first server's proxy: the ceiling at the run's own distance.
    const env = appEnvironment(
      { ...c, settings: { ...DEFAULT_SETTINGS } },
      Object.values(suite.proxies)[0]?.url ?? suite.redis.url,
      settings.workload,
    );
    try {
      const o = {
        seconds: settings.duration_s ?? 3,
        warmupS: settings.warmup_s,
        concurrency: settings.connections[0]!,
        expectBytes: Buffer.byteLength(suite.golden),
      };
      const ceiling = await measureClientCeiling(r.runtime as RuntimeName, env, o);
      ((results.ceilings ??= { redis: [] }).client ??= []).push(ceiling);
      info(
        `client ceiling ${r.runtime} + ${r.client} (no HTTP, ${o.concurrency} reads in flight): ${ceiling.rps.toFixed(0)} reads/s, ${ceiling.cpu_us_per_read.toFixed(0)} µs CPU/read`,
      );
    } catch (e) {
      log(`client ceiling ${r.runtime} + ${r.client} not measured: ${(e as Error).message}`);
    }
    suite.save();
  }
}

/**
 * The handicap checks' contenders (each handicapped one and its twin): due in every round while
 * any comparison races. A check is the run's proof that it sees a known 10% and sizes it within a
 * few points; stopped with its plain twin's answers, it kept 3–5 rounds, too few for that, and
 * --handicap's contender keeps its launches for compare to find it by.
 */
const handicapNames = (results: Suite['results']) =>
  (results.handicap ?? []).flatMap((h) => [h.contender, h.compared_with ?? h.contender]);

/**
 * Slots due in a round; a --self-check pair stays due together, so "alone" always follows its
 * original. HTTP ceilings run in round 1 only. After the first rounds, --runs auto races: only
 * the contenders of open comparisons (open-loop points race on the same answers).
 */
function dueSlots(suite: Suite, slots: Slot[], round: number): Slot[] {
  if (round > CEILING_RUNS) slots = slots.filter((x) => !x.r.ceiling);
  const s = suite.settings;
  if (s.runs !== 'auto') return round <= s.runs ? slots : [];
  if (round > s.max_runs) return [];
  // Before the first look (and in runs without a family) everything counts as open.
  if (round <= FIRST_ROUNDS || !suite.results.open) return slots;
  const open = suite.results.open.length ? [...suite.results.open, ...handicapNames(suite.results)] : [];
  const partner = (x: Slot) =>
    slots.find(
      (y) =>
        y.point.connections === x.point.connections &&
        y.point.rate === x.point.rate &&
        (y.r.self_check_of === x.r.name || x.r.self_check_of === y.r.name),
    );
  const isOpen = (x?: Slot) => !!x && open.includes(x.r.name);
  return slots.filter((x) => isOpen(x) || isOpen(partner(x)));
}

/**
 * Shuffled from the seed, phase and round, in blocks: one block per runtime, so a client or
 * framework question's contenders are measured seconds apart, and share the machine's drift
 * (measured: windows under 5 s apart differ by sd 15%, minutes apart by 22%). The blocks' order
 * and each block's inside are shuffled; --self-check twins are measured alone after the blocks.
 */
function roundOrder(suite: Suite, todo: Slot[], phase: number, round: number): Slot[] {
  const random = seededRandom((suite.settings.seed * 31 + phase) * 1009 + round);
  const originals = todo.filter((x) => !x.r.self_check_of);
  const blocks = shuffled([...new Set(originals.map((x) => x.r.runtime))], random);
  const order = blocks.flatMap((rt) =>
    shuffled(
      originals.filter((x) => x.r.runtime === rt),
      random,
    ),
  );
  for (const twin of todo.filter((x) => x.r.self_check_of)) {
    const at = order.findIndex(
      (x) =>
        x.r.name === twin.r.self_check_of &&
        x.point.connections === twin.point.connections &&
        x.point.rate === twin.point.rate,
    );
    order.splice(at >= 0 ? at + 1 : order.length, 0, twin);
  }
  return order;
}

/** Seconds each contender's trials took so far in this command: what the budget check and the ETA learn from. */
const clocks = new WeakMap<Suite, TrialClock>();
/**
 * Before any trial has run, a trial is guessed at its warmup, its windows (with their checks) and a second for start
 * and stop.
 */
const firstGuessS = (s: Suite['settings']) => s.warmup_s + (s.windows ?? 1) * ((s.duration_s ?? 3) + 0.3) + 1;
const clockOf = (suite: Suite) =>
  clocks.get(suite) ?? clocks.set(suite, new TrialClock(firstGuessS(suite.settings))).get(suite)!;
const names = (slots: Slot[]) => slots.map((x) => x.r.name);

/** When the rounds and what follows them (`reserveS`) should end, if `left` is what remains of this round. */
function forecastAt(suite: Suite, slotsNow: () => Slot[], round: number, last: number, left: Slot[], reserveS: number) {
  const s = suite.settings;
  const later: string[][] = [];
  for (let k = round + 1; k <= last; k++) later.push(names(dueSlots(suite, slotsNow(), k)));
  const elapsedS = (Date.now() - suite.startedAt) / 1000;
  return forecast(clockOf(suite), {
    elapsedS,
    budgetS: s.runs === 'auto' ? s.budget_s : null,
    reserveS,
    leftInRound: names(left),
    laterRounds: later,
  });
}

/** Rounds until done or the budget (less `reserveS` for what follows them) would be overrun. */
async function rounds(suite: Suite, slotsNow: () => Slot[], phase: number, reserveS = 0): Promise<boolean> {
  const s = suite.settings;
  const last = s.runs === 'auto' ? s.max_runs : s.runs;
  const state = (suite.results.schedule ??= { rounds: 0, stop_reason: '', measuring_s: 0 });
  for (let round = 1; ; round++) {
    const due = dueSlots(suite, slotsNow(), round);
    if (!due.length) {
      state.stop_reason =
        s.runs === 'auto' && round <= s.max_runs ? 'every comparison decided or bounded' : `${last} rounds done`;
      break;
    }
    const todo = due.filter((x) => !filled(x.point, round));
    const elapsed = (Date.now() - suite.startedAt) / 1000;
    // The first round always runs: a budget too small for it would measure nothing at all.
    if (
      s.runs === 'auto' &&
      round > 1 &&
      todo.length &&
      elapsed + clockOf(suite).sum(names(todo)) + reserveS > s.budget_s
    ) {
      const kept = reserveS
        ? ` (${Math.round(reserveS)} s of it kept for the ceilings and the report after the rounds)`
        : '';
      state.stop_reason = `budget: round ${round} would end after ${Math.round(s.budget_s)} s${kept}`;
      info(
        `round ${round}: not started, it would end after the ${Math.round(s.budget_s)} s budget; ${suite.results.open?.length ?? 0} contender(s) in open comparisons`,
      );
      break;
    }
    const order = roundOrder(suite, todo, phase, round);
    const skipped = new Set<Slot>();
    // A run the hypervisor stole much CPU from measures the neighbours, not the app: it is kept
    // aside and its slot measured again in a later pass over this round. Steal comes in bursts
    // of minutes, which an immediate retry would land in again.
    for (let pass = 0; pass <= STEAL_RETRIES; pass++) {
      // The first pass of a closed-loop round measures in blocks; retries and --self-check twins are single launches.
      const blocks = pass === 0 && phase === 1;
      if (blocks && !(await measureBlocks(suite, slotsNow, order, round, last, reserveS))) return false;
      for (const [i, slot] of order.entries()) {
        if (slot.r.status !== 'incomplete' || filled(slot.point, round)) continue;
        // After the blocks, pass 0 measures only the --self-check twins; a stolen block run waits for a later pass.
        if (blocks && !slot.r.self_check_of) continue;
        // A stolen run measured again must fit the budget too (after round 1, which always runs whole).
        if (
          pass > 0 &&
          s.runs === 'auto' &&
          round > 1 &&
          (Date.now() - suite.startedAt) / 1000 + clockOf(suite).of(slot.r.name) + reserveS > s.budget_s
        ) {
          if (skipped.has(slot)) continue;
          skipped.add(slot);
          // Counted like a round every attempt of which was stolen: the report says how many were left out.
          slot.point.left_out = (slot.point.left_out ?? 0) + 1;
          log(
            `${slot.r.name} ${pointLabel(slot.point)} run ${round}/${last}: not measured again, that would end after the ${Math.round(s.budget_s)} s budget; this round is left out`,
          );
          continue;
        }
        const f = forecastAt(
          suite,
          slotsNow,
          round,
          last,
          order.slice(i).filter((x) => !filled(x.point, round)),
          reserveS,
        );
        progress({
          phase: 'measuring',
          contender: `${slot.r.name} ${pointLabel(slot.point)}`,
          round,
          rounds: last,
          runsLeft: f.runsLeft,
          etaS: f.etaS,
        });
        if (!(await measureSlot(suite, slot, round, last))) return false;
      }
    }
    // The ETA's accuracy, checked against the real end: what it said once the first round was done.
    if (round === 1 && phase === 1)
      state.eta_after_round_1_s = +(
        (Date.now() - suite.startedAt) / 1000 +
        forecastAt(suite, slotsNow, round, last, [], reserveS).etaS
      ).toFixed(1);
    state.rounds = Math.max(state.rounds, round);
    if (phase === 1) lookAt(suite.results, round);
    // Rounded as ended_s is, so the two keep their order (ended_s ≥ measuring_s).
    state.measuring_s = +((Date.now() - suite.startedAt) / 1000).toFixed(1);
    suite.save();
  }
  return true;
}

/**
 * The round's blocks, --self-check twins left out. --layout walk: one block of every slot, so any
 * compared pair can be measured side by side. --layout runtime: consecutive slots of one runtime
 * (roundOrder keeps them together).
 */
function blocksOf(order: Slot[], layout: Settings['layout']): Slot[][] {
  if (layout === 'walk') return order.some((x) => !x.r.self_check_of) ? [order.filter((x) => !x.r.self_check_of)] : [];
  const blocks: Slot[][] = [];
  for (const slot of order.filter((x) => !x.r.self_check_of)) {
    const last = blocks.at(-1);
    if (last && last[0]!.r.runtime === slot.r.runtime) last.push(slot);
    else blocks.push([slot]);
  }
  return blocks;
}

/**
 * --layout walk: the pairs of a block's slots the walk should measure side by side (block.ts): the
 * family's comparisons, after the first rounds only those still open, and each handicap check;
 * only slots at the same load pair. Null for --layout runtime.
 */
function pairsOf(suite: Suite, block: Slot[], round: number): [number, number][] | null {
  const { results, settings } = suite;
  if (settings.layout !== 'walk') return null;
  const answers = [...(results.answers ?? []), ...(results.changes?.answers ?? [])];
  const open = (id: string) =>
    round <= FIRST_ROUNDS || !results.answers || answers.some((a) => a.id === id && a.verdict === 'undecided');
  const named = [
    ...[...(results.family?.comparisons ?? []), ...(results.changes?.comparisons ?? [])]
      .filter((c) => open(c.id))
      .map((c) => [c.a, c.b]),
    ...(results.handicap ?? []).flatMap((h) => (h.compared_with ? [[h.contender, h.compared_with]] : [])),
  ];
  const same = (x: Slot, y: Slot) => x.point.connections === y.point.connections && x.point.rate === y.point.rate;
  return named.flatMap(([a, b]) =>
    block.flatMap((x, i) =>
      x.r.name !== a ? [] : block.flatMap((y, j) => (y.r.name === b && same(x, y) ? [[i, j] as [number, number]] : [])),
    ),
  );
}

/**
 * Each block of the round alive together, windows interleaved (block.ts); each slot's outcome recorded as a single
 * trial's would be.
 */
async function measureBlocks(
  suite: Suite,
  slotsNow: () => Slot[],
  order: Slot[],
  round: number,
  last: number,
  reserveS: number,
): Promise<boolean> {
  const todo = (xs: Slot[]) => xs.filter((x) => x.r.status === 'incomplete' && !filled(x.point, round));
  for (const [b, block] of blocksOf(todo(order), suite.settings.layout).entries()) {
    const what =
      block.length === 1
        ? `${block[0]!.r.name} ${pointLabel(block[0]!.point)}`
        : suite.settings.layout === 'walk'
          ? `the round's walk (${block.length} contenders)`
          : `${block[0]!.r.runtime} block (${block.length} contenders)`;
    // Redis may have died during the block before: a verification failing now would blame the contenders.
    if (!serversAlive(suite)) return redisStopped(suite, what);
    const f = forecastAt(suite, slotsNow, round, last, todo(order), reserveS);
    progress({ phase: 'measuring', contender: what, round, rounds: last, runsLeft: f.runsLeft, etaS: f.etaS });
    const t0 = Date.now();
    const outcomes = await measureBlock(suite, block, round, b, pairsOf(suite, block, round));
    const share = (Date.now() - t0) / 1000 / block.length;
    // Redis died during the block: a failure it caused is not the contender's, so nothing is recorded against them.
    if (!serversAlive(suite) && !outcomes.some((o) => o.kind === 'redis-died')) return redisStopped(suite, what);
    for (const [i, slot] of block.entries()) {
      const outcome = outcomes[i]!;
      if (outcome.kind === 'runs' && !outcome.runs.length) continue; // Redis died before its turn: nothing measured
      if (outcome.runs[0]) outcome.runs[0].trial_s = +share.toFixed(2);
      clockOf(suite).add(slot.r.name, share);
      if (slot.r.ceiling) addCeilingSeconds(suite, share);
      const goOn = record(
        suite,
        slot.r,
        slot.point,
        outcome,
        `${slot.r.name} ${pointLabel(slot.point)} run ${round}/${last}`,
        0,
      );
      suite.save();
      if (!goOn) return false;
    }
  }
  return true;
}

function redisStopped(suite: Suite, block: string): false {
  suite.results.exit_reason = `Redis stopped answering during ${block}; measuring stopped`;
  log(suite.results.exit_reason);
  return false;
}

/** One trial of a slot, and what its outcome means for the contender. False: stop measuring. */
async function measureSlot(suite: Suite, { r, point }: Slot, round: number, last: number): Promise<boolean> {
  const attempt = stolenAttempts(point, round);
  const t0 = Date.now();
  const outcome = await measureTrial(suite, r, point, round, attempt);
  const took = (Date.now() - t0) / 1000;
  if (outcome.runs[0]) outcome.runs[0].trial_s = +took.toFixed(2);
  clockOf(suite).add(r.name, took);
  if (r.ceiling) addCeilingSeconds(suite, took);
  const label = `${r.name} ${pointLabel(point)} run ${round}/${last}`;
  const goOn = record(suite, r, point, outcome, label, attempt);
  suite.save();
  return goOn;
}

function record(
  suite: Suite,
  r: ContenderResult,
  point: PointResult,
  outcome: TrialOutcome,
  label: string,
  attempt: number,
): boolean {
  const maxSteal = suite.settings.max_steal_pct;
  if (outcome.kind === 'redis-died') {
    // Not the contender's fault: discard the run and leave it incomplete, so --resume measures it again.
    for (const run of outcome.runs) discard(point, run, 'Redis died during this run');
    r.reason = `Redis died during ${label}; that run is discarded`;
    suite.results.exit_reason = `Redis stopped answering during ${r.name}; measuring stopped`;
    log(`${r.name}: Redis stopped answering; measuring stops here`);
    return false;
  }
  if (outcome.kind === 'out') {
    point.runs.push(...outcome.runs);
    fail(r, outcome.status, outcome.reason, outcome.output);
    log(`${r.name}: ${outcome.status.toUpperCase()}: ${outcome.reason}`);
    return true;
  }
  const run = outcome.runs[0]!;
  if (run.cpu_steal_pct > maxSteal) {
    discard(point, run, `${STEAL_FAULT} ${run.cpu_steal_pct.toFixed(1)}% > ${maxSteal}%`);
    if (attempt < STEAL_RETRIES) {
      info(`${label}: CPU steal ${run.cpu_steal_pct.toFixed(1)}%, measured again later in this round`);
    } else {
      point.left_out = (point.left_out ?? 0) + 1;
      log(`${label}: CPU steal above ${maxSteal}% on all ${STEAL_RETRIES + 1} attempts; this round is left out`);
    }
    return true;
  }
  point.runs.push(run);
  info(`${label}: ${runLine(run)}`);
  return true;
}

const runLine = (run: RunRecord) =>
  `${run.rps.toFixed(0)} req/s, p50 ${run.latency_ms.p50.toFixed(1)} ms, ${run.cpu_us_per_req.toFixed(0)} µs CPU/req, ${run.redis_calls_per_req.toFixed(2)} calls/req`;

/**
 * Open loop: offered load as absolute req/s or a share of each contender's measured median.
 * A contender its closed-loop gates already disqualify is not measured further.
 */
function addOpenLoopPoints(suite: Suite): void {
  for (const r of suite.results.contenders) {
    if (r.status !== 'incomplete') continue;
    const closed = r.points.filter((p) => p.rate === null);
    for (const p of closed) finalizePoint(p, suite.settings, noReadPerRequest(r));
    if (closed.some((p) => p.status !== 'ok')) continue;
    const max = summarize(keptRuns(closed[0]!).map((x) => x.rps)).median;
    for (const spec of suite.settings.rates) {
      if (r.points.some((p) => p.rate_spec === spec)) continue; // resumed
      const rate = spec.endsWith('%') ? (max * Number(spec.slice(0, -1))) / 100 : Number(spec);
      if (rate >= 1)
        r.points.push({
          connections: suite.settings.connections[0]!,
          rate: Math.round(rate),
          rate_spec: spec,
          status: 'incomplete',
          runs: [],
        });
    }
  }
}

/** --profile seed: the original method alone, one process per contender, the third of three runs. */
async function seedProfile(suite: Suite): Promise<boolean> {
  for (const r of suite.results.contenders.filter((x) => x.status === 'incomplete' && !x.runs.length)) {
    const outcome = await seedTrial(suite, r);
    if (outcome.kind === 'runs') {
      r.points[0]!.runs.push(...outcome.runs);
      for (const run of outcome.runs) info(`${r.name} seed method run ${run.round}/3: ${runLine(run)}`);
    } else if (!record(suite, r, r.points[0]!, outcome, `${r.name}'s seed method`, 0)) {
      return false;
    }
    suite.save();
  }
  return true;
}

/** --with-seed: the seed's method on every contender still in, after the suite, in the same invocation. */
async function seedMethod(suite: Suite): Promise<void> {
  for (const r of suite.results.contenders.filter(
    (x) => x.status === 'incomplete' && !x.self_check_of && !x.ceiling && !x.seed_method,
  )) {
    const outcome = await seedTrial(suite, r);
    if (outcome.kind !== 'runs') {
      log(
        `${r.name}: the seed method could not be measured: ${outcome.kind === 'out' ? outcome.reason : 'Redis died'}`,
      );
      continue;
    }
    const rps = outcome.runs.map((x) => x.rps);
    r.seed_method = { rps, headline: rps[2]! };
    info(`${r.name} seed method: ${rps.map((x) => x.toFixed(0)).join(', ')} req/s (third: ${rps[2]!.toFixed(0)})`);
    suite.save();
  }
}
