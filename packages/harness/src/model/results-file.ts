// The results file on disk: written atomically, read with its schema checked, published as
// results/latest. The types it holds are in results.ts.
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { WORKLOADS } from '@bench/stream';
import { type Answer, type Results, type RunRecord, upgradeRecord } from './results';

/** Write-then-rename, fsynced: a reader (or a kill -9) never sees a half-written file. */
export function writeJsonAtomic(file: string, value: unknown, indent: number | null = 2): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, `${JSON.stringify(value, null, indent ?? undefined)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export function readResults(file: string): Results {
  if (!existsSync(file))
    throw new Error(`${file} does not exist: name a run's folder (for example results/latest) or its results.json`);
  let r: Results;
  try {
    r = JSON.parse(readFileSync(file, 'utf8')) as Results;
  } catch (e) {
    throw new Error(`${file} is not valid JSON (${(e as Error).message}): measure again with npm run bench`);
  }
  const run = r as Partial<Results> | null;
  if (typeof run !== 'object' || run === null || Array.isArray(run) || !Array.isArray(run.contenders) || !run.settings)
    throw new Error(`${file} is not a results.json of npm run bench (no contenders or settings): give a run's folder`);
  if (r.schema !== 2)
    throw new Error(
      `${file} has results schema ${r.schema}, this version reads schema 2: measure again with npm run bench`,
    );
  const workload = r.settings.workload as string | undefined;
  if (workload !== undefined && !(WORKLOADS as readonly string[]).includes(workload))
    throw new Error(
      `${file} is a run of workload "${workload}", which this version does not know (${WORKLOADS.join(', ')}): ` +
        'read it with the checkout that measured it',
    );
  for (const a of [...(r.answers ?? []), ...(r.changes?.answers ?? [])])
    if (a.procedure) a.procedure = LEGACY_PROCEDURES[a.procedure] ?? a.procedure;
  for (const run of runsOf(r))
    for (const x of [run, ...(run.windows ?? [])]) upgradeRecord(x as never, r.settings?.workload ?? 'xrange');
  return r;
}

/** Every run the file holds: each point's, the ones thrown away, and the headline's (a copy of its point's on disk). */
const runsOf = (r: Results): RunRecord[] =>
  (r.contenders ?? []).flatMap((c) => [
    ...(c.runs ?? []),
    ...(c.points ?? []).flatMap((p) => [...p.runs, ...(p.discarded_runs ?? [])]),
  ]);

/** Answers recorded before the procedures' registry named them (stats/procedures.ts): each sentence → its name. */
const LEGACY_PROCEDURES: Record<string, Answer['procedure']> = {
  'moderated t on per-round log ratios (empirical Bayes)': 'moderated-t',
  'Wilcoxon signed-rank on per-round log ratios (Hodges–Lehmann)': 'signed-rank',
  'least squares on per-unit log ratios with a covariate (ANCOVA)': 'covariate-t',
  'random-effects pool of runs over the machines measured (empirical Bayes τ)': 'pool',
};

export const resultsFile = (dir: string) => join(dir, 'results.json');

/** A run's folder, given as the folder or as its results.json (--resume, --against's folder of a run). */
export const runFolder = (p: string): string => {
  const full = resolve(p);
  return basename(full) === 'results.json' && existsSync(full) && statSync(full).isFile() ? dirname(full) : full;
};

/**
 * A run's results.json, on one line: every window's record makes a published run's file megabytes, and indentation
 * doubled it (2.2 MB for a write run against 1.1 MB). Read it with the report, or `jq`.
 */
export const writeResults = (dir: string, results: Results): void => writeJsonAtomic(resultsFile(dir), results, null);
