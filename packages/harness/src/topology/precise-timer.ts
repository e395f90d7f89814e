// Precise wake-ups for the delay proxy (delay-proxy.ts): Bun's timers have 1 ms granularity, so a
// worker thread sleeps on a futex (Atomics.wait, ns timeouts) until the next due time, minus a
// learnt lead, and wakes the main thread with a message; when that lands early, a short
// setImmediate poll covers the rest. Idle, both threads sleep.
//
// Precise wake-ups. Shared memory: an int32 generation, bumped on every re-arm, then two float64s:
// the due time (the main thread's performance.now() clock; 0 = nothing due) and the lead, how
// long before it the worker wakes, to make up for how late its message gets handled.

/** The lead never exceeds this: beyond it, waking early would mostly mean spinning. */
const MAX_LEAD_MS = 0.2;
/** The lead follows the median lateness in steps this small (ms). */
const LEAD_STEP_MS = 0.002;

/**
 * Linux wakes a timed-out futex up to its timer slack late (50 µs by default, ~70 µs seen here),
 * per thread; 1 ns makes it ~25 µs. Best effort: without it the wake-ups are just later.
 */
function exactTimers() {
  if (process.platform !== 'linux') return;
  try {
    const { dlopen, FFIType } = require('bun:ffi') as typeof import('bun:ffi');
    const libc = dlopen('libc.so.6', { prctl: { args: [FFIType.i32, FFIType.u64], returns: FFIType.i32 } });
    libc.symbols.prctl(29 /* PR_SET_TIMERSLACK */, 1);
  } catch {}
}

/** Worker side: sleep until the due time minus the lead, then post `[generation, slept]`. */
function timerWorker(data: { sab: SharedArrayBuffer; mainOrigin: number }) {
  const gen = new Int32Array(data.sab, 0, 1);
  const shared = new Float64Array(data.sab, 8, 2);
  const offset = performance.timeOrigin - data.mainOrigin; // onto the main thread's clock
  exactTimers();
  let firedGen = -1;
  let slept = 0; // 1 when this generation's wake-up came from a full wait: only those teach the lead
  for (;;) {
    const g = Atomics.load(gen, 0);
    const at = shared[0]!;
    if (g === firedGen || at === 0) {
      Atomics.wait(gen, 0, g); // until re-armed
      slept = 0;
      continue;
    }
    const left = at - shared[1]! - (performance.now() + offset);
    if (left > 0) {
      slept = Atomics.wait(gen, 0, g, left) === 'timed-out' ? 1 : 0; // a re-arm ends the wait early
      continue;
    }
    firedGen = g;
    postMessage([g, slept]);
  }
}

export class PreciseTimer {
  private readonly gen: Int32Array;
  private readonly shared: Float64Array;
  private readonly worker: Worker;
  private armedAt = 0;
  private polling = false;

  constructor(private readonly onDue: () => void) {
    const sab = new SharedArrayBuffer(24);
    this.gen = new Int32Array(sab, 0, 1);
    this.shared = new Float64Array(sab, 8, 2);
    this.shared[1] = 0.05;
    // ref false: the listener keeps the process alive, not the timer; smol: it needs almost no heap.
    this.worker = new Worker(import.meta.url, { ref: false, smol: true });
    this.worker.postMessage({ sab, mainOrigin: performance.timeOrigin });
    this.worker.onmessage = (e: MessageEvent<[number, number]>) => this.woken(e.data[0], e.data[1]);
  }

  /** Call onDue at `at` (performance.now() ms), or never when at is 0. */
  arm(at: number) {
    this.armedAt = at;
    this.shared[0] = at;
    Atomics.add(this.gen, 0, 1);
    Atomics.notify(this.gen, 0);
  }

  private woken(gen: number, slept: number) {
    // A wake-up for an earlier arm, raced by a re-arm: the worker wakes again for the current one.
    if (gen !== Atomics.load(this.gen, 0) || this.armedAt === 0 || this.polling) return;
    if (slept) {
      // Late: wake earlier next time; early: later. Half the wake-ups then land before the due
      // time and spin briefly, half after it; a mean would chase a busy host's scheduling stalls.
      const lead = this.shared[1]! + (performance.now() > this.armedAt ? LEAD_STEP_MS : -LEAD_STEP_MS);
      this.shared[1] = Math.min(MAX_LEAD_MS, Math.max(0, lead));
    }
    this.poll();
  }

  /** The last stretch (microseconds, normally) before the due time: poll the clock between I/O. */
  private poll() {
    if (performance.now() >= this.armedAt || this.armedAt === 0) {
      this.polling = false;
      this.onDue();
      return;
    }
    this.polling = true;
    setImmediate(() => this.poll());
  }
}

// Loaded as the timer's worker (new Worker(import.meta.url) above): run its side.
if (!Bun.isMainThread) self.onmessage = (e: MessageEvent) => timerWorker(e.data);
