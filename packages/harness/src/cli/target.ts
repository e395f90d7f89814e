// --target URL: measure one app someone started by hand, usually on another host (the
// three-host layout, README), reading the Redis that REDIS_URL names. Nothing is built or
// launched: each run goes through the launch steps of every run on a launcher that starts nothing
// (run/remote.ts): the body verified byte for byte, --windows windows with the usual counters
// (oha, Redis commandstats, steal), the body checked after each. The app's CPU and memory live
// where this host cannot see them: null in results.json, "not measured" in the report.
import { readFileSync } from 'node:fs';
import type { OwnBody } from '../run/options';
import { STREAM_KEY, type Workload } from '@bench/stream';
import type { CliOptions } from '../run/options';
import { captureEnvironment } from '../measure/environment';
import type { RunContext } from '../measure/context';
import { resolvePlacement } from '../system/placement';
import { settingsFrom } from '../run/prepare';
import { FIRST_ROUNDS } from '../answers/racing';
import { goldenBody, redactUrl, streamInfo, useExistingRedis, type StreamInfo } from '../topology/redis';
import type { ContenderResult, PointResult, Results } from '../model/results';
import { fail, newResults, runDirOf, saverFor, type Session } from '../run/state';
import { info, log } from '../system/progress';
import { RemoteLauncher } from '../run/remote';
import { measureTrial } from '../run/trial';
import { finalizePoint, promoteHeadline } from '../answers/verdicts';
import { writeReport } from '../report/index';
import { analyzeRun } from '../answers/analysis';

export const NOT_MEASURED =
  'the app runs by hand, where this host cannot see it: its CPU ' +
  'per request and memory are not measured (null in results.json)';

interface TargetRun {
  results: Results;
  runDir: string;
  url: string;
  golden: string;
  ctx: RunContext;
  save(): void;
}

export async function runTarget(opts: CliOptions, session: Session): Promise<number> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl)
    throw new Error(
      '--target needs REDIS_URL=redis://host:port, the Redis that app ' +
        'reads (the golden body and the reads per request come from it)',
    );
  const redis = (session.redis = useExistingRedis(redisUrl));
  const stream = streamInfo(redis, STREAM_KEY);
  const page = await probeTarget(opts.target!);
  const golden = opts.body
    ? await ownBody(opts.body, opts.target!)
    : goldenBody(redis, STREAM_KEY, opts.workload as Workload);
  const t = newTargetRun(opts, redisUrl, page, stream, golden, session);
  const whose = opts.body ? `its own body (${bodySource(opts.body)})` : 'body';
  info(
    `--target ${t.url} (${opts.targetName}), redis ${redactUrl(redisUrl)}: ${STREAM_KEY} ` +
      `has ${stream.length} entries; ${whose} ${Buffer.byteLength(golden)} bytes; ${NOT_MEASURED}`,
  );
  await measureTarget(t);
  finish(t);
  await writeReport(t.runDir, analyzeRun(t.runDir));
  const r = t.results.contenders[0]!;
  log(
    `${r.name}: ${r.status}${r.reason ? ` (${r.reason})` : ''}; ` +
      `results in ${t.runDir} (a --target run is never published)`,
  );
  return r.status === 'ok' ? 0 : 1;
}

const bodySource = (b: OwnBody) => (b.from === 'first' ? 'first response' : b.path);

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
        'to an address this host reaches (BIND_HOST, README "Three hosts")',
    );
  }
}

function newTargetRun(
  opts: CliOptions,
  redisUrl: string,
  page: boolean,
  stream: StreamInfo,
  golden: string,
  session: Session,
): TargetRun {
  // The app and Redis are elsewhere: oha gets the whole machine. --runs auto has nothing to race: its first rounds.
  const placement = resolvePlacement('none');
  const settings = { ...settingsFrom(opts), runs: opts.runs === 'auto' ? FIRST_ROUNDS : opts.runs, placement };
  const url = opts.target!;
  const results = newResults({
    settings,
    environment: { ...captureEnvironment([]), load_warning: null },
    data: {
      rdb: null,
      redis_url: redactUrl(redisUrl),
      key: STREAM_KEY,
      entries: stream.length,
      memory_bytes: stream.memoryBytes,
      body_bytes: Buffer.byteLength(golden),
    },
    contenders: [targetResult(opts.targetName!, new URL(url), page, settings.connections)],
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
  return {
    results,
    runDir,
    url,
    golden,
    ctx: { workload: settings.workload, placement, redis: session.redis!, runDir },
    save,
  };
}

/** The one synthetic contender: nothing is known of its stack but its URL. */
function targetResult(name: string, url: URL, page: boolean, connections: number[]): ContenderResult {
  const points: PointResult[] = connections.map((c) => ({
    connections: c,
    rate: null,
    rate_spec: null,
    status: 'incomplete',
    runs: [],
  }));
  return {
    name,
    app: 'target',
    runtime: 'unknown',
    framework: 'unknown',
    client: 'unknown',
    variant: null,
    static: false,
    page,
    path: url.pathname + url.search,
    chart_group: null,
    status: 'incomplete',
    points,
    runs: points[0]!.runs,
  };
}

/**
 * Each connection count: --runs rounds through the launch steps of every run (run/trial.ts) on a launcher that starts
 * nothing (run/remote.ts), the warmup before the first round only (the app stays up between rounds); the first fault
 * ends the contender.
 */
async function measureTarget(t: TargetRun): Promise<void> {
  const s = t.results.settings;
  const r = t.results.contenders[0]!;
  const launcher = new RemoteLauncher(t.ctx, t.url, t.golden, !!t.results.target?.body);
  for (const point of r.points) {
    for (let round = 1; round <= (s.runs as number) && r.status === 'incomplete'; round++) {
      info(`${r.name} c${point.connections}: run ${round} of ${s.runs}`);
      const warmed = { ...s, warmup_s: round === 1 ? s.warmup_s : 0 };
      const outcome = await measureTrial(launcher, warmed, r, point, round, 0);
      point.runs.push(...outcome.runs);
      if (outcome.kind === 'redis-died') throw new Error(`REDIS_URL stopped answering during run ${round}`);
      if (outcome.kind === 'out') fail(r, outcome.status, outcome.reason);
      t.save();
    }
  }
}

/** The gates of verdicts.ts on the one contender: error rate, one Redis read per response. */
function finish(t: TargetRun): void {
  const r = t.results.contenders[0]!;
  if (r.status === 'incomplete') {
    for (const p of r.points) finalizePoint(p, t.results.settings, false);
    const bad = r.points.find((p) => p.status !== 'ok');
    r.status = bad ? bad.status : 'ok';
    if (bad) r.reason = `c${bad.connections}: ${bad.reason}`;
  }
  if (r.points[0]?.runs.length) promoteHeadline(r);
  t.results.complete = true;
  t.results.finished_at = new Date().toISOString();
  t.save();
}
