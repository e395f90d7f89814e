// What a run prints while it works. log(): always (errors, warnings, failures, where the results
// went). info(): the run's plain lines, one per step. progress(): where the run is and an ETA —
// a live status line on a terminal, a plain line once a minute otherwise. --quiet keeps log() only.
export type ProgressMode = 'live' | 'plain' | 'quiet';

export interface Progress {
  phase: string;
  contender?: string;
  round?: number;
  rounds?: number;
  runsLeft?: number;
  /** Seconds until the run ends, learned from the runs so far; null before there is anything to learn from. */
  etaS: number | null;
}

const PLAIN_EVERY_MS = 60_000;
let mode: ProgressMode = process.stderr.isTTY ? 'live' : 'plain';
let status = '';
let lastPlain = -Infinity;
const out = (s: string) => process.stderr.write(s);

export function setProgressMode(m: ProgressMode): void {
  mode = m;
}

export function log(msg: string): void {
  out(mode === 'live' && status ? `\r\x1b[2K${msg}\n${status}` : `${msg}\n`);
}

export function info(msg: string): void {
  if (mode !== 'quiet') log(msg);
}

export const clock = (s: number) => {
  const t = Math.max(0, Math.round(s));
  return t >= 3600
    ? `${Math.floor(t / 3600)}h${String(Math.floor((t % 3600) / 60)).padStart(2, '0')}m`
    : `${Math.floor(t / 60)}m${String(t % 60).padStart(2, '0')}s`;
};

export function progressLine(p: Progress): string {
  const where = [
    p.phase,
    p.contender,
    p.round !== undefined && `round ${p.round}${p.rounds ? ` of ${p.rounds}` : ''}`,
    p.runsLeft !== undefined && `${p.runsLeft} run${p.runsLeft === 1 ? '' : 's'} left`,
  ];
  const at = (s: number) => new Date(Date.now() + s * 1000).toTimeString().slice(0, 5);
  const eta = p.etaS === null ? 'after the first runs' : `${clock(p.etaS)} (${at(p.etaS)})`;
  return `${where.filter(Boolean).join(' · ')} · ETA ${eta}`;
}

/** The live line counts down between updates. */
let live: { p: Progress; at: number } | null = null;
/** Set once: the line is redrawn every second from the first live update on. */
let ticker: ReturnType<typeof setInterval> | null = null;
function redraw(): void {
  if (!live) return;
  const { p, at } = live;
  const etaS = p.etaS === null ? null : Math.max(0, p.etaS - (Date.now() - at) / 1000);
  status = progressLine({ ...p, etaS }).slice(0, (process.stderr.columns || 120) - 1);
  out(`\r\x1b[2K${status}`);
}

export function progress(p: Progress): void {
  if (mode === 'live') {
    live = { p, at: Date.now() };
    if (!ticker) ticker = setInterval(redraw, 1000).unref();
    redraw();
  } else if (mode === 'plain' && p.etaS !== null && Date.now() - lastPlain >= PLAIN_EVERY_MS) {
    lastPlain = Date.now();
    out(`progress: ${progressLine(p)}\n`);
  }
}

/** Clears the live line (before the final lines of a run). */
export function endProgress(): void {
  if (mode === 'live' && status) out('\r\x1b[2K');
  status = '';
  live = null;
}
