// Markdown tables from a run's analysis (answers/analysis.ts) and its results.
import { PERCENTILES, type ContenderResult, type Results } from '../model/results';
import { levelLabel } from './words';
import { clock } from '../system/progress';
import type { Analysis } from '../answers/analysis';
import { isRead } from '@bench/stream';
import { workloadOfRun } from '../workloads';
import { rttMissed } from '../topology/servers';
import type { ServerRecord } from '../model/servers';

const fmt = (x: number | undefined, digits = 1) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));
/** The seed's columns: every percentile but p99.9. */
export const LAT = PERCENTILES.filter((p) => p !== 'p99_9');

export function label(c: ContenderResult): string {
  return c.static ? `${c.name} (static: no Redis read per request)` : c.name;
}

/** "612–655 (95% CI)", with the real level when there were too few runs for the asked one. */
export const interval = (ci: { lo: number; hi: number; level: number }, digits = 0, asked = 0.95) =>
  `${fmt(ci.lo, digits)}–${fmt(ci.hi, digits)} (${levelLabel(ci.level, asked)})`;

/** "662 (652–664, 75% CI)": a median with its interval in one cell. */
const medianCell = (m: number, ci: { lo: number; hi: number; level: number }, asked = 0.95) =>
  `${fmt(m, 0)} (${fmt(ci.lo, 0)}–${fmt(ci.hi, 0)}, ${levelLabel(ci.level, asked)})`;

/** The relative index with its interval (the same level as the req/s interval beside it). */
const relativeCell = (c: ContenderResult) =>
  c.relative ? `${fmt(c.relative.median, 2)} (${fmt(c.relative.lo, 2)}–${fmt(c.relative.hi, 2)})` : '–';

/** The headline table: rank interval, req/s with its interval, relative index, latency percentiles. */
export function headlineTable(an: Analysis): string {
  const asked = an.results.settings.ci_level;
  const head =
    '| rank | contender | req/s | interval of the median | relative index (interval) | launches | ' +
    `${LAT.join(' | ')} |\n` +
    `|---:|---|---:|---:|---:|---:|${LAT.map(() => '---:').join('|')}|`;
  const rows = an.ranked.map((c) => {
    const n = `${c.rps!.n}`;
    const latency = LAT.map((p) => fmt(c.latency_ms?.[p])).join(' | ');
    return (
      `| ${c.rank} | ${label(c)} | ${fmt(c.rps!.median, 0)} | ${interval(c.rps!.ci, 0, asked)} | ` +
      `${relativeCell(c)} | ${n} | ${latency} |`
    );
  });
  return [head, ...rows].join('\n');
}

/**
 * Spread, cost and proof of Redis reads per contender. The Redis columns count the one command the gate counts per
 * response (GateRules.command): a read's, the only one it sends; a write's, named in the cell, since a strategy may
 * send more (WATCH's path: its workload's own table counts every command).
 */
export function costTable(an: Analysis): string {
  const r = an.results;
  const write = !isRead(r.settings.workload ?? 'xrange');
  const command = (c: ContenderResult) =>
    write ? `${workloadOfRun(r.settings).rules.command(c.settings?.write ?? 'lua')} ` : '';
  const head =
    '| contender | req/s min–max | req/s spread | half-width | CPU µs/req | CPU spread | peak RSS MB | ' +
    (write ? 'one Redis command: calls/req | its µs/call' : 'Redis calls/req | Redis µs/call') +
    ' | launches | notes |\n' +
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  // Figures not measured (a --target app's CPU) are null in results.json: no spread of those.
  const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);
  const rows = an.ranked.map((c) => {
    const notes = [
      c.left_out ? `${c.left_out} round${c.left_out > 1 ? 's' : ''} left out (CPU steal)` : '',
      c.loadgen_saturated ? 'load generator saturated' : '',
      c.static ? 'static' : '',
      r.target ? 'started by hand elsewhere: CPU and RSS not measured' : '',
    ]
      .filter(Boolean)
      .join('; ');
    const s = an.spreads.get(c.name)!;
    return (
      `| ${c.name} | ${fmt(c.rps!.min, 0)}–${fmt(c.rps!.max, 0)} | ${pct(s.rps)} | ` +
      `±${fmt((c.half_width ?? NaN) * 100)}% | ${fmt(c.cpu_us_per_req, 0)} | ${pct(s.cpu)} | ${fmt(c.rss_mb, 0)} | ` +
      `${command(c)}${fmt(c.redis_calls_per_req, 2)} | ${fmt(c.redis_us_per_call, 0)} | ${s.launches} | ${notes} |`
    );
  });
  return [head, ...rows].join('\n');
}

