// --workload upsert: per contender, what its write strategy costs and what it did. req/s,
// latency, app CPU and Redis CPU per request; the server's calls per request (the strategy's
// command, and for WATCH every command of its path: retries show as more than one WATCH); 409s;
// the branch each response said; and the accounting, which must show nothing lost. A chart puts
// the windows' req/s on the run's time axis, a point per strategy and 10 s (their median), and a
// table each minute's: the original's per-minute table at our window scale.
import type * as vl from 'vega-lite';
import type { Analysis } from '../../answers/analysis';
import type { ContenderResult } from '../../model/results';
import { fastestFirst } from '../../model/run-record';
import { chartHead, notAcknowledged, once } from '../types';
import { type UpsertFigures, type UpsertRow, upsertFigures } from './figures';
import { keysOf } from './record';

/** The run's upsert figures over its kept runs (null under another workload), computed once per analysis. */
export const figuresOf = once((an: Analysis) =>
  keysOf(an.results.settings.upsert) ? upsertFigures(an.results, an.kept) : null,
);

const fmt = (x: number | undefined | null, digits = 0) =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits);
/** "evalsha 1.00" or "watch 1.31, hget 1.31, multi 1.02, …": the server's calls per answered request. */
const callsCell = (t: UpsertRow) => t.calls.map(([k, n]) => `${k} ${fmt(n, 2)}`).join(', ');

function row(c: ContenderResult, t: UpsertRow | undefined): string {
  const write = c.settings?.write ?? 'lua';
  if (c.status !== 'ok' || !t?.runs)
    return `| ${c.name} | ${write} | ${c.status} | – | – | – | – | – | – | – | – | ${c.reason ?? ''} |`;
  const b = t.branches;
  const retries = t.retries === null ? '–' : fmt(t.retries, 3);
  const branches = write === 'ping' ? `pong ${b.pong}` : `${b.created} / ${b.updated} / ${b.ignored}`;
  const l = c.latency_ms;
  const lat = l ? `${fmt(l.p50, 1)} / ${fmt(l.p90, 1)} / ${fmt(l.p99, 1)} / ${fmt(l.p99_9, 1)}` : '–';
  const tally = `${t.lost} lost, ${t.invented} invented, ${t.stale} stale (${t.applied} applied)`;
  const accounted = `${tally}${notAcknowledged(t.unanswered)}`;
  return (
    `| ${c.name} | ${write} | ${fmt(c.rps?.median)} | ${lat} | ${fmt(c.cpu_us_per_req)} | ${fmt(t.redisCpuUs)} | ` +
    `${callsCell(t)} | ${retries} | ${b.conflict} | ${branches} | ${accounted} | |`
  );
}

/** How the accounting is checked, under the table. */
const ACCOUNTING =
  "Each window writes a fresh key space (oha draws each request's key at random); afterwards every key is read back: " +
  'the sum of its `applied` counters must equal the 201s and 200s, ' +
  'each key must have been created once, and none may hold a version older than one acknowledged as applied ' +
  '(or answered ignored, which says the key held it) ' +
  "(the harness's own concurrent writes, 20 bursts a second to a key of its own, " +
  'are read back as soon as they are acknowledged). ' +
  'A 409 is WATCH giving up after 10 retries; retries per request are WATCHes per request − 1. ' +
  'ping: the floor, one PING per request and nothing written.';

/**
 * What a strategy costs per request, over the stacks that measured it: Redis commands (each a round trip unless the
 * client pipelines them) and the app's CPU (median): what decides between them when Redis is far away.
 */
export function costLine(an: Analysis): string {
  const costs = figuresOf(an)?.costs;
  if (!costs?.length) return '';
  const range = ([lo, hi]: [number, number]) => (hi - lo < 0.005 ? fmt(lo, 2) : `${fmt(lo, 2)}–${fmt(hi, 2)}`);
  const parts = costs.map((e) => `${e.write} ${range(e.commands)} commands and ${fmt(e.cpuUs)} µs of app CPU`);
  return `**Per request**, over the stacks (Redis commands; the app's CPU, median): ${parts.join('; ')}.`;
}

