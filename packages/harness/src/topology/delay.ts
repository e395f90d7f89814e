// Redis "at a network distance": the harness side of delay-proxy.ts (start it, measure the RTT
// that clients then see, read --rtt flag values).
import { join } from 'node:path';
import { median } from 'simple-statistics';
import { pinned } from '../system/placement';
import { killTree, spawnTracked, treeCpuSeconds, type Tracked } from '../system/proc';
import { redisCliTo } from './redis';

const PROXY_SCRIPT = join(import.meta.dir, 'delay-proxy.ts');

export interface DelayProxy {
  /** Where clients connect: redis://127.0.0.1:<port>, with the target's user, password and db. */
  url: string;
  pid: number;
  rttMs: number;
  stop(): Promise<void>;
  /** CPU seconds the proxy has used so far (user + sys, both of its threads). */
  cpuSeconds(): number;
}

/**
 * Start a delay proxy in front of targetUrl. rttMs 0 still starts one (a plain relay), which
 * shows what the extra hop alone costs; a caller that means "no distance" should skip the proxy.
 */
export async function startDelayProxy(opts: {
  targetUrl: string;
  rttMs: number;
  cpuList?: string | null;
  timeoutMs?: number;
}): Promise<DelayProxy> {
  const target = new URL(opts.targetUrl);
  if (!Number.isFinite(opts.rttMs) || opts.rttMs < 0)
    throw new Error(`delay proxy: rttMs must be >= 0, got ${opts.rttMs}`);
  // Port 0: the proxy binds a port the OS picks and names it in its ready line, so no other
  // process can take the port between a free-port probe and the bind.
  const args = [
    PROXY_SCRIPT,
    '--listen-port',
    '0',
    '--target-host',
    target.hostname.replace(/^\[|\]$/g, ''),
    '--target-port',
    target.port || '6379',
    '--rtt-ms',
    String(opts.rttMs),
  ];
  const [cmd, ...rest] = pinned(opts.cpuList ?? null, ['bun', ...args]);
  const proc = spawnTracked(cmd!, rest);
  const port = await waitReady(proc, opts.timeoutMs ?? 10_000);
  const url = new URL(opts.targetUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    pid: proc.pid,
    rttMs: opts.rttMs,
    async stop() {
      await killTree(proc.pid, 2000);
      // killTree is done once the main thread is a zombie; the listening socket closes only when
      // the last thread (the timer worker) has exited too, which the parent's exit event tells.
      await Promise.race([proc.exited, Bun.sleep(3000)]);
    },
    cpuSeconds: () => treeCpuSeconds(proc.pid),
  };
}

/** The port from the proxy's `ready <port>` line; kills it and throws if it never comes. */
async function waitReady(proc: Tracked, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ready = proc.tail().find((l) => /^ready \d+$/.test(l));
    if (ready) return Number(ready.slice(6));
    if (proc.hasExited())
      throw new Error(`delay proxy exited before it was ready: ${proc.tail().join(' / ') || 'no output'}`);
    await Bun.sleep(20);
  }
  await killTree(proc.pid, 1000);
  throw new Error(`delay proxy not ready within ${timeoutMs / 1000}s: ${proc.tail().join(' / ') || 'no output'}`);
}

export interface RttMeasurement {
  /** Mean of every PING round trip redis-cli --latency timed (what it reports for the whole time). */
  avg_ms: number;
  /**
   * Median of the per-window means: the RTT without the odd scheduling stall of a shared
   * machine, which moves a mean of sub-millisecond samples a lot.
   */
  typical_ms: number;
  /** Whole milliseconds: redis-cli times each PING with a millisecond clock. */
  min_ms: number;
  max_ms: number;
  samples: number;
  windows: number;
}

const WINDOW_S = 0.5;

/**
 * The PING round trip that `redis-cli --latency` sees at url, over about `seconds`, in half-second
 * windows, one after the other. redis-cli times each PING with a millisecond clock, so its mean is
 * sub-ms precise only over many samples (±0.5/sqrt(samples) ms: ±0.035 over 2 s). Running several
 * redis-cli side by side for more samples does not work: their PINGs fall in step and queue.
 */
export async function measureRtt(url: string, seconds = 2): Promise<RttMeasurement> {
  const windows: LatencyWindow[] = [];
  const rounds = Math.max(1, Math.round(seconds / WINDOW_S));
  for (let r = 0; r < rounds; r++) windows.push(await latencyWindow(url));
  return rttOf(windows);
}

/** redis-cli --latency's figures for one window: whole-ms min and max, the mean, the PINGs timed. */
export interface LatencyWindow {
  min: number;
  max: number;
  avg: number;
  count: number;
}

/** The RTT from its windows: the mean of every PING, the median of the windows' means, the extremes. */
export function rttOf(windows: LatencyWindow[]): RttMeasurement {
  const samples = windows.reduce((n, w) => n + w.count, 0);
  return {
    avg_ms: round3(windows.reduce((s, w) => s + w.avg * w.count, 0) / samples),
    typical_ms: round3(median(windows.map((w) => w.avg))),
    min_ms: Math.min(...windows.map((w) => w.min)),
    max_ms: Math.max(...windows.map((w) => w.max)),
    samples,
    windows: windows.length,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** One redis-cli --latency run: without a tty it samples for -i seconds, prints `min max avg count` and exits. */
async function latencyWindow(raw: string): Promise<LatencyWindow> {
  const to = redisCliTo(raw);
  const proc = spawnTracked('redis-cli', [...to.args, '--latency', '-i', String(WINDOW_S)], { env: to.env });
  const timedOut = await Promise.race([
    proc.exited.then(() => false),
    Bun.sleep(WINDOW_S * 1000 + 5000).then(() => true),
  ]);
  if (timedOut) await killTree(proc.pid, 500);
  const out = proc.tail().join('\n');
  const m = /^(\d+) (\d+) (\d+(?:\.\d+)?) (\d+)$/m.exec(out);
  if (!m || +m[4]! === 0)
    throw new Error(
      `redis-cli --latency ${timedOut ? 'did not finish' : 'failed'}: ${out.trim().split('\n')[0] || 'no output'}`,
    );
  return { min: +m[1]!, max: +m[2]!, avg: +m[3]!, count: +m[4]! };
}

const RTT_TOKEN = /^(\d+(?:\.\d+)?)(us|ms)$/;
const RTT_ACCEPTED =
  'a comma-separated list of round-trip times: 0, or a number with ' +
  'us or ms (e.g. 0,200us,0.2ms,1ms,5ms), each at most 60000ms';

/** The RTTs, in ms, of a flag value like `0,0.2ms,1ms,5ms`. */
export function parseRtt(spec: string): number[] {
  const tokens = spec.split(',').map((t) => t.trim());
  const out: number[] = [];
  for (const token of tokens) {
    const m = RTT_TOKEN.exec(token);
    const ms = token === '0' ? 0 : m ? (m[2] === 'us' ? Number(m[1]) / 1000 : Number(m[1])) : NaN;
    if (!(ms >= 0 && ms <= 60_000)) throw new Error(`bad RTT "${token}" in "${spec}": expected ${RTT_ACCEPTED}`);
    if (out.includes(ms)) throw new Error(`RTT "${token}" is listed twice in "${spec}"`);
    out.push(ms);
  }
  return out;
}
