// The xadd-trim prober's write (measure.ts probeOnce) against fake apps appending to a fake stream that answers
// XRANGE and XREVRANGE as Redis does: an entry read back with the write's id and the body's fields is found; one with
// another id or an extra field, or an id the app made up, is missing; one the cap trimmed since it was sent is said
// apart; a 201 with no entry id is missing, not unchecked.
import { afterAll, describe, expect, test } from 'bun:test';
import { STREAM_KEY } from '@bench/stream';
import { RECORD_BODY } from '../../packages/harness/src/workloads/types';
import type { TrimProbe } from '../../packages/harness/src/workloads/xadd-trim/accounting';
import { probeOnce } from '../../packages/harness/src/workloads/xadd-trim/measure';

type Entry = [string, string[]];
const parts = (id: string) => {
  if (typeof id !== 'string' || !/^(\d+)(-(\d+))?$/.test(id)) throw new Error('ERR Invalid stream ID');
  const [ms, seq] = id.split('-');
  return BigInt(ms!) * 2n ** 64n + BigInt(seq ?? 0);
};
const at = (id: string) => (id === '-' ? -1n : id === '+' ? 2n ** 128n : parts(id));

/** The stream: entries in id order; XRANGE key start end [COUNT n], XREVRANGE key end start [COUNT n]. */
let stream: Entry[] = [];
const reader = {
  send: async (cmd: string, args: string[]) => {
    if (args[0] !== STREAM_KEY) throw new Error(`unexpected key ${args[0]}`);
    const rev = cmd === 'XREVRANGE';
    const [lo, hi] = rev ? [at(args[2]!), at(args[1]!)] : [at(args[1]!), at(args[2]!)];
    const got = stream.filter(([id]) => parts(id) >= lo && parts(id) <= hi);
    const ordered = rev ? got.reverse() : got;
    return args[3] === 'COUNT' ? ordered.slice(0, Number(args[4])) : ordered;
  },
};

const FIELDS = Object.entries(JSON.parse(RECORD_BODY) as Record<string, string>).flat();
/** What each fake app does with the write of `id`: its status and the entry id it answers (null: none). */
const apps: Record<string, (id: string) => { status: number; entry?: string }> = {
  good: (id) => (stream.push(['1700000000100-0', ['id', id, ...FIELDS]]), { status: 201, entry: '1700000000100-0' }),
  extra: (id) => (
    stream.push(['1700000000100-0', ['id', id, ...FIELDS, 'x', 'y']]), { status: 201, entry: '1700000000100-0' }
  ),
  otherId: () => (
    stream.push(['1700000000100-0', ['id', 'nope', ...FIELDS]]), { status: 201, entry: '1700000000100-0' }
  ),
  madeUp: () => ({ status: 201, entry: '1-1' }),
  // Written, then oha's appends pushed it past the cap before the prober read it back.
  trimmed: (id) => {
    stream.push(['1700000000100-0', ['id', id, ...FIELDS]]);
    stream = [['1700000000200-0', ['id', 'oha', ...FIELDS]]];
    return { status: 201, entry: '1700000000100-0' };
  },
  noEntry: () => ({ status: 201 }),
  failing: () => ({ status: 500 }),
};
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch(req) {
    const id = new URL(req.url).pathname.split('/').pop()!;
    const { status, entry } = apps[id]!(id);
    return new Response(JSON.stringify(entry ? { id: entry } : { error: 'x' }), { status });
  },
});
afterAll(() => server.stop(true));

/** One probe of the app `name` on a stream that held one entry before it. */
async function probe(name: string): Promise<TrimProbe> {
  stream = [['1700000000049-0', ['id', 'before', ...FIELDS]]];
  const out: TrimProbe[] = [];
  await probeOnce(`http://127.0.0.1:${server.port}`, name, reader, out);
  return out[0]!;
}

describe('the xadd-trim prober reads its write back', () => {
  test("an entry with the write's id and the body's fields, exactly: found", async () => {
    expect(await probe('good')).toEqual({ status: 201, found: true, trimmed: false });
  });

  test('another id, an extra field, or an id the app made up: missing, not trimmed', async () => {
    const missing = { status: 201, found: false, trimmed: false };
    expect(await probe('otherId')).toEqual(missing);
    expect(await probe('extra')).toEqual(missing);
    expect(await probe('madeUp')).toEqual(missing);
  });

  test('written after the last entry before it was sent, older than the first now: trimmed by the cap', async () => {
    expect(await probe('trimmed')).toEqual({ status: 201, found: false, trimmed: true });
  });

  test('a 201 with no entry id, and a 500: neither found nor read back', async () => {
    expect(await probe('noEntry')).toEqual({ status: 201, found: false, trimmed: false });
    expect(await probe('failing')).toEqual({ status: 500, found: false, trimmed: false });
  });
});
