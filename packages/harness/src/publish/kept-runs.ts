// The published answers' pool: the kept runs (results/runs/), the runs a user names (results.json files or kept
// records, from any machine), each made a kept record with its contenders' inputs (recorded by the run, or recovered
// from its commit in git), and the view of a run's analysis whose answers are pooled over them
// (answers/across-runs.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type Analysis, withPool } from '../answers/analysis';
import { ANSWERS_PROCEDURE } from '../answers/decide';
import { handicapJudged } from '../answers/handicap';
import { keptOf } from '../answers/held';
import { familyShares, leaveOneOut, MIN_BOOTS, poolAnswers } from '../answers/across-runs';
import { picksFamily, poolPicks } from '../answers/picks';
import { APPS_DIR, loadSuite } from '../model/manifests';
import { keptName, type KeptAnswers } from '../model/kept';
import type { PoolResult, Today } from '../model/across-runs';
import type { Results } from '../model/results';
import { readResults, writeJsonAtomic } from '../model/results-file';
import { runtimeVersions } from '../measure/environment';
import { READS } from '../report/picks';
import { ROOT } from '../system/paths';
import { log } from '../system/progress';
import { placeOf } from '../workloads';
import { contenderInputs, inputsAtCommit, USED_SCHEME } from '../run/inputs';

/**
 * A run's kept record (schema 2). Results recorded before runs kept their inputs get them from their commit in this
 * repository, when the run was measured from a clean checkout of it (a dirty one's code is nowhere to read).
 */
export function recordOf(results: Results, an: Analysis = analyze(results)): KeptAnswers {
  const e = results.environment;
  // A check judged before it was judged as the answers are: judged again on its recorded windows, in a copy.
  const judged = results.handicap?.some(
    (h) => h.measured && (h.measured.procedure !== ANSWERS_PROCEDURE || h.measured.se === undefined),
  )
    ? rejudged(results)
    : results;
  const recovered =
    !e.inputs && !e.git_dirty
      ? (inputsAtCommit(
          ROOT,
          e.git_commit,
          results.contenders.map((c) => c.name),
          e.runtimes,
        )?.inputs ?? null)
      : null;
  return keptOf(judged, an.answers, an.noise?.sdWindows ?? null, recovered);
}

/**
 * Kept records without what each contender runs (inputs_used), or with it hashed by an older scheme (USED_SCHEME):
 * recovered from the run's commit in this repository, for each contender whose whole-package inputs, recomputed there
 * with today's runtime versions, equal the ones the run recorded (so the run's files were the commit's, and its
 * runtimes today's). Each record gets inputs_used for those contenders (today's scheme) and inputs_used_from 'git';
 * each is rewritten in place. Returns what changed.
 */
export function recoverUsedInputs(dir: string, repo = ROOT): Recovered[] {
  const runtimes = runtimeVersions();
  const out: Recovered[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const k = keptIn(join(dir, file));
    if (typeof k === 'string') {
      log(`${join(dir, file)} left out: ${k}`);
      continue;
    }
    if ((k.inputs_used_scheme ?? (k.inputs_used ? 1 : 0)) >= USED_SCHEME) continue;
    // No hashes recorded to check its commit's files against: nothing can be recovered, and it is said.
    if (!k.inputs || !k.commit) {
      out.push({ file, recovered: 0, of: 0, lacks: k.inputs ? 'its commit' : "its contenders' inputs" });
      continue;
    }
    const names = Object.keys(k.inputs);
    const at = inputsAtCommit(repo, k.commit, names, runtimes);
    const same = names.filter((n) => at?.inputs[n] !== undefined && at.inputs[n] === k.inputs![n]);
    out.push({ file, recovered: same.length, of: names.length });
    if (!same.length) continue;
    const used = Object.fromEntries(same.map((n) => [n, at!.used[n]!]));
    writeJsonAtomic(join(dir, file), {
      ...k,
      inputs_used: used,
      inputs_used_from: 'git',
      inputs_used_scheme: USED_SCHEME,
    });
  }
  return out;
}

const rejudged = (results: Results): Results => ({ ...results, handicap: handicapJudged(results) });

/** Today's inputs: every contender of this checkout, with the runtimes on PATH (both schemes: run/inputs.ts). */
export const checkoutInputs = (): Today => {
  const [cs, runtimes] = [loadSuite(APPS_DIR).contenders, runtimeVersions()];
  return {
    inputs: contenderInputs(cs, runtimes),
    used: contenderInputs(cs, runtimes, 'used'),
    used_scheme: USED_SCHEME,
  };
};

