// The transform's cost alone, per runtime and client: one real read of the stream (the client's
// own reply shape), then tinybench times each transform on that recorded reply. Prints one JSON
// line: median µs per operation of plain (objects + JSON.stringify) and direct (built by hand).
import { Bench } from 'tinybench';
import { openAdapter, streamOptionsFromEnv, toBody, toJson } from '@bench/stream';

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
const line = JSON.stringify({ transform_us: { plain: medianUs('plain'), direct: medianUs('direct') } });
process.stdout.write(line + '\n', () => process.exit(0));
