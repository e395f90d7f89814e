// What a run is asked to do: the options the command line parsed (cli/args.ts), which every
// phase of the run reads.
import type { Workload, WORKLOADS } from '@bench/stream';
import { workloadOf } from '../workloads';
import type { OwnApp, SuiteName } from '../model/contenders';
import type { ServerName } from '../model/servers';
import type { PlacementName } from '../system/placement';
import type { OtherSide } from './against';
import type { OwnOptions } from '../measure/workload';

/** An app's own body (--target --body): a file's bytes, or the app's first response, then checked for stability. */
export type OwnBody = { from: 'file'; path: string } | { from: 'first' };

/** --app: a user's own app, as its flags give it (cli/app-flags.ts); run/own-app.ts makes it a contender. */
export interface OwnAppSpec {
  name: string;
  command: string;
  argv: string[];
  cwd: string;
  path: string;
  body: OwnApp['body'];
}

/** The layouts of a round in time (block.ts, schedule.ts). */
export const LAYOUTS = ['runtime', 'walk'] as const;
export type Layout = (typeof LAYOUTS)[number];

export interface CliOptions {
  list: boolean;
  help: boolean;
  /** The suite the run starts from: default, matrix (--matrix) or seed (--profile seed). */
  suite: SuiteName;
  /** Names picked by --only/--where (a part of the suite), or null: the whole suite. */
  only: string[] | null;
  /** The contenders to measure, in manifest order. */
  selected: string[];
  /** Contenders of the suite left out because the workload cannot measure them (a decode twin under xread). */
  notForWorkload: { name: string; reason: string }[];
  runs: number | 'auto';
  targetCiPct: number;
  maxRuns: number;
  budgetS: number;
  seed: number;
  withSeed: boolean;
  /** --ceilings (or --matrix): redis-benchmark, the client ceilings and the HTTP ceilings of the suite. */
  ceilings: boolean;
  selfCheck: string[] | null;
  /** --handicap: the contender that burns CPU per request, and how much longer its requests should take (%). */
  handicap: string | null;
  handicapPct: number;
  /** --against: a git ref or a folder of apps whose twins are measured side by side (null: none). */
  against: string | null;
  /** --equal: a change is equal when its interval lies within ± this %. */
  equalPct: number;
  /** --pair: how each pair is measured (auto: both ways first, then the narrower per minute). */
  pair: 'auto' | 'alternate' | 'duet';
  /**
   * --pair-unchanged: pair every selected contender, also those whose inputs are the same on both sides (by default
   * only the changed are paired, or all when none changed: an A/A).
   */
  pairUnchanged: boolean;
  /** --against resolved (cli/bench.ts), or the checkout itself for --handicap's plain twin; null: no pairs. */
  otherSide?: OtherSide | null;
  publish: boolean;
  /** Named as in results.json's settings and oha's load (measure/measure.ts Load): one name from the flag to oha. */
  duration_s: number | null;
  windows: number;
  layout: Layout;
  requests: number | null;
  warmup_s: number;
  connections: number[];
  rates: string[];
  rdb: string | null;
  /** --entries: stream sizes to run on, one complete run each (null: one run on --rdb). */
  entries: number[] | null;
  /** The run directory's name under --out (set for each size of --entries; default: a timestamp). */
  runName?: string;
  workload: (typeof WORKLOADS)[number];
  /** The workload's own flags (its module's): the settings they make, under its name, and a sweep of one of them. */
  own: OwnOptions;
  profile: 'default' | 'seed';
  placement: PlacementName;
  startTimeoutS: number;
  redisPort: number | null;
  /** --redis-tls: the apps read the private Redis over TLS. */
  redisTls: boolean;
  /** --target: an app started by hand, measured alone (target.ts); null: the suite. */
  target: string | null;
  targetName: string | null;
  /** --body: the --target app's own body (null: the contract's). */
  body: OwnBody | null;
  /** --app: a user's own app (or two: its two versions), started and measured beside the contenders. */
  ownApps: OwnAppSpec[];
  /** --redis-rtt: the RTT of the delay proxy in ms (0: none), and every RTT of a sweep (one run each, ascending). */
  redisRttMs: number;
  redisRtts: number[];
  /** --server / --servers: the private servers, the first one for the ceilings and the names without a suffix. */
  servers: ServerName[];
  out: string;
  resume: string | null;
  /** --resume of a sweep's folder: the sweep again in it, each point finished, resumed or run (run/sweep.ts). */
  sweepDir?: string;
  strict: boolean;
  quiet: boolean;
  /** --report: full (charts and report.png) or text (results.json, results.md and report.html only). */
  report: 'full' | 'text';
  maxStealPct: number;
}

/** Why a run with these flags cannot read the Redis that REDIS_URL names, or null: they need private servers. */
export function privateRedisNeeded(o: {
  workload: Workload;
  entries: boolean;
  servers: readonly string[];
  rdb?: boolean;
  redisPort?: boolean;
}): string | null {
  const own = workloadOf(o.workload).privateRedis;
  if (own) return own;
  if (o.entries) return '--entries loads its own streams into a private Redis: unset REDIS_URL';
  if (o.rdb) return '--rdb loads a private Redis, and with REDIS_URL the data is what it holds: unset one of them';
  if (o.redisPort) return "--redis-port is the private Redis's port, and REDIS_URL names another: unset one of them";
  if (o.servers.length > 1 || o.servers[0] !== 'redis')
    return (
      '--server, --servers and --topology cluster start private servers: ' +
      'unset REDIS_URL, or leave the flags out to use it'
    );
  return null;
}
