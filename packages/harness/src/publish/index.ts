// The publish layer: a stored run analysed, and a finished run published. What it writes beyond the run's folder
// (results/latest*, results/runs/, pool.json, README.md, screenshots/) is written from here; the analysis it calls
// (answers/analysis.ts) reads no file, and the report (report/) renders.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type Analysis } from '../answers/analysis';
import type { KeptAnswers } from '../model/kept';
import type { Results } from '../model/results';
import { readResults, resultsFile, writeJsonAtomic } from '../model/results-file';
import { writeDistanceReport, writeReport, writeScalingReport, writeSweepSummary } from './files';
import type { ReportKind } from '../report/index';
import type { SweepOutcome } from '../run/sweep';
import { log } from '../system/progress';
import { KEPT_DIR } from '../system/paths';
import { keepAndPool, keptFor, publishedView, readKept } from './kept-runs';
import { publishLatest, publishReport } from './readme';

/**
 * The analysis of the run stored in `runDir`, from its results.json. `kept`: the kept runs its decided answers are
 * looked up in (none unless given); its noise is held against the repository's kept runs (results/runs/) either way.
 */
export const analyzeRun = (runDir: string, kept: KeptAnswers[] = []): Analysis =>
  analyzeStored(readResults(resultsFile(runDir)), kept);

/** A stored run's results analysed as analyzeRun does. */
export const analyzeStored = (results: Results, kept: KeptAnswers[] = []): Analysis =>
  analyze(results, kept, kept.length ? kept : readKept(KEPT_DIR));

/** Why a run is not kept, or null: the keeping rule (cli/keep.ts whyNotKept), passed down by the command. */
export type KeepRule = (r: Results) => string | null;

/**
 * A finished run published: copied to its place (`latest`, results/latest*). In the project's own results folder
 * (`own`) it is also kept in results/runs/ if `whyNotKept` keeps it, its answers then pooled with every kept run of
 * the same code, and its report, README blocks and screenshots written from that view; elsewhere, or not kept, its
 * folder keeps its own answers.
 */
export async function publishRun(
  runDir: string,
  analysis: Analysis,
  latest: string,
  own: boolean,
  whyNotKept: KeepRule,
): Promise<void> {
  publishLatest(runDir, latest);
  if (!own) return;
  const published = keepAndPool(analysis, KEPT_DIR, latest, whyNotKept);
  if (published !== analysis) await writeReport(latest, published);
  await publishReport(latest, published);
}

/**
 * `npm run report` on a published run's folder: its report and README blocks, answering from the kept runs' pool
 * when the keeping rule keeps the run (else from its own answers, as when it was published).
 */
export async function republish(dir: string, results: Results, whyNotKept: KeepRule): Promise<void> {
  const kept = keptFor(results, KEPT_DIR);
  const { analysis, pool } = publishedView(analyze(results, kept), kept, whyNotKept);
  // No pool now: a pool.json left from an earlier report would speak for answers the page no longer gives.
  if (pool) writeJsonAtomic(join(dir, 'pool.json'), pool);
  else rmSync(join(dir, 'pool.json'), { force: true });
  await writeReport(dir, analysis);
  await publishReport(dir, analysis);
}

/** A sweep's own report, over its runs' (each rendered as it ended). */
export async function reportSweep(out: SweepOutcome, kind: ReportKind): Promise<void> {
  const { parent } = out;
  if (out.kind === 'entries') {
    for (const dir of out.dirs) await writeReport(dir, analyzeRun(dir), kind);
    await writeScalingReport(parent, kind);
    const files = kind === 'full' ? 'scaling.json, scaling.md and scaling.png' : 'scaling.json and scaling.md';
    log(`results in ${parent}: ${files}, one run per size in entries-<n>/`);
  } else if (out.kind === 'redis-rtt') {
    await writeDistanceReport(parent, out.distance, kind);
    const files = kind === 'full' ? 'distance.json, distance.md and distance.png' : 'distance.json and distance.md';
    log(`results in ${parent}: ${files}, one run per RTT in rtt-<x>/`);
  } else {
    const files = out.summary ? await writeSweepSummary(parent, out.summary, kind) : [];
    const runs = `one run per value, each with its report: ${out.dirs.map((d) => `${d}/`).join(', ')}`;
    log(`results in ${parent}: ${[...files, runs].join(', ')}`);
  }
  log('(a sweep is not published)');
}
