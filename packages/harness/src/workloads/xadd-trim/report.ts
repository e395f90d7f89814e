// --workload xadd-trim: per contender, what an append to the capped stream costs and the accounting, which must show
// nothing lost (its runs are not published: no README line).
import { TRIM_MAXLEN } from '@bench/stream';
import type { Analysis } from '../../answers/analysis';
import type { ContenderResult } from '../../model/results';
import { fastestFirst } from '../../model/run-record';
import { poolTrim } from './accounting';
import { type TrimRecord, trimOf } from './record';
import { notAcknowledged } from '../types';

const fmt = (x: number | undefined | null, digits = 0) =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits);

/** A contender's record over every run of its points (null: none). */
function recordOf(c: ContenderResult): TrimRecord | null {
  const ws = (c.points ?? []).flatMap((p) => p.runs.map((r) => trimOf(r))).filter((w): w is TrimRecord => !!w);
  return ws.length ? poolTrim(ws) : null;
}

function row(c: ContenderResult): string {
  const t = recordOf(c);
  if (c.status !== 'ok' || !t) return `| ${c.name} | ${c.status} | – | – | – | – | ${c.reason ?? ''} |`;
  const xadd = t.redis_commands?.xadd;
  const perReq = xadd && t.acked + t.errors ? fmt(xadd / (t.acked + t.errors), 2) : '–';
  const l = c.latency_ms;
  const lat = l ? `${fmt(l.p50, 1)} / ${fmt(l.p99, 1)}` : '–';
  const accounted =
    `${t.lost} lost, ${t.invented} invented (${t.added} added, ${t.acked} acknowledged); ` +
    `${t.probes - t.probes_missing - (t.probes_trimmed ?? 0)} of ${t.probes} probes found` +
    `${t.probes_trimmed ? ` (${t.probes_trimmed} trimmed by the cap before read back)` : ''}; length ≤ ${t.length}` +
    notAcknowledged(t.errors + t.unanswered);
  return `| ${c.name} | ${fmt(c.rps?.median)} | ${lat} | ${fmt(c.cpu_us_per_req)} | ${perReq} | ${accounted} | |`;
}

const ACCOUNTING =
  'Each request appends one entry (XADD with MAXLEN ~ ' +
  `${TRIM_MAXLEN}). Around each window the stream's entries-added counter (XINFO STREAM), which counts every entry ` +
  'written however many the cap trimmed since, must rise by the 201s (a request with no answer widens the bound); ' +
  "the harness's own writes, 20 a second, are each read back by the entry id the app answered (one newer than the " +
  "stream's last entry before it was sent and older than its first entry by then was trimmed by the cap, not lost: " +
  "the counter holds it); and the stream's " +
  'length must stay within the cap and one node.';

export function trimTable(an: Analysis): string {
  const r = an.results;
  if (r.settings.workload !== 'xadd-trim') return '';
  const head =
    '| contender | req/s | latency p50 / p99 (ms) | app CPU µs/req | XADD per request | accounting | notes |\n' +
    '|---|---:|---|---:|---:|---|---|';
  const rows = fastestFirst(r.contenders).map(row);
  const title = '**Appends to a capped stream: every acknowledged write accounted for**';
  return `${title}\n\n${[head, ...rows].join('\n')}\n\n${ACCOUNTING}`;
}
