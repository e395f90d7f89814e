import { afterEach, describe, expect, test } from 'bun:test';
import { streamOptionsFromEnv, withHandicap, type StreamBody, type StreamSource } from '@bench/stream';
import { burnUs, MAX_BUSY } from '../../packages/harness/src/answers/handicap';

const body: StreamBody = { entries: [{ id: '1-0', fields: { a: '1' } }] };

function fakeSource(): StreamSource & { calls: number } {
  const s = {
    calls: 0,
    read: async () => (s.calls++, body),
    readJson: async () => (s.calls++, '{"entries":[]}'),
    direct: true,
    close: async () => {},
  };
  return s;
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};

describe('withHandicap', () => {
  test('2000 µs: 20 reads spin about 40 ms on the thread (CPU, not a sleep), values passed unchanged', async () => {
    const source = fakeSource();
    const h = withHandicap(source, 2000);
    expect(h.direct).toBe(true);
    const wall = performance.now();
    const start = process.cpuUsage();
    for (let i = 0; i < 10; i++) {
      expect(await h.read()).toBe(body);
      expect(await h.readJson()).toBe('{"entries":[]}');
    }
    const cpu = cpuMs(start);
    // 20 burns of 2 ms at the rate timed when the handicap was set up: about 40 ms, more or less as the
    // machine's speed moved since (39.9 ms seen on a quiet machine). A no-op would take well under a
    // millisecond; the test asks for three quarters of it.
    expect(performance.now() - wall).toBeGreaterThanOrEqual(30);
    // Of CPU: when other processes take the CPU meanwhile it is less (35–39 ms seen beside a running
    // benchmark), so the test asks for a quarter of it, which a sleep (≈ 0 ms of CPU) would not give.
    expect(cpu).toBeGreaterThanOrEqual(10);
    expect(source.calls).toBe(20);
  });
});

describe('streamOptionsFromEnv and HANDICAP', () => {
  const saved = { HANDICAP: process.env.HANDICAP, HANDICAP_US: process.env.HANDICAP_US };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  test('HANDICAP=on needs HANDICAP_US above 0', () => {
    process.env.HANDICAP = 'on';
    for (const us of [undefined, '', 'abc', '0', '-5']) {
      if (us === undefined) delete process.env.HANDICAP_US;
      else process.env.HANDICAP_US = us;
      expect(() => streamOptionsFromEnv()).toThrow('HANDICAP=on needs HANDICAP_US=<µs per request> above 0');
    }
    process.env.HANDICAP_US = '250';
    expect(streamOptionsFromEnv()).toMatchObject({ settings: { handicap: 'on' }, handicapUs: 250 });
  });

  test('off by default, and HANDICAP_US is then ignored', () => {
    delete process.env.HANDICAP;
    process.env.HANDICAP_US = 'abc';
    expect(streamOptionsFromEnv()).toMatchObject({ settings: { handicap: 'off' }, handicapUs: 0 });
  });
});

describe("burnUs: the burn that makes the twin's request 10% longer", () => {
  test('a loop busy 1,996 of 2,184 µs per request: (1.1 × 0.975 × 2,184) − 1,996 µs', () => {
    expect(burnUs({ wallUs: 2184, mainUs: 1996, cpuUs: 2300 }, 10)).toBe(346.3);
    // The model's own check: with the burn the loop is busy MAX_BUSY of a wall time 10% longer.
    expect((1996 + 346.3) / MAX_BUSY / 2184).toBeCloseTo(1.1, 3);
  });
  test('a loop reading busier than it can be: half of 10% of the wall time; one mostly idle: at most twice 10%', () => {
    expect(burnUs({ wallUs: 1400, mainUs: 1500, cpuUs: 1590 }, 10)).toBe(70);
    expect(burnUs({ wallUs: 20_000, mainUs: 400, cpuUs: 500 }, 10)).toBe(4000);
  });
});
