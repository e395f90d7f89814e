// --workload live, in the harness: the writer runs beside the private Redis for the whole command
// (prepare starts it, stopAll stops it), a prober GETs the measured app 20 times a second through
// each window, and the checker (checker.ts) judges every probe against the writer's log. What a
// window's record gets: its probes' verdicts and staleness, the writer's own Redis cost, and
// whether oha's bytes per response could have been a snapshot of the stream at all.
import {
  closeSync,
  createReadStream,
  createWriteStream,
  existsSync,
  openSync,
  readSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { spawnTracked, killTree, type Tracked } from '../../system/proc';
import { median } from 'simple-statistics';
import { judge, sequenceOf, snapshotLengths, Timeline, type Probe } from './checker';
import { probeOnce } from '../../measure/probe';
import type { WriterHeader, WrittenEntry } from './writer';
import type { LiveWindow } from './record';
import type { Background } from '../../measure/workload';

/** Probes per second during a window: enough for percentiles, a few % of the app's load. */
export const PROBE_RATE = 20;
const WRITER = join(import.meta.dir, 'writer.ts');

export interface Live extends Background {
  /** The writer running now (a new one after each pause). */
  writer: Tracked;
  /** The first writer's log; each is gzipped (`.jsonl.gz`) once the live session stops. */
  log: string;
  rate: number;
  maxlen: number;
  /** The sequence so far: initial entries, then every acknowledged write, across pauses (extended in place). */
  timeline(): Timeline;
  /** Stops the writer, runs `during` (a Redis restart), then starts a new writer whose log continues the sequence. */
  pause<T>(during: () => Promise<T>): Promise<T>;
  /** Stops the writer and gzips every log. */
  stop(): Promise<void>;
}

/**
 * A finished log gzipped in place, at the fastest level: kept as the evidence behind every
 * verdict, but a run at 10,000 writes/s logs about 2 GB in 15 min, and gzip makes that 5.5× smaller.
 */
async function compressLog(file: string): Promise<void> {
  if (!existsSync(file)) return;
  await pipeline(createReadStream(file), createGzip({ level: 1 }), createWriteStream(`${file}.gz`));
  rmSync(file);
}

/**
 * The writer's log read as it grows: its header, and the entries no call has taken yet (each is
 * kept only until the timeline takes it, so a long run's log is not held twice).
 */
function logReader(file: string): () => { header: WriterHeader | null; take(): WrittenEntry[] } {
  let offset = 0;
  let rest = '';
  let header: WriterHeader | null = null;
  let written: WrittenEntry[] = [];
  const take = () => {
    const out = written;
    written = [];
    return out;
  };
  return () => {
    const size = existsSync(file) ? statSync(file).size : 0;
    if (size > offset) {
      const buf = Buffer.alloc(size - offset);
      const fd = openSync(file, 'r');
      readSync(fd, buf, 0, buf.length, offset);
      closeSync(fd);
      offset = size;
      const lines = (rest + buf.toString('utf8')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const obj = JSON.parse(line);
        if (header) written.push(obj);
        else header = obj;
      }
    }
    return { header, take };
  };
}

/** One writer process and its log, once its header (the stream before its first write) is there. */
async function spawnWriter(url: string, key: string, maxlen: number, rate: number, seed: number, log: string) {
  const args = [
    '--url',
    url,
    '--key',
    key,
    '--maxlen',
    String(maxlen),
    '--rate',
    String(rate),
    '--seed',
    String(seed),
    '--out',
    log,
    '--max-seconds',
    '86400',
  ];
  const writer = spawnTracked(process.execPath, [WRITER, ...args]);
  const read = logReader(log);
  // At most 10 s for its header.
  for (let i = 0; i < 100 && !read().header; i++) {
    if (writer.hasExited()) break;
    await Bun.sleep(100);
  }
  const header = read().header;
  if (!header) {
    await killTree(writer.pid);
    throw new Error(`the live writer did not start: ${writer.tail().join(' ').slice(-300) || 'no output'}`);
  }
  return { writer, header, read };
}

/**
 * A later writer's log continues the sequence: its header must be the stream as the earlier
 * writers left it (the last entries, same ids), or Redis lost or changed data while paused.
 */
function checkContinues(seq: readonly { id: string }[], header: WriterHeader): void {
  const initial = header.initial;
  const tail = seq.slice(seq.length - initial.length);
  if (tail.length !== initial.length || tail.some((e, i) => e.id !== initial[i]!.id)) {
    throw new Error(
      `after the pause the stream ends at ${initial.at(-1)?.id ?? 'nothing'}, not at ` +
        `${seq.at(-1)?.id} where the writer's log ended: Redis lost or gained entries`,
    );
  }
}

/** Starts the writer and waits (at most 10 s) for its log's header: the stream as it was before the first write. */
export async function startLive(
  url: string,
  key: string,
  maxlen: number,
  rate: number,
  seed: number,
  runDir: string,
): Promise<Live> {
  const log = join(runDir, 'writer.jsonl');
  const first = await spawnWriter(url, key, maxlen, rate, seed, log);
  // Writers after a pause have their own logs (writer-2.jsonl, …) and seeds, appended to the first's sequence.
  const timeline = Timeline.of(sequenceOf({ initial: first.header.initial, written: [] }));
  let read = first.read;
  const logs = [log];
  const live: Live = {
    describe:
      `live: the writer XADDs ${rate}/s into ${key} (MAXLEN ${first.header.maxlen}), logged in ${log} ` +
      '(gzipped when the run ends)',
    writer: first.writer,
    log,
    rate,
    maxlen: first.header.maxlen,
    timeline: () => timeline.add(sequenceOf({ initial: [], written: read().take() })),
    async pause(during) {
      // SIGTERM: the writer stops sending and logs every ack still due (it waits up to 5 s for them).
      await killTree(live.writer.pid, 6000);
      live.timeline(); // its whole log, before the next writer's
      const result = await during();
      logs.push(join(runDir, `writer-${logs.length + 1}.jsonl`));
      const next = await spawnWriter(url, key, maxlen, rate, seed + logs.length - 1, logs.at(-1)!);
      live.writer = next.writer;
      read = next.read;
      checkContinues(timeline.seq, next.header); // throws now, not in a window, if Redis lost writes
      return result;
    },
    async stop() {
      await killTree(live.writer.pid);
      for (const file of logs) await compressLog(file);
    },
  };
  return live;
}

/** Where an exponential gap is cut, in means, and what that leaves of its mean (1 − e⁻⁴): scaled back below. */
const GAP_CUT = 4;
const CUT_MEAN = 1 - Math.exp(-GAP_CUT);

/**
 * The gap before the next probe: exponential, cut at four of its means and scaled so that its mean is 1000/PROBE_RATE
 * ms, so the probes fall at every phase of the writer's fixed grid. At a fixed 50 ms they fell at one or two offsets
 * after each write (20 writes/s: the same one all window), and a cache stale for a stretch after every write passed a
 * window whenever that offset missed the stretch.
 */
export const probeGapMs = (u: number = Math.random()) =>
  (Math.min(-Math.log1p(-u), GAP_CUT) / CUT_MEAN) * (1000 / PROBE_RATE);

/**
 * GETs `url` PROBE_RATE times a second on average, at random times, until stopped; each probe keeps its send and
 * receive times and its body.
 */
export function startProber(url: string): { stop(): Promise<Probe[]> } {
  const probes: Probe[] = [];
  const inflight = new Set<Promise<void>>();
  const once = async () => void probes.push(await probeOnce(url));
  let timer: ReturnType<typeof setTimeout>;
  const next = () => {
    timer = setTimeout(() => {
      // A hung app must not pile up probes: a few in flight at most.
      if (inflight.size < 4) {
        const p = once().finally(() => inflight.delete(p));
        inflight.add(p);
      }
      next();
    }, probeGapMs());
  };
  next();
  return {
    async stop() {
      clearTimeout(timer);
      await Promise.all(inflight);
      return probes;
    },
  };
}

/**
 * The writer logs an entry when its ack arrives, a moment after readers may see it: a body with
 * an id the log does not have yet is judged again after these waits before it counts as unknown.
 */
const LOG_WAITS_MS = [50, 250, 1000];

/**
 * Judges one window's probes (bound: the staleness the contender declared) and the range of bodies it could have
 * served.
 */
export async function judgeWindow(
  live: Live,
  probes: Probe[],
  boundMs: number,
  from_ms: number,
  to_ms: number,
): Promise<LiveWindow> {
  let { summary } = judge(probes, live.timeline(), live.maxlen, boundMs);
  for (const ms of LOG_WAITS_MS) {
    if (!summary.invalid['unknown-id']) break;
    await Bun.sleep(ms);
    ({ summary } = judge(probes, live.timeline(), live.maxlen, boundMs));
  }
  // A read may show a snapshot up to its bound older than the window's start (a ttl cache's TTL): sizes from then on.
  const { min, max } = snapshotLengths(live.timeline(), live.maxlen, from_ms - boundMs, to_ms);
  return { ...summary, bytes_min: min, bytes_max: max, writer_alive: !live.writer.hasExited() };
}

/** The first thing wrong with a live window, as one sentence; null when the window is clean. */
export function liveFault(w: LiveWindow, meanBytes: number | null): string | null {
  if (!w.writer_alive) return 'the live writer died during the window, so what the app served cannot be judged';
  if (w.count === 0) return 'no probe was sent during the window, so what the app served cannot be judged';
  if (w.first_invalid)
    return `served a body that was never the stream (${w.first_invalid.kind}: ${w.first_invalid.reason})`;
  if (w.first_over_bound)
    return (
      `served a read ${w.first_over_bound.staleness_ms.toFixed(0)} ms stale, over ` +
      `its ${w.bound_ms} ms bound (${w.over_bound} such of ${w.count} probes)`
    );
  if (meanBytes !== null && (meanBytes < w.bytes_min || meanBytes > w.bytes_max)) {
    return (
      `responses under load averaged ${meanBytes.toFixed(1)} bytes, ` +
      `outside every snapshot's size (${w.bytes_min}–${w.bytes_max})`
    );
  }
  return null;
}

/**
 * A launch's windows as one record: counts summed, the first fault kept, staleness p50 the windows' median and p99/max
 * their largest.
 */
export function poolLive<
  T extends LiveWindow & { writes: number; write_redis_us: number; writer_cpu_s?: number; follower_reads?: number },
>(ws: T[]): T {
  const sum = (f: (w: T) => number) => ws.reduce((n, w) => n + f(w), 0);
  const first = <K extends 'first_invalid' | 'first_over_bound'>(k: K) =>
    ws
      .map((w) => w[k])
      .filter(Boolean)
      .sort((a, b) => a!.sent_ms - b!.sent_ms)[0] ?? null;
  const ages = ws.map((w) => w.staleness_ms).filter((s) => s !== null);
  const invalid: LiveWindow['invalid'] = {};
  for (const w of ws)
    for (const [k, n] of Object.entries(w.invalid))
      invalid[k as keyof typeof invalid] = (invalid[k as keyof typeof invalid] ?? 0) + n!;
  // The first window's other fields; the writer's CPU and follower reads only where every window has them.
  const { writer_cpu_s: _cpu, follower_reads: _reads, ...head } = ws[0]!;
  return {
    ...(head as T),
    count: sum((w) => w.count),
    valid: sum((w) => w.valid),
    invalid,
    over_bound: sum((w) => w.over_bound),
    first_invalid: first('first_invalid'),
    first_over_bound: first('first_over_bound'),
    staleness_ms: ages.length
      ? {
          p50: median(ages.map((s) => s.p50)),
          p99: Math.max(...ages.map((s) => s.p99)),
          max: Math.max(...ages.map((s) => s.max)),
        }
      : null,
    bytes_min: Math.min(...ws.map((w) => w.bytes_min)),
    bytes_max: Math.max(...ws.map((w) => w.bytes_max)),
    writer_alive: ws.every((w) => w.writer_alive),
    writes: sum((w) => w.writes),
    write_redis_us: sum((w) => w.write_redis_us),
    ...(ws.every((w) => w.writer_cpu_s !== undefined) ? { writer_cpu_s: sum((w) => w.writer_cpu_s!) } : {}),
    ...(ws.every((w) => w.follower_reads !== undefined) ? { follower_reads: sum((w) => w.follower_reads!) } : {}),
  };
}