/** --with-seed: the seed's single number (third of three 200-request runs), measured in this same invocation. */
export function seedMethodTable(an: Analysis): string {
  const withSeed = an.ranked.filter((c) => c.seed_method);
  if (!withSeed.length) return '';
  const head =
    '| contender | seed method req/s (runs) | this method: median (interval) | seed vs median | ' +
    'seed inside the interval? |\n|---|---:|---:|---:|---|';
  const rows = withSeed.map((c) => {
    const s = c.seed_method!;
    const drift = ((s.headline - c.rps!.median) / c.rps!.median) * 100;
    const inside = s.headline >= c.rps!.ci.lo && s.headline <= c.rps!.ci.hi;
    const runs = s.rps.map((x) => fmt(x, 0)).join(', ');
    return (
      `| ${c.name} | ${fmt(s.headline, 0)} (${runs}) | ` +
      `${medianCell(c.rps!.median, c.rps!.ci, an.results.settings.ci_level)} | ` +
      `${drift >= 0 ? '+' : ''}${drift.toFixed(0)}% | ${inside ? 'yes' : 'no'} |`
    );
  });
  return [
    "**The seed's method beside this one**, measured in the same invocation (npm run bench -- --with-seed): " +
      'oha defaults, 200 requests at 50 connections on one fresh process, no warmup, the third of 3 runs.',
    [head, ...rows].join('\n'),
  ].join('\n\n');
}

/** --self-check: each named contender inside the suite schedule and alone (after its own run), interleaved. */
export function selfCheckTable(r: Results): string {
  const twins = r.contenders.filter((c) => c.self_check_of);
  if (!twins.length) return '';
  const head =
    '| contender | in the suite: median (interval) | alone: median (interval) | alone vs suite |\n|---|---:|---:|---:|';
  const rows = twins.map((alone) => {
    const inSuite = r.contenders.find((c) => c.name === alone.self_check_of)!;
    if (!inSuite.rps || !alone.rps) return `| ${inSuite.name} | ${inSuite.status} | ${alone.status} | – |`;
    const d = ((alone.rps.median - inSuite.rps.median) / inSuite.rps.median) * 100;
    return (
      `| ${inSuite.name} | ${medianCell(inSuite.rps.median, inSuite.rps.ci)} | ` +
      `${medianCell(alone.rps.median, alone.rps.ci)} | ${d >= 0 ? '+' : ''}${d.toFixed(1)}% |`
    );
  });
  return [
    '**Self-check: the suite schedule against the contender alone, interleaved** (npm run bench -- --self-check NAME)',
    [head, ...rows].join('\n'),
  ].join('\n\n');
}

/** Contenders that are not ranked (failed, invalid, incomplete) and combinations not measured, each with why. */
export function problems(r: Results): string {
  const bad = r.contenders
    .filter((c) => c.status !== 'ok')
    .map((c) => {
      const line = `- **${c.name}**: ${c.status} — ${c.reason ?? 'no reason recorded'}`;
      // A build that failed says its output is below: its last lines (all 50 kept are in results.json).
      const tail = /output below/.test(c.reason ?? '') ? (c.output ?? []).slice(-5) : [];
      return tail.length ? `${line}\n\n  \`\`\`\n${tail.map((l) => `  ${l}`).join('\n')}\n  \`\`\`` : line;
    });
  const unsupported = (r.unsupported ?? []).map((u) => `- **${u.name}**: not measured — ${u.reason}`);
  return [...bad, ...unsupported].join('\n');
}

/**
 * Contenders measured with a body that differs from the contract's only by causes the stream's field names force on
 * objects (measure/contract.ts), each with its causes; every other contender served the golden body byte for byte.
 */
