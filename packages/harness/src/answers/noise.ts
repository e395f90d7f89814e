// A run's noise against the quietest kept run's, and what a longer budget would answer on this machine: the
// report's noise line, from the run's own figures.
import { type KeptAnswers, machineKind, NOISY_SD } from '../model/kept';
import type { Answer, Results } from '../model/results';
import jstat from 'jstat';

const probit = (q: number) => jstat.normal.inv(q, 0, 1);

/** The answers these figures read: each with its rounds to close, were it open. */
type Closing = Answer & { roundsToClose: number | null };

/**
 * The run a run's noise is held against: the quietest kept complete run (results/runs/, model/kept.ts) of the same
 * workload on the same kind of machine (CPU model and logical CPUs), or of the workload on any machine when none was
 * kept on this kind. Its figures are read from the kept record, never written here; docs/runs/ keeps the tables.
 */
export interface NoiseReference {
  /** Its sd between windows of one round. */
  sdWindows: number;
  /** When it started (ISO), its commit and its machine, as the kept record names them. */
  startedAt: string;
  commit: string;
  machine: string;
  /** Whether it ran on the same kind of machine as this run. */
  sameKind: boolean;
}

/** The quietest kept run of `r`'s workload other than `r` itself (null: none kept with a recorded noise). */
export function referenceOf(kept: KeptAnswers[], r: Results): NoiseReference | null {
  const e = r.environment;
  const kind = e ? machineKind(`${e.cpu_model}, ${e.logical_cpus} logical CPUs`) : null;
  const usable = kept.filter(
    (k) => k.workload === r.settings.workload && k.started_at !== r.started_at && Number.isFinite(k.sd_windows ?? NaN),
  );
  const same = usable.filter((k) => machineKind(k.machine) === kind);
  const pool = same.length ? same : usable;
  if (!pool.length) return null;
  const k = pool.reduce((q, x) => (x.sd_windows! < q.sd_windows! ? x : q));
  return {
    sdWindows: k.sd_windows!,
    startedAt: k.started_at,
    commit: k.commit,
    machine: k.machine,
    sameKind: same.length > 0,
  };
}

/** "Well above" the reference run's noise: more than this many times its sd between windows. */
export const NOISY_FACTOR = 1.25;
/** The longer budget the noise line prices, as a multiple of the run's own (15m → 45m). */
export const LONGER_BUDGET = 3;

/** A run's noise, and (when it is well above the reference run's) what a longer budget would answer. */
export interface Noise {
  /** sd between windows of one round, this run's; and the run it is held against (null: none kept). */
  sdWindows: number;
  reference: NoiseReference | null;
  /** sdWindows ≥ NOISY_SD, or above the reference's (aboveReference). */
  noisy: boolean;
  /** sdWindows > NOISY_FACTOR × the reference's: well above the quietest kept run. */
  aboveReference: boolean;
  /** Comparisons decided or equal, of how many (not out). */
  answered: number;
  of: number;
  /** The budget priced, in seconds, and about how many comparisons it would answer (null: no estimate). */
  budgetS: number;
  wouldAnswer: number | null;
}

/**
 * About how many more rounds would close an open comparison: its log interval narrows as 1/√rounds. Its
 * interval is at the level of "faster", 1 − α/m, which deciding needs; "equal" needs the one at 1 − 2α/m,
 * narrower by the ratio of the normal quantiles. `openAtEquals`: results whose open intervals are at
 * 1 − 2α/m already (decide.ts openAtEqualsLevel).
 */
export function roundsToClose(a: Answer, marginPct: number, openAtEquals = false): number | null {
  const e = Math.abs(Math.log(a.ratio));
  const half = (Math.log(a.hi) - Math.log(a.lo)) / 2;
  if (!Number.isFinite(half) || half <= 0 || !a.rounds) return null;
  const level = a.level ?? 0.95;
  const [atEquals, atHolm] = openAtEquals
    ? [half, (half * probit(1 - (1 - level) / 4)) / probit(1 - (1 - level) / 2)]
    : [(half * probit(level)) / probit((1 + level) / 2), half];
  const toDecide = e > 0 ? a.rounds * (atHolm / e) ** 2 : Infinity;
  const room = Math.log(1 + marginPct / 100) - e;
  const toBound = room > 0 ? a.rounds * (atEquals / room) ** 2 : Infinity;
  const need = Math.min(toDecide, toBound);
  return Number.isFinite(need) ? Math.max(1, Math.ceil(need - a.rounds)) : null;
}

/**
 * About how many comparisons a run of `budgetS` would answer on this machine, from this run's own figures: the open
 * comparisons' rounds to close (each from its own variance), and rounds added one at a time within the extra budget
 * (budgetS less what this run's budget was) and the round cap, each round measuring the contenders of the
 * comparisons still open at this run's cost per launch (windows × a window's seconds + a launch's seconds beyond
 * them). A round closes the comparisons whose rounds to close it reaches. Null when the run has no costs to price.
 */
export function answeredWithin(r: Results, answers: Closing[], budgetS: number): number | null {
  const d = r.design;
  const s = r.settings;
  const perLaunch = (s.windows ?? 1) * (d?.cost_window_s ?? NaN) + (d?.cost_launch_s ?? NaN);
  if (!Number.isFinite(perLaunch) || perLaunch <= 0) return null;
  const answered = answers.filter((a) => !a.out && a.verdict !== 'undecided').length;
  let open = answers.filter((a) => !a.out && a.verdict === 'undecided');
  // The round cap: --max-runs as given, or the default of 15 rounds per 15 minutes of budget (cli/args.ts).
  const byDefault = (b: number) => Math.max(15, Math.ceil((15 * b) / 900));
  const cap = s.max_runs === byDefault(s.budget_s) ? byDefault(budgetS) : s.max_runs;
  const rounds = r.schedule?.rounds ?? Math.max(0, ...answers.map((a) => a.rounds ?? 0));
  let left = budgetS - s.budget_s;
  let closed = 0;
  for (let k = 1; open.length && rounds + k <= cap; k++) {
    const cost = new Set(open.flatMap((a) => [a.a, a.b])).size * perLaunch;
    if (cost > left) break;
    left -= cost;
    const still = open.filter((a) => a.roundsToClose === null || a.roundsToClose > k);
    closed += open.length - still.length;
    open = still;
  }
  return answered + closed;
}

export function noiseOf(r: Results, answers: Closing[], reference: NoiseReference | null): Noise | null {
  const v = r.design?.t2_window;
  const live = answers.filter((a) => !a.out);
  if (v === undefined || !Number.isFinite(v) || !live.length) return null;
  const sdWindows = Math.sqrt(Math.max(0, v));
  const budgetS = LONGER_BUDGET * r.settings.budget_s;
  const above = reference !== null && sdWindows > NOISY_FACTOR * reference.sdWindows;
  return {
    sdWindows,
    reference,
    noisy: sdWindows >= NOISY_SD || above,
    aboveReference: above,
    answered: live.filter((a) => a.verdict !== 'undecided').length,
    of: live.length,
    budgetS,
    wouldAnswer: r.settings.runs === 'auto' ? answeredWithin(r, answers, budgetS) : null,
  };
}
