// --workload upsert, its module: POST /items/:id into a fresh key space per window (measure.ts), verified by a
// scripted check before measuring and after each window, and accounted around each window (accounting.ts); a 409 is
// an answer; its windows' accounting pooled per launch; its table, chart and README lines (report.ts, figures.ts).
import { perRequestCommand } from '@bench/stream';
import type { Around, GivenFlags, OwnOptions } from '../../measure/workload';
import type { RunRecord, WorkloadRecord } from '../../model/results';
import { NO_ANSWER } from './accounting';
import { keysOf, type UpsertRecord, type UpsertSettings, upsertOf } from './record';
import { bodyAfterRun } from '../read';
import { type Workload, WRITE_ROUTE_IGNORES } from '../types';
import { UsageError } from '../../system/flag-values';
import { answered, KEY_SPACES, keySpace, poolUpsert, upsertAround, upsertRequest, verifyUpsert } from './measure';
import { accountingLine, costLine, upsertTable, upsertTimeSpec } from './report';

/** --keys: powers of ten, so that oha's URL regex of digits draws the keys uniformly; a list sweeps them. */
function options(given: GivenFlags): OwnOptions {
  const value = given.keys as string | undefined;
  const list = [...new Set((value ?? '100').split(',').map((k) => Number(k.trim())))].sort((a, b) => a - b);
  const bad = list.find((k) => !(KEY_SPACES as readonly number[]).includes(k));
  if (bad !== undefined)
    throw new UsageError(
      `--keys "${value}": each value must be one of ${KEY_SPACES.join(', ')} ` +
        '(a power of ten, so the URL regex draws keys uniformly)',
    );
  const step = (keys: number) => ({
    dir: `keys-${keys}`,
    say: `--keys: the upsert run on ${keys} key${keys === 1 ? '' : 's'}`,
    settings: { keys } satisfies UpsertSettings,
  });
  return {
    settings: step(list[0]!).settings,
    sweep: list.length > 1 ? { flag: 'keys', values: list, step, summary: null } : null,
  };
}

/** A launch's windows' accounting summed, with every command the server counted over them. */
function pool(runs: RunRecord[]): WorkloadRecord | undefined {
  const ws = runs.map((r) => upsertOf(r));
  return ws.every((w) => w) ? { kind: 'upsert', data: poolUpsert(ws as UpsertRecord[]) } : undefined;
}

/** The writes a window accounts: oha's request into its key space, the prober, the read-back after it. */
function around(redis: Parameters<typeof upsertAround>[0], url: string, keys: number, write: string): Around {
  const upsert = upsertAround(redis, url, keys, write);
  let acked: Awaited<ReturnType<typeof upsert.stop>> = [];
  return {
    target: { url: upsert.request.url, request: upsert.request },
    abort: () => upsert.abort(),
    // The responses the prober's writes got (one that got none served nothing).
    stop: async () => {
      acked = await upsert.stop();
      return acked.filter((p) => p.status !== NO_ANSWER).length;
    },
    record: async (w) => ({
      kind: 'upsert',
      data: { ...upsert.account(acked, w.statuses, w.unanswered), redis_commands: w.commands },
    }),
  };
}

export const UPSERT: Workload = {
  name: 'upsert',
  // A 409 is an answer (WATCH gave up, counted as a conflict), not a failure. WATCH counts one per attempt, so a
  // retried request counts more: retries are reported, not gated.
  rules: {
    command: (write) => perRequestCommand('upsert', write),
    label: "the write strategy's",
    gateTooMany: false,
    served: (run) => {
      const u = upsertOf(run);
      return u ? answered(u) : run.ok;
    },
    exempt: (run) => upsertOf(run)?.branches.conflict ?? 0,
  },
  ceilings: { redis: false, clients: false },
  flags: {
    keys: {
      type: 'string',
      desc:
        'the key space K each window writes to, a power of ten from 1 (one hot key) to 10000 (almost no ' +
        'conflicts), or a sweep like 1,100,10000 (one run each) (default 100)',
      why: 'only the upsert workload writes keys',
      sweeps: true,
    },
  },
  options,
  suite: { holds: 'each raw server with the write strategies' },
  // At a network distance too: the write study this workload follows ran against a cloud Redis, where WATCH won.
  published: {
    dir: 'latest-upsert',
    block: 'writes',
    shots: 'writes',
    distance: { dir: 'latest-upsert-distance', block: 'writes-distance', shots: 'writes-distance', rttMs: 1 },
  },
  noTarget: '--workload upsert launches the apps it accounts for: measure it without --target',
  noApp: '--workload upsert POSTs to the write route, and --app measures your GET route: drop --workload',
  privateRedis: '--workload upsert writes keys of its own: it runs on the private Redis only; unset REDIS_URL',
  noResume: null,
  slackMs: () => 0,
  restartsRedis: () => false,
  oneServer: null,
  // Writes go to the primaries: reading from replicas (cluster-replicas) changes nothing for upsert.
  clusterServers: ['cluster'],
  verify: (ctx) => verifyUpsert(ctx.url, ctx.redis, ctx.write),
  // The window's accounting, and the scripted check once more.
  checkAfter: async (ctx, run) => {
    const u = upsertOf(run);
    if (!u) return bodyAfterRun(ctx.url, ctx.golden, ctx.page, run);
    if (u.problem) return { status: 'invalid', reason: `run ${run.round}, keys item:{${u.prefix}…}: ${u.problem}` };
    const again = await verifyUpsert(ctx.url, ctx.redis, ctx.write);
    return again.ok
      ? null
      : {
          status: again.reason!.startsWith('request failed') ? 'failed' : 'invalid',
          reason: `run ${run.round}: after the run, ${again.reason}`,
        };
  },
  // Its POSTs, into a key space of their own that no window accounts, so the write path is warm before a window.
  request: (ctx, url) => {
    const keys = keysOf(ctx.own);
    if (!keys) return { url };
    const request = upsertRequest(url, keySpace(keys));
    return { url: request.url, request };
  },
  around: (ctx, url) => {
    const keys = keysOf(ctx.own);
    return keys ? around(ctx.redis, url, keys, ctx.write ?? 'lua') : null;
  },
  pickFor: 'writes',
  namedSettings: [
    {
      setting: 'write',
      title: '**Write strategy** (against a Lua script, the default)',
      words: { watch: 'WATCH/MULTI/EXEC', function: 'a Redis function (FCALL)' },
      doc: 'docs/writes.md#writes-the-upsert-workload',
    },
  ],
  load: (r, long) => {
    const keys = keysOf(r.settings.upsert) ?? 0;
    return long
      ? `POST /items/:id, one write over ${keys} keys per request`
      : `POST /items/:id over ${keys} key${keys === 1 ? '' : 's'}`;
  },
  pool,
  sections: [{ id: 'upsert', place: 'tables', render: upsertTable }],
  charts: [{ file: 'upsert-over-time.png', words: 'the writes over time', spec: upsertTimeSpec }],
  // At a distance, what each strategy costs per request; always, every acknowledged write accounted for.
  readme: (an, far) => (far ? [costLine(an), accountingLine(an)] : [accountingLine(an)]),
  refuses: {
    ceilings: 'a write has no HTTP ceiling (its -precomputed app would still write on every request)',
    entries: 'it sizes the stream a read workload reads, and upsert writes keys of its own',
    handicap: 'its route burns no handicap, so a calibrated one would never run',
  },
  ignores: WRITE_ROUTE_IGNORES,
};
