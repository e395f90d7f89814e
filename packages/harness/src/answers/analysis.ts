// One analysis pass over a run's results: every figure its report shows that takes more than
// formatting (the family's answers and what their sentences need, the fastest per question, the
// ranking, each contender's kept runs and their spread, the handicap check's sizing, the Redis
// ceilings' medians, the run's precision and conditions), computed once; a workload's own figures
// are its module's (workloads/), computed once per analysis on first use (workloads/types.ts once).
// The report (report/) is handed the Analysis and only renders it, as golang.org/x/perf's benchtab
// builds a comparison that texttab prints. Nothing here changes the results it reads.
import { aboutProcedure, PROCEDURES, type ProcedureAbout, type ProcedureName } from '../stats/procedures';
import { heldUp, keptOf, type HeldUp } from './held';
import type { KeptAnswers } from '../model/kept';
import type { PicksResult, PoolAnswer, PoolResult } from '../model/across-runs';
import { median } from 'simple-statistics';
import { familyOf, type Question } from '../model/questions';
import type { Answer, HandicapCheck, Results, RunRecord } from '../model/results';
import { spread } from '../stats/stats';
import { bound, DECISION, decidedByStepDown, look, openAtEqualsLevel, seenHalfTheTime, sides } from './decide';
import { burnBound, burnUs, loopBurnUs, loopShare, MAX_BUSY, type TwinCost, wallBurnUs } from './handicap';
import { FIRST_ROUNDS } from './racing';
import { aloneAt, aloneScale, type AloneScale } from './pair-design';
import { ranked, type RankedContender, type TopStacks, topOf } from './ranking';
import { keptRuns } from './verdicts';
import { noiseOf, referenceOf, roundsToClose, type Noise } from './noise';
import { type YoursFigures, yoursOf } from './yours';

/** An answer of the family with what its sentence says beyond it. */
export interface AnswerFigures extends Answer {
  /** The faster and slower side (read when it was decided "faster"). */
  sides: ReturnType<typeof sides>;
  /** The interval's largest distance from 1: the bound an "equal" answer rules out beyond. */
  bound: number;
  /** About how many more rounds would close it, were it open (null: no estimate). */
  roundsToClose: number | null;
  /** A pooled answer (answers/across-runs.ts): the runs and machines it rests on and where it holds. */
  pool?: PoolAnswer['pool'];
}

/**
 * A question of three or more members, read off its pairwise answers (a comparison with the best,
 * after Hsu): the members no other was decided faster than, and those decided slower than another.
 */
export interface Fastest {
  question: Question;
  best: string[];
  beaten: string[];
  /** One best, decided faster than each other member directly. */
  direct: boolean;
}

/**
 * How the handicap's burn was sized, read back from its figures: (1 + pct) × MAX_BUSY × wall − busy
 * (`busy`, burnUs's fill), or the bound burnUs took instead (`most`, `least`); --handicap's, by the
 * share of the time the event loop was taken (`loop`, loopBurnUs); in older results pct of the wall
 * time (`wall`), the wall time grown by pct less the busy time (`grown`), or pct of the CPU per
 * request (`cpu`).
 */
export type BurnSizing = 'busy' | 'most' | 'least' | 'loop' | 'wall' | 'grown' | 'cpu';

export interface HandicapFigures {
  check: HandicapCheck & { measured: NonNullable<HandicapCheck['measured']> };
  sizing: BurnSizing;
  /** The share of the time an event loop can be kept busy, as the sizing used it. */
  maxBusy: number;
  /** Sized by `loop`: the share of the wall time the event loop was taken, as the sizing read it. */
  loopShare?: number;
}

/** One server's Redis-alone ceiling (--servers: one each): its measurements and their medians. */
export interface RedisCeilingFigures {
  server: string | undefined;
  command: string;
  connections: number;
  rps: number[];
  medianRps: number;
  medianUsPerCall: number;
}

/** A ranked contender's kept launches: how many, and the spread of their req/s and CPU per request (null: under 2). */
export interface LaunchSpread {
  launches: number;
  rps: number | null;
  cpu: number | null;
}

