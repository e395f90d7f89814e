// --workload xadd-trim, its module: POST /items/:id appends one entry to the stream, capped by MAXLEN ~ (the route:
// @bench/stream's writes/xadd-trim.ts), verified by one write read back before measuring and after each window, and
// accounted around each window by the stream's own counter (accounting.ts, measure.ts); its table (report.ts).
// Its suite is a rule: the default suite's raw servers at their defaults, so no manifest lists it.
import { DEFAULT_SETTINGS } from '@bench/stream';
import type { Around } from '../../measure/workload';
import type { RedisTarget } from '../../topology/redis';
import { type Workload, WRITE_ROUTE_IGNORES } from '../types';
import { poolTrim } from './accounting';
import { trimAround, trimRequest, verifyTrim } from './measure';
import { type TrimRecord, trimOf } from './record';
import { trimTable } from './report';

function around(redis: RedisTarget, url: string): Around {
  const w = trimAround(redis, url);
  return {
    target: { url: w.request.url, request: w.request },
    abort: () => w.abort(),
    stop: () => w.stop(),
    record: async (x) => ({
      kind: 'xadd-trim',
      data: { ...w.account(x.statuses, x.unanswered), redis_commands: x.commands } satisfies TrimRecord,
    }),
  };
}

const atDefaults = (settings: object) =>
  Object.entries(settings).every(([k, v]) => (DEFAULT_SETTINGS as Record<string, string>)[k] === v);

export const XADD_TRIM: Workload = {
  name: 'xadd-trim',
  rules: {
    command: () => 'xadd',
    label: 'XADD',
    gateTooMany: true,
    // The prober's answered writes reach Redis too.
    served: (run) => {
      const t = trimOf(run);
      return t ? t.acked + t.errors : run.ok;
    },
    exempt: () => 0,
  },
  ceilings: { redis: false, clients: false },
  flags: {},
  options: () => ({ settings: null, sweep: null }),
  // The default suite's raw servers at their defaults: each runtime's own server with each client.
  suite: {
    holds: "each raw server's contenders at their defaults",
    pick: (c) => c.framework === 'raw' && c.suites.includes('default') && !c.ceiling && atDefaults(c.settings),
  },
  published: null,
  noTarget: '--workload xadd-trim launches the apps it accounts for: measure it without --target',
  noApp: '--workload xadd-trim POSTs to the write route, and --app measures your GET route: drop --workload',
  privateRedis:
    '--workload xadd-trim appends to and trims the stream: it runs on the private Redis only; unset REDIS_URL',
  noResume: null,
  slackMs: () => 0,
  restartsRedis: () => false,
  oneServer:
    '--servers or --topology cluster with --workload xadd-trim: its accounting reads one stream on one server; ' +
    'drop them, or measure writes on several servers with --workload upsert',
  clusterServers: [],
  verify: (ctx) => verifyTrim(ctx.url, ctx.redis),
  checkAfter: async (ctx, run) => {
    const t = trimOf(run);
    if (t?.problem) return { status: 'invalid', reason: `run ${run.round}: ${t.problem}` };
    const again = await verifyTrim(ctx.url, ctx.redis);
    return again.ok
      ? null
      : {
          status: again.reason!.startsWith('request failed') ? 'failed' : 'invalid',
          reason: `run ${run.round}: after the run, ${again.reason}`,
        };
  },
  // Its POSTs, to ids no window accounts, so the write path is warm before a window.
  request: (_ctx, url) => {
    const request = trimRequest(url, 'warm');
    return { url: request.url, request };
  },
  around: (ctx, url) => around(ctx.redis, url),
  pickFor: 'appends to a capped stream',
  namedSettings: [],
  load: (_r, long) =>
    long ? 'POST /items/:id, one XADD with MAXLEN ~ per request' : 'POST /items/:id (XADD, trimmed)',
  pool: (runs) => {
    const ws = runs.map((r) => trimOf(r));
    return ws.every((w) => w) ? { kind: 'xadd-trim', data: poolTrim(ws as TrimRecord[]) } : undefined;
  },
  sections: [{ id: 'xadd-trim', place: 'tables', render: trimTable }],
  charts: [],
  // Not published: the table carries the accounting.
  readme: () => [],
  refuses: {
    ceilings: 'a write has no HTTP ceiling (its -precomputed app would still append on every request)',
    entries: 'the stream is kept to its cap by every append, whatever size it starts at',
    handicap: 'its route burns no handicap, so a calibrated one would never run',
  },
  ignores: WRITE_ROUTE_IGNORES,
  // Both apps of a duet would append to the one stream, whose counter and cap each side's accounting reads whole.
  alternateOnly: 'both apps would append to one stream, and each side accounts the whole stream',
};