export function contractFindings(r: Results): string {
  const differs = r.contenders.filter((c) => c.contract);
  if (!differs.length) return '';
  const same = r.contenders.filter((c) => c.status === 'ok' && !c.contract).length;
  return [
    `${same} contenders served the golden body byte for byte; ${differs.length} differ from it by named causes ` +
      '(docs/methodology.md of the checkout, "The contract on any stream"), and were measured on their own body:',
    // Markdown would read __proto__ as bold.
    ...differs.map((c) => `- **${c.name}**: ${c.contract!.replaceAll('_', '\\_')}`),
  ].join('\n');
}

/** Load points beyond the headline (connection sweeps, open-loop rates). */
export function pointsTable(an: Analysis): string {
  const withMore = an.ranked.filter((c) => c.points.length > 1);
  if (!withMore.length) return '';
  const head =
    '| contender | load | req/s | interval | p50 ms | p99 ms | CPU µs/req | status |\n' +
    '|---|---|---:|---:|---:|---:|---:|---|';
  const rows = withMore.flatMap((c) =>
    c.points.map((p) => {
      const load =
        p.rate !== null ? `${p.rate} req/s offered (${p.rate_spec}), c=${p.connections}` : `c=${p.connections}`;
      return (
        `| ${c.name} | ${load} | ${fmt(p.rps?.median, 0)} | ${p.rps ? interval(p.rps.ci) : '–'} | ` +
        `${fmt(p.latency_ms?.p50)} | ${fmt(p.latency_ms?.p99)} | ${fmt(p.cpu_us_per_req, 0)} | ${p.status} |`
      );
    }),
  );
  return [head, ...rows].join('\n');
}

function stealLine(an: Analysis): string {
  const c = an.conditions;
  if (!c) return '';
  const { redone, leftOut } = c;
  const max = an.results.settings.max_steal_pct;
  const redoNote = redone
    ? `; ${redone} run${redone > 1 ? 's' : ''} set aside because steal exceeded ${max}%, ` +
      `${leftOut} round${leftOut === 1 ? '' : 's'} left out (stolen on every attempt, or a re-measure the budget ` +
      'had no room for)'
    : '';
  const idleNote = c.idle
    ? "; while one app of a block was measured, the block's idle apps used " +
      `${c.idle.median.toFixed(2)}% of a CPU at the median (max ${c.idle.max.toFixed(2)}%)`
    : '';
  return (
    `During measured runs: CPU steal median ${c.steal.median.toFixed(1)}% (max ${c.steal.max.toFixed(1)}%)` +
    `${redoNote}; the harness itself used at most ${c.harnessMax.toFixed(2)}% of a CPU${idleNote}.`
  );
}

/** How precise this run is: run-to-run spread, and the half-width of the family's ratio intervals. */
export function precisionLine(an: Analysis): string {
  const p = an.precision;
  if (!p) return '';
  const { spread, widths } = p;
  return (
    `Precision over the ${p.contenders} dynamic contenders: req/s spread of launches (max − min) / median ` +
    `${fmt(spread.median)}% at the median (${fmt(spread.min)}–${fmt(spread.max)}%)` +
    (widths.n
      ? `; this run's own ${widths.n} ratio intervals of its answers have a median half-width of ` +
        `±${fmt(widths.median)}% (at their family-corrected levels).`
      : '.')
  );
}

/** The measured load of a round: requests, walks of windows, or windows. */
function loadText(s: Results['settings']): string {
  const windows = s.windows ?? 1;
  if (s.requests !== null) return `${s.requests} requests`;
  if (s.layout === 'walk')
    return `${windows > 1 ? `${windows} walks` : 'one walk'} of ${s.duration_s}s windows per round`;
  return `${windows > 1 ? `${windows} windows of ` : ''}${s.duration_s}s`;
}

/** How the run ended: its rounds, why it stopped, the ceilings' share and the ETA against the end. */
function stopText(r: Results): string {
  const sc = r.schedule;
  if (!sc) return '';
  const ceilings = sc.ceilings_s ? ` (ceilings: ${Math.round(sc.ceilings_s)} s of it)` : '';
  const eta =
    sc.eta_after_round_1_s && sc.ended_s
      ? `; ETA after round 1: ${clock(sc.eta_after_round_1_s)} from the start, ended at ${clock(sc.ended_s)}`
      : '';
  const setup =
    r.setup_s !== undefined ? `; setup before the first measurement ${clock(r.setup_s)}, outside the budget` : '';
  return `; ${sc.rounds} rounds, stopped: ${sc.stop_reason}${ceilings}${eta}${setup}`;
}