/** How precise the run is: its dynamic contenders' spread of launches, and the family's interval widths (in %). */
export interface Precision {
  contenders: number;
  spread: { median: number; min: number; max: number };
  /** Half-widths of the family's ratio intervals: how many, and their median (NaN with none). */
  widths: { n: number; median: number };
}

/** The machine during the measured runs: CPU steal, the harness's own CPU, and the idle apps' CPU. */
export interface Conditions {
  steal: { median: number; max: number };
  harnessMax: number;
  /** Runs set aside for CPU steal, and the rounds left out after their re-measures. */
  redone: number;
  leftOut: number;
  /** % of a CPU the block's idle apps used while one app was measured (null: not recorded). */
  idle: { median: number; max: number } | null;
}

const aloneOf = (r: Results): AloneScale | null => {
  const k = aloneScale(r);
  return k === null ? null : aloneAt(k);
};

const PROCEDURE_ABOUT = Object.fromEntries(
  (Object.keys(PROCEDURES) as ProcedureName[]).map((n) => [n, aboutProcedure(n)]),
) as Record<ProcedureName, ProcedureAbout>;

export interface Analysis {
  /** The results as read: the analysis and the report leave them as they are. */
  results: Results;
  /** Rounds every contender gets before racing (racing.ts), as the method line states it. */
  firstRounds: number;
  /** The share of a difference alone that the changes' duets show, where sizes are read at it (pair-design.ts). */
  aloneScale: AloneScale | null;
  /**
   * Per pair of the changes (by its contender, `a`) with a finite interval: the change its test would decide about
   * half the time, as a share (decide.ts seenHalfTheTime). What an open pair's line says it could see.
   */
  changeSeen: Map<string, number>;
  /** The family's questions and answers: as recorded, or (results that record none) from one look at DECISION.alpha. */
  questions: Question[];
  answers: AnswerFigures[];
  /**
   * Its open answers stated at "equal"'s 1 − 2α/m, as earlier versions recorded them (decide.ts openAtEqualsLevel).
   */
  openAtEquals: boolean;
  /**
   * Its "faster" answers (and its changes') decided by Holm's step-down, as earlier versions did (decide.ts
   * decidedByStepDown).
   */
  stepDown: { answers: boolean; changes: boolean };
  /** The prior those answers were tested with; when the layout split the family, also at the side-by-side layout. */
  prior: Results['prior'];
  priorSideBySide: Results['prior_side_by_side'];
  /** Per question of three or more members: the fastest, or the members it is among. */
  fastest: Fastest[];
  /** The same for every question of two or more (the README's picks read the runtime and client questions). */
  leaders: Fastest[];
  /** The contenders that passed every gate, in order of their estimate, with their rank intervals. */
  ranked: RankedContender[];
  /** The fastest of them, and the others not yet separated from them (the README's first screen). */
  top: TopStacks | null;
  /** The same over the stacks at their libraries' defaults (no tuned setting). */
  topDefaults: TopStacks | null;
  /** Each contender's kept runs (no fault) of its first point, by name. */
  kept: Map<string, RunRecord[]>;
  /** Each ranked contender's launches and their spread, by name. */
  spreads: Map<string, LaunchSpread>;
  handicap: HandicapFigures[];
  redisCeilings: RedisCeilingFigures[];
  precision: Precision | null;
  conditions: Conditions | null;
  /** This run's noise against the quietest kept run's, and what a longer budget would buy (null: no design figures). */
  noise: Noise | null;
  /** How its decided answers held up in the other kept runs (held.ts), when it was given any. */
  elsewhere: HeldUp | null;
  /** The published view: the answers pooled over the kept runs (withPool), the runs it read and left out. */
  pool: Omit<PoolResult, 'answers'> | null;
  /** The first screen's answers (answers/picks.ts): over the kept runs, or this run alone; null until published. */
  picks: PicksResult | null;
  /** --app: the user's app beside the contenders measured with it (answers/yours.ts); null: not an --app run. */
  yours: YoursFigures | null;
  /** Each procedure as it describes itself (stats/procedures.ts): the report's sentences about how a test was made. */
  procedures: Record<ProcedureName, ProcedureAbout>;
  /**
   * The cost breakdown's model against the measured req/s, per contender with a breakdown: within MODEL_TOLERANCE, or
   * the app spending more than its parts did alone, or less.
   */
  modelGaps: Map<string, 'within' | 'more' | 'less'>;
  modelTolerance: number;
  /** --redis-rtt: the delay proxy's CPU over the measured windows, in % of a core (null: no proxy). */
  proxyCpuPct: number | null;
}

