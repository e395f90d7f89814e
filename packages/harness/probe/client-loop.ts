// The client ceiling: the client the environment names (settings included) reading the stream
// and building the body in a loop, PROBE_CONCURRENCY reads in flight, for PROBE_SECONDS, with no
// HTTP, after PROBE_WARMUP_SECONDS of the same loop (as a contender is warmed up before its run).
// Then, in the same process (one start per runtime × client), each transform alone on a reply
// recorded from the real stream, timed by tinybench.
// Runs under every runtime (the harness bundles it for Node). Prints one JSON line: reads,
// seconds, CPU µs of the process, how many bodies were not EXPECT_BYTES long, and the median µs
// per operation of the plain (objects + JSON.stringify) and direct (built by hand) transforms.
import { Bench } from 'tinybench';
import { openAdapter, openStream, streamOptionsFromEnv, toBody, toJson } from '@bench/stream';

const seconds = Number(process.env.PROBE_SECONDS ?? 3);
const warmupSeconds = Number(process.env.PROBE_WARMUP_SECONDS ?? 0);
const concurrency = Number(process.env.PROBE_CONCURRENCY ?? 50);
const expectBytes = Number(process.env.EXPECT_BYTES ?? NaN);
const stream = await openStream(streamOptionsFromEnv());
const body = stream.direct ? () => stream.readJson() : async () => JSON.stringify(await stream.read());

let reads = 0;
let wrong = 0;
/** `concurrency` reads in flight until the deadline; each body's length checked. */
const loop = (until: number) =>
  Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const text = await body();
        reads++;
        if (Number.isFinite(expectBytes) && Buffer.byteLength(text) !== expectBytes) wrong++;
      }
    }),
  );

// Connected and warm (JIT, heap) before the clock starts.
await body();
await loop(performance.now() + warmupSeconds * 1000);
reads = 0;
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await loop(t0 + seconds * 1000);
const elapsed = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
await stream.close();

/** Median µs per operation of each transform, on one reply in this client's own shape. */
async function transformMicros(): Promise<{ plain: number; direct: number }> {
  const adapter = await openAdapter(streamOptionsFromEnv());
  const reply = await adapter.entries();
  await adapter.close();
  const bench = new Bench({ time: Number(process.env.PROBE_BENCH_MS ?? 300) });
  bench.add('plain', () => JSON.stringify(toBody(reply)));
  bench.add('direct', () => toJson(reply));
  await bench.run();
  const medianUs = (name: string) => {
    const result = bench.tasks.find((t) => t.name === name)?.result as { latency?: { p50?: number } } | undefined;
    return (result?.latency?.p50 ?? NaN) * 1000;
  };
  return { plain: medianUs('plain'), direct: medianUs('direct') };
}

const line = JSON.stringify({
  reads,
  seconds: elapsed,
  cpu_us: cpu.user + cpu.system,
  wrong,
  transform_us: await transformMicros(),
});
// On Node, stdout to a pipe is asynchronous: exit once the line is out.
process.stdout.write(`${line}\n`, () => process.exit(0));
