// Command-line flags → validated settings. Any bad input is a UsageError (exit 2).
import { parseArgs } from 'node:util';
import { WORKLOADS } from '@bench/stream';
import { PLACEMENTS, type PlacementName } from './placement';

export class UsageError extends Error {}

export const FLAGS = {
  list: { type: 'boolean', desc: 'print the contender names, one per line, and exit' },
  only: { type: 'string', desc: 'comma-separated contender names (see --list)' },
  runs: { type: 'string', desc: 'measured runs per contender (default 5; seed profile 3)' },
  duration: { type: 'string', desc: 'length of each measured run, e.g. 10s, 500ms, 1m (default 10s)' },
  warmup: { type: 'string', desc: 'unmeasured warmup per contender, e.g. 5s; 0 to skip (default 5s)' },
  connections: { type: 'string', desc: 'concurrent connections, or a sweep like 1,8,64,256 (default 50)' },
  rate: { type: 'string', desc: 'open-loop offered load: 300 (req/s) or 50%,75% of each contender\'s max' },
  rdb: { type: 'string', desc: 'RDB file to load into the private Redis (default dump.rdb)' },
  workload: { type: 'string', desc: `Redis read per request: ${WORKLOADS.join(' | ')} (default xrange)` },
  profile: { type: 'string', desc: 'default | seed (the original method: 200 requests, 3 runs, third taken)' },
  placement: { type: 'string', desc: `CPU pinning: ${PLACEMENTS.join(' | ')} (default auto)` },
  'start-timeout': { type: 'string', desc: 'how long an app may take to answer after start (default 30s)' },
  'redis-port': { type: 'string', desc: 'port for the private Redis (default: a free one)' },
  out: { type: 'string', desc: 'directory that receives <timestamp>/ and latest/ (default results)' },
  resume: { type: 'string', desc: 'continue the interrupted run in this results directory' },
  'max-steal': { type: 'string', desc: 'measure a run again when the hypervisor stole more CPU than this, in % (default 5; 100 = never)' },
  strict: { type: 'boolean', desc: 'refuse to start when the machine is busy (load average > CPUs/2)' },
  help: { type: 'boolean', desc: 'show this help' },
} as const;

export function usage(): string {
  const lines = Object.entries(FLAGS).map(([name, f]) => `  --${name}${f.type === 'string' ? ' <value>' : ''}`.padEnd(28) + f.desc);
  return ['usage: npm run bench -- [flags]', '', ...lines].join('\n');
}

export interface CliOptions {
  list: boolean;
  help: boolean;
  only: string[] | null;
  runs: number;
  durationS: number | null;
  requests: number | null;
  warmupS: number;
  connections: number[];
  rates: string[];
  rdb: string | null;
  workload: (typeof WORKLOADS)[number];
  profile: 'default' | 'seed';
  placement: PlacementName;
  startTimeoutS: number;
  redisPort: number | null;
  out: string;
  resume: string | null;
  strict: boolean;
  maxStealPct: number;
}

/** "10s", "500ms", "1m", "2.5s" → seconds. */
export function parseDuration(flag: string, value: string, { allowZero = false } = {}): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value.trim()) ?? (allowZero && value.trim() === '0' ? ['0', '0', 's'] : null);
  const seconds = m ? Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2] as 'ms' | 's' | 'm'] : NaN;
  if (!m || !(seconds > 0 || (allowZero && seconds === 0))) {
    throw new UsageError(`--${flag} "${value}" is not a ${allowZero ? '' : 'positive '}duration; use a number with ms, s or m, like 10s`);
  }
  return seconds;
}

function positiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} "${value}" must be a whole number ≥ 1`);
  return n;
}

function percent(flag: string, value: string): number {
  const n = Number(value.trim().replace(/%$/, ''));
  if (!/^\d+(\.\d+)?%?$/.test(value.trim()) || n > 100) throw new UsageError(`--${flag} "${value}" must be a percentage from 0 to 100`);
  return n;
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} "${value}" is not accepted; use one of: ${allowed.join(', ')}`);
  return value as T;
}

export function parseCli(argv: string[], knownContenders: string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: Object.fromEntries(Object.entries(FLAGS).map(([k, f]) => [k, { type: f.type }])), strict: true, allowPositionals: false });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0]}; accepted flags: ${Object.keys(FLAGS).map((f) => `--${f}`).join(' ')}`);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const str = (k: string) => v[k] as string | undefined;
  const profile = oneOf('profile', str('profile') ?? 'default', ['default', 'seed'] as const);
  const seed = profile === 'seed';

  let only: string[] | null = null;
  if (str('only') !== undefined) {
    only = str('only')!.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = only.filter((n) => !knownContenders.includes(n));
    if (unknown.length || only.length === 0) {
      throw new UsageError(`unknown contender${unknown.length > 1 ? 's' : ''} ${unknown.join(', ') || '(empty --only)'}; accepted: ${knownContenders.join(', ')}`);
    }
  }
  const connections = (str('connections') ?? '50').split(',').map((c) => positiveInt('connections', c));
  const rates = str('rate') ? str('rate')!.split(',').map((r) => r.trim()) : [];
  for (const r of rates) {
    const pct = /^(\d+(?:\.\d+)?)%$/.exec(r);
    const ok = pct ? Number(pct[1]) > 0 && Number(pct[1]) <= 200 : /^\d+(\.\d+)?$/.test(r) && Number(r) > 0;
    if (!ok) throw new UsageError(`--rate "${r}" is not accepted; use req/s like 300, or a share of each contender's max like 50%`);
  }
  if (seed && (rates.length || str('duration'))) throw new UsageError('--profile seed uses fixed request counts: leave out --duration and --rate');

  return {
    list: v.list === true,
    help: v.help === true,
    only,
    runs: str('runs') !== undefined ? positiveInt('runs', str('runs')!) : seed ? 3 : 5,
    durationS: seed ? null : parseDuration('duration', str('duration') ?? '10s'),
    requests: seed ? 200 : null,
    warmupS: str('warmup') !== undefined ? parseDuration('warmup', str('warmup')!, { allowZero: true }) : seed ? 0 : 5,
    connections,
    rates,
    rdb: str('rdb') ?? null,
    workload: oneOf('workload', str('workload') ?? 'xrange', WORKLOADS),
    profile,
    placement: oneOf('placement', str('placement') ?? 'auto', PLACEMENTS),
    startTimeoutS: parseDuration('start-timeout', str('start-timeout') ?? '30s'),
    redisPort: str('redis-port') !== undefined ? positiveInt('redis-port', str('redis-port')!) : null,
    out: str('out') ?? 'results',
    resume: str('resume') ?? null,
    strict: v.strict === true,
    maxStealPct: str('max-steal') !== undefined ? percent('max-steal', str('max-steal')!) : 5,
  };
}
