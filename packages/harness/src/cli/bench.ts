// npm run bench -- [flags]: parse flags, run, always clean up; partial results survive
// errors and signals.
import { rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { defaultOptions, parseCli, UsageError } from './args';
import { usage } from './flags';
import { runTarget } from './target';
import { placeOf } from '../workloads';
import { privateRedisNeeded, type CliOptions } from '../run/options';
import { settingsFrom } from '../run/prepare';
import { runBench } from '../run/bench';
import { readSweep, runSweep, SWEEP_FILE, sweepOf } from '../run/sweep';
import { abandon, savePartial, stopAll, type Session } from '../run/state';
import { AgainstError, otherSideOf, recordedSettings } from '../run/against';
import { keptFor, recordOf, writeKept } from '../publish/kept-runs';
import { analyzeRun, publishRun, reportSweep } from '../publish/index';
import { writeReport } from '../publish/files';
import { selfCheckTable } from '../report/table';
import { againstText } from '../report/changes';
import { yoursSection } from '../report/yours';
import { ManifestError, type Contender, type Unsupported } from '../model/contenders';
import { APPS_DIR, loadSuite } from '../model/manifests';
import { BESIDE_BY_DEFAULT, firstAppSide, OwnAppError, ownContender, ownSide } from '../run/own-app';
import { tooShort, whyNotKept } from './keep';
import { notPublished } from '../publish/rules';
import type { Results } from '../model/results';
import { connectionsCeiling } from '../system/net';
import { KEPT_DIR, ROOT } from '../system/paths';
import { startOrphanGuard } from '../system/proc';
import { redactUrl } from '../topology/redis';
import { endProgress, log, setProgressMode } from '../system/progress';

const session: Session = { results: null, runDir: null, redis: null, apps: new Map() };

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    endProgress();
    log(`\n${signal}: stopping every child process`);
    abandon(session, `interrupted by ${signal}`);
    process.exit(EXIT_CODES[signal]);
  });
}

/** Why a run may not be published (publish/rules.ts), against the defaults of its workload at its distance. */
function whyNotPublished(results: Results): string | null {
  const place = placeOf(results.settings);
  const rtt = place && 'rttMs' in place ? (place.rttMs as number) : 0;
  return notPublished(results, place, place && settingsFrom(defaultOptions(results.settings.workload, rtt)));
}

/**
 * One run: measured, reported, and published when it is a complete default run. A run published in the project's own
 * results folder is also kept (results/runs/: its answers, a few KB), and its report says how its decided answers
 * held up in the runs kept before it.
 */
async function runAndPublish(opts: CliOptions, contenders: Contender[], unsupported: Unsupported[]): Promise<number> {
  const { code, results, runDir } = await runBench(opts, contenders, unsupported, session);
  endProgress();
  const why = whyNotPublished(results);
  const outDir = dirname(runDir);
  const inResults = outDir === resolve(ROOT, 'results');
  const own = !why && inResults;
  const analysis = analyzeRun(runDir, own ? keptFor(results, KEPT_DIR) : []);
  // A run published to README.md and screenshots/ needs its charts: its report is full whatever --report says.
  await writeReport(runDir, analysis, own ? 'full' : opts.report);
  if (results.settings.self_check) console.log(selfCheckTable(results));
  // --app: the app beside the stacks, and its answers, where the user looks first (the same text as results.md's).
  if (analysis.yours) console.log(`\n${yoursSection(analysis)}\n`);
  // --against: each pair's answer as decided at the last look (the look lines before it are interim).
  else if (results.settings.against) console.log(`\n${againstText(analysis) || 'No pair was answered.'}\n`);
  // Every complete run of the suite in the project's results folder is kept (results/runs/), published or not,
  // unless it asks another question (the budget, rounds, windows or placement change how well it answers only), or
  // ended too soon to estimate anything: that is said, as its budget, not its question, kept it out.
  const unkept = inResults ? whyNotKept(results) : null;
  if (unkept && unkept === tooShort(results)) log(`not kept in results/runs/: ${unkept}`);
  if (why) {
    if (inResults && !unkept) log(`kept: ${writeKept(KEPT_DIR, recordOf(results, analysis))}`);
    // --publish overrides a choice of contenders or of method only: not --app or --against (refused with it), nor a
    // workload with no published place.
    const s = results.settings;
    const hint = s.apps || s.against || !placeOf(s) ? '' : '; add --publish to publish it';
    log(`results in ${runDir} (not published: ${why}${hint})`);
    return code;
  }
  const latest = join(outDir, placeOf(results.settings)!.dir);
  await publishRun(runDir, analysis, latest, own, whyNotKept);
  const also = own ? (unkept ? ', README.md and screenshots/' : ', README.md, screenshots/ and results/runs/') : '';
  log(`results in ${runDir}; published to ${latest}${also}`);
  return code;
}

