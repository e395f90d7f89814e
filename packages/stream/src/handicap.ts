// HANDICAP=on: a known cost injected between adapter and app, so a run can check that it detects a difference of known
// size (the harness sets HANDICAP_US so the plain twin's requests take 10% longer on its event loop:
// packages/harness/src/run/calibrate.ts). Apps do not change: openStream wraps the source they read from.
import type { StreamSource } from './contract.ts';

let sink = 1;

/** n steps of xorshift, kept in `sink` so the JIT cannot drop them: a fixed amount of CPU work. */
function spin(n: number): void {
  let x = sink | 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  sink = x;
}

/** The calling thread's CPU time in µs (the whole process's where a runtime has no per-thread figure). */
function cpuUs(): number {
  const p = process as unknown as { threadCpuUsage?: () => NodeJS.CpuUsage };
  const u = p.threadCpuUsage?.() ?? process.cpuUsage();
  return u.user + u.system;
}

/** CPU time the rate is timed over: a few hundred of the kernel's 4–10 ms ticks of thread CPU, so ±2% at most. */
const TIMING_CPU_US = 300_000;

/**
 * Steps per µs of the thread's CPU, from spinning for TIMING_CPU_US of it (at most 3 s of wall
 * time) when the handicap is set up. CPU time does not count the moments the thread was
 * descheduled, so the rate is not thrown off by preemption; the fastest of twelve 0.3 ms spins
 * timed on the wall clock picked a burst of the machine's speed: with burns of 403 and 417 µs
 * asked, the twin's main thread then used 69 to 700 µs more per request than its plain twin's in
 * the same round, and one run read −15% for the −9.1% meant (docs/runs/answers-by-design.md).
 * Work, not a clock, is then what each request burns, so the burn slows with the machine as the
 * app's own work does.
 */
function stepsPerUs(): number {
  const chunk = 100_000;
  const wall = performance.now();
  const t0 = cpuUs();
  let steps = 0;
  while (cpuUs() - t0 < TIMING_CPU_US && performance.now() - wall < 3000) {
    spin(chunk);
    steps += chunk;
  }
  return steps / Math.max(cpuUs() - t0, 1);
}

let rate: number | undefined;

/**
 * Burns about `us` µs of CPU on the calling thread. A busy loop, not a sleep: a sleep costs a
 * saturated single-threaded app no CPU, since the event loop serves other requests meanwhile, so
 * throughput would barely move; the check is about CPU per request, and only work on the thread
 * adds it. The harness reports the CPU per request it measured anyway.
 */
export function burn(us: number): void {
  rate ??= stepsPerUs();
  spin(Math.round(us * rate));
}

/** The source with `us` µs of CPU burnt before each read (read and readJson alike). */
export function withHandicap(source: StreamSource, us: number): StreamSource {
  // Timed once, when the app starts, not on its first request.
  rate ??= stepsPerUs();
  return {
    ...source,
    read: () => {
      burn(us);
      return source.read();
    },
    readJson: () => {
      burn(us);
      return source.readJson();
    },
  };
}