/** How far measured req/s may be from the breakdown model's prediction before the leftover is named as the gap. */
export const MODEL_TOLERANCE = 0.15;

/** Per contender with a breakdown: whether the model's prediction misses by more than MODEL_TOLERANCE, and how. */
function modelGaps(r: Results): Map<string, 'within' | 'more' | 'less'> {
  const out = new Map<string, 'within' | 'more' | 'less'>();
  for (const c of r.contenders) {
    const b = c.points[0]?.breakdown ?? c.breakdown;
    if (!b) continue;
    const within = Math.abs(b.measured_rps / b.predicted_rps - 1) <= MODEL_TOLERANCE;
    out.set(c.name, within ? 'within' : b.leftover_us > 0 ? 'more' : 'less');
  }
  return out;
}

/** Each change pair's seenHalfTheTime, by its contender, where its interval is finite. */
function changeSeen(r: Results): Map<string, number> {
  const out = new Map<string, number>();
  for (const a of r.changes?.answers ?? []) {
    const seen = seenHalfTheTime(a);
    if (seen !== null) out.set(a.a, seen);
  }
  return out;
}

/** The delay proxy's CPU over every measured window, in % of a core. */
function proxyCpuPct(r: Results): number | null {
  if (!r.data?.redis_rtt) return null;
  const runs = r.contenders.flatMap((c) => c.runs).filter((x) => x.proxy_cpu_s !== undefined);
  const seconds = runs.reduce((s, x) => s + x.seconds, 0);
  return seconds ? (100 * runs.reduce((s, x) => s + x.proxy_cpu_s!, 0)) / seconds : NaN;
}

/**
 * The family and its answers as recorded. Results that record no answers get them here, read once
 * as the file is analyzed: the family (recorded, or found from the contenders that passed), one
 * look at DECISION.alpha, and the prior that look fitted. They are kept in the analysis and not
 * written into the results: a family found afterwards does not say which pairs were measured side
 * by side, and the report says so from the results' own family.
 */
function familyAnswers(r: Results): Pick<Analysis, 'questions' | 'prior' | 'priorSideBySide'> & { answers: Answer[] } {
  if (r.family && r.answers)
    return { questions: r.family.questions, answers: r.answers, prior: r.prior, priorSideBySide: r.prior_side_by_side };
  const family = r.family ?? familyOf(r.contenders.filter((c) => c.status === 'ok'));
  const sink: Pick<Results, 'prior' | 'prior_side_by_side'> = {};
  const margin = r.settings.target_ci_pct ?? 10;
  const answers = look(r, family.comparisons, 1, DECISION.alpha, margin, [], { sink });
  return { questions: family.questions, answers, prior: sink.prior, priorSideBySide: sink.prior_side_by_side };
}

/**
 * Per question of three or more (which client on a runtime, which runtime for a stack): the
 * members no other was decided faster than, after the family's tested comparisons, so a pick
 * carries their error rate. Questions with an answer that cannot be given have none.
 */
export function fastestOf(questions: Question[], answers: Answer[], minMembers = 3): Fastest[] {
  return questions
    .filter((q) => q.members.length >= minMembers)
    .flatMap((q) => {
      const mine = answers.filter((a) => a.question === q.id);
      if (!mine.length || mine.some((a) => a.out)) return [];
      const beaten = new Set(mine.filter((a) => a.verdict === 'faster').map((a) => sides(a).loser));
      const best = q.members.filter((m) => !beaten.has(m));
      const direct =
        best.length === 1 &&
        mine.filter((a) => a.verdict === 'faster' && sides(a).winner === best[0]).length === q.members.length - 1;
      return [{ question: q, best, beaten: q.members.filter((m) => beaten.has(m)), direct }];
    });
}

