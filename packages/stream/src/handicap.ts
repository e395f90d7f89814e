// HANDICAP=on: a known cost injected between adapter and app, so a run can check that it
// detects a difference of known size (the harness sets HANDICAP_US so the plain twin's requests
// take 10% longer on its event loop: packages/harness/src/run/calibrate.ts). Apps do not change: openStream wraps the source they read from.
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

/**
 * Steps per µs, from the fastest of a few timed spins at startup (the fastest is the one no
 * other process preempted). Work, not a clock, is then what each request burns: an earlier
 * busy-wait on wall time burnt less CPU than asked whenever the app was descheduled during it,
 * and process.threadCpuUsage() ticks in 4–10 ms steps on this kernel, too coarse to spin on.
 */
function stepsPerUs(): number {
  const n = 200_000;
  let best = Infinity;
  for (let i = 0; i < 12; i++) {
    const t0 = performance.now();
    spin(n);
    best = Math.min(best, performance.now() - t0);
  }
  return n / Math.max(best * 1000, 1);
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
