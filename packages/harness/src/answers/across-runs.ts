// The published answers from every kept run, decided per machine. A machine is its hardware (model/kept.ts
// machineKeys: its CPU model, and the host CPU behind it where runs record two); a placement is a configuration of it,
// answered apart. On each configuration, each comparison is pooled over its runs
// whose two contenders were built and run from the same inputs as today's, the runs of one boot merged into one
// estimate (a boot is one draw of the run effect), with a run effect between boots that each comparison learns from
// its own boots (stats/meta-analysis.ts statedPrior), only from two boots up (MIN_BOOTS), and decided as one family:
// "faster" at α/m and two one-sided tests at α/m each for "equal" within the margin, as a run's own answers are
// (decide.ts look, decidedLevels). The α: spent over the keeps (α / (k (k + 1)) at the k-th, so re-testing as runs
// are kept keeps the error rate), then split evenly over the configurations measured on enough boots to decide, so
// every statement on every machine keeps the family's error rate together; the family's α is its share of the page's
// (familyShares, beside the first screen's picks). Across machines (answers/where.ts): "holds on
// every machine measured" where each machine decided it the same way, else the machines named; a prediction for an
// unmeasured machine only from five machines measured.
import { median } from 'simple-statistics';
import {
  bootsOf,
  conditionOf,
  lacks,
  machineKeys,
  machineNames,
  type MachineOf,
  placementOf,
  tooFewRounds,
  unestimated,
  type KeptAnswer,
  type KeptAnswers,
} from '../model/kept';
import {
  atDefault,
  type OnMachine,
  type PoolAnswer,
  type PoolRun,
  type PoolResult,
  type Today,
} from '../model/across-runs';
import type { Comparison } from '../model/questions';
import type { Results } from '../model/results';
import { moderatedT } from '../stats/moderated';
import {
  mergeBoots,
  type Pooled,
  poolRuns,
  STATED_RUN_SCALE,
  statedMachinePrior,
  statedPrior,
  type RunEstimate,
  TAU_GRID,
  withHistory,
} from '../stats/meta-analysis';
import { DECISION, decidedLevels, familyPrior, roundMeans, windowPairs } from './decide';
import { across } from './where';
import { autoPlacement } from '../system/placement';

/**
 * Boots of a machine from which the pool decides on it. One boot is one draw of the run effect, which no
 * run of that boot can see, and a few comparisons move far between days: deciding from one boot fails the keeps'
 * simulation (tests/unit/pool.test.ts). A run alone speaks for itself (its own answers, publish/kept-runs.ts
 * pooledView).
 */
export const MIN_BOOTS = 2;

/** Machines from which a prediction for an unmeasured one is stated (with fewer, the mean of M has M − 1 df). */
export const PREDICT_FROM_MACHINES = 5;

/**
 * Each comparison of a run's family estimated over every round it measured, by the answers' own procedure (the
 * moderated t with the family's prior): what a kept record keeps for pooling.
 */
export function runEstimates(r: Results): Map<string, NonNullable<KeptAnswer['estimate']>> {
  const comparisons = r.family?.comparisons ?? [];
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  const data = comparisons.map((c) => windowPairs(byName.get(c.a), byName.get(c.b)));
  const { reps, prior, covariates } = familyPrior(
    data,
    comparisons.map((c) => !!c.side_by_side),
  );
  const out = new Map<string, NonNullable<KeptAnswer['estimate']>>();
  comparisons.forEach((c, i) => {
    const t = moderatedT(reps[i]!, prior, 0.95, prior.scale(covariates[i]));
    if (t.short || !(t.n > 0)) return;
    const rounds = roundMeans(data[i]!).map((x) => +x.toFixed(6));
    const ids = data[i]!.byRound.flatMap((r, j) => (r.length ? [data[i]!.roundIds![j]!] : []));
    const e = { ln: reps[i]!.mean, se: t.sd / Math.sqrt(t.n), df: t.df, procedure: 'moderated-t' as const, rounds };
    out.set(c.id, { ...e, round_ids: ids });
  });
  return out;
}

/** The kept answer of `c` in a record, turned to c's order (a ↔ b swapped: ln negated). */
function estimateIn(
  k: KeptAnswers,
  c: Pick<Comparison, 'a' | 'b'>,
): { e: KeptAnswer['estimate']; x: KeptAnswer } | null {
  const x = k.answers.find((o) => (o.a === c.a && o.b === c.b) || (o.a === c.b && o.b === c.a));
  if (!x || x.out) return null;
  if (!x.estimate || x.a === c.a) return { e: x.estimate, x };
  const e = x.estimate;
  return { e: { ...e, ln: -e.ln, rounds: e.rounds.map((d) => -d) }, x };
}

