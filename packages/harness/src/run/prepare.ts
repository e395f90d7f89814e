// Phase 1, prepare: settings and results directory (fresh or resumed), the machine check, the
// rig (rig.ts: the servers and the golden body, one build of every app that needs one), and the
// run's state (state.ts) that the schedule measures with.
import { createHash } from 'node:crypto';
import { STREAM_KEY } from '@bench/stream';
import type { CliOptions } from './options';
import type { Contender, Unsupported } from '../model/contenders';
import { captureEnvironment, gitState, loadAverage1m } from '../measure/environment';
import { resolvePlacement } from '../system/placement';
import { serverTwins } from '../topology/servers';
import type { OwnAppSetting, Results, Settings } from '../model/results';
import { readResults, resultsFile, runFolder } from '../model/results-file';
import {
  appFlagsOf,
  unrecordedFlags,
  fail,
  newContenderResult,
  newResults,
  runDirOf,
  saverFor,
  type RunState,
  type Session,
} from './state';
import { clock, info, log } from '../system/progress';
import { baseName, changeComparisons, familyOf, isBase } from '../model/questions';
import { workloadOf, workloadOfRun } from '../workloads';
import { pairUp, type Pairing } from './against';
import { contenderInputs, filesChanged, sourceFiles, USED_SCHEME } from './inputs';
import { AppLauncher } from './launcher';
import { TrialClock } from './eta';
import { firstGuessS } from './plan';
import { buildAll, openRig } from './rig';
import { OwnAppError, ownPairing, probeOwnApp } from './own-app';

/** --app: what results.json records of one of the user's apps (its name, command, folder, route and body). */
const ownAppSetting = (a: CliOptions['ownApps'][number]): OwnAppSetting => ({
  name: a.name,
  command: a.command,
  path: a.path,
  body: a.body.from,
  cwd: a.cwd,
  ...(a.body.from === 'file' ? { body_file: a.body.path } : {}),
});

/** A new run's apps, each with its folder's files hashed (a resume is held to them). */
const appSetting = (opts: CliOptions): Pick<Settings, 'apps'> =>
  opts.ownApps.length
    ? {
        apps: opts.ownApps.map((a) => {
          const source = sourceFiles(a.cwd);
          return {
            ...ownAppSetting(a),
            ...(source ? { source_sha256: source.sha256 } : {}),
            ...(source?.files ? { source_files: source.files } : {}),
          };
        }),
      }
    : {};

/** A resume's --app flags start what the run measured: each field it recorded equal (a folder unrecorded: any). */
const sameApp = (was: OwnAppSetting, now: OwnAppSetting) =>
  (['name', 'command', 'path', 'body', 'cwd', 'body_file'] as const).every(
    (k) => was[k] === undefined || was[k] === now[k],
  );

export function settingsFrom(opts: CliOptions): Settings {
  const seed = opts.profile === 'seed';
  return {
    suite: opts.suite,
    profile: opts.profile,
    workload: opts.workload,
    connections: opts.connections,
    rates: opts.rates,
    duration_s: opts.duration_s,
    windows: opts.windows,
    layout: opts.layout,
    requests: opts.requests,
    warmup_s: opts.warmup_s,
    runs: opts.runs,
    target_ci_pct: opts.targetCiPct,
    max_runs: opts.maxRuns,
    budget_s: opts.budgetS,
    ci_level: 0.95,
    seed: opts.seed,
    with_seed: opts.withSeed,
    ceilings: opts.ceilings,
    self_check: opts.selfCheck,
    publish: opts.publish,
    headline: seed ? 'third' : 'median',
    max_steal_pct: seed ? 100 : opts.maxStealPct,
    start_timeout_s: opts.startTimeoutS,
    placement: resolvePlacement(opts.placement),
    keep_alive: true,
    compression: seed ? 'oha default' : false,
    only: opts.only,
    strict: opts.strict,
    handicap: opts.handicap,
    ...(opts.handicap ? { handicap_pct: opts.handicapPct } : {}),
    ...(opts.otherSide
      ? {
          against: {
            spec: opts.otherSide.spec,
            kind: opts.otherSide.kind,
            commit: opts.otherSide.commit,
            apps_dir: opts.otherSide.appsDir,
            equal_pct: opts.equalPct,
            pair: opts.pair,
          },
        }
      : {}),
    servers: opts.servers,
    redis_rtt_ms: opts.redisRttMs,
    ...(opts.redisTls ? { redis_tls: true } : {}),
    ...appSetting(opts),
    // The workload's own flags' values, under its name (its module made them).
    ...(opts.own.settings ? { [opts.workload]: opts.own.settings } : {}),
  };
}

