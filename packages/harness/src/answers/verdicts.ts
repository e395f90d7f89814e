// Phase 4, verdicts: statistics over each point's kept runs, the gates (error rate, one Redis
// read per response), the relative index (each median divided by the geometric mean of the
// dynamic contenders' medians of this run), the family's answers, the handicap check and the design.
import { median } from 'simple-statistics';
import {
  type ContenderResult,
  clientCeilingOf,
  clientLabel,
  type PointResult,
  type Results,
  type RunRecord,
  type Settings,
} from '../model/results';
import { geometricMean, halfWidth, summarize } from '../stats/stats';
import type { GateRules } from '../measure/workload';
import { finalLook } from './racing';
import { isHandicapped } from '../model/questions';
import { OWN_APP } from '../model/contenders';
import { handicapJudged } from './handicap';
import { designOf } from './design';
import { type Breakdown, type Latency, PERCENTILES } from '../model/results';

/**
 * Contenders that need not read Redis once per response: pages built ahead and HTTP ceilings (they read Redis at
 * build or start only), and caches (their calls per response are reported).
 */
export const noReadPerRequest = (r: Pick<ContenderResult, 'static' | 'ceiling' | 'settings'> & { app?: string }) =>
  r.static || !!r.ceiling || (r.settings?.cache ?? 'none') !== 'none' || r.app === OWN_APP;

/** Runs measured without a fault: the error gate counts every one of them. */
const measuredRuns = (p: PointResult) => p.runs.filter((x) => !x.fault);

/** Runs that count for the contender's own figures: no fault, and measured alone (not a duet-only round). */
export const keptRuns = (p: PointResult) => measuredRuns(p).filter((x) => !x.duet_only);

const MAX_ERROR_RATE = 0.001;
const CALLS_TOLERANCE = 0.02;

/**
 * Statistics over a point's kept runs, then the gates: error rate and one Redis read per request, by its workload's
 * rules (what a response that reached Redis is, which non-2xx are answers). Returned as a new point: the measured one
 * is left as it is.
 */
export function pointVerdict(
  measuredPoint: PointResult,
  settings: Settings,
  noReadPerResponse: boolean,
  rules: GateRules,
): PointResult {
  const point: PointResult = { ...measuredPoint };
  const runs = keptRuns(point);
  if (runs.length === 0) {
    point.status = 'failed';
    point.reason = point.left_out
      ? `every round was left out (CPU steal above ${settings.max_steal_pct}% on every attempt, or on the attempts ` +
        'the budget had room for)'
      : 'no run was measured';
    return point;
  }
  // Errors count over every window measured, duet-only rounds' too; the figures and the Redis reads per
  // response over the rounds alone (Redis's counters see both apps of a duet window at once).
  const measured = measuredRuns(point);
  summarizePoint(point, runs, measured, settings);
  gatePoint(point, runs, measured, rules, noReadPerResponse);
  return point;
}

/**
 * The point's figures over its kept runs: medians (or, under the seed's rule, the third run), sums and maxima;
 * its errors over every run measured.
 */
function summarizePoint(point: PointResult, runs: RunRecord[], measured: RunRecord[], settings: Settings): void {
  const med = (f: (r: RunRecord) => number) => {
    const xs = runs.map(f).filter(Number.isFinite);
    return xs.length ? median(xs) : NaN;
  };
  const headline = settings.headline === 'third' && runs.length >= 3 ? runs[2]! : null;
  point.rps = summarize(
    runs.map((r) => r.rps),
    settings.ci_level,
  );
  if (headline) point.rps.median = headline.rps; // the seed's rule: report the third run
  point.half_width = halfWidth(point.rps.median, point.rps.ci);
  point.latency_ms = Object.fromEntries(
    PERCENTILES.map((p) => [p, headline ? headline.latency_ms[p] : med((r) => r.latency_ms[p])]),
  ) as Latency;
  point.cpu_us_per_req = med((r) => r.cpu_us_per_req);
  point.rss_mb = Math.max(...runs.map((r) => r.rss_mb));
  point.redis_calls_per_req = med((r) => r.redis_calls_per_req);
  point.redis_us_per_call = med((r) => r.redis_us_per_call);
  point.loadgen_saturated = runs.some((r) => r.loadgen_saturated);
  point.errors = {
    non_2xx: measured.reduce((n, r) => n + r.errors.non_2xx, 0),
    aborted: measured.reduce((n, r) => n + r.errors.aborted, 0),
    other: measured.reduce((n, r) => n + r.errors.other, 0),
  };
}

