// HANDICAP=on: a known cost injected between adapter and app, so a run can check that it
// detects a difference of known size (the harness sets HANDICAP_US to 10% of the plain twin's
// CPU per request). Apps do not change: openStream wraps the source they read from.
import type { StreamSource } from './index.ts';

/**
 * Spins on the calling thread until `us` microseconds of wall time have passed.
 * A busy-wait, not a sleep: a sleep (setTimeout) costs a saturated single-threaded app no CPU,
 * since the event loop serves other requests meanwhile, so throughput would barely move; the
 * check is about CPU per request, and only burning the thread adds exactly that. Wall time, not
 * the thread's CPU clock: process.threadCpuUsage() ticks in 4–10 ms steps on this kernel, so a
 * 500 µs spin on it burnt 3–10 ms. The harness reports the CPU per request it measured anyway.
 */
export function burn(us: number): void {
  const end = performance.now() + us / 1000;
  while (performance.now() < end) {
    // spin
  }
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
