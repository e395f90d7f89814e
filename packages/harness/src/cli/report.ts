// npm run report: regenerate a run's report, keep it, check it or serve results/ (HELP below).
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseArgsError, withDashValues } from './flags';
import { printedHelp } from './usage-error';
import { KEPT_DIR, ROOT } from '../system/paths';
import { readResults, resultsFile } from '../model/results-file';
import { tooShort, whyNotKept } from './keep';
import { recordOf, writeKept } from '../publish/kept-runs';
import { analyzeRun, analyzeStored, reportSweep, republish } from '../publish/index';
import { readSweep, type SweepRecord, sweepInFolder } from '../run/sweep';
import { parseCli } from './args';
import { loadSuite } from '../model/manifests';
import { placeOf } from '../workloads';
import { checkReport } from '../report/browser';
import { removePooled, writeReport } from '../publish/files';
import { serveResults } from '../report/serve';

const USAGE =
  'usage: npm run report -- [DIR] | --open DIR | --check DIR | --keep DIR | --serve [--port N] [--dir results]';
const HELP = `${USAGE}
  DIR          regenerate a run's tables, charts and report.html from its results.json (default results/latest); for a
               published run (results/latest, or a workload's own place) also its screenshots and README block, with how
               its decided answers held up in the runs kept in results/runs/; elsewhere the run's own answers, and
               a pool.json beside them (pooled answers of another view) removed; for a sweep's folder (sweep.json),
               each of its runs' and the sweep's own, its chart included
  --keep DIR   keep DIR's answers in results/runs/ (a complete run of a workload's default suite)
  --open DIR   print the path of DIR's report.html (written first if it is missing)
  --check DIR  open DIR's report.html in headless Chromium: its size, the time to draw it, any console error
  --serve      serve results/ (or --dir) on 127.0.0.1 with an index of past runs (--port, default 8377)
  --help       this help`;