/** --app: the user's apps join the contenders, beside those --only names (the usual choice when none is named). */
function withOwnApps(opts: CliOptions, contenders: Contender[]): void {
  const own = opts.ownApps.map((a) =>
    ownContender(
      a,
      contenders.map((c) => c.name),
    ),
  );
  contenders.push(...own);
  // Beside the usual choice when nothing else is asked for; a suite asked for (--matrix, a workload's) stays whole.
  // With --against (or --app twice), against its own other version only.
  if (!opts.only && opts.suite === 'default' && !opts.selfCheck && !opts.handicap && !opts.against)
    opts.only = opts.selected = [BESIDE_BY_DEFAULT];
  opts.selected = [...(opts.against ? [] : opts.selected), ...own.map((c) => c.name)];
}

/** The run's other side: your first version (--app twice), your app at a git ref (--app --against), or the apps'. */
function sideOf(opts: CliOptions) {
  const [first] = opts.ownApps;
  if (opts.ownApps.length === 2) return firstAppSide(first!);
  if (first && opts.against) return ownSide(opts.against, first.cwd);
  // A resumed --app --against run: its commit found again in the app's repository, not in this checkout's (given
  // without its --app, none: prepare says the flags it ran with).
  const recorded = opts.resume ? recordedSettings(opts.resume) : undefined;
  const ref = recorded?.apps?.length && recorded.against?.kind === 'ref' ? recorded.against : null;
  if (ref) return first ? { ...ownSide(ref.commit!, first.cwd), spec: ref.spec } : null;
  return otherSideOf(opts, APPS_DIR);
}

/**
 * Why these flags cannot run here, found before anything starts (not even a tool's version is asked for): a REDIS_URL
 * that is no Redis URL, or that the flags cannot read; a tool every run drives, or a runtime or build tool of a
 * contender selected, missing from PATH (npm run bench puts the ones it installs there).
 */
