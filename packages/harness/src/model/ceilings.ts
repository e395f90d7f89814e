// The ceilings and the cost breakdown as results.json holds them: Redis alone, each runtime + client with no HTTP,
// the scaling sweep's fits, and where a request's CPU goes. Leaf types; results.ts re-exports them.

export interface RedisCeiling {
  command: string;
  connections: number;
  requests: number;
  rps: number;
  avg_latency_ms: number;
  p50_latency_ms: number;
  p99_latency_ms: number;
  /** Inside Redis, from INFO commandstats over the benchmark. */
  usec_per_call: number;
  /** --servers: the server it measured (absent: the run's only one). */
  server?: string;
}

export interface ClientCeiling {
  runtime: string;
  client: string;
  concurrency: number;
  seconds: number;
  /** Reads completed per second, each one Redis read and the body built (the plain transform). */
  rps: number;
  /** CPU of the probe process per read: the client's work and the transform, with no HTTP. */
  cpu_us_per_read: number;
  /** Each transform alone on a recorded reply of this client, median µs per operation (tinybench). */
  transform_us?: { plain: number; direct: number };
  /** DECODE=raw: the raw reader's loop (its transcode included) instead of the client's; absent: the default. */
  decode?: string;
}

/** "node + node-redis", or "node + node-redis, DECODE=raw" for a ceiling of the raw reader. */
export const clientLabel = (c: { runtime: string; client: string; decode?: string }) =>
  `${c.runtime} + ${c.client}${c.decode && c.decode !== 'default' ? `, DECODE=${c.decode}` : ''}`;

export interface LinearFit {
  slope: number;
  intercept: number;
  r2: number;
}

export interface ScalingPoint {
  entries: number;
  rps: number;
  cpu_us_per_req: number;
}

export interface ScalingRow {
  name: string;
  points: ScalingPoint[];
  /** CPU µs per request = intercept + slope × entries. */
  cpu_fit: LinearFit | null;
}

export interface Scaling {
  schema: 'scaling-1';
  /** Sub-run directory of each size, relative to the scaling run's directory. */
  runs: { entries: number; dir: string }[];
  contenders: ScalingRow[];
}

/**
 * CPU µs per request, split: Redis (its own usec_per_call, another process), the client (the
 * client ceiling's CPU per read less its plain transform), the transform (tinybench on a recorded
 * reply), HTTP and framework (the HTTP ceiling's CPU per request) and what is left over. The app's
 * parts plus the leftover are its measured CPU per request. The model: one core runs the app, so
 * it predicts 1e6 ÷ (client + transform + HTTP) req/s, or Redis's 1e6 ÷ its µs per call if lower.
 */
export interface Breakdown {
  redis_us: number;
  client_us: number;
  transform_us: number;
  http_us: number;
  leftover_us: number;
  measured_us: number;
  predicted_rps: number;
  measured_rps: number;
}
