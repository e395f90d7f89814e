// The ceilings as measured (measure/ceilings.ts), with fakes first on PATH: redis-benchmark (its CSV, its arguments
// logged), redis-cli (INFO commandstats growing by call) and bun (the client probe's last JSON line). No Redis.
import { afterAll, describe, expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureClientCeiling, measureRedisCeiling } from '../../packages/harness/src/measure/ceilings';

const dir = mkdtempSync(join(tmpdir(), 'ceilings-'));
const fake = (name: string, script: string) => {
  writeFileSync(join(dir, name), `#!/bin/sh\n${script}`);
  chmodSync(join(dir, name), 0o755);
};
// Every pass of redis-benchmark reports 1,000 req/s.
fake(
  'redis-benchmark',
  `echo "$@" >>"${dir}/bench-args"
echo '"test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms"'
echo '"XRANGE k - +","1000.00","1.500","0.100","1.200","2.000","3.000"'
`,
);
// Before the measured pass: 100 XRANGE calls in 1,000 us; after it: 2,100 calls in 7,000 us (2,000 counted).
fake(
  'redis-cli',
  `if [ -e "${dir}/started" ]; then n=2100; u=7000; else : >"${dir}/started"; n=100; u=1000; fi
printf 'cmdstat_xrange:calls=%s,usec=%s,usec_per_call=1.00,rejected_calls=0,failed_calls=0\\r\\n' $n $u
`,
);
// The client probe: the reads, seconds, CPU and wrong bodies FAKE_PROBE gives.
fake('bun', 'echo "starting"\necho "$FAKE_PROBE"\n');
const PATH = `${dir}:${process.env.PATH}`;
const savedPath = process.env.PATH;
process.env.PATH = PATH;
afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});

describe('the Redis ceiling as measured', () => {
  test("sized from its first pass to the seconds asked, at the contenders' connections; time per call counted", () => {
    const target = { url: 'redis://127.0.0.1:7009', stop: async () => {} };
    const c = measureRedisCeiling(target, 'xrange', 10, 3);
    // The first pass: 200 requests (at least 4 per connection); the measured one: 1,000 req/s × 3 s.
    const args = readFileSync(join(dir, 'bench-args'), 'utf8').trim().split('\n');
    expect(args.map((a) => a.split(' ').slice(4, 8).join(' '))).toEqual(['-c 10 -n 200', '-c 10 -n 3000']);
    expect(args[1]).toEndWith('--csv XRANGE OPTIONS:test:STREAM - +');
    expect(c).toMatchObject({ connections: 10, requests: 3000, rps: 1000, p50_latency_ms: 1.2, p99_latency_ms: 3 });
    // 6,000 us over the 2,000 calls Redis counted, not over the 3,000 requests sent.
    expect(c.usec_per_call).toBe(3);
  });
});

describe('the client ceiling as measured', () => {
  const o = { seconds: 2, warmupS: 0, concurrency: 50, expectBytes: 100 };
  const probe = (out: object) => ({ REDIS_CLIENT: 'ioredis', PATH, FAKE_PROBE: JSON.stringify(out) });
  const out = { reads: 1000, seconds: 2, cpu_us: 400_000, wrong: 0, transform_us: { plain: 3, direct: 1 } };

  test('reads per second and CPU per read from the probe; a wrong body is an error', async () => {
    expect(await measureClientCeiling('bun', probe(out), o)).toEqual({
      runtime: 'bun',
      client: 'ioredis',
      concurrency: 50,
      seconds: 2,
      rps: 500,
      cpu_us_per_read: 400,
      transform_us: { plain: 3, direct: 1 },
    });
    await expect(measureClientCeiling('bun', probe({ ...out, wrong: 3 }), o)).rejects.toThrow(
      "3 of 1000 bodies were not the golden body's length",
    );
  });
});
