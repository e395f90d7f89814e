// How far each contender is from the possible: the ceilings measured in the same invocation
// (Redis alone; each runtime and client with no HTTP; each runtime and framework serving a
// precomputed body) and each contender's efficiency, its median ÷ the lowest ceiling that applies.
import { median } from 'simple-statistics';
import type { Results } from '../results';
import { levelLabel } from '../stats';
import { ranked } from './table';

const fmt = (x: number | undefined, digits = 0) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));

export function ceilingsTable(r: Results): string {
  const redis = r.ceilings?.redis ?? [];
  const http = r.contenders.filter((c) => c.ceiling === 'http' && !c.self_check_of);
  const clients = [...(r.ceilings?.client ?? [])].sort((a, b) => b.rps - a.rps);
  if (!redis.length && !http.length && !clients.length) return '';
  const rows: string[] = [];
  if (redis.length) {
    const rps = redis.map((x) => x.rps);
    rows.push(`| Redis alone: redis-benchmark \`${redis[0]!.command}\`, c=${redis[0]!.connections} | ${fmt(median(rps))} | ${rps.map((x) => fmt(x)).join(', ')} (${redis.length} measurements) | – | ${fmt(median(redis.map((x) => x.usec_per_call)))} µs per call inside Redis |`);
  }
  for (const c of http.sort((a, b) => (b.rps?.median ?? 0) - (a.rps?.median ?? 0))) {
    const stack = `${c.runtime} ${c.variant ? `${c.framework} ${c.variant}` : c.framework}`;
    if (c.status !== 'ok' || !c.rps) {
      rows.push(`| HTTP: ${stack} (${c.name}) | ${c.status} | ${c.reason ?? ''} | – | – |`);
      continue;
    }
    rows.push(`| HTTP: ${stack} (${c.name}) | ${fmt(c.rps.median)} | ${fmt(c.rps.ci.lo)}–${fmt(c.rps.ci.hi)} (${levelLabel(c.rps.ci.level)}, ${c.rps.n} runs) | ${fmt(c.cpu_us_per_req)} | body precomputed at start |`);
  }
  for (const c of clients) {
    rows.push(`| client: ${c.runtime} + ${c.client}, no HTTP | ${fmt(c.rps)} | one ${fmt(c.seconds, 1)} s measurement | ${fmt(c.cpu_us_per_read)} | ${c.concurrency} reads in flight, plain transform |`);
  }
  const head = '| ceiling | req/s | spread | CPU µs/req | notes |\n|---|---:|---|---:|---|';
  return `**Ceilings, measured in this run** (never ranked with the contenders)\n\n${[head, ...rows].join('\n')}`;
}

/** Each dynamic contender's median as a share of the lowest ceiling that applies to it. */
export function efficiencyTable(r: Results): string {
  const rows = ranked(r).filter((c) => c.efficiency);
  if (!rows.length) return '';
  const head = '| contender | req/s | lowest ceiling | ceiling req/s | efficiency |\n|---|---:|---|---:|---:|';
  const body = rows.map((c) => {
    const e = c.efficiency!;
    return `| ${c.name} | ${fmt(c.rps!.median)} | ${e.ceiling === 'redis' ? 'Redis alone' : e.ceiling} | ${fmt(e.ceiling_rps)} | ${fmt(e.value * 100, 1)}% |`;
  });
  return `**Efficiency**: median req/s ÷ the lowest ceiling that applies (Redis alone, the contender's runtime and client with no HTTP, or its runtime and framework serving a precomputed body)\n\n${[head, ...body].join('\n')}`;
}
