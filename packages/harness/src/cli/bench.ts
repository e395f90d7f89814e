// npm run bench -- [flags]: parse flags, run, always clean up; partial results survive
// errors and signals.
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseCli, UsageError } from './args';
import { placeOf } from '../measure/workloads';
import { usage } from './flags';
import { privateRedisNeeded, type CliOptions } from '../run/options';
import { settingsFrom, timestamp } from '../run/prepare';
import { scalingOf } from '../answers/scaling';
import { rdbFor } from '../run/entries';
import { runBench } from '../run/bench';
import { runTarget } from './target';
import { endProgress, info, log, setProgressMode } from '../system/progress';
import { stopAll, type Session } from '../run/state';
import { APPS_DIR, loadSuite, ManifestError, type Contender, type Unsupported } from '../model/contenders';
import { AgainstError, recordedSide, resolveAgainst, selfSide } from '../run/against';
import { KEPT_DIR, ROOT } from '../system/paths';
import { killAllSync, startOrphanGuard } from '../system/proc';
import {
  publishReport,
  writeDistanceReport,
  writeReport,
  writeScalingReport,
  writeWriteRateReport,
} from '../report/index';
import { analyzeRun } from '../answers/analysis';
import { keptFor, notKept, writeKept } from '../model/kept';
import { pooledView, recordOf } from '../run/pooled';
import { distanceSweep, writeRatePoints } from '../answers/sweeps';
import { rttLabel } from '../report/distance';
import { selfCheckTable } from '../report/table';
import type { RedisTarget } from '../topology/redis';
import type { Results } from '../model/results';
import { publishLatest, readResults, resultsFile, writeJsonAtomic, writeResults } from '../model/results-file';

const session: Session = { results: null, runDir: null, redis: null, apps: new Map() };

function savePartial(reason: string): void {
  const { results, runDir } = session;
  if (!results || !runDir || results.complete) return;
  results.exit_reason ??= reason;
  results.finished_at = new Date().toISOString();
  try {
    writeResults(runDir, results);
    log(`partial results saved in ${resultsFile(runDir)} (resume with --resume ${runDir})`);
  } catch (e) {
    log(`could not save partial results: ${(e as Error).message}`);
  }
}

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    endProgress();
    log(`\n${signal}: stopping every child process`);
    killAllSync();
    savePartial(`interrupted by ${signal}`);
    for (const t of [session.redis, ...(session.topology ?? [])] as (Partial<RedisTarget> | null)[])
      if (t?.server) rmSync(t.server.dir, { recursive: true, force: true });
    process.exit(EXIT_CODES[signal]);
  });
}

/** Settings that make up the method: a run published as "the" result has every one at its default. */
const METHOD_KEYS = [
  'suite',
  'profile',
  'workload',
  'connections',
  'rates',
  'duration_s',
  'windows',
  'layout',
  'warmup_s',
  'runs',
  'target_ci_pct',
  'max_runs',
  'budget_s',
  'max_steal_pct',
  'placement',
  'servers',
  'redis_rtt_ms',
  'upsert',
] as const;

/**
 * Why this run may not replace its workload's published one, or null: only a complete run of the workload's default
 * method (the default suite, or the workload's own), or --publish.
 */
function notPublished(r: Results): string | null {
  const s = r.settings;
  if (!r.complete) return 'the run is not complete';
  const place = placeOf(s);
  if (!place)
    return s.redis_rtt_ms
      ? `--workload ${s.workload} runs at a network distance are not published`
      : `--workload ${s.workload} runs are not published`;
  if (s.publish) return null;
  if (s.only) return '--only or --where runs a part of the suite';
  if (s.self_check) return '--self-check changes the schedule';
  if (s.handicap) return '--handicap slows a contender on purpose';
  if (s.against) return '--against measures a change, not the suite';
  if (r.data.rdb !== 'dump.rdb') return `data from ${r.data.rdb ?? r.data.redis_url}, not dump.rdb`;
  // A run at a network distance: published at the one distance its place names.
  const rtt = 'rttMs' in place ? ['--redis-rtt', `${place.rttMs}ms`] : [];
  const defaults = settingsFrom(parseCli([...(s.workload === 'xrange' ? [] : ['--workload', s.workload]), ...rtt], []));
  // A key older results lack was at its default then.
  const changed = METHOD_KEYS.filter((k) => JSON.stringify(s[k] ?? defaults[k]) !== JSON.stringify(defaults[k]));
  return changed.length ? `not the default method (${changed.join(', ')} changed)` : null;
}