/**
 * The placement a default run takes on the run's machine (`--placement auto`, by its logical CPUs): "none" under 4,
 * "disjoint" from 4. Runs at it measure the machine; a run at another is a configuration answered apart.
 */
export const defaultPlacementOf = (k: Pick<KeptAnswers, 'host'>) => autoPlacement(k.host?.logical_cpus ?? 0);

/** Why a run is not pooled for any comparison, or null (`anyInputs`: its inputs are not asked for). */
function notPooled(k: KeptAnswers, workload: string, anyInputs: boolean): string | null {
  if (k.workload !== workload) return `another workload (${k.workload})`;
  if (unestimated(k)) return tooFewRounds();
  const missing = lacks(k).filter((w) => !w.includes('placement') && !(anyInputs && w.includes('input')));
  return missing.length ? `kept before pooling: it lacks ${missing.join(' and ')}` : null;
}

/** A kept run as the pool reads it, before it is counted in any comparison. */
function poolRun(k: KeptAnswers, workload: string, anyInputs: boolean, machine: string): PoolRun {
  const why = notPooled(k, workload, anyInputs);
  return {
    started_at: k.started_at,
    commit: k.commit,
    machine,
    ...(k.host?.cpu_id ? { cpu_id: k.host.cpu_id } : {}),
    placement: placementOf(k),
    default_placement: defaultPlacementOf(k),
    sd_windows: k.sd_windows,
    condition: conditionOf(k),
    inputs_from: k.inputs_from ?? null,
    pooled: 0,
    changed: [],
    ...(why ? { left_out: why } : {}),
    ...(k.check ? { check: k.check } : {}),
  };
}

/** A configuration's key in RunEstimate.machine: the machine and, past its default, its placement. */
const configOf = (r: Pick<PoolRun, 'machine' | 'placement' | 'default_placement'>) =>
  atDefault(r) ? r.machine : `${r.machine}|${r.placement}`;

/**
 * The page's α split between its two families of decisions, by their sizes (Bonferroni between them, and inside
 * each: decidedLevels): the answers (`answers` comparisons) and the first screen's picks (`picks`, answers/picks.ts).
 * Every decided answer and every bold figure of the page together keep a family error of at most α.
 */
export function familyShares(answers: number, picks: number, alpha: number = DECISION.alpha) {
  const all = Math.max(1, answers + picks);
  return { answers: (alpha * answers) / all, picks: (alpha * picks) / all };
}

/** The α the k-th keep of the same inputs spends: summed over every keep, at most α. */
export const spentAt = (alpha: number, keeps: number) => alpha / (Math.max(1, keeps) * (Math.max(1, keeps) + 1));

/**
 * One configuration's family: its runs' estimates per comparison, those of one boot merged (a boot is one draw of the
 * run effect), pooled from the stated prior on τr.
 */
export interface Config {
  key: string;
  run: PoolRun;
  /** How the words name it: "AMD EPYC" (machineNames), "AMD EPYC (split)". */
  name: string;
  estimates: RunEstimate[][];
  pooled: Pooled[];
  /** A run's boot (model/kept.ts bootsOf), by its start. */
  boot: (run: string) => string;
  /** Per comparison, the boots its runs came from: below 2, the machine is not decided on (MIN_BOOTS). */
  bootsOf: number[];
  tau: number;
  runs: number;
  boots: number;
  /** Its boots with a contended run (model/kept.ts conditionOf). */
  contendedBoots: number;
}

