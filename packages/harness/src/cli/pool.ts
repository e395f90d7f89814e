// npm run pool: the answers pooled over runs from anywhere (answers/across-runs.ts); what it reads and writes: HELP
// below.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { analyze, withPool } from '../answers/analysis';
import { familyShares, leaveOneOut, poolAnswers } from '../answers/across-runs';
import { picksFamily, poolPicks } from '../answers/picks';
import { whyNotKept } from './keep';
import { atDefault, type PoolResult, type Today } from '../model/across-runs';
import type { KeptAnswers } from '../model/kept';
import type { Comparison } from '../model/questions';
import type { Results } from '../model/results';
import { writeJsonAtomic } from '../model/results-file';
import { gitState } from '../measure/environment';
import { hiddenCpus, notPooled, poolAnswerLines, pooledNothing, whereCounts } from '../report/across-runs';
import { writeReport } from '../publish/files';
import { checkoutInputs, gatherRuns, keptIn, recoverUsedInputs, showsPicks } from '../publish/kept-runs';
import { KEPT_DIR, ROOT } from '../system/paths';
import { outFolderProblem, parseArgsError, withDashValues } from './flags';
import { printedHelp } from './usage-error';

const USAGE = 'usage: npm run pool -- PATH… [--kept] [--out DIR] [--any-inputs] | --recover-inputs';
const HELP = `${USAGE}
  PATH          a run's folder (its results.json), a folder of runs (several machines' results/ folders, or runs
                users sent in), or a kept record (results/runs/*.json). A run counts for a comparison when both its
                contenders' inputs equal this checkout's.
  --kept        add the runs kept in results/runs/
  --out DIR     where the report goes (default results/pool)
  --any-inputs  pool every run as if its inputs were this checkout's (runs of other code: say so when quoting)
  --recover-inputs  give the kept records of results/runs/ made before runs recorded what each contender runs
                (inputs_used) those hashes, recovered from each run's commit in git for every contender whose
                whole-package inputs recomputed there equal the ones the run recorded; then exit
  --help        this help
It writes pool.json, and from the newest results.json among the runs the same report a run has (results.md, the
charts, report.html) with the pooled answers; with kept records alone, pool.md. With a results.json among them, the
first screen's picks take a share of the 5%, so the answers are decided at a stricter level than from the kept records
alone (a comparison may be answered in one and open in the other). With no run that counts for any comparison (none
found, each skipped, or none of the same inputs), it says why and exits 2, writing nothing.`;

/**
 * Why --out cannot take the pool's report: a run's own folder (its report would be replaced), the kept records'
 * folder or one holding a record (the report would sit among them), or a folder the system will not make.
 */
function outProblem(out: string): string | null {
  if (existsSync(join(resolve(out), 'results.json')))
    return `--out ${out} holds a run (its results.json): the pool's report would replace it; give another folder`;
  const kept = keptFolder(resolve(out));
  if (kept)
    return `--out ${out} holds kept records (${kept}): the pool's report would sit among them; give another folder`;
  return outFolderProblem(out, resolve(out));
}

/** What a PATH may be. */
const RUN_KINDS = "a run's folder, a folder of runs or a kept record";

/** Where `dir` is results/runs/ (or under it), or holds a kept record: what it holds, else null. */
function keptFolder(dir: string): string | null {
  if (dir === KEPT_DIR || dir.startsWith(`${KEPT_DIR}/`)) return 'results/runs/, where runs are kept';
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return null;
  const records = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'pool.json');
  const one = records.find((f) => typeof keptIn(join(dir, f)) !== 'string');
  return one ? `${one}, a kept run's record` : null;
}

/**
 * What to say when no run was read, in one line (and each skipped run's own line before it), else null. One file named
 * that cannot be pooled is that file's line; a folder named keeps its skipped runs' lines (an interrupted run's folder
 * is a run's folder, not "no run").
 */
function nothingRead(paths: string[], read: number, skipped: { path: string; why: string }[]): string | null {
  const file = paths.length === 1 && !statSync(paths[0]!).isDirectory();
  if (file && !read && skipped.length === 1 && skipped[0]!.path === paths[0])
    return `error: ${skipped[0]!.path} cannot be pooled (${skipped[0]!.why}); name ${RUN_KINDS}`;
  for (const s of skipped) console.error(`skipped ${s.path}: ${s.why}`);
  return read ? null : noRun(skipped.length);
}