async function main(): Promise<number> {
  if (printedHelp(process.argv.slice(2), HELP)) return 0;
  let args;
  try {
    const options = {
      open: { type: 'string' },
      check: { type: 'string' },
      keep: { type: 'string' },
      serve: { type: 'boolean' },
      port: { type: 'string' },
      dir: { type: 'string' },
    } as const;
    args = parseArgs({
      args: withDashValues(process.argv.slice(2), options),
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    console.error(`error: ${parseArgsError(e as Error)}; ${USAGE}`);
    return 2;
  }
  const { values: v, positionals } = args;
  const misuse = misused(v, positionals);
  if (misuse) {
    console.error(`error: ${misuse}; ${USAGE}`);
    return 2;
  }
  if (v.serve) return serve(v.port, v.dir);
  // A run's folder, or its results.json (as npm run compare takes it).
  const named = resolve(v.open ?? v.check ?? v.keep ?? positionals[0] ?? join(ROOT, 'results/latest'));
  const dir = basename(named) === 'results.json' ? dirname(named) : named;
  const sweep = positionals.length && !existsSync(resultsFile(dir)) ? readSweep(dir) : null;
  if (sweep) return regenerateSweep(dir, sweep);
  if (!existsSync(resultsFile(dir))) {
    console.error(`error: no results.json in ${dir}: give a results/<timestamp> directory of a run`);
    return 2;
  }
  if (v.open !== undefined || v.check !== undefined) {
    if (!existsSync(join(dir, 'report.html'))) await writeReport(dir, analyzeRun(dir));
    if (v.open !== undefined) console.log(join(dir, 'report.html'));
    else return check(join(dir, 'report.html'));
    return 0;
  }
  if (v.keep !== undefined) return keep(dir);
  await regenerate(dir);
  console.log(`report written for ${dir}: ${join(dir, 'report.html')}`);
  return 0;
}

/** --serve: results/ (or --dir) on 127.0.0.1, until Ctrl-C. */
async function serve(portFlag: string | undefined, dirFlag: string | undefined): Promise<number> {
  const port = portFlag === undefined ? 8377 : Number(portFlag);
  if (!/^\d+$/.test(portFlag ?? '0') || port > 65535) {
    console.error(`error: --port "${portFlag}" is not a port number (0-65535); ${USAGE}`);
    return 2;
  }
  const served = resolve(dirFlag ?? join(ROOT, 'results'));
  if (!existsSync(served) || !statSync(served).isDirectory()) {
    console.error(`error: --dir ${served} is not a folder: give the folder that holds the runs (default results/)`);
    return 2;
  }
  const server = serveResults(served, port, analyzeStored);
  console.log(`serving ${served} at http://127.0.0.1:${server.port}/ (Ctrl-C stops)`);
  return new Promise(() => {});
}

/**
 * What the command line asks that report does not do, in words, or null: one mode at a time (a folder, --open,
 * --check, --keep or --serve), one folder, and --port and --dir with --serve only (without it, a mistyped --serve would
 * rewrite the published run).
 */
function misused(v: Record<string, string | boolean | undefined>, positionals: string[]): string | null {
  const modes = ['open', 'check', 'keep', 'serve'].filter((m) => v[m] !== undefined && v[m] !== false);
  if (positionals.length > 1) return `one folder at a time (given ${positionals.length}: ${positionals.join(', ')})`;
  const given = [...positionals, ...modes.map((m) => `--${m}`)];
  if (given.length > 1) return `one of DIR, --open, --check, --keep or --serve at a time (given ${given.join(', ')})`;
  const lone = ['port', 'dir'].filter((f) => v[f] !== undefined && !v.serve);
  return lone.length
    ? `${lone.map((f) => `--${f}`).join(' and ')} go${lone.length > 1 ? '' : 'es'} with --serve`
    : null;
}

/** DIR: its report, and for a published run its README block and screenshots, with the kept runs' pool. */
async function regenerate(dir: string): Promise<void> {
  const results = readResults(resultsFile(dir));
  // README and screenshots/ show the published runs only (results/latest and each workload's places, workloads/), as
  // the bench decides.
  const place = placeOf(results.settings);
  const published = !!place && dir === resolve(ROOT, 'results', place.dir) && !results.settings.only;
  if (published) return republish(dir, results, whyNotKept);
  await writeReport(dir, analyzeRun(dir));
  // Not a published place: the report gives the run's own answers, and a pool.json beside it would contradict them.
  const removed = removePooled(dir);
  if (removed) console.log(removed);
}

/** A sweep's folder: each point's report again and the sweep's own, chart included, from the runs it holds. */
async function regenerateSweep(dir: string, sweep: SweepRecord): Promise<number> {
  const out = sweepInFolder(parseCli(sweep.argv, loadSuite().contenders), dir);
  // --entries: reportSweep writes each size's, which carries the scaling.
  if (out.kind !== 'entries') for (const d of sweep.dirs) await writeReport(join(dir, d), analyzeRun(join(dir, d)));
  await reportSweep(out, 'full');
  return 0;
}

/** --keep: DIR's answers into results/runs/, when it is a complete run of its workload's suite. */
function keep(dir: string): number {
  const results = readResults(resultsFile(dir));
  const why = whyNotKept(results);
  if (why) {
    // A run too short to estimate: its reason says the fix (more rounds).
    const fix = why === tooShort(results) ? '' : "; keep a complete run of a workload's suite that asks its questions";
    console.error(`error: ${dir} is not kept: ${why}${fix}`);
    return 2;
  }
  console.log(`kept: ${writeKept(KEPT_DIR, recordOf(results))}`);
  return 0;
}

async function check(html: string): Promise<number> {
  const c = await checkReport(html);
  console.log(
    `${html}: ${(c.bytes / 1e6).toFixed(2)} MB; ${c.drawn} charts drawn in ${(c.ms / 1000).toFixed(2)} s ` +
      `in headless Chromium; console errors: ${c.errors.length ? c.errors.join(' | ') : 'none'}`,
  );
  return c.failed || c.errors.length ? 1 : 0;
}

try {
  process.exit(await main());
} catch (e) {
  console.error(`error: ${(e as Error).message}`);
  process.exit(1);
}