function configOfRuns(
  key: string,
  run: PoolRun,
  machineName: (machine: string) => string,
  family: RunEstimate[][],
  records: KeptAnswers[],
  boot: (run: string) => string,
  runScale: number,
  history: RunEstimate[][] | null,
): Config {
  const estimates = family.map((rs) => rs.filter((r) => r.machine === key));
  const used = new Set(estimates.flat().map((r) => r.run));
  const boots = new Set([...used].map(boot)).size;
  const contended = records.filter((k) => used.has(k.started_at) && conditionOf(k) === 'contended');
  const contendedBoots = new Set(contended.map((k) => boot(k.started_at))).size;
  // Runs of one boot merged: one draw of τr. A machine of one boot is not decided on (decideOn, MIN_BOOTS).
  const merged = estimates.map((rs) => mergeBoots(rs, boot));
  const prior = statedPrior(runScale);
  const priorOf = (i: number) => {
    const own = history?.[i]?.filter((r) => r.machine.startsWith(`${key}#`)) ?? [];
    return own.length ? withHistory(prior, mergeBoots(own, boot)) : prior;
  };
  const pooled = merged.map((rs, i) => poolRuns(rs, priorOf(i)));
  // What the report shows of τr: the median of the comparisons' own posterior means.
  const taus = pooled.map((p) => p.tau).filter(Number.isFinite);
  const tau = taus.length ? median(taus) : TAU_GRID.reduce((s, t, g) => s + t * prior.run[g]!, 0);
  return {
    key,
    run,
    name: `${machineName(run.machine)}${atDefault(run) ? '' : ` (${run.placement})`}`,
    estimates,
    pooled,
    boot,
    bootsOf: merged.map((rs) => rs.length),
    tau,
    runs: used.size,
    boots,
    contendedBoots,
  };
}

/**
 * Each comparison's verdict on one configuration, at its share of α. The family is what the configuration can decide
 * on (measured there, on MIN_BOOTS boots or more), known from the runs' layout before any test: "faster" at α/m
 * (decidedLevels), two one-sided tests at α/m each for "equal". An open answer's interval is at 1 − α/n (n: the
 * comparisons measured there, m ≤ n), which holds 1 whenever it was not decided; one the configuration cannot decide
 * (one boot) is taken to reach 1, a wider interval, as it decides nothing: open never reads as decided.
 */
export function decideOn(cfg: Config, alpha: number, marginPct: number): (OnMachine | null)[] {
  const has = cfg.estimates.map((rs) => rs.length > 0);
  const n = Math.max(1, has.filter(Boolean).length);
  const can = has.map((h, i) => h && cfg.bootsOf[i]! >= MIN_BOOTS);
  const family = can.flatMap((c, i) => (c ? [i] : []));
  const m = Math.max(1, family.length);
  const decided = decidedLevels(
    family.map((i) => cfg.pooled[i]!.p),
    alpha,
  );
  const levels = new Map(family.map((i, j) => [i, decided[j] ?? null]));
  const margin = marginPct / 100;
  return cfg.pooled.map((p, i) => {
    if (!has[i]) return null;
    const level = levels.get(i) ?? null;
    const bounds = p.at(1 - (2 * alpha) / m, false);
    const inside = can[i]! && bounds.lo >= 1 / (1 + margin) && bounds.hi <= 1 + margin;
    const verdict = level !== null ? 'faster' : inside ? 'equal' : 'undecided';
    const at = level !== null ? p.at(1 - level, false) : inside ? bounds : p.at(1 - alpha / n, false);
    const r = verdict === 'undecided' ? { ...at, lo: Math.min(at.lo, 1), hi: Math.max(at.hi, 1) } : at;
    const { machine, placement, default_placement } = cfg.run;
    const runs = cfg.estimates[i]!.length;
    const boots = cfg.bootsOf[i]!;
    const where = { machine, placement, default_placement, name: cfg.name, runs, boots };
    const on = { ...where, verdict, ratio: r.ratio, lo: r.lo, hi: r.hi };
    // The comparison's own τr (its posterior mean), not the machine's median: the volatile ones move by much more.
    const tau = Number.isFinite(p.tau) ? p.tau : cfg.tau;
    return { ...on, level: r.level, p: r.p, tau: +tau.toFixed(4) } as OnMachine;
  });
}

/** The family's estimates per comparison (each run's, in the comparison's order), counting what each run gave. */
function estimatesOf(
  records: KeptAnswers[],
  runs: PoolRun[],
  comparisons: Comparison[],
  same: (k: KeptAnswers, name: string) => boolean,
): RunEstimate[][] {
  return comparisons.map((c) =>
    records.flatMap((k, j) => {
      if (runs[j]!.left_out) return [];
      for (const name of [c.a, c.b])
        if (!same(k, name) && !runs[j]!.changed.includes(name)) runs[j]!.changed.push(name);
      if (!same(k, c.a) || !same(k, c.b)) return [];
      const got = estimateIn(k, c);
      if (!got?.e) return [];
      runs[j]!.pooled++;
      return [{ y: got.e.ln, se: got.e.se, df: got.e.df, run: k.started_at, machine: configOf(runs[j]!) }];
    }),
  );
}