/**
 * The published view of a run: its answers pooled with every kept run whose contenders' inputs equal its own; the
 * run's own analysis (and no pool) when no other run counts for any comparison.
 */
export function pooledView(
  an: Analysis,
  kept: KeptAnswers[],
  fresh: KeptAnswers,
): { analysis: Analysis; pool: PoolResult | null } {
  const r = an.results;
  const others = kept.filter((k) => k.started_at !== fresh.started_at);
  // The run kept: its inputs as its record holds them now (recovered since in today's scheme: recoverUsedInputs).
  const self = kept.find((k) => k.started_at === fresh.started_at);
  const { inputs, inputs_used, inputs_used_scheme } = self ?? fresh;
  const own = { ...fresh, inputs, inputs_used, inputs_used_scheme };
  const used = own.inputs_used ? { used: own.inputs_used, used_scheme: own.inputs_used_scheme ?? 1 } : {};
  const today = own.inputs ? { inputs: own.inputs, ...used } : null;
  const margin = r.settings.target_ci_pct;
  const family = r.family?.comparisons ?? [];
  // The page's α split between the answers and the first screen's picks, where the page shows them
  // (answers/across-runs.ts familyShares).
  const shown = showsPicks(r);
  const alpha = familyShares(family.length, shown ? picksFamily(r.contenders).length : 0);
  const pool = poolAnswers([...others, own], family, today, r.settings.workload, margin, alpha.answers);
  pool.inputs_of = { source: 'run', commit: r.environment.git_commit, dirty: r.environment.git_dirty };
  const picks = shown
    ? poolPicks([...others, own], r.contenders, today, r.settings.workload, margin, alpha.picks)
    : null;
  // With no other run of the same code, or none on another boot (a boot decides nothing on its machine), the run's own.
  const pooled = pool.runs.slice(0, -1).some((x) => x.pooled > 0);
  if (!pooled || pool.priors.every((p) => p.boots < MIN_BOOTS))
    return { analysis: picks ? { ...an, picks } : an, pool: null };
  const loo = leaveOneOut([...others, own], family, today, r.settings.workload, margin, alpha.answers);
  if (loo.length) pool.leave_one_out = loo;
  if (picks) pool.picks = picks;
  return { analysis: { ...withPool(an, pool), picks }, pool };
}

/** Whether a run's page shows the first screen's picks: a run published where the reads are (report/picks.ts READS). */
export const showsPicks = (r: Results) => placeOf(r.settings)?.block === READS.block;

/**
 * A run's published view when the keeping rule (`whyNotKept`, cli/keep.ts) keeps it: pooled with `kept`, the runs kept
 * before it. When it does not (a part of the suite, another question): its own answers and picks, no pool.
 */
export function publishedView(
  an: Analysis,
  kept: KeptAnswers[],
  whyNotKept: (r: Results) => string | null,
): { analysis: Analysis; pool: PoolResult | null; record: KeptAnswers | null } {
  const record = recordOf(an.results, an);
  if (whyNotKept(an.results)) return { ...pooledView(an, [], record), record: null };
  return { ...pooledView(an, kept, record), record };
}

/**
 * A run published in the project's own results folder: kept in `keptDir` when the keeping rule keeps it, and pooled
 * with the runs kept before it (publishedView); pool.json written beside the published run when the pool counts any
 * of them.
 */
export function keepAndPool(
  an: Analysis,
  keptDir: string,
  latest: string,
  whyNotKept: (r: Results) => string | null,
): Analysis {
  const { analysis, pool, record } = publishedView(an, keptFor(an.results, keptDir), whyNotKept);
  if (record) writeKept(keptDir, record);
  if (pool) writeJsonAtomic(join(latest, 'pool.json'), pool);
  return analysis;
}

export interface Gathered {
  records: KeptAnswers[];
  /** The newest results.json read, whose family and report the pool's report takes. */
  newest: { dir: string; results: Results } | null;
  skipped: { path: string; why: string }[];
}

const isKept = (x: unknown): x is KeptAnswers =>
  !!x &&
  typeof x === 'object' &&
  'started_at' in x &&
  'answers' in x &&
  'workload' in x &&
  !('schema' in x && (x as { schema: unknown }).schema !== 2);

/** A kept record's inputs_used recovered from its commit: how many of its contenders, or what it lacks for it. */
export interface Recovered {
  file: string;
  recovered: number;
  of: number;
  lacks?: string;
}