/** The most common error message over the runs, if any. */
function topError(runs: RunRecord[]): string | undefined {
  const counts = runs
    .flatMap((r) => Object.entries(r.error_messages))
    .reduce<Record<string, number>>((m, [k, n]) => {
      m[k] = (m[k] ?? 0) + n;
      return m;
    }, {});
  return Object.entries(counts).sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** The gates, on the summarized point: its error rate, and (where it applies) one Redis read per response. */
function gatePoint(
  point: PointResult,
  runs: RunRecord[],
  measured: RunRecord[],
  rules: GateRules,
  noReadPerResponse: boolean,
): void {
  const e = point.errors!;
  const errors = e.non_2xx - measured.reduce((n, r) => n + rules.exempt(r), 0) + e.aborted + e.other;
  const total = errors + measured.reduce((n, r) => n + r.ok, 0);
  const served = runs.reduce((n, r) => n + rules.served(r), 0);
  const calls = runs.reduce((n, r) => n + r.redis_calls, 0) / Math.max(1, served);

  point.status = 'ok';
  if (total === 0 || errors / total > MAX_ERROR_RATE) {
    point.status = 'invalid';
    const top = topError(measured);
    point.reason =
      `${errors} of ${total} requests failed (${((errors / Math.max(1, total)) * 100).toFixed(2)}% > 0.1%)` +
      (e.non_2xx ? `; ${e.non_2xx} non-2xx` : '') +
      (top !== undefined ? `; most common: ${top}` : '');
  } else if (
    !noReadPerResponse &&
    (calls < 1 - CALLS_TOLERANCE || (calls > 1 + CALLS_TOLERANCE && rules.gateTooMany))
  ) {
    // Too few: some response did not reach Redis. Too many is gated where the workload says so (the
    // workloads' modules say why not).
    point.status = 'invalid';
    const want = `want 1.00 ± ${CALLS_TOLERANCE}`;
    const why =
      calls < 1
        ? 'cached or skipped Redis'
        : 'more Redis calls than responses (a read repeated, or another client on this Redis)';
    point.reason = `${why}: ${calls.toFixed(3)} ${rules.label} calls per response, ${want}`;
  }
}

/** Headline figures at the contender's top level come from its first point. */
function withHeadline(r: ContenderResult): ContenderResult {
  const { runs, status, reason, connections, rate, rate_spec, discarded_runs, ...figures } = r.points[0]!;
  return { ...r, ...figures, connections, runs };
}

/**
 * The reference is the geometric mean of the dynamic contenders' medians, not one baseline
 * contender: run-to-run noise is not shared between contenders (r ≈ 0.07), so dividing by one
 * contender adds its noise, while the mean of many cancels most of it and keeps the machine's
 * common drift, which is what a relative index must remove.
 */
export function withReference(results: Results): Pick<Results, 'reference' | 'contenders'> {
  const members = results.contenders.filter(
    (c) =>
      c.status === 'ok' &&
      !noReadPerRequest(c) &&
      !c.self_check_of &&
      !c.base_of &&
      !isHandicapped(c) &&
      Number.isFinite(c.points[0]?.rps?.median),
  );
  if (!members.length) return { reference: results.reference, contenders: results.contenders };
  const value = geometricMean(members.map((c) => c.points[0]!.rps!.median));
  const reference = { kind: 'geomean-dynamic' as const, members: members.map((c) => c.name), value };
  const contenders = results.contenders.map((c) => {
    const rps = c.points[0]?.rps;
    if (c.status !== 'ok' || !rps) return c;
    const relative = { median: rps.median / value, lo: rps.ci.lo / value, hi: rps.ci.hi / value, level: rps.ci.level };
    return withFirstPoint(c, { relative });
  });
  return { reference, contenders };
}

/** A contender with fields added to its first point: a new contender and point, the given ones as they were. */
const withFirstPoint = (c: ContenderResult, add: Partial<PointResult>): ContenderResult => ({
  ...c,
  points: [{ ...c.points[0]!, ...add }, ...c.points.slice(1)],
});

/** The measured HTTP ceiling of a contender's runtime and framework (and variant), if any. */
const httpCeilingOf = (results: Results, c: ContenderResult) =>
  results.contenders.find(
    (x) =>
      x.ceiling === 'http' &&
      x.status === 'ok' &&
      x.runtime === c.runtime &&
      x.framework === c.framework &&
      x.variant === c.variant,
  );

/**
 * The lowest ceiling that applies to a dynamic contender: Redis alone, its runtime and client with no HTTP, or its
 * runtime and framework serving a precomputed body.
 */
export function ceilingFor(
  results: Results,
  c: ContenderResult,
): { ceiling: string; ceiling_rps: number; redis_rps?: number } | null {
  // --servers: the ceiling of the server this contender reads.
  const server = c.server ?? results.settings?.servers?.[0];
  // redis-benchmark runs next to Redis: under --redis-rtt it bounds nothing the apps could reach.
  const redis = results.settings?.redis_rtt_ms
    ? []
    : (results.ceilings?.redis
        .filter((x) => !x.server || x.server === server)
        .map((x) => x.rps)
        .filter(Number.isFinite) ?? []);
  const http = httpCeilingOf(results, c);
  const client = oneProcessOneServer(c) ? clientCeilingOf(results, c) : undefined;
  const candidates = [
    ...(redis.length ? [{ ceiling: 'redis', ceiling_rps: median(redis) }] : []),
    ...(client ? [{ ceiling: `${clientLabel(client)}, no HTTP`, ceiling_rps: client.rps }] : []),
    ...(http?.points[0]?.rps ? [{ ceiling: http.name, ceiling_rps: http.points[0].rps.median }] : []),
  ];
  const lowest = candidates.sort((a, b) => a.ceiling_rps - b.ceiling_rps)[0];
  return lowest ? { ...lowest, ...(redis.length ? { redis_rps: median(redis) } : {}) } : null;
}

/** The contenders with each dynamic one's efficiency against its lowest ceiling, and its CPU breakdown. */
export function withCeilingFigures(results: Results): ContenderResult[] {
  return results.contenders.map((c) => {
    const rps = c.points[0]?.rps;
    const ceiling = c.status === 'ok' && rps && !noReadPerRequest(c) ? ceilingFor(results, c) : null;
    const add: Partial<PointResult> = {};
    if (ceiling) {
      const { redis_rps, ...lowest } = ceiling;
      add.efficiency = {
        value: rps!.median / ceiling.ceiling_rps,
        ...lowest,
        ...(redis_rps ? { redis_share: rps!.median / redis_rps } : {}),
      };
    }
    const breakdown = c.status === 'ok' && !noReadPerRequest(c) ? breakdownOf(results, c) : null;
    if (breakdown) add.breakdown = breakdown;
    return Object.keys(add).length ? withFirstPoint(c, add) : c;
  });
}

/** The client ceiling and the breakdown model one process on a single server: not two workers or a cluster's twins. */
const oneProcessOneServer = (c: ContenderResult) =>
  (c.settings?.workers ?? '1') === '1' && !c.server?.startsWith('cluster');

export function breakdownOf(results: Results, c: ContenderResult): Breakdown | null {
  const p = c.points[0];
  const client = oneProcessOneServer(c) ? clientCeilingOf(results, c) : undefined;
  const http = httpCeilingOf(results, c);
  const httpUs = http?.points[0]?.cpu_us_per_req;
  if (!p?.rps || p.cpu_us_per_req === undefined || !client?.transform_us || httpUs === undefined) return null;
  // DECODE=raw: the reader transcodes as it reads, so the transform is in the client's share. DECODE=bytes: the
  // probe and the contender write the body from the Buffers (the direct transform).
  const decode = client.decode ?? 'default';
  const probeTransformUs =
    decode === 'raw' ? 0 : decode === 'bytes' ? client.transform_us.direct : client.transform_us.plain;
  const transformUs =
    decode !== 'default'
      ? probeTransformUs
      : c.settings?.transform === 'direct'
        ? client.transform_us.direct
        : client.transform_us.plain;
  const clientUs = client.cpu_us_per_read - probeTransformUs;
  const appUs = clientUs + transformUs + httpUs;
  const redisUs = p.redis_us_per_call ?? NaN;
  return {
    redis_us: redisUs,
    client_us: clientUs,
    transform_us: transformUs,
    http_us: httpUs,
    leftover_us: p.cpu_us_per_req - appUs,
    measured_us: p.cpu_us_per_req,
    predicted_rps: Math.min(1e6 / appUs, Number.isFinite(redisUs) ? 1e6 / redisUs : Infinity),
    measured_rps: p.rps.median,
  };
}

/**
 * The verdicts of a finished (ok) or stopped run: each contender's gates and status, the reference, the ceilings'
 * figures, the last look, the handicap check and the design. Returned as the fields to store in the run's results
 * (run/finish.ts does); `results` itself is left as it was measured.
 */
export function runVerdicts(results: Results, ok: boolean, rules: GateRules): Partial<Results> {
  const { settings } = results;
  const contenders = results.contenders.map((r): ContenderResult => {
    if (r.status !== 'incomplete') return r;
    if (!ok) return { ...r, reason: r.reason ?? `not finished: ${results.exit_reason}` };
    const points = r.points.map((p) => pointVerdict(p, settings, noReadPerRequest(r), rules));
    const bad = points.find((p) => p.status !== 'ok');
    const { reason: _, ...rest } = r;
    return bad
      ? {
          ...rest,
          points,
          status: bad.status,
          reason: `c${bad.connections}${bad.rate !== null ? ` at ${bad.rate} req/s` : ''}: ${bad.reason}`,
        }
      : { ...rest, points, status: 'ok' };
  });
  let judged: Results = { ...results, contenders };
  if (ok) {
    judged = { ...judged, ...withReference(judged) };
    judged = { ...judged, contenders: withCeilingFigures(judged) };
    judged = { ...judged, ...finalLook(judged) };
    judged = { ...judged, handicap: handicapJudged(judged) };
    judged = { ...judged, design: designOf(judged) ?? undefined };
  }
  const { reference, answers, open, looks, prior, prior_side_by_side, changes, handicap, design } = judged;
  return {
    contenders: judged.contenders.map((r) => (r.points[0]?.runs.length ? withHeadline(r) : r)),
    ...(ok ? { reference, answers, open, looks, prior, prior_side_by_side, changes, handicap, design } : {}),
    complete: ok && judged.contenders.every((r) => r.status !== 'incomplete'),
    finished_at: new Date().toISOString(),
  };
}