/** A record's inputs version of a comparison: the hashes of what its two contenders ran. */
const versionOf = (k: KeptAnswers, c: Comparison) =>
  [c.a, c.b].map((n) => k.inputs_used?.[n] ?? k.inputs?.[n] ?? '?').join('|');

/**
 * Per comparison, the estimates of runs of other inputs than today's, machine `config#version`: what τr would be
 * learnt from beside today's runs (Design.history). `other-boots`: only boots none of today's runs of it came from.
 */
function historyOf(
  records: KeptAnswers[],
  boot: (run: string) => string,
  runs: PoolRun[],
  workload: string,
  comparisons: Comparison[],
  same: (k: KeptAnswers, name: string) => boolean,
  family: RunEstimate[][],
  mode: 'all' | 'other-boots',
): RunEstimate[][] {
  return comparisons.map((c, i) => {
    const todays = new Set(family[i]!.map((r) => boot(r.run)));
    return records.flatMap((k, j) => {
      if (notPooled(k, workload, true)) return [];
      if (same(k, c.a) && same(k, c.b)) return [];
      if (mode === 'other-boots' && todays.has(boot(k.started_at))) return [];
      const e = estimateIn(k, c)?.e;
      if (!e) return [];
      const machine = `${configOf(runs[j]!)}#${versionOf(k, c)}`;
      return [{ y: e.ln, se: e.se, df: e.df, run: k.started_at, machine }];
    });
  });
}

/**
 * Other designs of the pool, there only to measure them (scripts/pool-boots.ts part 4; docs/runs/pool.md):
 * `runScale`, the stated prior's scale on τr; `history`, τr learnt also from the same configuration's runs of other
 * inputs (each version's θ its own; measured on the Intel Xeon VM's kept runs, it answered 1–2 more of 47).
 */
export interface Design {
  runScale?: number;
  history?: 'all' | 'other-boots';
}

/**
 * Pool the kept runs' answers to `comparisons` (today's family), machine by machine: a run counts for a comparison
 * when both its contenders' inputs equal `today`'s (null: `--any-inputs`, every run taken as today's). Each answer
 * carries its verdict on each machine, its runs there, and where it holds across them. `design`: only to measure
 * other designs. `keyOf`: each run's machine (model/kept.ts machineKeys), of these records unless given (a part of
 * them pooled under the whole set's machines: leaveOneOut).
 */
export function poolAnswers(
  records: KeptAnswers[],
  comparisons: Comparison[],
  today: Today | null,
  workload: string,
  marginPct: number,
  alpha: number = DECISION.alpha,
  design: Design = {},
  keyOf: (k: MachineOf) => string = machineKeys(records),
): PoolResult {
  const { runScale = STATED_RUN_SCALE, history: historyMode } = design;
  const runs = records.map((k) => poolRun(k, workload, today === null, keyOf(k)));
  // What each contender runs, where both sides recorded it; else the whole package's hash.
  const same = (k: KeptAnswers, name: string) => {
    if (!today) return true;
    const both = today.used && k.inputs_used && (k.inputs_used_scheme ?? 1) === (today.used_scheme ?? 1);
    const [theirs, ours] = both ? [k.inputs_used!, today.used!] : [k.inputs, today.inputs];
    return !!theirs?.[name] && theirs[name] === ours[name];
  };
  const family = estimatesOf(records, runs, comparisons, same);
  const bootAt = bootsOf(records);
  const boot = (run: string) => bootAt.get(run) ?? run;
  const history = historyMode ? historyOf(records, boot, runs, workload, comparisons, same, family, historyMode) : null;
  const keeps = runs.filter((r) => r.pooled).length;
  const spent = spentAt(alpha, keeps);
  const keys = [...new Set(family.flat().map((r) => r.machine))];
  const first = (key: string) => runs.find((r) => r.pooled && configOf(r) === key)!;
  const name = machineNames(keys.map((key) => first(key).machine));
  const configs = keys.map((key) => configOfRuns(key, first(key), name, family, records, boot, runScale, history));
  const checks = checkEstimates(records, runs, same);
  // α is split over the configurations that can decide, an answer or the check: one measured on a single boot decides
  // nothing (decideOn), so it takes no share (which can is known from the runs' layout, before any test).
  const checkBoots = (c: Config) => mergeBoots(checksOn(checks, c), c.boot).length;
  const deciding = configs.filter((c) => [...c.bootsOf, checkBoots(c)].some((b) => b >= MIN_BOOTS)).length;
  // With none that can decide, nothing is decided anyway: the level then only sets the intervals shown.
  const perMachine = spent / Math.max(1, deciding || configs.length);
  const decided = configs.map((cfg) => decideOn(cfg, perMachine, marginPct));
  const onMachines = (i: number) => decided.flatMap((d) => d[i] ?? []);
  const answers = comparisons.map((c, i) => answerOf(c, onMachines(i), family[i]!, boot));
  const check = pooledCheck(checks, configs, perMachine, marginPct, runScale);
  const own = configs.filter((c) => atDefault(c.run));
  return {
    workload,
    alpha,
    keeps,
    spent,
    per_machine: perMachine,
    deciding,
    any_inputs: today === null,
    margin_pct: marginPct,
    run_prior: { scale: runScale, min_boots: MIN_BOOTS },
    priors: configs.map((c, n) => priorOf(c, decided[n]!)),
    ...(check ? { check } : {}),
    runs,
    // A machine measured at another placement only is a configuration said apart (unless none is at the default).
    machines: new Set((own.length ? own : configs).map((c) => c.run.machine)).size,
    configurations: configs.length,
    answers,
  };
}

