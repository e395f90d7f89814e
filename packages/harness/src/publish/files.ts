// What a report writes, written: report/ renders a run's analysis to files by name (report/index.ts), and these write
// them into a run's folder or a sweep's, with report.png drawn from the report.html just written. The one place a
// report's files reach the disk; the caller (cli/, publish/index.ts) names the folder.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis } from '../answers/analysis';
import type { DistanceSweep } from '../answers/sweeps';
import type { SweepSummary } from '../measure/workload';
import type { Scaling } from '../model/results';
import {
  distanceFiles,
  type ReportFiles,
  type ReportKind,
  chartFiles,
  scalingFiles,
  screenshotPng,
  sweepSummaryFiles,
  textFiles,
} from '../report/index';

/**
 * Each file into `dir`, whole or not at all (written beside it, then renamed over it: a kill mid-write leaves the old
 * file or none, never half of one); their names, in the order rendered.
 */
export function writeFiles(dir: string, files: ReportFiles): string[] {
  for (const [name, content] of Object.entries(files)) {
    const tmp = join(dir, `${name}.tmp-${process.pid}`);
    try {
      writeFileSync(tmp, content);
      renameSync(tmp, join(dir, name));
    } catch (e) {
      // Nothing left beside it (a folder of that name, a full disk): the file as it was, and the cause in one line.
      rmSync(tmp, { force: true });
      throw new Error(`${join(dir, name)} could not be written: ${(e as Error).message}`);
    }
  }
  return Object.keys(files);
}

/**
 * results.md and report.html, then the charts and report.png (a headless Chromium's screenshot of the page), next to
 * the run's results.json: the text first, so a chart that fails to draw leaves the answers written.
 */
export async function writeReport(runDir: string, an: Analysis, kind: ReportKind = 'full'): Promise<void> {
  writeFiles(runDir, textFiles(an, kind));
  if (kind === 'text') return;
  writeFiles(runDir, await chartFiles(an));
  const png = join(runDir, 'report.png');
  await screenshotPng(join(runDir, 'report.html'))
    .then((shot) => writeFiles(runDir, { 'report.png': shot }))
    .catch((e) => {
      // An older screenshot would show another page's answers beside this report.html.
      rmSync(png, { force: true });
      console.error(`report.png not written: ${(e as Error).message}`);
    });
}

/**
 * Before a folder's report is written as its run's own answers (a folder that is not a published place): a pool.json
 * beside it holds the pooled answers of a published view, which results.md would then contradict, so it is removed.
 * It is derived: `npm run report` on the published place, or `npm run pool`, writes it again. The line saying so, or
 * null when there was none.
 */
export function removePooled(runDir: string): string | null {
  const file = join(runDir, 'pool.json');
  if (!existsSync(file)) return null;
  rmSync(file);
  return (
    `removed ${file}: its pooled answers are not this report's, which gives the run's own (it is derived: ` +
    '`npm run report` on a published place or `npm run pool` writes one again)'
  );
}

/** scaling.md and scaling.png beside a --entries run's scaling.json. */
export async function writeScalingReport(dir: string, kind: ReportKind = 'full'): Promise<void> {
  const s = JSON.parse(readFileSync(join(dir, 'scaling.json'), 'utf8')) as Scaling;
  writeFiles(dir, await scalingFiles(s, kind));
}

/** A workload's own sweep summed up (its points, table and chart) beside its runs; the files' names. */
export async function writeSweepSummary(
  dir: string,
  summary: { of: SweepSummary; points: object[] },
  kind: ReportKind = 'full',
): Promise<string[]> {
  return writeFiles(dir, await sweepSummaryFiles(summary, kind));
}

/** --redis-rtt sweeps: the points, a table with the rank changes and a chart beside the runs. */
export async function writeDistanceReport(dir: string, sweep: DistanceSweep, kind: ReportKind = 'full'): Promise<void> {
  writeFiles(dir, await distanceFiles(sweep, kind));
}