/** The README's line under a write run's picks: every acknowledged write accounted for, or what was not. */
export function accountingLine(an: Analysis): string {
  const t = figuresOf(an)?.accounting;
  const k = keysOf(an.results.settings.upsert);
  if (!k || !t) return '';
  const keys = `${k} key${k === 1 ? '' : 's'}`;
  const none = t.lost + t.invented + t.stale === 0;
  const what = none
    ? '**none lost**, none invented, none stale'
    : `**${t.lost} lost**, ${t.invented} invented, ${t.stale} stale`;
  return (
    `**Accounting:** ${t.applied.toLocaleString('en-US')} acknowledged writes applied in ${t.windows} windows of ` +
    `${keys} each; ${what} ` +
    '(every key read back after each window: [how](docs/writes.md#writes-the-upsert-workload)).'
  );
}

export function upsertTable(an: Analysis): string {
  const r = an.results;
  const f = figuresOf(an);
  const k = keysOf(r.settings.upsert);
  if (!k || !f) return '';
  const rows = fastestFirst(r.contenders).map((c) => row(c, f.rows.get(c.name)));
  const head =
    '| contender | write | req/s | latency p50 / p90 / p99 / p99.9 (ms) | app CPU µs/req | Redis CPU µs/req | ' +
    'Redis calls per request | retries/req | 409s | created / updated / ignored | accounting | notes |\n' +
    '|---|---|---:|---|---:|---:|---|---:|---:|---|---|---|';
  const keys = `${k} key${k === 1 ? '' : 's'}`;
  return (
    `**Upsert: ${keys} per window, every acknowledged write accounted for**\n\n${[head, ...rows].join('\n')}\n\n` +
    `${ACCOUNTING}\n\n${perMinuteTable(f, r.settings.duration_s)}`
  );
}

/**
 * The original's per-minute table at our window scale: each minute of the run, each strategy's median req/s over the
 * windows in it.
 */
function perMinuteTable({ perMinute: m }: UpsertFigures, durationS: number | null): string {
  const over = (i: number) => `${m.stacks[i]} stack${m.stacks[i] === 1 ? '' : 's'}`;
  const head =
    `| minute of the run | ${m.writes.map((w, i) => `${w} req/s (${over(i)})`).join(' | ')} |\n` +
    `|---:|${m.writes.map(() => '---:').join('|')}|`;
  const rows = m.minutes.map((minute, i) => `| ${minute + 1} | ${m.median[i]!.map((x) => fmt(x)).join(' | ')} |`);
  return (
    "**Requests per second by minute** (median over each strategy's windows in that minute; " +
    `a window is one launch's ${durationS ?? '–'} s). Each column is over the stacks that run its strategy, ` +
    'which differ from column to column: read a column down the minutes; the answers compare strategies on one ' +
    `stack.\n\n${[head, ...rows].join('\n')}`
  );
}

/**
 * The windows' req/s on the run's time axis: a point per write strategy and 10 s, the median of its windows (over its
 * contenders) that started in those 10 s.
 */
export function upsertTimeSpec(an: Analysis, config: object, subtitle: string): vl.TopLevelSpec | null {
  const r = an.results;
  const f = figuresOf(an);
  const k = keysOf(r.settings.upsert);
  if (!k || !f) return null;
  const values = f.points;
  if (!values.length) return null;
  const text =
    `Upsert, ${k} key${k === 1 ? '' : 's'}: ` +
    "req/s through the run, a point per strategy and 10 s (its windows' median, over the stacks that run it)";
  return {
    ...chartHead(values, config, text, subtitle),
    width: 720,
    height: 260,
    transform: [{ calculate: 'floor(datum.t / 10) * 10', as: 'bin' }],
    mark: { type: 'point', filled: true, size: 40 },
    encoding: {
      x: { field: 'bin', type: 'quantitative', title: 'seconds into the run' },
      y: {
        aggregate: 'median',
        field: 'rps',
        type: 'quantitative',
        title: "req/s (median over the strategy's windows)",
      },
      color: {
        field: 'write',
        type: 'nominal',
        title: 'strategy',
        legend: { labelExpr: "datum.label === 'ping' ? 'ping (the floor: no write)' : datum.label", labelLimit: 300 },
      },
    },
  } as vl.TopLevelSpec;
}