/**
 * Every run under `paths`: a results.json (in a folder named, or in folders below it, three levels at most) or a kept
 * record (a .json of results/runs/ kind). A run found twice (its results.json and its record) counts once, from its
 * results.json. Incomplete runs and runs of a part of the suite are skipped with the reason.
 */
export function gatherRuns(paths: string[], notKept: (r: Results) => string | null): Gathered {
  const byStart = new Map<string, KeptAnswers>();
  const fromResults = new Set<string>();
  const skipped: Gathered['skipped'] = [];
  let newest: Gathered['newest'] = null;
  // A file that is not valid JSON is said, wherever it was found; one that is JSON of another kind (a pool.json beside
  // the runs) only when it was named.
  const take = (file: string, named = false) => {
    if (file.endsWith('results.json')) {
      let r: Results;
      try {
        r = readResults(file);
      } catch (e) {
        return void skipped.push({ path: file, why: (e as Error).message });
      }
      const why = notKept(r);
      if (why) return void skipped.push({ path: file, why });
      byStart.set(r.started_at, recordOf(r));
      fromResults.add(r.started_at);
      if (!newest || r.started_at > newest.results.started_at) newest = { dir: join(file, '..'), results: r };
      return;
    }
    let x: unknown;
    try {
      x = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      return void skipped.push({ path: file, why: `not valid JSON (${(e as Error).message})` });
    }
    if (!isKept(x)) {
      if (named) skipped.push({ path: file, why: 'neither a kept record nor a results.json' });
      return;
    }
    if (!fromResults.has(x.started_at)) byStart.set(x.started_at, x);
  };
  const walk = (p: string, depth: number) => {
    if (!statSync(p).isDirectory()) return take(p, depth === 0);
    if (existsSync(join(p, 'results.json'))) take(join(p, 'results.json'));
    if (depth >= 3) return;
    for (const d of readdirSync(p).sort()) {
      const q = join(p, d);
      if (d === 'node_modules' || d.startsWith('.') || d === 'raw') continue;
      if (statSync(q).isDirectory()) walk(q, depth + 1);
      else if (d.endsWith('.json') && d !== 'results.json') take(q);
    }
  };
  // Results first, so that a run's own results.json is preferred over its kept record.
  for (const p of paths) walk(p, 0);
  const records = [...byStart.values()].sort((a, b) => a.started_at.localeCompare(b.started_at));
  return { records, newest, skipped };
}

/** The start a kept file records, or null when it cannot be read (then it is another run's, and kept). */
function startedAt(file: string): string | null {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as Partial<KeptAnswers>).started_at ?? null;
  } catch {
    return null;
  }
}

/**
 * Keeps `k` in `dir`. Another run of the same day, machine and commit (run again, or with another placement) is kept
 * beside the one there, its start's time added to the name, never over it; the same run kept again replaces itself.
 */
export function writeKept(dir: string, k: KeptAnswers): string {
  let file = join(dir, keptName(k));
  if (existsSync(file) && startedAt(file) !== k.started_at)
    file = file.replace(/\.json$/, `-${k.started_at.slice(11, 19).replaceAll(':', '')}.json`);
  writeJsonAtomic(file, k);
  return file;
}

/**
 * The kept runs in `dir` a published run's decided answers are held up against: none for a run with Redis at a network
 * distance, whose answers are of another question (and which is never kept itself: notKept).
 */
export function keptFor(r: Results, dir: string): KeptAnswers[] {
  return (r.settings.redis_rtt_ms ?? 0) > 0 ? [] : readKept(dir);
}

/** The kept record in `file`, or why it is none (not JSON, or JSON of another kind). */
export function keptIn(file: string): KeptAnswers | string {
  let x: unknown;
  try {
    x = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return `not valid JSON (${(e as Error).message})`;
  }
  return isKept(x) ? x : 'not a kept record';
}

/**
 * Every kept run in `dir` (none when it does not exist), oldest first. A file there that is no kept record is left out,
 * said in one line naming it and the fix: the report and the end of a run go on without it.
 */
export function readKept(dir: string): KeptAnswers[] {
  if (!existsSync(dir)) return [];
  const out: KeptAnswers[] = [];
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.json'))) {
    const k = keptIn(join(dir, f));
    if (typeof k !== 'string') out.push(k);
    else log(`${join(dir, f)} left out: ${k}; move it out of ${dir}, or keep its run again (${KEEP_AGAIN})`);
  }
  return out.sort((x, y) => x.started_at.localeCompare(y.started_at));
}

/** How a run is kept again from its folder. */
const KEEP_AGAIN = 'npm run report -- --keep <its results folder>';