function methodLine(an: Analysis): string {
  const r = an.results;
  const s = r.settings;
  // Results whose family marks side-by-side comparisons were measured with those pairs together (run/block.ts).
  const twins = r.family?.comparisons.some((c) => c.side_by_side)
    ? ', the members of each twin question (a framework and its raw server, a setting and its default) side by side'
    : '';
  const order =
    s.layout === 'walk'
      ? `each round a walk measuring every compared pair in adjacent windows, shuffled from seed ${s.seed}`
      : `rounds in blocks per runtime shuffled from seed ${s.seed}${twins}`;
  const runs =
    s.runs === 'auto'
      ? `runs auto (${an.firstRounds} rounds for every contender, or fewer where the budget or --max-runs ends the ` +
        `run first, then rounds only for the contenders of comparisons still open, at most ${s.max_runs}, ` +
        `${clock(s.budget_s)} budget)`
      : `${s.runs} runs`;
  const stop = stopText(r);
  const warmup = s.warmup_s ? ` warmed up ${s.warmup_s}s at the same load` : '';
  return (
    `Method: profile ${s.profile}, workload ${s.workload.toUpperCase()}, ${runs} of ${loadText(s)} ` +
    `at ${s.connections.join('/')} connections, ` +
    (r.target
      ? `one app started by hand and never relaunched${warmup && `,${warmup}`}, ` +
        `each run verified before and after${stop}; `
      : `each launch a fresh process${warmup}, ${order}${stop}; `) +
    `headline = ${s.headline === 'third' ? 'third run (seed rule)' : 'median of runs'}, placement ${s.placement.name}` +
    (s.redis_tls
      ? '; every app read Redis over TLS (--redis-tls: rediss://, a CA made for the run), and redis-benchmark ' +
        "too, whose own TLS work can make it the lower bound: Redis's µs per call is its ceiling then."
      : '.')
  );
}

/** Where the variance lives in this run, and the windows per launch Kalibera & Jones's rule picks from it. */
function designLine(r: Results): string {
  const d = r.design;
  if (!d) return '';
  const sd = (v: number) => `${(Math.sqrt(Math.max(0, v)) * 100).toFixed(1)}%`;
  const walk = r.settings.layout === 'walk';
  const distance = d.by_distance
    ? ` Window pairs of a comparison measured adjacently differ by sd ${sd(d.by_distance.adjacent)}, ` +
      `2–15 windows apart by ${sd(d.by_distance.near)}, ` +
      `further apart by ${sd(d.by_distance.far)}: what the walk buys.`
    : '';
  const costs = `a window costs ${d.cost_window_s} s and a launch ${d.cost_launch_s} s more`;
  const gap = d.by_gap;
  return (
    `Design: sd of the paired difference ln A − ln B between windows of one round ${sd(d.t2_window)}, ` +
    `between rounds ${sd(d.t2_launch)} (pooled over ${d.comparisons} comparisons); ` +
    (walk
      ? `${costs}.${distance} `
      : `${costs}, so Kalibera & Jones's rule picks ${d.optimal_windows} windows per launch; ` +
        `this run used ${d.windows}. `) +
    `The first window of a launch ran ${(d.first_window_bias * 100).toFixed(1)}% against the others ` +
    '(a warmup too short shows as a negative figure).' +
    (!walk && gap && Number.isFinite(gap.near) && Number.isFinite(gap.far)
      ? ` Two launches of one round under ${gap.near_s} s apart differ by sd ${sd(gap.near)}, ` +
        `further apart by ${sd(gap.far)} (${gap.pairs_near} and ${gap.pairs_far} pairs): what blocks per runtime buy.`
      : '') +
    (d.warnings.length ? ` ${d.warnings.join('; ')}.` : '')
  );
}

function referenceLine(r: Results): string {
  if (!r.reference) return '';
  return (
    `Relative index = a contender's median ÷ ${fmt(r.reference.value, 1)} req/s, ` +
    `the geometric mean of the medians of the ${r.reference.members.length} dynamic contenders of this run. ` +
    'Rank, in this run alone (not pooled, and a family of its own, apart from the 5% of the answers): ' +
    'the best and worst rank consistent with the decided comparisons ("2–5"): ' +
    'every pair of contenders compared on per-round log ratios (moderated t), ' +
    'Holm-corrected at 5% over all pairs; sorted by median req/s.'
  );
}

