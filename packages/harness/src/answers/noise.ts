// A run's noise against the published run's, and what a longer budget would answer on this machine: the
// report's noise line, from the run's own figures.
import type { Answer, Results } from '../model/results';

/** The answers these figures read: each with its rounds to close, were it open. */
type Closing = Answer & { roundsToClose: number | null };

/**
 * The published default run's sd of the paired difference ln A − ln B between windows of one round (its design
 * line): results/latest of 2026-11-25T19:03:56Z, commit bf313922e5, a 2-vCPU AMD EPYC VM, 9.9%. Earlier default
 * runs on the same kind of VM measured 12.8% and 13.7% (docs/runs/tests-before-the-moderated-t.md,
 * docs/runs/noise-and-design.md) and answered fewer comparisons in their budget.
 */
export const PUBLISHED_SD_WINDOWS = 0.099;
/** "Well above" the published run's noise: more than this many times its sd between windows (12.4% and up). */
export const NOISY_FACTOR = 1.25;
/** The longer budget the noise line prices, as a multiple of the run's own (15m → 45m). */
export const LONGER_BUDGET = 3;

/** A run's noise, and (when it is well above the published run's) what a longer budget would answer. */
export interface Noise {
  /** sd between windows of one round, this run's and the published run's. */
  sdWindows: number;
  published: number;
  /** sdWindows > NOISY_FACTOR × published. */
  noisy: boolean;
  /** Comparisons decided or equal, of how many (not out). */
  answered: number;
  of: number;
  /** The budget priced, in seconds, and about how many comparisons it would answer (null: no estimate). */
  budgetS: number;
  wouldAnswer: number | null;
}

/** About how many more rounds would close an open comparison: its log interval narrows as 1/√rounds. */
export function roundsToClose(a: Answer, marginPct: number): number | null {
  const e = Math.abs(Math.log(a.ratio));
  const half = (Math.log(a.hi) - Math.log(a.lo)) / 2;
  if (!Number.isFinite(half) || half <= 0 || !a.rounds) return null;
  const toDecide = e > 0 ? a.rounds * (half / e) ** 2 : Infinity;
  const room = Math.log(1 + marginPct / 100) - e;
  const toBound = room > 0 ? a.rounds * (half / room) ** 2 : Infinity;
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

export function noiseOf(r: Results, answers: Closing[]): Noise | null {
  const v = r.design?.t2_window;
  const live = answers.filter((a) => !a.out);
  if (v === undefined || !Number.isFinite(v) || !live.length) return null;
  const sdWindows = Math.sqrt(Math.max(0, v));
  const budgetS = LONGER_BUDGET * r.settings.budget_s;
  return {
    sdWindows,
    published: PUBLISHED_SD_WINDOWS,
    noisy: sdWindows > NOISY_FACTOR * PUBLISHED_SD_WINDOWS,
    answered: live.filter((a) => a.verdict !== 'undecided').length,
    of: live.length,
    budgetS,
    wouldAnswer: r.settings.runs === 'auto' ? answeredWithin(r, answers, budgetS) : null,
  };
}
