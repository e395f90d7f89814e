// Markdown tables from a results.json.
import { PERCENTILES } from '../oha';
import type { ContenderResult, Results } from '../results';
import { median } from 'simple-statistics';
import { spread } from '../stats';

const fmt = (x: number | undefined, digits = 1) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
/** The seed's columns: every percentile but p99.9. */
export const LAT = PERCENTILES.filter((p) => p !== 'p99_9');

export function label(c: ContenderResult): string {
  return c.static ? `${c.name} (static: no Redis read per request)` : c.name;
}

/** Ranked by headline req/s; only contenders that passed every gate. */
export const ranked = (r: Results) =>
  r.contenders.filter((c) => c.status === 'ok' && c.rps).sort((a, b) => b.rps!.median - a.rps!.median);

/** The seed's table: server | req/s | latency percentiles in ms. */
export function seedTable(r: Results): string {
  const head = `| server | req/s | ${LAT.join(' | ')} |\n|---|---:|${LAT.map(() => '---:').join('|')}|`;
  const rows = ranked(r).map((c) => `| ${label(c)} | ${fmt(c.rps!.median, 0)} | ${LAT.map((p) => fmt(c.latency_ms?.[p])).join(' | ')} |`);
  return [head, ...rows].join('\n');
}

/** Spread, cost and proof of Redis reads per contender. */
export function costTable(r: Results): string {
  /** spread = (max − min) / median over the runs. */
  const head = '| server | req/s median (min–max) | 95% CI | req/s spread | CPU µs/req | CPU spread | peak RSS MB | Redis calls/req | Redis µs/call | notes |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const pct = (xs: number[]) => (xs.length > 1 ? `${(spread(xs) * 100).toFixed(1)}%` : '–');
  const rows = ranked(r).map((c) => {
    const notes = [c.loadgen_saturated ? 'load generator saturated' : '', c.static ? 'static' : ''].filter(Boolean).join('; ');
    return `| ${c.name} | ${fmt(c.rps!.median, 0)} (${fmt(c.rps!.min, 0)}–${fmt(c.rps!.max, 0)}) | ${fmt(c.rps!.ci95[0], 0)}–${fmt(c.rps!.ci95[1], 0)} | ${pct(c.runs.map((x) => x.rps))} | ${fmt(c.cpu_us_per_req, 0)} | ${pct(c.runs.map((x) => x.cpu_us_per_req))} | ${fmt(c.rss_mb, 0)} | ${fmt(c.redis_calls_per_req, 2)} | ${fmt(c.redis_us_per_call, 0)} | ${notes} |`;
  });
  return [head, ...rows].join('\n');
}

/** The seed's single number (third of three 200-request runs) against this method's median and CI. */
export function seedDriftTable(seed: Results, rigorous: Results): string {
  const bySeed = new Map(ranked(seed).map((c) => [c.name, c]));
  const head = '| server | seed method req/s | this method req/s (95% CI) | drift | seed inside the CI? |\n|---|---:|---:|---:|---|';
  const rows = ranked(rigorous)
    .filter((c) => bySeed.has(c.name))
    .map((c) => {
      const s = bySeed.get(c.name)!.rps!.median;
      const [lo, hi] = c.rps!.ci95;
      const drift = ((s - c.rps!.median) / c.rps!.median) * 100;
      return `| ${c.name} | ${fmt(s, 0)} | ${fmt(c.rps!.median, 0)} (${fmt(lo, 0)}–${fmt(hi, 0)}) | ${drift >= 0 ? '+' : ''}${drift.toFixed(0)}% | ${s >= lo && s <= hi ? 'yes' : 'no'} |`;
    });
  return [head, ...rows].join('\n');
}

export const seedDriftNote = (seed: Results) =>
  `npm run bench -- --profile seed, ${seed.started_at}: oha defaults, 200 requests at 50 connections, no warmup, the third of 3 runs`;

export function problems(r: Results): string {
  const bad = r.contenders.filter((c) => c.status !== 'ok');
  return bad.length ? bad.map((c) => `- **${c.name}**: ${c.status} — ${c.reason ?? 'no reason recorded'}`).join('\n') : '';
}

/** Load points beyond the headline (connection sweeps, open-loop rates). */
export function pointsTable(r: Results): string {
  const withMore = ranked(r).filter((c) => c.points.length > 1);
  if (!withMore.length) return '';
  const head = '| server | load | req/s | p50 ms | p99 ms | CPU µs/req | status |\n|---|---|---:|---:|---:|---:|---|';
  const rows = withMore.flatMap((c) =>
    c.points.map((p) => `| ${c.name} | ${p.rate !== null ? `${p.rate} req/s offered (${p.rate_spec}), c=${p.connections}` : `c=${p.connections}`} | ${fmt(p.rps?.median, 0)} | ${fmt(p.latency_ms?.p50)} | ${fmt(p.latency_ms?.p99)} | ${fmt(p.cpu_us_per_req, 0)} | ${p.status} |`),
  );
  return [head, ...rows].join('\n');
}

function stealLine(r: Results): string {
  const runs = r.contenders.flatMap((c) => c.points.flatMap((p) => p.runs));
  const steal = runs.map((x) => x.cpu_steal_pct).filter(Number.isFinite);
  const harness = runs.map((x) => x.harness_cpu_pct).filter(Number.isFinite);
  if (!steal.length) return '';
  const redone = r.contenders.flatMap((c) => c.points.flatMap((p) => p.discarded_runs ?? [])).filter((x) => x.fault?.startsWith('CPU steal')).length;
  const redoNote = redone ? `; ${redone} run${redone > 1 ? 's' : ''} measured again because steal exceeded ${r.settings.max_steal_pct}%` : '';
  return `During measured runs: CPU steal median ${median(steal).toFixed(1)}% (max ${Math.max(...steal).toFixed(1)}%)${redoNote}; the harness itself used at most ${Math.max(...harness).toFixed(2)}% of a CPU.`;
}

export function describeRun(r: Results): string {
  const e = r.environment;
  const s = r.settings;
  const load = s.requests !== null ? `${s.requests} requests` : `${s.duration_s}s`;
  return [
    `Machine: ${e.cpu_model}, ${e.logical_cpus} logical CPUs, ${e.memory_gb} GB, ${e.kernel}; load average before: ${e.load_average_1m_before}.`,
    `Software: Node ${e.node}, Bun ${e.bun}, ${e.redis_server.split(' sha=')[0]}, ${e.oha}.`,
    `Method: profile ${s.profile}, workload ${s.workload.toUpperCase()}, ${s.runs} runs of ${load} at ${s.connections.join('/')} connections` +
      `${s.warmup_s ? ` after a ${s.warmup_s}s warmup` : ''}, headline = ${s.headline === 'third' ? 'third run (seed rule)' : 'median of runs'}, placement ${s.placement.name}.`,
    stealLine(r),
    `Data: ${r.data.entries} entries, ${(r.data.memory_bytes / 1024).toFixed(1)} KB in Redis, ${r.data.body_bytes} bytes of JSON. Run ${r.started_at}, commit ${e.git_commit.slice(0, 10)}${e.git_dirty ? ' (dirty tree)' : ''}.`,
  ]
    .filter(Boolean)
    .join('\n');
}