async function main(): Promise<number> {
  if (printedHelp(process.argv.slice(2), HELP)) return 0;
  let args;
  try {
    const options = {
      out: { type: 'string' },
      'any-inputs': { type: 'boolean' },
      kept: { type: 'boolean' },
      'recover-inputs': { type: 'boolean' },
    } as const;
    args = parseArgs({ args: withDashValues(process.argv.slice(2), options), options, allowPositionals: true });
  } catch (e) {
    console.error(`error: ${parseArgsError(e as Error)}; ${USAGE}`);
    return 2;
  }
  const { values: v, positionals } = args;
  if (v['recover-inputs']) {
    const extra = [...positionals, ...(v.out ? ['--out'] : []), ...(v.kept ? ['--kept'] : [])];
    if (extra.length) {
      console.error(`error: --recover-inputs works on results/runs/ alone; leave out ${extra.join(', ')}`);
      return 2;
    }
    const recovered = recoverUsedInputs(KEPT_DIR);
    for (const r of recovered)
      console.log(
        r.of
          ? `${r.file}: ${r.recovered} of ${r.of} contenders' inputs_used recovered from its commit`
          : `${r.file}: recorded no ${r.lacks?.replace(/^its /, '')} to recover from: none recovered`,
      );
    if (!recovered.length) console.log("nothing to recover: every kept record has its contenders' inputs_used");
    return 0;
  }
  const outBad = v.out === undefined ? null : outProblem(v.out);
  if (outBad) {
    console.error(`error: ${outBad}`);
    return 2;
  }
  const paths = [...positionals.map((p) => resolve(p)), ...(v.kept ? [KEPT_DIR] : [])];
  if (!paths.length) {
    console.error(`error: no runs named; ${USAGE}`);
    return 2;
  }
  const missing = paths.find((p) => !existsSync(p));
  if (missing) {
    console.error(`error: ${missing} does not exist; name ${RUN_KINDS}`);
    return 2;
  }
  const { records, newest, skipped } = gatherRuns(paths, whyNotKept);
  const none = nothingRead(paths, records.length, skipped);
  if (none) {
    console.error(none);
    return 2;
  }
  return await poolAndWrite(records, newest?.results ?? null, v['any-inputs'] ? null : checkoutInputs(), v.out);
}

/**
 * The records pooled on the family of the newest results.json among them (else the newest record's answers), pool.json
 * and the report written to `outDir`; 2 when no run counts for any comparison.
 */
async function poolAndWrite(
  records: KeptAnswers[],
  newest: Results | null,
  today: Today | null,
  outDir: string | undefined,
): Promise<number> {
  const last = records.at(-1)!;
  const comparisons: Comparison[] =
    newest?.family?.comparisons ??
    last.answers.map((x) => ({ id: x.id ?? `${x.a} vs ${x.b}`, question: x.question ?? '', a: x.a, b: x.b }));
  const workload = newest?.settings.workload ?? last.workload;
  const margin = newest?.settings.target_ci_pct ?? 10;
  const shown = newest && showsPicks(newest) ? picksFamily(newest.contenders).length : 0;
  const alpha = familyShares(comparisons.length, shown);
  const pool = poolAnswers(records, comparisons, today, workload, margin, alpha.answers);
  if (!pool.runs.some((r) => r.pooled)) {
    console.error(noneCounts(pool, !!today));
    return 2;
  }
  if (today) pool.inputs_of = { source: 'checkout', ...gitState() };
  const loo = leaveOneOut(records, comparisons, today, workload, margin, alpha.answers);
  if (loo.length) pool.leave_one_out = loo;
  const picks = shown && newest && poolPicks(records, newest.contenders, today, workload, margin, alpha.picks);
  if (picks) pool.picks = picks;
  const out = resolve(outDir ?? join(ROOT, 'results/pool'));
  try {
    mkdirSync(out, { recursive: true });
  } catch (e) {
    console.error(`error: ${out} could not be made (${(e as Error).message}); give --out a folder you can write`);
    return 2;
  }
  writeJsonAtomic(join(out, 'pool.json'), pool);
  const cpus = hiddenCpus(pool).trim();
  summarize(pool, cpus);
  await writePooled(out, pool, newest, cpus);
  return 0;
}

/** No run read: none found, or every one found skipped (each said above, with why). */
function noRun(skipped: number): string {
  if (!skipped)
    return (
      'error: no complete run found under the paths given (searched three folders deep below each); name folders ' +
      'holding a results.json, or nearer to them'
    );
  const each =
    skipped === 1
      ? '1 run found under the paths given, skipped (the reason above)'
      : `${skipped} runs found under the paths given, each skipped (the reasons above)`;
  return `error: nothing to pool: ${each}`;
}