type Run<T> = { value: T; dir: string; results: Results };

/**
 * A sweep: one complete run per value, each in <parent>/<dir>/ with its own report, then the caller's summary over
 * them.
 */
async function runSweep<T>(
  opts: CliOptions,
  contenders: Contender[],
  unsupported: Unsupported[],
  values: T[],
  each: (v: T) => { dir: string; say: string; opts: Partial<CliOptions> },
) {
  const parent = resolve(ROOT, opts.out, timestamp());
  const runs: Run<T>[] = [];
  let code = 0;
  for (const value of values) {
    const { dir, say, opts: change } = each(value);
    info(say);
    code = Math.max(
      code,
      await runBench({ ...opts, ...change, out: parent, runName: dir }, contenders, unsupported, session),
    );
    await writeReport(session.runDir!, analyzeRun(session.runDir!));
    runs.push({ value, dir, results: session.results! });
    await stopAll(session);
    session.results = session.runDir = null;
  }
  endProgress();
  return { parent, runs, code };
}

/** --entries: one complete run per stream size in <run>/entries-<n>/, then scaling.json and its report. */
async function runScaling(opts: CliOptions, contenders: Contender[], unsupported: Unsupported[]): Promise<number> {
  const { parent, runs, code } = await runSweep(opts, contenders, unsupported, opts.entries!, (entries) => ({
    dir: `entries-${entries}`,
    say: `--entries: the run on ${entries} entries`,
    opts: { rdb: rdbFor(entries) },
  }));
  const scaling = scalingOf(runs.map((r) => ({ entries: r.value, dir: r.dir, results: r.results })));
  writeJsonAtomic(join(parent, 'scaling.json'), scaling);
  // Each size's results.json carries the whole analysis too, so its report shows it.
  for (const run of runs) {
    writeResults(join(parent, run.dir), { ...run.results, scaling });
    await writeReport(join(parent, run.dir), analyzeRun(join(parent, run.dir)));
  }
  await writeScalingReport(parent);
  log(
    `results in ${parent}: scaling.json, scaling.md and scaling.png, one run per size in entries-<n>/ (not published)`,
  );
  return code;
}

/** --write-rate 10,100,1000: one complete live run per rate in <run>/rate-<n>/, then req/s against write rate. */
async function runWriteRates(opts: CliOptions, contenders: Contender[], unsupported: Unsupported[]): Promise<number> {
  const { parent, runs, code } = await runSweep(opts, contenders, unsupported, opts.writeRates, (rate) => ({
    dir: `rate-${rate}`,
    say: `--write-rate: the run at ${rate} writes/s`,
    opts: { writeRate: rate, writeRates: [rate] },
  }));
  await writeWriteRateReport(parent, writeRatePoints(runs.map((r) => ({ rate: r.value, results: r.results }))));
  log(
    `results in ${parent}: write-rates.json, write-rates.md and ` +
      'write-rates.png, one run per rate in rate-<n>/ (not published)',
  );
  return code;
}

/** --keys 1,100,10000: one complete upsert run per key space in <run>/keys-<k>/, each with its own report. */
async function runKeySpaces(opts: CliOptions, contenders: Contender[], unsupported: Unsupported[]): Promise<number> {
  const { parent, code } = await runSweep(opts, contenders, unsupported, opts.upsertKeysList, (keys) => ({
    dir: `keys-${keys}`,
    say: `--keys: the upsert run on ${keys} key${keys === 1 ? '' : 's'}`,
    opts: { upsertKeys: keys, upsertKeysList: [keys] },
  }));
  log(`results in ${parent}: one run per key space in keys-<k>/, each with its report (not published)`);
  return code;
}

/** --redis-rtt 0,1ms,5ms: one complete run per RTT in <run>/rtt-<x>/, then req/s and rank at each distance. */
async function runRedisRtts(opts: CliOptions, contenders: Contender[], unsupported: Unsupported[]): Promise<number> {
  const { parent, runs, code } = await runSweep(opts, contenders, unsupported, opts.redisRtts, (rttMs) => ({
    dir: `rtt-${rttLabel(rttMs)}`,
    say: `--redis-rtt: the run at RTT ${rttLabel(rttMs)}`,
    opts: { redisRttMs: rttMs, redisRtts: [rttMs] },
  }));
  await writeDistanceReport(parent, distanceSweep(runs.map((r) => ({ rttMs: r.value, results: r.results }))));
  log(`results in ${parent}: distance.json, distance.md and distance.png, one run per RTT in rtt-<x>/ (not published)`);
  return code;
}