/** A handicap's calibration as its burn's rules read it, where wall and busy time were recorded. */
function twinOf(h: HandicapCheck): TwinCost | null {
  const wall = h.wall_us_per_req;
  const busy = h.main_thread_us_per_req;
  const waitUs = h.main_thread_wait_us_per_req;
  return wall !== undefined && busy !== undefined
    ? { wallUs: wall, mainUs: busy, cpuUs: h.cpu_us_per_req, ...(waitUs !== undefined ? { waitUs } : {}) }
    : null;
}

/** Which rule sized a handicap's burn, from its recorded figures (the rules the project's results have used). */
function sizingOf(h: HandicapCheck, twin: TwinCost | null): BurnSizing {
  const wall = h.wall_us_per_req;
  if (twin && Math.abs(h.us - burnUs(twin, h.pct)) < 0.1) return burnBound(twin, h.pct) ?? 'busy';
  if (twin && Math.abs(h.us - loopBurnUs(twin, h.pct)) < 0.1) return 'loop';
  if (wall !== undefined && Math.abs(h.us - wallBurnUs({ wallUs: wall }, h.pct)) < 0.1) return 'wall';
  return twin ? 'grown' : 'cpu';
}

const handicapFigures = (r: Results): HandicapFigures[] =>
  (r.handicap ?? []).flatMap((h) => {
    if (!h.measured) return [];
    const twin = twinOf(h);
    const sizing = sizingOf(h, twin);
    const loop = sizing === 'loop' ? { loopShare: loopShare(twin!) } : {};
    return [{ check: { ...h, measured: h.measured }, sizing, maxBusy: MAX_BUSY, ...loop }];
  });

/** The Redis-alone ceilings, one per server, in the order the servers first appear. */
function redisCeilings(r: Results): RedisCeilingFigures[] {
  const redis = r.ceilings?.redis ?? [];
  return [...new Set(redis.map((x) => x.server))].map((server) => {
    const of = redis.filter((x) => x.server === server);
    const rps = of.map((x) => x.rps);
    return {
      server,
      command: of[0]!.command,
      connections: of[0]!.connections,
      rps,
      medianRps: median(rps),
      medianUsPerCall: median(of.map((x) => x.usec_per_call)),
    };
  });
}

/** (max − min) / median of the finite figures (not measured: a --target app's CPU), or null under two. */
function spreadOf(all: number[]): number | null {
  const xs = all.filter(Number.isFinite);
  return xs.length > 1 ? spread(xs) : null;
}

function launchSpreads(ranking: RankedContender[], kept: Map<string, RunRecord[]>): Map<string, LaunchSpread> {
  return new Map(
    ranking.map((c) => {
      const runs = kept.get(c.name) ?? [];
      const launches = new Set(runs.map((x) => x.pid)).size;
      return [
        c.name,
        { launches, rps: spreadOf(runs.map((x) => x.rps)), cpu: spreadOf(runs.map((x) => x.cpu_us_per_req)) },
      ];
    }),
  );
}

function precisionOf(ranking: RankedContender[], kept: Map<string, RunRecord[]>, answers: Answer[]): Precision | null {
  const dynamic = ranking.filter((c) => !c.static);
  if (!dynamic.length) return null;
  const spreads = dynamic.map((c) => spread((kept.get(c.name) ?? []).map((x) => x.rps)) * 100);
  const widths = answers
    .filter((a) => !a.out && Number.isFinite(a.lo) && a.lo > 0 && Number.isFinite(a.hi))
    .map((a) => (Math.sqrt(a.hi / a.lo) - 1) * 100);
  return {
    contenders: dynamic.length,
    spread: { median: median(spreads), min: Math.min(...spreads), max: Math.max(...spreads) },
    widths: { n: widths.length, median: widths.length ? median(widths) : NaN },
  };
}

