// --workload upsert: per contender, what its write strategy costs and what it did. req/s,
// latency, app CPU and Redis CPU per request; the server's calls per request (the strategy's
// command, and for WATCH every command of its path: retries show as more than one WATCH); 409s;
// the branch each response said; and the accounting, which must show nothing lost. A chart puts
// each window's calls per second on the run's time axis, a line per strategy: the original's
// per-minute table at our window scale.
import { median } from 'simple-statistics';
import type * as vl from 'vega-lite';
import type { Analysis } from '../answers/analysis';
import type { ContenderResult, UpsertWindow } from '../model/results';

const fmt = (x: number | undefined | null, digits = 0) =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits);
const WATCH_PATH = ['watch', 'hget', 'multi', 'hset', 'hincrby', 'exec', 'unwatch'];

/** A contender's kept runs' accounting and server command counts, summed. */
function totals(an: Analysis, c: ContenderResult) {
  const runs = (an.kept.get(c.name) ?? []).filter((r) => r.upsert);
  const sum = (f: (u: UpsertWindow) => number) => runs.reduce((n, r) => n + f(r.upsert!), 0);
  const commands: Record<string, number> = {};
  for (const r of runs)
    for (const [k, n] of Object.entries(r.redis_commands ?? {})) commands[k] = (commands[k] ?? 0) + n;
  const answered = sum(
    (u) => u.branches.created + u.branches.updated + u.branches.ignored + u.branches.conflict + u.branches.pong,
  );
  const redisCpu = runs.every((r) => r.redis_cpu_s !== null) ? runs.reduce((n, r) => n + r.redis_cpu_s!, 0) : NaN;
  return { runs, sum, commands, answered, redisCpuUs: (redisCpu * 1e6) / Math.max(1, answered) };
}

/** "evalsha 1.00" or "watch 1.31, hget 1.31, multi 1.02, …": the server's calls per answered request. */
function callsCell(commands: Record<string, number>, answered: number, write: string): string {
  const names =
    write === 'watch'
      ? WATCH_PATH.filter((k) => commands[k])
      : [({ lua: 'evalsha', function: 'fcall', ping: 'ping' } as Record<string, string>)[write] ?? 'evalsha'];
  return names.map((k) => `${k} ${fmt((commands[k] ?? 0) / Math.max(1, answered), 2)}`).join(', ');
}

function row(an: Analysis, c: ContenderResult): string {
  const write = c.settings?.write ?? 'lua';
  const t = totals(an, c);
  if (c.status !== 'ok' || !t.runs.length)
    return `| ${c.name} | ${write} | ${c.status} | – | – | – | – | – | – | – | – | ${c.reason ?? ''} |`;
  const b = (k: keyof UpsertWindow['branches']) => t.sum((u) => u.branches[k]);
  const retries = write === 'watch' ? fmt((t.commands.watch ?? 0) / Math.max(1, t.answered) - 1, 3) : '–';
  const branches = write === 'ping' ? `pong ${b('pong')}` : `${b('created')} / ${b('updated')} / ${b('ignored')}`;
  const l = c.latency_ms;
  const lat = l ? `${fmt(l.p50, 1)} / ${fmt(l.p90, 1)} / ${fmt(l.p99, 1)} / ${fmt(l.p99_9, 1)}` : '–';
  const accounted =
    `${t.sum((u) => u.lost)} lost, ${t.sum((u) => u.invented)} invented, ${t.sum((u) => u.stale)} stale ` +
    `(${t.sum((u) => u.applied)} applied)`;
  return (
    `| ${c.name} | ${write} | ${fmt(c.rps?.median)} | ${lat} | ${fmt(c.cpu_us_per_req)} | ${fmt(t.redisCpuUs)} | ` +
    `${callsCell(t.commands, t.answered, write)} | ${retries} | ${b('conflict')} | ${branches} | ${accounted} | |`
  );
}

