// --workload upsert, its module: POST /items/:id into a fresh key space per window (measure.ts), verified by a
// scripted check before measuring and after each window, and accounted around each window (accounting.ts); a 409 is
// an answer; its windows' accounting pooled per launch; its table, chart and README lines (report.ts, figures.ts).
import { perRequestCommand } from '@bench/stream';
import type { Around } from '../../measure/workload';
import { dataOf, type RunRecord, type UpsertRecord, type WorkloadRecord } from '../../model/results';
import { bodyAfterRun } from '../read';
import type { Workload } from '../types';
import { answered, keySpace, poolUpsert, upsertAround, upsertRequest, verifyUpsert } from './measure';
import { accountingLine, costLine, upsertTable, upsertTimeSpec } from './report';

/** A launch's windows' accounting summed, with every command the server counted over them. */
function pool(runs: RunRecord[]): WorkloadRecord | undefined {
  const ws = runs.map((r) => dataOf(r, 'upsert'));
  return ws.every((w) => w) ? { kind: 'upsert', data: poolUpsert(ws as UpsertRecord[]) } : undefined;
}

/** The writes a window accounts: oha's request into its key space, the prober, the read-back after it. */
function around(redis: Parameters<typeof upsertAround>[0], url: string, keys: number, write: string): Around {
  const upsert = upsertAround(redis, url, keys, write);
  let acked: Awaited<ReturnType<typeof upsert.stop>> = [];
  return {
    target: { url: upsert.request.url, request: upsert.request },
    abort: async () => {
      await upsert.stop();
    },
    stop: async () => {
      acked = await upsert.stop();
      return acked.length;
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
      const u = dataOf(run, 'upsert');
      return u ? answered(u) : run.ok;
    },
    exempt: (run) => dataOf(run, 'upsert')?.branches.conflict ?? 0,
  },
  ceilings: { redis: false, clients: false },
  flags: ['keys'],
  suite: { name: 'upsert', holds: 'each raw server with the write strategies' },
  // At a network distance too: the write study this workload follows ran against a cloud Redis, where WATCH won.
  published: {
    dir: 'latest-upsert',
    block: 'writes',
    shots: 'writes',
    distance: { dir: 'latest-upsert-distance', block: 'writes-distance', shots: 'writes-distance', rttMs: 1 },
  },
  noTarget: '--workload upsert launches the apps it accounts for: measure it without --target',
  privateRedis: '--workload upsert writes keys of its own: it runs on the private Redis only; unset REDIS_URL',
  oneServer: null,
  // Writes go to the primaries: reading from replicas (cluster-replicas) changes nothing for upsert.
  clusterServers: ['cluster'],
  settings: (o) => (o.upsertKeys ? { upsert: { keys: o.upsertKeys } } : {}),
  verify: (ctx) => verifyUpsert(ctx.url, ctx.redis, ctx.write),
  // The window's accounting, and the scripted check once more.
  checkAfter: async (ctx, run) => {
    const u = dataOf(run, 'upsert');
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
    if (!ctx.upsertKeys) return { url };
    const request = upsertRequest(url, keySpace(ctx.upsertKeys));
    return { url: request.url, request };
  },
  around: (ctx, url) => (ctx.upsertKeys ? around(ctx.redis, url, ctx.upsertKeys, ctx.write ?? 'lua') : null),
  pickFor: 'writes',
  load: (r, long) => {
    const keys = r.settings.upsert?.keys ?? 0;
    return long
      ? `POST /items/:id, one write over ${keys} keys per request`
      : `POST /items/:id over ${keys} key${keys === 1 ? '' : 's'}`;
  },
  pool,
  sections: [{ id: 'upsert', place: 'tables', render: upsertTable }],
  charts: [{ file: 'upsert-over-time.png', words: 'the writes over time', spec: upsertTimeSpec }],
  // At a distance, what each strategy costs per request; always, every acknowledged write accounted for.
  readme: (an, far) => (far ? [costLine(an), accountingLine(an)] : [accountingLine(an)]),
};
