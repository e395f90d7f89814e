// oha's command line, from a run's settings: what measure/oha.ts runs and what the report quotes, from one function.

export interface OhaOptions {
  url: string;
  connections: number;
  /** Closed loop for a duration, or a request count (the seed profile's 200 requests). */
  duration_s: number | null;
  requests: number | null;
  /** Open loop: offered req/s, latency measured from the scheduled send time. */
  rate?: number | null;
  /** The seed profile runs oha exactly as the original did: no extra flags. */
  seedDefaults?: boolean;
  /** A write workload's: POST a JSON body, the URL a regex oha draws each request's URL from. */
  request?: { method: string; body: string; randRegex: boolean } | null;
  outFile: string;
  cpuList?: string | null;
}

export function ohaArgs(o: OhaOptions): string[] {
  const load = o.requests !== null ? ['-n', String(o.requests)] : ['-z', `${Math.round(o.duration_s! * 1000)}ms`];
  const open = o.rate ? ['-q', String(o.rate), '--latency-correction'] : [];
  // -w: let requests in flight at the deadline finish, so none is counted as aborted;
  // -t: a hung app turns into counted errors instead of a run that never ends.
  const rigor = o.seedDefaults ? [] : ['--disable-compression', '-w', '-t', '20s'];
  const request = o.request
    ? [
        '-m',
        o.request.method,
        '-T',
        'application/json',
        '-d',
        o.request.body,
        ...(o.request.randRegex ? ['--rand-regex-url'] : []),
      ]
    : [];
  return [
    o.url,
    ...load,
    '-c',
    String(o.connections),
    ...open,
    ...rigor,
    ...request,
    '--no-tui',
    '--output-format',
    'json',
    '-o',
    o.outFile,
  ];
}

/** The command a reader can run against one app, as the report quotes it: the run's load, its PORT in the URL. */
export const loadCommand = (o: Pick<OhaOptions, 'duration_s' | 'requests' | 'connections'>) =>
  ['oha', ...ohaArgs({ ...o, url: 'http://127.0.0.1:$PORT/', outFile: '' }).slice(0, -5)].join(' ');

/** A load point: the connections oha holds open, and its rate (null: as fast as it can). */
export interface LoadPoint {
  connections: number;
  rate: number | null;
}

/** "c50", "c50-q200": a point's name in logs and file names (pure, so that the plan can name points too). */
export const pointLabel = (p: LoadPoint) => `c${p.connections}${p.rate !== null ? `-q${Math.round(p.rate)}` : ''}`;