function refusedBeforeStart(opts: CliOptions, contenders: Contender[]): string | null {
  const { workload, servers } = opts;
  const url = process.env.REDIS_URL;
  if (url && !/^rediss?:\/\/[^/]/.test(url))
    return `REDIS_URL=${redactUrl(url)} is not a Redis URL: write it as redis://host:port (rediss:// for TLS)`;
  // The path is the database's number: "/abc" is none (read as database 0, it reported the stream missing).
  const db = url ? URL.parse(url)?.pathname.replace(/^\//, '') : '';
  if (db && !/^\d+$/.test(db))
    return `REDIS_URL=${redactUrl(url!)} names database "${db}": a database is a number, as redis://host:port/0`;
  const needs = { workload, entries: !!opts.entries, servers, rdb: !!opts.rdb, redisPort: opts.redisPort !== null };
  const external = url && !opts.target && privateRedisNeeded(needs);
  if (external) return external;
  const ceiling = connectionsCeiling();
  const most = Math.max(...opts.connections);
  const fewer = `ask for ${ceiling.max} or fewer`;
  if (most > ceiling.max) return `--connections ${most} is more than this machine holds open, ${ceiling.why}: ${fewer}`;
  // The runtimes and build tools of the contenders selected (a user's own --app command is its own to name).
  // (--target and --resume launch none of the selection: the one measures a URL, the other the run it resumes.)
  const launches = !opts.target && !opts.resume;
  const chosen = launches ? contenders.filter((c) => !c.own && opts.selected.includes(c.name)) : [];
  const runtimes = chosen.flatMap((c) => [c.start[0]!, ...(c.build ? [c.build[0]!] : [])]);
  const missing = [...new Set(['oha', 'redis-cli', ...runtimes])].filter((tool) => !Bun.which(tool));
  const them = missing.length > 1 ? 'them' : 'it';
  return missing.length
    ? `${missing.join(' and ')} not found on PATH: run npm run bench, which installs ${them}, or put ${them} on PATH`
    : null;
}

/**
 * --resume of a sweep's folder (it holds sweep.json): the flags the sweep started with, to run the same sweep on in
 * that folder; null for any other command line. Beside it only --report and --quiet (how it is shown), which are
 * taken over the sweep's own; any other flag is refused, and so is a sweep of --against, whose ref may name another
 * commit by now.
 */
function resumedSweep(given: string[]): { argv: string[]; dir: string } | null {
  const i = given.findIndex((a) => a === '--resume' || a.startsWith('--resume='));
  const inline = given[i]?.startsWith('--resume=');
  const value = i < 0 ? undefined : inline ? given[i]!.slice('--resume='.length) : given[i + 1];
  if (!value) return null;
  const dir = basename(resolve(value)) === SWEEP_FILE ? dirname(resolve(value)) : resolve(value);
  const sweep = readSweep(dir);
  if (!sweep) return null;
  const others = given.filter((_, j) => j !== i && (inline || j !== i + 1));
  const shown = others.filter((a, j) => a === '--quiet' || a.startsWith('--report') || others[j - 1] === '--report');
  const other = others.find((a) => !shown.includes(a));
  if (other)
    throw new UsageError(
      `--resume ${value} continues a sweep with the flags it started with (${sweep.argv.join(' ')}): ` +
        `give --resume alone (with --report or --quiet), not ${other}`,
    );
  if (sweep.argv.some((a) => a === '--against' || a.startsWith('--against=')))
    throw new UsageError(`${dir} is a sweep of --against, whose ref may name another commit now: run it again`);
  // The flags given now in place of the sweep's own (a flag given twice is refused).
  const named = (a: string) => a.replace(/=.*/, '');
  const now = new Set(shown.filter((a) => a.startsWith('--')).map(named));
  const kept = sweep.argv.filter(
    (a, j) => !now.has(named(a)) && !(sweep.argv[j - 1] === '--report' && now.has('--report')),
  );
  return { argv: [...kept, ...shown], dir };
}

/** The command line made into options (a sweep resumed: the flags it started with), or null once its error is said. */
function optionsOf(argv: string[]) {
  try {
    const suite = loadSuite();
    const sweep = resumedSweep(argv);
    const given = sweep ? sweep.argv : argv;
    const opts = parseCli(given, suite.contenders);
    if (sweep) opts.sweepDir = sweep.dir;
    opts.otherSide = sideOf(opts);
    if (opts.ownApps.length) withOwnApps(opts, suite.contenders);
    return { suite, opts, given };
  } catch (e) {
    if (
      !(e instanceof UsageError || e instanceof ManifestError || e instanceof AgainstError || e instanceof OwnAppError)
    )
      throw e;
    log(`error: ${e.message}`);
    return null;
  }
}

async function main(): Promise<number> {
  // The help needs no manifest: printed even where an app's bench.json is broken.
  if (process.argv.slice(2).includes('--help')) {
    console.log(usage());
    return 0;
  }
  const parsed = optionsOf(process.argv.slice(2));
  if (!parsed) return 2;
  const { suite, opts, given } = parsed;
  const { contenders } = suite;
  const unsupported = [...suite.unsupported, ...opts.notForWorkload];
  if (opts.list) {
    console.log(opts.selected.join('\n'));
    for (const u of unsupported) log(`not measured: ${u.name}: ${u.reason}`);
    return 0;
  }
  const refused = refusedBeforeStart(opts, contenders);
  if (refused) {
    log(`error: ${refused}`);
    return 2;
  }
  if (opts.quiet) setProgressMode('quiet');
  startOrphanGuard();
  try {
    if (opts.target) return await runTarget(opts, session);
    if (!sweepOf(opts)) return await runAndPublish(opts, contenders, unsupported);
    const out = await runSweep(
      opts,
      contenders,
      unsupported,
      session,
      (dir) => writeReport(dir, analyzeRun(dir), opts.report),
      given,
    );
    await reportSweep(out, opts.report);
    return out.code;
  } catch (e) {
    endProgress();
    log(`error: ${(e as Error).message}`);
    // --app refused before anything was measured: no partial results to keep (the run's folder holds none).
    if (e instanceof OwnAppError && session.runDir && !opts.resume)
      rmSync(session.runDir, { recursive: true, force: true });
    else savePartial(session, (e as Error).message);
    return 1;
  } finally {
    await stopAll(session);
  }
}

process.exit(await main());