/** Over every run measured, kept or not. */
function conditionsOf(r: Results): Conditions | null {
  const points = r.contenders.flatMap((c) => c.points);
  const runs = points.flatMap((p) => p.runs);
  const steal = runs.map((x) => x.cpu_steal_pct).filter(Number.isFinite);
  const harness = runs.map((x) => x.harness_cpu_pct).filter(Number.isFinite);
  if (!steal.length) return null;
  const redone = points.flatMap((p) => p.discarded_runs ?? []).filter((x) => x.fault?.startsWith('CPU steal')).length;
  const idle = runs
    .filter((x) => x.idle_cpu_s !== undefined && x.seconds > 0)
    .map((x) => (100 * x.idle_cpu_s!) / x.seconds);
  return {
    steal: { median: median(steal), max: Math.max(...steal) },
    harnessMax: Math.max(...harness),
    redone,
    leftOut: points.reduce((n, p) => n + (p.left_out ?? 0), 0),
    idle: idle.length ? { median: median(idle), max: Math.max(...idle) } : null,
  };
}

/**
 * Everything a run's report shows, computed once from its results (which it leaves as they are) and nothing else: it
 * reads no file. `kept`: the kept runs (model/kept.ts) its decided answers are looked up in; `reference`: the kept runs
 * its noise is held against (the same unless given; publish/index.ts analyzeRun gives the repository's).
 */
export function analyze(results: Results, kept: KeptAnswers[] = [], reference: KeptAnswers[] = kept): Analysis {
  const family = familyAnswers(results);
  const margin = results.settings.target_ci_pct;
  const openAtEquals = openAtEqualsLevel(results, family.answers);
  const answers = family.answers.map((a) => ({
    ...a,
    sides: sides(a),
    bound: bound(a),
    roundsToClose: roundsToClose(a, margin, openAtEquals),
  }));
  const ranking = ranked(results);
  const keptRunsOf = new Map<string, RunRecord[]>();
  for (const c of results.contenders) if (c.points[0]) keptRunsOf.set(c.name, keptRuns(c.points[0]));
  const noise = noiseOf(results, answers, referenceOf(reference, results));
  return {
    results,
    firstRounds: FIRST_ROUNDS,
    questions: family.questions,
    answers,
    openAtEquals,
    stepDown: {
      answers: decidedByStepDown(results.looks, family.answers),
      changes: decidedByStepDown(results.changes?.looks, results.changes?.answers ?? []),
    },
    prior: family.prior,
    priorSideBySide: family.priorSideBySide,
    fastest: fastestOf(family.questions, family.answers),
    leaders: fastestOf(family.questions, family.answers, 2),
    ranked: ranking,
    top: topOf(ranking),
    topDefaults: topOf(ranking, (c) => !c.tuned?.length),
    kept: keptRunsOf,
    spreads: launchSpreads(ranking, keptRunsOf),
    handicap: handicapFigures(results),
    aloneScale: aloneOf(results),
    changeSeen: changeSeen(results),
    procedures: PROCEDURE_ABOUT,
    modelGaps: modelGaps(results),
    modelTolerance: MODEL_TOLERANCE,
    proxyCpuPct: proxyCpuPct(results),
    redisCeilings: redisCeilings(results),
    precision: precisionOf(ranking, keptRunsOf, family.answers),
    conditions: conditionsOf(results),
    noise,
    elsewhere: kept.length ? heldUp(keptOf(results, answers, noise?.sdWindows ?? null), kept) : null,
    pool: null,
    picks: null,
    yours: yoursOf(results),
  };
}

/**
 * The published view of a run's analysis: its answers, and the picks read off them, replaced by the answers pooled over
 * every kept run (answers/across-runs.ts); the rest (its contenders, charts of its own runs, its check) is the run's.
 * The run's noise stays (its sd between windows is the machine's), without the longer budget's estimate, which is of
 * its own answers.
 */
export function withPool(an: Analysis, pool: PoolResult): Analysis {
  const answers = pool.answers.map((a) => ({ ...a, sides: sides(a), bound: bound(a), roundsToClose: null }));
  const { answers: _, ...rest } = pool;
  return {
    ...an,
    answers,
    fastest: fastestOf(an.questions, answers),
    leaders: fastestOf(an.questions, answers, 2),
    // The run's own precision, as the line beside it says (its launches' spread and its own answers' intervals); the
    // pooled answers' ranges, envelopes over machines, are another measure and are given with each answer.
    precision: an.precision,
    noise: an.noise && { ...an.noise, wouldAnswer: null },
    pool: rest,
    // The first screen's picks pooled as the answers are, where the page shows them: their α is taken from the page's.
    picks: pool.picks ?? null,
  };
}