/** How the accounting is checked, under the table. */
const ACCOUNTING =
  "Each window writes a fresh key space (oha draws each request's key at random); afterwards every key is read back: " +
  'the sum of its `applied` counters must equal the 201s and 200s, ' +
  'each key must have been created once, and none may hold a version older than one acknowledged as applied ' +
  "(the harness's own concurrent writes, 20 bursts a second to a key of its own, " +
  'are read back as soon as they are acknowledged). ' +
  'A 409 is WATCH giving up after 10 retries; retries per request are WATCHes per request − 1. ' +
  'ping: the floor, one PING per request and nothing written.';

export function upsertTable(an: Analysis): string {
  const r = an.results;
  if (!r.settings.upsert) return '';
  const rows = r.contenders
    .filter((c) => !c.self_check_of)
    .sort((a, b) => (b.rps?.median ?? 0) - (a.rps?.median ?? 0))
    .map((c) => row(an, c));
  const head =
    '| contender | write | req/s | latency p50 / p90 / p99 / p99.9 (ms) | app CPU µs/req | Redis CPU µs/req | ' +
    'Redis calls per request | retries/req | 409s | created / updated / ignored | accounting | notes |\n' +
    '|---|---|---:|---|---:|---:|---|---:|---:|---|---|---|';
  const keys = `${r.settings.upsert.keys} key${r.settings.upsert.keys === 1 ? '' : 's'}`;
  return (
    `**Upsert: ${keys} per window, every acknowledged write accounted for**\n\n${[head, ...rows].join('\n')}\n\n` +
    `${ACCOUNTING}\n\n${perMinuteTable(an)}`
  );
}

/** Every measured window of the run: its strategy, its start (s into the run) and its calls per second. */
function windowRates(an: Analysis) {
  const r = an.results;
  const t0 = Date.parse(r.started_at);
  return r.contenders.flatMap((c) =>
    (an.kept.get(c.name) ?? []).flatMap((run) =>
      (run.windows ?? []).flatMap((w) =>
        w.upsert
          ? [{ write: c.settings?.write ?? 'lua', name: c.name, t: Math.round((w.started_at - t0) / 1000), rps: w.rps }]
          : [],
      ),
    ),
  );
}

/**
 * The original's per-minute table at our window scale: each minute of the run, each strategy's median calls/s over the
 * windows in it.
 */
function perMinuteTable(an: Analysis): string {
  const values = windowRates(an);
  const writes = [...new Set(values.map((v) => v.write))].sort();
  const minutes = [...new Set(values.map((v) => Math.floor(v.t / 60)))].sort((a, b) => a - b);
  const cell = (m: number, w: string) => {
    const xs = values.filter((v) => v.write === w && Math.floor(v.t / 60) === m).map((v) => v.rps);
    return xs.length ? fmt(median(xs)) : '–';
  };
  const head =
    `| minute of the run | ${writes.map((w) => `${w} calls/s`).join(' | ')} |\n` +
    `|---:|${writes.map(() => '---:').join('|')}|`;
  const rows = minutes.map((m) => `| ${m + 1} | ${writes.map((w) => cell(m, w)).join(' | ')} |`);
  return (
    "**Calls per second by minute** (median over each strategy's windows in that minute; " +
    `a window is one launch's ${an.results.settings.duration_s ?? '–'} s)\n\n${[head, ...rows].join('\n')}`
  );
}

/**
 * Each window's answered requests per second on the run's time axis, a line per write strategy (the strategies' medians
 * per window).
 */
export function upsertTimeSpec(an: Analysis, config: object): vl.TopLevelSpec | null {
  const r = an.results;
  if (!r.settings.upsert) return null;
  const values = windowRates(an);
  if (!values.length) return null;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config,
    data: { values },
    title:
      `Upsert, ${r.settings.upsert.keys} key${r.settings.upsert.keys === 1 ? '' : 's'}: ` +
      "calls per second of each window through the run, a line per strategy (its contenders' median per 10 s)",
    width: 720,
    height: 260,
    transform: [{ calculate: 'floor(datum.t / 10) * 10', as: 'bin' }],
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'bin', type: 'quantitative', title: 'seconds into the run' },
      y: {
        aggregate: 'median',
        field: 'rps',
        type: 'quantitative',
        title: "calls/s (median over the strategy's windows)",
      },
      color: { field: 'write', type: 'nominal', title: 'write' },
    },
  } as vl.TopLevelSpec;
}