function freshResults(
  opts: CliOptions,
  chosen: Contender[],
  pairs: Pairing,
  unsupported: Unsupported[],
): { results: Results; runDir: string } {
  const settings = settingsFrom(opts);
  const onServers = serverTwins(chosen, opts.servers);
  const selected = [...pairs.measured, ...onServers.twins, ...pairs.twins];
  const twins = selected
    .filter((c) => settings.self_check?.includes(c.name))
    .map((c) => newContenderResult(c, settings.connections, c.name));
  const results = newResults({
    settings,
    environment: environmentOf(selected),
    data: { rdb: null, redis_url: null, key: STREAM_KEY, entries: 0, memory_bytes: 0, body_bytes: 0 },
    contenders: [...selected.map((c) => newContenderResult(c, settings.connections)), ...twins],
    // Fixed before anything is measured, so the family cannot be chosen after seeing the data.
    family: pairs.pickFamily ? familyOf(selected.filter((c) => !isBase(c.name))) : { questions: [], comparisons: [] },
    ...(opts.otherSide
      ? {
          changes: {
            comparisons: changeComparisons(selected.map((c) => c.name)),
            ...(pairs.inputs ? { inputs: pairs.inputs } : {}),
          },
        }
      : {}),
    // Named by a manifest but not measured: listed with the reason, never silently dropped.
    unsupported: [...(opts.only ? [] : unsupported), ...onServers.unsupported, ...pairs.missing],
  });
  return { results, runDir: runDirOf(opts) };
}

export function resumedResults(dir: string, ownApps: CliOptions['ownApps']): { results: Results; runDir: string } {
  const runDir = runFolder(dir);
  const results = readResults(resultsFile(runDir));
  if (results.complete) throw new Error(`${runDir} holds a complete run; nothing to resume`);
  if (results.target)
    throw new Error(`${runDir} is a --target run, which is short: start it again with --target ${results.target.url}`);
  const apps = results.settings.apps ?? [];
  const given = ownApps.map(ownAppSetting);
  if (!apps.length && given.length) throw new Error(`${runDir} measured no app of yours: give --resume without --app`);
  // Another command, folder, route or body would be measured as the app the run started with, its rounds mixed.
  if (apps.length !== given.length || apps.some((a, i) => !sameApp(a, given[i]!)))
    throw new Error(
      `${runDir} measured ${appFlagsOf(apps)}${given.length ? `, not ${appFlagsOf(given)}` : ''}: resume it with ` +
        `--resume ${runDir} ${appFlagsOf(apps)}${unrecordedFlags(apps)}`,
    );
  for (const a of apps) {
    if (!a.source_sha256 || !a.cwd) continue;
    const now = sourceFiles(a.cwd);
    // Listed when the run started, and git cannot list it now (moved out of its repository, or git refuses it): the
    // resume cannot be held to the files it started with, so it is refused rather than run unchecked.
    if (!now)
      throw new Error(
        `${runDir}: ${a.name}'s folder ${a.cwd} cannot be listed by git now, as it was when the run started: ` +
          'a resume could not tell whether its files changed; start a new run, or resume where git lists the folder',
      );
    if (now.sha256 === a.source_sha256) continue;
    // Which files, where the run recorded each: an editor's backup or a log the app writes into its folder shows here.
    const which = a.source_files && now.files ? `: ${filesChanged(a.source_files, now.files)}` : '';
    throw new Error(
      `${runDir}: the files of ${a.name}'s folder ${a.cwd} changed since the run started ` +
        `(as git lists them${which}): a resume would mix two versions of the app in its rounds; start a new run, ` +
        'or restore the files',
    );
  }
  const { noResume, name } = workloadOfRun(results.settings);
  if (noResume) throw new Error(`${runDir} is a --workload ${name} run: ${noResume}`);
  results.complete = false;
  results.exit_reason = null;
  // JSON does not keep shared arrays: relink the headline runs to the first point's.
  for (const r of results.contenders) r.runs = r.points[0]!.runs;
  (results.resumed ??= []).push({ at: new Date().toISOString(), git_commit: gitState().commit });
  return { results, runDir };
}

/**
 * --app: the user's app answers its route, with one body, before the budget starts (or the run stops, said why); the
 * body each app is held to is recorded, hashed, and a resumed run's app must answer the one it started with.
 */
async function probeOwnApps(results: Results, rig: RunState['rig'], launcher: AppLauncher): Promise<void> {
  for (const r of results.contenders) {
    const c = rig.byName.get(r.name);
    if (c?.own && r.status === 'incomplete') await probeOwnApp(launcher, r, c, results.settings.start_timeout_s);
  }
  const apps = results.settings.apps ?? [];
  for (const [i, a] of apps.entries()) {
    // Two --app: the first is measured (and probed) as the second's twin, <second>@base.
    const c = rig.byName.get(apps.length > 1 && i === 0 ? baseName(apps[1]!.name) : a.name);
    if (c?.own?.golden === undefined) continue;
    const sha = createHash('sha256').update(c.own.golden).digest('hex');
    if (a.body_sha256 && a.body_sha256 !== sha)
      throw new OwnAppError(
        `--resume: ${a.name} answers ${a.path} with another body than when the run started ` +
          `(${Buffer.byteLength(c.own.golden)} bytes now): a resume would mix two versions of the app in its rounds; ` +
          'restore the version it started with to resume it, or start a new run',
      );
    a.body_sha256 = sha;
  }
}

