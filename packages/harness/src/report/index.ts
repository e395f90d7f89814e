// Reports render one run's analysis (answers/analysis.ts, computed once from its results.json by
// the caller) as markdown, charts, report.html and the README section. Nothing here computes a
// figure or reaches back into a run. What a published run writes beyond its folder (README.md, screenshots/):
// publish/readme.ts.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Analysis } from '../answers/analysis';
import type { DistanceSweep } from '../answers/sweeps';
import type { SweepSummary } from '../measure/workload';
import { writeJsonAtomic } from '../model/results-file';
import { scalingSpec, scalingTable } from './scaling';
import { sectionsOf } from './sections';
import { distancePicks, picksSection, publishedAt, READS } from './picks';
import { besideThePicks, machineSection, picksScreen, speedSection } from './first-screen';
import { heldLine } from './held';
import { poolLine } from './across-runs';
import { type Publication, workloadOfRun } from '../workloads';
import { charts } from './charts';
import { reportHtml } from './html';
import { distanceSpec, distanceTable } from './distance';
import { contenderLines } from './lines';
import type { Scaling } from '../model/results';
import type { TopLevelSpec } from 'vega-lite';

// The drawing libraries (vega, resvg) and the browser (playwright) load only when a chart or report.png is drawn: a
// text report, a refused flag or --help starts without them, about 0.3 s sooner.
const renderPng = async (spec: TopLevelSpec) => (await import('./render')).renderPng(spec);
const screenshotReport = async (html: string, png: string) => (await import('./browser')).screenshotReport(html, png);

export function markdown(an: Analysis, imageDir: string | null): string {
  const images =
    imageDir !== null &&
    Object.keys(charts(an))
      .map((f) => `![${f}](${imageDir}${f})`)
      .join('\n');
  return `${[...sectionsOf(an).map((s) => s.md), images].filter(Boolean).join('\n\n')}\n`;
}

/** The README block's last line: where the rest of the run is. */
function reportLink(dir: string): string {
  const answers = `results/${dir}/results.md`;
  return (
    `Every table, chart and the method of this run: [${answers}](${answers}); ` +
    "sortable and filterable, with each run's raw oha JSON, in " +
    `[results/${dir}/report.html](results/${dir}/report.html) ` +
    `(\`npm run report -- --open results/${dir}\` prints its path).`
  );
}

/**
 * A README block: how fast the fastest stacks are and the overall answer (first-screen.ts), the picks in plain words
 * (picks.ts), the machine and its noise, the run in one line, and where the rest is; the answers, tables and charts
 * are in results.md and report.html. A write run adds its accounting.
 */