/** What pool.json says of a configuration: its τr, runs, boots (contended ones too), and the comparisons answered. */
const priorOf = (c: Config, decided: (OnMachine | null)[]): PoolResult['priors'][number] => ({
  machine: c.run.machine,
  placement: c.run.placement,
  default_placement: c.run.default_placement,
  tau: +c.tau.toFixed(4),
  runs: c.runs,
  boots: c.boots,
  contended_boots: c.contendedBoots,
  answered: decided.filter((a) => a && a.verdict !== 'undecided').length,
  asked: decided.filter((a) => a).length,
});

/** The runs' handicap checks as estimates; runs whose check contender or its twin changed are left out. */
function checkEstimates(
  records: KeptAnswers[],
  runs: PoolRun[],
  same: (k: KeptAnswers, name: string) => boolean,
): { c: NonNullable<KeptAnswers['check']>; e: RunEstimate }[] {
  return records.flatMap((k, j) => {
    const c = k.check;
    const twin = c?.contender.replace(/-handicap$/, '');
    if (runs[j]!.left_out || !c || c.se === undefined || !same(k, c.contender) || !same(k, twin!)) return [];
    const e: RunEstimate = {
      y: Math.log(c.ratio),
      se: c.se,
      df: c.df ?? 1e6,
      run: k.started_at,
      machine: configOf(runs[j]!),
    };
    return [{ c, e }];
  });
}

const checksOn = (checks: ReturnType<typeof checkEstimates>, cfg: Config) =>
  checks.filter((x) => x.e.machine === cfg.key).map((x) => x.e);

/**
 * The runs' handicap checks judged exactly as the answers are: on each configuration, the check's runs pooled under
 * the answers' prior and decided by the answers' own function (decideOn) at the level it would have as one more
 * comparison of that configuration's family, α/(m + 1) (the answers themselves decided without it); across machines
 * by the same words (answers/where.ts).
 */
function pooledCheck(
  checks: ReturnType<typeof checkEstimates>,
  configs: Config[],
  alpha: number,
  marginPct: number,
  runScale: number,
): PoolResult['check'] | null {
  if (!checks.length) return null;
  const on = configs.flatMap((cfg) => {
    const es = checksOn(checks, cfg);
    if (!es.length) return [];
    const merged = mergeBoots(es, cfg.boot);
    const withCheck: Config = {
      ...cfg,
      estimates: [...cfg.estimates, es],
      pooled: [...cfg.pooled, poolRuns(merged, statedPrior(runScale))],
      bootsOf: [...cfg.bootsOf, merged.length],
    };
    return [decideOn(withCheck, alpha, marginPct).at(-1)!];
  });
  if (!on.length) return null;
  const where = across(on);
  const { contender, pct } = checks[0]!.c;
  const detected = where.verdict === 'faster' && where.ratio < 1;
  const machines = new Set(on.map((o) => o.machine)).size;
  const { ratio, lo, hi } = where;
  return {
    contender,
    pct,
    ratio,
    lo,
    hi,
    runs: checks.length,
    machines,
    detected,
    where: where.words,
    on_machines: on,
  };
}

