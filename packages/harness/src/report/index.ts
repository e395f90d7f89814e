// Reports render one run's analysis (answers/analysis.ts, computed once from its results.json by
// the caller) as markdown, charts, report.html and the README section, each a file's content by
// name. Nothing here computes a figure, reaches back into a run or writes a file: publish/files.ts
// writes a report's files, publish/readme.ts what a published run writes beyond its folder.
import type { Analysis } from '../answers/analysis';
import type { DistanceSweep } from '../answers/sweeps';
import type { SweepSummary } from '../measure/workload';
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

/** A report's files by name, as rendered: text, or a PNG's bytes. publish/files.ts writes them. */
export type ReportFiles = Record<string, string | Uint8Array>;

/** results.md and report.html of a run's analysis (a full report's results.md links the charts beside it). */
export function textFiles(an: Analysis, kind: ReportKind = 'full'): ReportFiles {
  return { 'results.md': markdown(an, kind === 'full' ? './' : null), 'report.html': reportHtml(an) };
}

/** The charts' PNGs of a run's analysis, by file name. */
export async function chartFiles(an: Analysis): Promise<ReportFiles> {
  const files: ReportFiles = {};
  for (const [file, spec] of Object.entries(charts(an))) files[file] = await renderPng(spec);
  return files;
}

/** report.png: a headless Chromium's screenshot of a report.html as written (it draws its charts in the browser). */
export const screenshotPng = async (htmlPath: string): Promise<Uint8Array> =>
  (await import('./browser')).screenshotReport(htmlPath);

/** A sweep's chart line in its markdown: the image with a full report, nothing with a text one. */
const chartLink = (kind: ReportKind, file: string) => (kind === 'full' ? `![${file}](./${file})\n` : '');

/** JSON as the results' own files are written (two-space indent, a closing newline). */
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** scaling.md and scaling.png of a --entries run's scaling.json. */
export async function scalingFiles(s: Scaling, kind: ReportKind = 'full'): Promise<ReportFiles> {
  const files: ReportFiles = { 'scaling.md': `${scalingTable(s)}\n${chartLink(kind, 'scaling.png')}` };
  if (kind === 'full') files['scaling.png'] = await renderPng(scalingSpec(s) as never);
  return files;
}

/** A workload's own sweep summed up as its module says (measure/workload.ts SweepSummary): points, table, chart. */
export async function sweepSummaryFiles(
  summary: { of: SweepSummary; points: object[] },
  kind: ReportKind = 'full',
): Promise<ReportFiles> {
  const { of, points } = summary;
  const png = `${of.file}.png`;
  const files: ReportFiles = {
    [`${of.file}.json`]: json(points),
    [`${of.file}.md`]: `${of.table(points)}\n\n${chartLink(kind, png)}`,
  };
  if (kind === 'full') files[png] = await renderPng(contenderLines(of.chart(points)));
  return files;
}

/** --redis-rtt sweeps: the points, a table with the rank changes and a chart beside the runs. */
export async function distanceFiles(sweep: DistanceSweep, kind: ReportKind = 'full'): Promise<ReportFiles> {
  const files: ReportFiles = {
    'distance.json': json(sweep.points),
    'distance.md': `${distanceTable(sweep)}\n\n${chartLink(kind, 'distance.png')}`,
  };
  if (kind === 'full') files['distance.png'] = await renderPng(distanceSpec(sweep.points));
  return files;
}