/** A cluster's layout as its record says it: nodes, primaries and replicas, and which of them the apps read. */
function layoutText(s: ServerRecord): string {
  if (!s.nodes) return '';
  const from = s.name === 'cluster-replicas' ? 'replicas' : 'primaries';
  const roles = s.primaries === undefined ? '' : `: ${s.primaries} primaries, ${s.nodes - s.primaries} replicas`;
  return `; ${s.nodes} nodes on 127.0.0.1${roles}, read from the ${from}`;
}

/** What each server the apps read was: the one line that says Redis 7.0 with jemalloc against Valkey 9.1 with libc. */
function serversLine(r: Results): string {
  const servers = r.data.servers ?? [];
  if (!servers.length || (servers.length === 1 && servers[0]!.name === 'redis')) return '';
  const each = servers.map((s) => `${s.name} ${s.version} (${s.allocator} malloc${layoutText(s)})`).join(', ');
  const paired =
    servers.length > 1
      ? '; each contender that reads per request was measured against each, paired by round (twins named -on-<server>)'
      : '';
  return `Servers the apps read: ${each}${paired}.`;
}

/**
 * --redis-rtt: the RTT asked and measured through the proxy, and what the proxy itself cost while the apps were
 * measured.
 */
function distanceLine(an: Analysis): string {
  const d = an.results.data.redis_rtt;
  if (!d) return '';
  const cpu = an.proxyCpuPct ?? NaN;
  return (
    `Redis at a distance: a delay proxy between every app and Redis, asked for ${d.asked_ms} ms RTT, ` +
    `adding ${fmt(d.proxy_delay_ms, 3)} ms; redis-cli --latency through it measured ` +
    `${fmt(d.measured.typical_ms, 3)} ms typical (${fmt(d.measured.avg_ms, 3)} ms average, ` +
    `${d.measured.samples} samples). The proxy used ${fmt(cpu, 1)}% of a core over the measured windows.` +
    (d.missed ? ` **${rttMissed(d.asked_ms, d.measured.typical_ms)}.**` : '')
  );
}

/** The runtimes' versions, or (results that recorded none) Node's and Bun's. */
function softwareText(e: Results['environment']): string {
  return e.runtimes
    ? Object.entries(e.runtimes)
        .map(([rt, v]) => `${rt} ${v.replace(/^deno /, '').split(' ')[0]}`)
        .join(', ')
    : `Node ${e.node}, Bun ${e.bun}`;
}

/** redis-server's version, unless the apps read only other servers (named on the servers line). */
function redisText(r: Results): string {
  const servers = r.data.servers ?? [];
  if (servers.length && !servers.some((s) => s.name === 'redis')) return '';
  return `${r.environment.redis_server.split(' sha=')[0]}, `;
}

export function describeRun(an: Analysis): string {
  const r = an.results;
  const e = r.environment;
  return [
    r.target &&
      `Target (--target): ${r.target.name} at ${r.target.url}; ${r.target.not_measured}. ` +
        "Machine and software below are the load generator's.",
    // The host CPU behind the model name (cpu_id): a VM's generic name ("Intel(R) Xeon(R) Processor") can hide several.
    `Machine: ${e.cpu_model}${e.cpu_id ? ` (${e.cpu_id})` : ''}, ${e.logical_cpus} logical CPUs, ${e.memory_gb} GB, ` +
      `${e.kernel}; ` +
      `load average before: ${e.load_average_1m_before}` +
      (e.children?.session === 'own' && e.children.sched_autogroup
        ? '; each child in a session of its own (no perl), so a scheduler autogroup each: noisier pairs.'
        : '.'),
    `Software: ${softwareText(e)}, ${redisText(r)}${e.oha}.`,
    methodLine(an),
    designLine(r),
    stealLine(an),
    precisionLine(an),
    referenceLine(r),
    serversLine(r),
    distanceLine(an),
    `Data: ${r.data.entries} entries, ${(r.data.memory_bytes / 1024).toFixed(1)} KB in Redis, ` +
      `${r.data.body_bytes} bytes of JSON. ` +
      `Run ${r.started_at}, commit ${e.git_commit.slice(0, 10)}${e.git_dirty ? ' (dirty tree)' : ''}.`,
  ]
    .filter(Boolean)
    .join('\n');
}