/** Runs read, and none counts for any comparison: why, by reason, in one line (nothing written). */
function noneCounts(pool: PoolResult, checkout: boolean): string {
  const idle = pooledNothing(pool.runs);
  // Runs of other inputs than this checkout's count with --any-inputs (to be said when quoted).
  const changed = checkout && pool.runs.some((r) => !r.left_out);
  const other = changed ? "; --any-inputs pools runs of other inputs as if they were this checkout's" : '';
  return `error: no run counts for any comparison: ${idle.text}${other}`;
}

/**
 * One line per run that counts (what it counted in, and which contenders changed since), one for those that count in
 * nothing (how many, by reason; pool.json lists each), and the family's tally.
 */
function summarize(pool: PoolResult, cpus: string): void {
  for (const r of pool.runs) {
    if (!r.pooled) continue;
    const not = notPooled(r);
    const why = not ? ` (${not})` : '';
    console.log(`${r.started_at} ${r.commit.slice(0, 7)} ${r.machine}: ${r.pooled} comparisons pooled${why}`);
  }
  const idle = pooledNothing(pool.runs);
  if (idle.count)
    console.log(
      `${idle.count} other run${idle.count === 1 ? '' : 's'} pooled nothing (each in pool.json): ${idle.text}`,
    );
  const n = (w: string) => pool.answers.filter((a) => a.verdict === w).length;
  const s = (k: number) => (k === 1 ? '' : 's');
  const counted = pool.runs.filter((r) => r.pooled).length;
  // As the page counts them: "open" is not decided on every machine, and those decided on some are said apart.
  const some = pool.answers.filter((a) => a.pool?.holds === 'depends on the machine').length;
  console.log(
    `${pool.answers.length} comparisons over ${counted} run${s(counted)} on ${pool.machines} ` +
      `machine${s(pool.machines)}: ${n('faster')} decided, ${n('equal')} equal, ${n('undecided')} open` +
      (some ? ` (${some} of them decided on some machines only)` : ''),
  );
  if (pool.machines > 1) console.log(`  where: ${whereCounts(pool)}`);
  // Per machine (configuration): what it rests on, and what it answered; one boot decides nothing (MIN_BOOTS).
  for (const p of pool.priors)
    console.log(
      `  ${p.machine}${atDefault(p) ? '' : ` (${p.placement})`}: ${p.runs} run${s(p.runs)} on ` +
        `${p.boots} boot${s(p.boots)} (${p.contended_boots} contended), ${p.answered} of ${p.asked} answered` +
        (p.boots < pool.run_prior.min_boots
          ? ` (${p.boots === 1 ? 'one boot decides' : `${p.boots} boots decide`} nothing: add a run of it after ` +
            'a reboot, or from another VM of its kind)'
          : ''),
    );
  if (cpus) console.log(`  ${cpus}`);
}

/**
 * What an earlier pool into the same folder wrote of the other kind, removed: its pool.md beside a report, or its
 * report (results.md, the charts it links, report.html, report.png) beside a pool.md: either would contradict
 * pool.json.
 */
function removeOtherKind(out: string, kind: 'report' | 'answers'): void {
  if (kind === 'report') {
    rmSync(join(out, 'pool.md'), { force: true });
    return;
  }
  const md = join(out, 'results.md');
  const charts = existsSync(md) ? [...readFileSync(md, 'utf8').matchAll(/!\[[^\]]*\]\(\.\/([\w.-]+\.png)\)/g)] : [];
  for (const f of ['results.md', 'report.html', 'report.png', ...charts.map((m) => m[1]!)])
    rmSync(join(out, f), { force: true });
}

/** The report of the newest run among them with the pooled answers; with kept records alone, pool.md. */
async function writePooled(out: string, pool: PoolResult, newest: Results | null, cpus: string): Promise<void> {
  removeOtherKind(out, newest ? 'report' : 'answers');
  if (newest) {
    // The pooled answers, and the picks pooled with them where the page shows them (withPool: pool.picks).
    await writeReport(out, withPool(analyze(newest), pool));
    console.log(`report written: ${join(out, 'results.md')}, ${join(out, 'report.html')}`);
    return;
  }
  // Each answer, and on each machine (configuration) what it said, its ratio and interval there, from how many runs.
  const lines = poolAnswerLines(pool);
  writeFileSync(join(out, 'pool.md'), `${cpus ? `${cpus}\n\n` : ''}${lines.join('\n')}\n`);
  console.log(`written: ${join(out, 'pool.md')} (no results.json among the runs: the answers only)`);
}

try {
  process.exit(await main());
} catch (e) {
  console.error(`error: ${(e as Error).message}`);
  process.exit(1);
}