function answerOf(c: Comparison, on: OnMachine[], runs: RunEstimate[], boot: (run: string) => string): PoolAnswer {
  const where = on.length ? across(on) : null;
  const own = on.filter(atDefault);
  const decidedOn = own.length ? own : on;
  const machines = new Set(on.map((o) => o.machine)).size;
  // From five machines: where a run on an unmeasured machine falls, from the machines' means (default placement).
  const prediction = predicted(runs, boot);
  const taus = on.map((o) => o.tau);
  return {
    id: c.id,
    question: c.question,
    a: c.a,
    b: c.b,
    ...(c.side_by_side ? { side_by_side: true as const } : {}),
    verdict: where?.verdict ?? 'undecided',
    ratio: where?.ratio ?? NaN,
    lo: where?.lo ?? 0,
    hi: where?.hi ?? Infinity,
    // Over the configurations the verdict is read from (across: the default placement's, where there are any).
    level: decidedOn.length ? Math.min(...decidedOn.map((o) => o.level)) : 0.95,
    p: decidedOn.length ? Math.max(...decidedOn.map((o) => o.p)) : 1,
    pairs: 0,
    rounds: runs.length,
    look: 1,
    procedure: 'pool',
    df: 0,
    ...(on.length ? {} : { short: 'no run measured this comparison' }),
    // Measured on one boot everywhere: its interval cannot see the run effect, so the sentence gives no interval.
    ...(on.length && on.every((o) => (o.boots ?? MIN_BOOTS) < MIN_BOOTS)
      ? { short: `measured on one boot${machines > 1 ? ' of each machine' : ''}, which decides nothing` }
      : {}),
    pool: {
      runs: runs.length,
      machines,
      tau: taus.length ? +(taus.reduce((s, t) => s + t, 0) / taus.length).toFixed(4) : 0,
      tau_machine: prediction?.tau_machine ?? 0,
      prediction: prediction?.prediction ?? null,
      holds: where?.holds ?? 'open',
      where: where?.words ?? 'not measured',
      on_machines: on,
      estimates: runs.map((x) => ({ run: x.run, ratio: Math.exp(x.y), se: x.se })),
    },
  };
}

/**
 * A run on an unmeasured machine, once this comparison is measured on PREDICT_FROM_MACHINES machines (default
 * placement): its machines' means, a boot's runs merged as for the answers, with τr from the stated prior and τm
 * from a stated prior (stats/meta-analysis.ts statedMachinePrior), each learnt from this comparison's own boots and
 * machines; τm²/M in it, on a t of at most M − 1 df.
 */
function predicted(runs: RunEstimate[], boot: (run: string) => string) {
  const own = mergeBoots(
    runs.filter((r) => !r.machine.includes('|')),
    boot,
  );
  if (new Set(own.map((r) => r.machine)).size < PREDICT_FROM_MACHINES) return null;
  const r = poolRuns(own, statedMachinePrior()).at(0.95);
  return { prediction: r.prediction, tau_machine: r.tau_machine };
}

/**
 * Each machine left out in turn: the "holds on every machine measured" claims the runs of the other machines make, and
 * how the left-out machine's own runs (default placement) decide each of them: the same way, open, or the other way.
 * Both sides are pooled under the machines of every record (machineKeys): runs that recorded no host CPU stay a machine
 * apart from those that did, whichever machine is left out.
 */
export function leaveOneOut(
  records: KeptAnswers[],
  comparisons: Comparison[],
  today: Today | null,
  workload: string,
  marginPct: number,
  alpha: number = DECISION.alpha,
): NonNullable<PoolResult['leave_one_out']> {
  const pooled = poolAnswers(records, comparisons, today, workload, marginPct, alpha);
  const machines = [...new Set(pooled.runs.filter((r) => r.pooled && atDefault(r)).map((r) => r.machine))];
  if (machines.length < 2) return [];
  const keyOf = machineKeys(records);
  const pool = (some: KeptAnswers[]) => poolAnswers(some, comparisons, today, workload, marginPct, alpha, {}, keyOf);
  return machines.map((machine) => {
    const rest = pool(records.filter((k) => keyOf(k) !== machine));
    const alone = pool(records.filter((k) => keyOf(k) === machine && placementOf(k) === defaultPlacementOf(k)));
    const out = { machine, claims: 0, same: 0, open: 0, other_way: 0 };
    rest.answers.forEach((a, i) => {
      if (a.verdict !== 'faster' || a.pool.holds !== 'holds on every machine measured') return;
      out.claims++;
      const there = alone.answers[i]!.pool.on_machines[0];
      if (there?.verdict !== 'faster') out.open++;
      else if (there.ratio > 1 === a.ratio > 1) out.same++;
      else out.other_way++;
    });
    return out;
  });
}
