// --app: the figures of a user's own app beside the contenders it was measured with, computed once for the report:
// req/s, latency, CPU per request, memory, and the Redis commands per response by name (INFO commandstats over its
// own windows), with the size of the body each serves (an app held to no body, --body any: the mean served).
import type { Results, Settings } from '../model/results';
import { keptRuns } from './verdicts';

export interface YoursRow {
  name: string;
  yours: boolean;
  /** Its status, and why when it is not ok (failed, invalid): its figures are then empty. */
  status: string;
  reason: string | null;
  rps: number | null;
  p50: number | null;
  p99: number | null;
  cpu_us: number | null;
  rss_mb: number | null;
  /** Each command Redis counted per response over the stack's own windows (lower case), largest first. */
  commands: [string, number][];
  /**
   * The size of the body it serves, as verified; an app of --body any, whose body may change: the mean over every
   * response of its kept windows (oha's body bytes ÷ its responses).
   */
  body_bytes: number | null;
  /** body_bytes is that mean (--body any), not one body's size. */
  body_mean: boolean;
}

export interface YoursFigures {
  /** The user's apps: one, or its two versions. */
  apps: NonNullable<Settings['apps']>;
  rows: YoursRow[];
}

const finite = (x: number | undefined) => (x !== undefined && Number.isFinite(x) ? x : null);

/** The app and each contender beside it; null: not an --app run. */
export function yoursOf(r: Results): YoursFigures | null {
  const apps = r.settings.apps;
  if (!apps?.length) return null;
  const mine = new Set(apps.map((a) => a.name));
  const any = new Set(apps.filter((a) => a.body === 'any').map((a) => a.name));
  const rows = r.contenders.map((c): YoursRow => {
    const p = c.points[0];
    const runs = p ? keptRuns(p) : [];
    const served = runs.reduce((n, x) => n + x.ok, 0);
    const counts = new Map<string, number>();
    for (const x of runs)
      for (const [name, n] of Object.entries(x.commands_by_name ?? {})) counts.set(name, (counts.get(name) ?? 0) + n);
    const commands = [...counts]
      .map(([name, n]): [string, number] => [name, served ? n / served : NaN])
      .filter(([, n]) => n >= 0.005)
      .sort((a, b) => b[1] - a[1]);
    const mean = any.has(c.base_of ?? c.name);
    const responses = runs.reduce((n, x) => n + x.responses, 0);
    const bytes = runs.reduce((n, x) => n + x.total_bytes, 0);
    return {
      name: c.name,
      yours: mine.has(c.base_of ?? c.name),
      status: c.status,
      reason: c.status === 'ok' ? null : (c.reason ?? null),
      rps: finite(p?.rps?.median),
      p50: finite(p?.latency_ms?.p50),
      p99: finite(p?.latency_ms?.p99),
      cpu_us: finite(p?.cpu_us_per_req),
      rss_mb: finite(p?.rss_mb),
      commands,
      body_bytes: mean ? (responses ? bytes / responses : null) : finite(runs[0]?.expected_bytes),
      body_mean: mean,
    };
  });
  return { apps, rows };
}