export function readmeSection(an: Analysis): string {
  const r = an.results;
  const place = publishedAt(an);
  const e = r.environment;
  const run =
    `Run ${r.started_at}, commit ${e.git_commit.slice(0, 10)}, on ${e.cpu_model} with ${e.logical_cpus} logical ` +
    `CPUs (${e.kernel}).`;
  // The run and where the rest of it is, in one paragraph.
  const where = `${run} ${reportLink(place.dir)}`;
  // A run at a network distance (its place names the distance): what the distance changes, the strategies' costs.
  const own = (far: boolean) => workloadOfRun(r.settings).readme(an, far);
  const parts =
    'rttMs' in place
      ? [distancePicks(an, place.rttMs as number), ...own(true), where]
      : firstScreen(an)
        ? [picksScreen(an)]
        : [speedSection(an), picksSection(an), machineSection(an), poolLine(an), ...own(false), heldLine(an), where];
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

/** The reads' published run, with picks: the README opens with them (writes keep their own block as it is). */
const firstScreen = (an: Analysis) => !!an.picks && publishedAt(an).block === READS.block;

/** The README's block of a publication's answers, below its first screen ("Every answer"): the reads' only. */
export const answersPlace = (p: Publication): Publication => ({ ...p, block: `${p.block}-answers` });

/**
 * The reads' second block, under "Every answer" further down the README: the answers by question, the pool, and the
 * run whose tables are published. Null where the first screen says everything (no picks, or a run at a distance).
 */
export function readmeAnswers(an: Analysis): string | null {
  const place = publishedAt(an);
  if (!firstScreen(an)) return null;
  const r = an.results;
  const e = r.environment;
  const run =
    `The run whose tables and charts are published: ${r.started_at}, commit ${e.git_commit.slice(0, 10)}, on ` +
    `${e.cpu_model} with ${e.logical_cpus} logical CPUs (${e.kernel}). ${reportLink(place.dir)}`;
  const own = workloadOfRun(r.settings).readme(an, false);
  const parts = [besideThePicks(an), picksSection(an, 'Every answer, by question'), poolLine(an), ...own, run];
  return `${parts.filter(Boolean).join('\n\n')}\n`;
}

/**
 * What a report draws: full (the PNG charts and report.png, a headless Chromium's screenshot) or text (results.md and
 * report.html only: no chart rendered, no browser started; `npm run report` draws them later).
 */
export type ReportKind = 'full' | 'text';

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

/** results.md, the charts, report.html and its screenshot report.png, next to the run's results.json. */
export async function writeReport(runDir: string, an: Analysis, kind: ReportKind = 'full'): Promise<void> {
  writeFileSync(join(runDir, 'results.md'), markdown(an, kind === 'full' ? './' : null));
  writeFileSync(join(runDir, 'report.html'), reportHtml(an));
  if (kind === 'text') return;
  for (const [file, spec] of Object.entries(charts(an))) writeFileSync(join(runDir, file), await renderPng(spec));
  await screenshotReport(join(runDir, 'report.html'), join(runDir, 'report.png')).catch((e) =>
    console.error(`report.png not written: ${(e as Error).message}`),
  );
}

/** A sweep's chart line in its markdown: the image with a full report, nothing with a text one. */
const chartLink = (kind: ReportKind, file: string) => (kind === 'full' ? `![${file}](./${file})\n` : '');

/** scaling.md and scaling.png beside a --entries run's scaling.json. */
export async function writeScalingReport(dir: string, kind: ReportKind = 'full'): Promise<void> {
  const s = JSON.parse(readFileSync(join(dir, 'scaling.json'), 'utf8')) as Scaling;
  writeFileSync(join(dir, 'scaling.md'), `${scalingTable(s)}\n${chartLink(kind, 'scaling.png')}`);
  if (kind === 'full') writeFileSync(join(dir, 'scaling.png'), await renderPng(scalingSpec(s) as never));
}

/** A workload's own sweep summed up as its module says (measure/workload.ts SweepSummary): points, table, chart. */
export async function writeSweepSummary(
  dir: string,
  summary: { of: SweepSummary; points: object[] },
  kind: ReportKind = 'full',
): Promise<string[]> {
  const { of, points } = summary;
  const [json, md, png] = ['json', 'md', 'png'].map((ext) => `${of.file}.${ext}`) as [string, string, string];
  writeJsonAtomic(join(dir, json), points);
  writeFileSync(join(dir, md), `${of.table(points)}\n\n${chartLink(kind, png)}`);
  if (kind === 'full') writeFileSync(join(dir, png), await renderPng(contenderLines(of.chart(points))));
  return kind === 'full' ? [json, md, png] : [json, md];
}

/** --redis-rtt sweeps: the points, a table with the rank changes and a chart beside the runs. */
export async function writeDistanceReport(dir: string, sweep: DistanceSweep, kind: ReportKind = 'full'): Promise<void> {
  writeJsonAtomic(join(dir, 'distance.json'), sweep.points);
  writeFileSync(join(dir, 'distance.md'), `${distanceTable(sweep)}\n\n${chartLink(kind, 'distance.png')}`);
  if (kind === 'full') writeFileSync(join(dir, 'distance.png'), await renderPng(distanceSpec(sweep.points)));
}
