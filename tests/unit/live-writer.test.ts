// The live writer's pure parts (workloads/live/writer.ts, workloads/live/flags.ts): its flags and their refusals, the
// schedule, the values it draws, and its log read back after a kill; worked out by hand, no Redis.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import { liveOptions } from '../../packages/harness/src/workloads/live/flags';
import {
  dueAt,
  entryMaker,
  parseWriterArgs,
  readWriterLog,
  valuePools,
} from '../../packages/harness/src/workloads/live/writer';

const base = ['--url', 'redis://127.0.0.1:6379', '--out', '/dev/null'];

describe('the live writer', () => {
  test('its flags: defaults, and each bad value refused naming what it must be', () => {
    expect(parseWriterArgs(base)).toMatchObject({ rate: 10, maxlen: 339, seed: 1, maxSeconds: 3600 });
    expect(parseWriterArgs([...base, '--rate', '0', '--max-seconds', '0.5'])).toMatchObject({
      rate: 0,
      maxSeconds: 0.5,
    });
    const refused: [string, string, RegExp][] = [
      ['--rate', '-1', /^--rate "-1" must be a number ≥ 0/],
      ['--maxlen', '0', /^--maxlen "0" must be a whole number ≥ 1$/],
      ['--maxlen', '2.5', /^--maxlen "2.5" must be a whole number ≥ 1$/],
      ['--seed', '1.5', /^--seed "1.5" must be a whole number$/],
      ['--max-seconds', '0', /^--max-seconds "0" must be a number > 0$/],
      ['--max-seconds', ' ', /^--max-seconds " " must be a number > 0$/],
    ];
    for (const [flag, value, message] of refused)
      expect(() => parseWriterArgs([...base, `${flag}=${value}`])).toThrow(message);
    expect(() => parseWriterArgs(['--url', 'redis://x'])).toThrow('--url and --out are required');
  });

  test('write i is due at i / rate seconds from the start, whatever came before', () => {
    expect([0, 1, 10].map((i) => dueAt(1000, i, 100))).toEqual([1000, 1010, 1100]);
    expect(dueAt(0, 3, 0.5)).toBe(6000);
  });

  test("values drawn from the stream's own, per field, by the seed: the same seed the same entries", () => {
    const pools = valuePools([
      { id: '1-0', fields: { color: 'red', n: '1' } },
      { id: '2-0', fields: { color: 'teal', n: '2' } },
      { id: '3-0', fields: { color: 'red', n: '3', extra: 'x' } },
      // A field missing from an entry adds nothing to its pool.
      { id: '4-0', fields: { color: 'teal' } },
    ]);
    expect(pools).toEqual([
      ['color', ['red', 'teal']],
      ['n', ['1', '2', '3']],
    ]);
    const draw = (seed: number) => {
      const make = entryMaker(pools, seed);
      return Array.from({ length: 20 }, make);
    };
    // By hand from the PRNG: per entry, one draw per field in the pools' order.
    const rand = seededRandom(7);
    const want = Array.from({ length: 20 }, () => ({
      color: ['red', 'teal'][Math.floor(rand() * 2)]!,
      n: ['1', '2', '3'][Math.floor(rand() * 3)]!,
    }));
    expect(draw(7)).toEqual(want);
    expect(new Set(want.map((e) => e.n)).size).toBe(3);
    expect(draw(8)).not.toEqual(want);
    expect(() => valuePools([])).toThrow('the stream is empty or missing');
  });

  test('its log read back: the header, each entry, a last line cut short by a kill left out', () => {
    const dir = mkdtempSync(join(tmpdir(), 'live-writer-log-'));
    try {
      const file = join(dir, 'w.jsonl');
      const header = { start_ms: 5, key: 'k', rate: 10, maxlen: 3, seed: 1, initial: [] };
      const entry = { i: 0, id: '9-0', fields: { a: '1' }, sent_ms: 6, acked_ms: 7 };
      writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify(entry)}\n{"i":1,"id":"9-`);
      expect(readWriterLog(file)).toEqual({ ...header, written: [entry] });
      writeFileSync(file, `${JSON.stringify(entry)}\n`);
      expect(() => readWriterLog(file)).toThrow('is not a writer log (no header line)');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('--write-rate: 0 to 10000 XADDs per second, a list sorted and each rate once', () => {
    const rates = (r: string) =>
      liveOptions({ 'write-rate': r }).sweep?.values ?? [liveOptions({ 'write-rate': r }).settings!.write_rate];
    expect(rates('10000')).toEqual([10000]);
    expect(rates('0')).toEqual([0]);
    expect(rates('100,0.5,100')).toEqual([0.5, 100]);
    for (const bad of ['10001', '-1', '1e3', ''])
      expect(() => rates(bad)).toThrow(`--write-rate "${bad}" must be XADDs per second from 0 to 10000`);
  });
});
