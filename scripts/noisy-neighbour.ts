// A noisy neighbour for robustness checks, never started by the benchmark itself: one process per
// --threads that burns CPU in random bursts (20–200 ms busy, then 0–400 ms idle by default) until
// --seconds have passed. Run it beside `npm run bench` to see how a design holds up on a machine
// whose windows vary by 15–20% (docs/runs/against.md):
//   bash scripts/with-tools.sh bun scripts/noisy-neighbour.ts --seconds 900 &
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '600' },
    threads: { type: 'string', default: '1' },
    'busy-ms': { type: 'string', default: '20,200' },
    'idle-ms': { type: 'string', default: '0,400' },
    seed: { type: 'string', default: '1' },
  },
});
const range = (s: string) => s.split(',').map(Number) as [number, number];
const [busyLo, busyHi] = range(values['busy-ms']!);
const [idleLo, idleHi] = range(values['idle-ms']!);
const until = Date.now() + Number(values.seconds) * 1000;
const threads = Number(values.threads);

if (process.env.NEIGHBOUR_CHILD === undefined && threads > 1) {
  for (let i = 1; i < threads; i++) {
    Bun.spawn(
      [process.execPath, import.meta.path, ...process.argv.slice(2), '--seed', String(Number(values.seed) + i)],
      { env: { ...process.env, NEIGHBOUR_CHILD: '1' }, stdout: 'inherit', stderr: 'inherit' },
    );
  }
}

// mulberry32: seeded, so a neighbour's bursts can be repeated.
let state = Number(values.seed) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const between = (lo: number, hi: number) => lo + random() * (hi - lo);

let busyTotal = 0;
while (Date.now() < until) {
  const busy = between(busyLo, busyHi);
  const end = performance.now() + busy;
  let x = 0;
  while (performance.now() < end) x += Math.sqrt(x + 1);
  busyTotal += busy;
  await Bun.sleep(between(idleLo, idleHi));
}
console.error(`noisy neighbour: ${(busyTotal / 1000).toFixed(1)} s of CPU burnt in bursts over ${values.seconds} s`);