/**
 * One run: measured, reported, and published when it is a complete default run. A run published in the project's own
 * results folder is also kept (results/runs/: its answers, a few KB), and its report says how its decided answers
 * held up in the runs kept before it.
 */
async function runAndPublish(opts: CliOptions, contenders: Contender[], unsupported: Unsupported[]): Promise<number> {
  const code = await runBench(opts, contenders, unsupported, session);
  endProgress();
  const runDir = session.runDir!;
  const results = session.results!;
  const why = notPublished(results);
  const outDir = dirname(runDir);
  const own = !why && outDir === resolve(ROOT, 'results');
  const analysis = analyzeRun(runDir, own ? keptFor(results, KEPT_DIR) : []);
  await writeReport(runDir, analysis);
  if (results.settings.self_check) console.log(selfCheckTable(results));
  if (why) {
    log(`results in ${runDir} (not published: ${why}; add --publish to publish it)`);
    return code;
  }
  const latest = join(outDir, placeOf(results.settings)!.dir);
  publishLatest(runDir, latest);
  // README, screenshots/ and results/runs/ follow the project's own results folder only.
  if (own) {
    const record = recordOf(results, analysis);
    const kept = keptFor(results, KEPT_DIR);
    // A run published with --publish may be a part of the suite: not kept.
    if (!notKept(results)) writeKept(KEPT_DIR, record);
    // The published answers pool every kept run of the same code (run/pooled.ts); the run's folder keeps its own.
    const { analysis: published, pool } = pooledView(analysis, kept, record);
    if (pool) {
      writeJsonAtomic(join(latest, 'pool.json'), pool);
      await writeReport(latest, published);
    }
    await publishReport(latest, published);
  }
  log(`results in ${runDir}; published to ${latest}${own ? ', README.md, screenshots/ and results/runs/' : ''}`);
  return code;
}

/** The other side of the run being resumed (null: it has none, or its results cannot be read; prepare says why). */
function resumedSide(dir: string) {
  let settings: Results['settings'];
  try {
    settings = readResults(resultsFile(resolve(dir))).settings;
  } catch {
    return null;
  }
  return recordedSide(settings.against, APPS_DIR);
}

/**
 * --against: the ref or folder, checked now, before anything starts; --handicap alone pairs with this checkout's own
 * apps; a resumed run pairs with the side it started with.
 */
function otherSideOf(opts: CliOptions) {
  if (opts.resume) return resumedSide(opts.resume);
  if (opts.against !== null) return resolveAgainst(opts.against, APPS_DIR);
  return opts.handicap ? selfSide(APPS_DIR) : null;
}

async function main(): Promise<number> {
  let suite;
  let opts;
  try {
    suite = loadSuite();
    opts = parseCli(process.argv.slice(2), suite.contenders);
    opts.otherSide = otherSideOf(opts);
  } catch (e) {
    if (!(e instanceof UsageError || e instanceof ManifestError || e instanceof AgainstError)) throw e;
    log(`error: ${e.message}`);
    return 2;
  }
  const { contenders } = suite;
  const unsupported = [...suite.unsupported, ...opts.notForWorkload];
  if (opts.help) {
    console.log(usage());
    return 0;
  }
  if (opts.list) {
    console.log(opts.selected.join('\n'));
    for (const u of unsupported) log(`not measured: ${u.name}: ${u.reason}`);
    return 0;
  }
  // Refused before anything starts: not even a tool's version is asked for.
  const external =
    process.env.REDIS_URL &&
    !opts.target &&
    privateRedisNeeded({
      workload: opts.workload,
      entries: !!opts.entries,
      servers: opts.servers,
    });
  if (external) {
    log(`error: ${external}`);
    return 2;
  }
  if (opts.quiet) setProgressMode('quiet');
  startOrphanGuard();
  try {
    if (opts.target) return await runTarget(opts, session);
    if (opts.entries) return await runScaling(opts, contenders, unsupported);
    if (opts.writeRates.length > 1) return await runWriteRates(opts, contenders, unsupported);
    if (opts.upsertKeysList.length > 1) return await runKeySpaces(opts, contenders, unsupported);
    if (opts.redisRtts.length > 1) return await runRedisRtts(opts, contenders, unsupported);
    return await runAndPublish(opts, contenders, unsupported);
  } catch (e) {
    endProgress();
    log(`error: ${(e as Error).message}`);
    savePartial((e as Error).message);
    return 1;
  } finally {
    await stopAll(session);
  }
}

process.exit(await main());