function checkLoad(results: Results, strict: boolean): void {
  const load = loadAverage1m();
  const cpus = results.environment.logical_cpus;
  if (load <= cpus / 2) return;
  const warning = `load average ${load.toFixed(2)} is above half the CPU count (${cpus}): figures will be noisy`;
  if (strict) throw new Error(`${warning}; --strict refuses to start (wait for the machine to settle)`);
  log(`warning: ${warning}`);
  results.environment.load_warning = warning;
}

/** Seconds a resumed run measured before: from its budget's start to the end of its last window (0: none). */
export function measuredBeforeS(results: Results): number {
  const from = Date.parse(results.measured_from ?? '');
  const ends = results.contenders.flatMap((c) =>
    c.points.flatMap((p) => [...p.runs, ...(p.discarded_runs ?? [])].map((r) => r.ended_at)),
  );
  const last = Math.max(0, ...ends.filter(Number.isFinite));
  return Number.isFinite(from) && last > from ? (last - from) / 1000 : 0;
}

export async function prepare(
  opts: CliOptions,
  all: Contender[],
  unsupported: Unsupported[],
  session: Session,
): Promise<RunState> {
  const commandStart = Date.now();
  const resumed = opts.resume ? resumedResults(opts.resume, opts.ownApps) : null;
  const chosen = resumed ? all : all.filter((c) => opts.selected.includes(c.name));
  // The other side, entered once: checked out, and the twins it gives (a resumed run's, those it paired).
  const paired = resumed?.results.contenders.flatMap((r) => (r.base_of ? [r.base_of] : [])) ?? null;
  // A resumed run's own apps are paired as they were first: their twins made again from the same flags.
  const own = opts.ownApps.length && opts.otherSide;
  const pairs = own ? ownPairing(opts.otherSide!, chosen, info) : pairUp(opts, chosen, paired, info);
  const { results, runDir } = resumed ?? freshResults(opts, chosen, pairs, unsupported);
  const settings = results.settings;
  checkLoad(results, opts.strict);
  const rig = await openRig(opts, results, runDir, session, all, pairs.twins);
  // Known to the signal handlers from the first save on: before that there is nothing to keep.
  const save = saverFor(session, runDir, results);
  const launcher = new AppLauncher(rig, settings);
  const state: RunState = {
    results,
    startedAt: commandStart,
    save,
    rig,
    launcher,
    clock: new TrialClock(firstGuessS(settings)),
  };
  save();
  // What the workload runs beside the apps for the whole run (the live writer), from before the first launch.
  const start = workloadOf(settings.workload).start;
  if (start) {
    const background = await start({ redis: rig.ctx.redis, entries: results.data.entries, settings, runDir });
    session.background = rig.ctx.background = background;
    info(background.describe);
  }
  for (const r of results.contenders) {
    if (r.status === 'incomplete' && !rig.byName.has(r.self_check_of ?? r.name))
      fail(r, 'failed', `no app manifest defines ${r.name} any more`);
  }
  await buildAll(results, rig);
  await probeOwnApps(results, rig, launcher);
  // The budget counts from here: the checkout, installs and builds before it are setup, said apart. A resumed run's
  // clock goes on from what it measured before (to its last window's end): its budget and the alpha it spends at each
  // look are the whole run's, not started again.
  const before = opts.resume ? measuredBeforeS(results) : 0;
  const setupS = (Date.now() - commandStart) / 1000;
  state.startedAt = Date.now() - before * 1000;
  results.setup_s = +((opts.resume ? (results.setup_s ?? 0) : 0) + setupS).toFixed(1);
  results.measured_from = new Date(state.startedAt).toISOString();
  if (settings.runs === 'auto' && settings.budget_s > 0)
    info(
      `setup took ${clock(setupS)}; the ${clock(settings.budget_s)} budget counts from ` +
        (before ? `${clock(before)} measured before the interruption` : 'now'),
    );
  save();
  return state;
}

/**
 * The machine and software, with each contender's inputs (run/inputs.ts contenderInputs) so that its answers can be
 * pooled with other runs of the same code; an --against twin's are its own side's.
 */
function environmentOf(selected: Contender[]): Results['environment'] {
  const env = { ...captureEnvironment(selected), load_warning: null };
  const runtimes = { ...env.runtimes };
  return {
    ...env,
    inputs: contenderInputs(selected, runtimes),
    inputs_used: contenderInputs(selected, runtimes, 'used'),
    inputs_used_scheme: USED_SCHEME,
  };
}
