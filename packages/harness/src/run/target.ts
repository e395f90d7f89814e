// --target URL, prepared: one app someone started by hand, measured through the schedule and the finish of every run
// (schedule.ts, finish.ts) as a plan of one contender, on a launcher that starts nothing (remote.ts). What differs is
// only what this phase builds: the results skeleton of a synthetic contender known by its URL, and a rig of the Redis
// that REDIS_URL names (nothing is built or launched).
import { workloadOf } from '../workloads';
import { readFileSync } from 'node:fs';
import { STREAM_KEY, type Workload } from '@bench/stream';
import { captureEnvironment } from '../measure/environment';
import { resolvePlacement } from '../system/placement';
import { FIRST_ROUNDS } from '../answers/racing';
import { goldenBody, redactUrl, streamInfo, type StreamInfo } from '../topology/redis';
import { info } from '../system/progress';
import type { CliOptions, OwnBody } from './options';
import { settingsFrom } from './prepare';
import {
  newContenderResult,
  newResults,
  runDirOf,
  saverFor,
  type ContenderShape,
  type RunState,
  type Session,
} from './state';
import { RemoteLauncher } from './remote';
import { TrialClock } from './eta';
import { firstGuessS } from './plan';

const NOT_MEASURED =
  'the app runs by hand, where this host cannot see it: its CPU ' +
  'per request and memory are not measured (null in results.json)';

const bodySource = (b: OwnBody) => (b.from === 'first' ? 'first response' : b.path);

/** What the target serves, read before the run: whether it is a page, the stream, and the body every check expects. */
interface TargetProbe {
  page: boolean;
  stream: StreamInfo;
  golden: string;
}

/** The run state of a --target run (session.redis is REDIS_URL's): the app probed, a plan of one contender. */
export async function prepareTarget(opts: CliOptions, session: Session): Promise<RunState> {
  const redis = session.redis!;
  const stream = streamInfo(redis, STREAM_KEY);
  const page = await probeTarget(opts.target!);
  const golden = opts.body
    ? await ownBody(opts.body, opts.target!)
    : goldenBody(redis, STREAM_KEY, opts.workload as Workload);
  const whose = opts.body ? `its own body (${bodySource(opts.body)})` : 'body';
  info(
    `--target ${opts.target} (${opts.targetName}), redis ${redactUrl(redis.url)}: ${STREAM_KEY} ` +
      `has ${stream.length} entries; ${whose} ${Buffer.byteLength(golden)} bytes; ${NOT_MEASURED}`,
  );
  return targetState(opts, session, { page, stream, golden });
}

function targetState(opts: CliOptions, session: Session, probe: TargetProbe): RunState {
  // The app and Redis are elsewhere: oha gets the whole machine. --runs auto has nothing to race: its first rounds.
  const placement = resolvePlacement('none');
  // Steal is recorded per run, never measured again (cli/target-flags.ts refuses --max-steal): 100 leaves no round out.
  const runs = opts.runs === 'auto' ? FIRST_ROUNDS : opts.runs;
  const settings = { ...settingsFrom(opts), runs, placement, max_steal_pct: 100 };
  const url = opts.target!;
  const redis = session.redis!;
  const results = newResults({
    settings,
    environment: { ...captureEnvironment([]), load_warning: null },
    data: {
      rdb: null,
      redis_url: redactUrl(redis.url),
      key: STREAM_KEY,
      entries: probe.stream.length,
      memory_bytes: probe.stream.memoryBytes,
      body_bytes: Buffer.byteLength(probe.golden),
    },
    contenders: [newContenderResult(targetShape(opts.targetName!, new URL(url), probe.page), settings.connections)],
    family: { questions: [], comparisons: [] },
    unsupported: [],
    target: {
      name: opts.targetName!,
      url,
      not_measured: NOT_MEASURED,
      ...(opts.body && { body: bodySource(opts.body) }),
    },
  });
  const runDir = runDirOf(opts);
  const save = saverFor(session, runDir, results);
  save();
  const ctx = { workload: workloadOf(settings.workload), placement, redis, runDir };
  const rig = {
    ctx,
    servers: { redis },
    proxies: {},
    golden: probe.golden,
    session,
    byName: new Map(),
    appEnv: () => ({}),
  };
  const launcher = new RemoteLauncher(ctx, url, probe.golden, !!opts.body);
  return { results, startedAt: Date.now(), save, rig, launcher, clock: new TrialClock(firstGuessS(settings)) };
}

/**
 * --body: the app's own body, a file's text or its first response (a 200). Every check before and after a window then
 * compares the whole response with it, byte for byte: a body that changes from one request to the next is refused.
 */
async function ownBody(b: OwnBody, url: string): Promise<string> {
  if (b.from === 'file') return readFileSync(b.path, 'utf8');
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity' }, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`--body first: ${url} answered ${res.status}, not 200; fix the app first`);
  return text;
}

/** It answers at all, and serves a page (HTML carrying the body) or the JSON itself. */
async function probeTarget(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' }, signal: AbortSignal.timeout(10_000) });
    await res.arrayBuffer();
    return (res.headers.get('content-type') ?? '').startsWith('text/html');
  } catch (e) {
    const why = (e as Error).message.split('\n')[0];
    throw new Error(
      `--target ${url} does not answer (${why}): start the app first, bound ` +
        'to an address this host reaches (BIND_HOST, docs/usage.md "Three hosts")',
    );
  }
}

/** The app someone started by hand, known only by its URL: no manifest, no settings. */
const targetShape = (name: string, url: URL, page: boolean): ContenderShape => ({
  name,
  app: 'target',
  runtime: 'unknown',
  framework: 'unknown',
  client: 'unknown',
  variant: null,
  static: false,
  page,
  path: url.pathname + url.search,
  chartGroup: null,
});
