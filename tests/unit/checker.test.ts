// The live checker on hand-built sequences: every expected value below is worked out by hand.
import { describe, expect, test } from 'bun:test';
import { DEFAULT_CACHE_TTL_MS, stalenessBoundMs, toJson } from '@bench/stream';
import {
  canonicalBody,
  judge,
  sequenceOf,
  snapshotLengths,
  Timeline,
  type Probe,
  type SequencedEntry,
} from '../../packages/harness/src/workloads/live/checker';
import { judgeWindow, probeGapMs, startProber } from '../../packages/harness/src/workloads/live/session';
import { nowMs } from '../../packages/harness/src/system/clock';
import { labeller } from '../../packages/harness/src/report/answers';

const entry = (n: number, color: string, acked_ms = -Infinity, sent_ms?: number): SequencedEntry => ({
  id: `${n}-0`,
  fields: { color, n: String(n) },
  acked_ms,
  ...(sent_ms === undefined ? {} : { sent_ms }),
});

// MAXLEN 3. Initial 1..3; written 4..8. Snapshots: j=2 [1,2,3], j=3 [2,3,4], …, j=7 [6,7,8].
const MAXLEN = 3;
const seq = [
  entry(1, 'red'),
  entry(2, 'teal'),
  entry(3, 'blue'),
  entry(4, 'red', 1000),
  entry(5, 'teal', 1100),
  entry(6, 'red', 1300),
  entry(7, 'blue', 1350),
  entry(8, 'violet', 1400),
];
const pick = (...ns: number[]) => ns.map((n) => seq[n - 1]!);
const probe = (sent_ms: number, body: string, status = 200): Probe => ({
  sent_ms,
  received_ms: sent_ms + 5,
  status,
  body,
});
const one = (p: Probe) => judge([p], seq, MAXLEN, 50).results[0]!;

describe('valid bodies and their staleness', () => {
  test('the current snapshot is exact', () => {
    expect(one(probe(1450, canonicalBody(pick(6, 7, 8))))).toEqual({
      ok: true,
      sent_ms: 1450,
      last_index: 7,
      staleness_ms: 0,
    });
  });
  test('a snapshot newer than the request (7 was acked at 1350, after it left) is fine', () => {
    expect(one(probe(1320, canonicalBody(pick(5, 6, 7))))).toMatchObject({ ok: true, staleness_ms: 0 });
  });
  test('the initial stream, before any write was acked', () => {
    expect(one(probe(900, canonicalBody(pick(1, 2, 3))))).toMatchObject({ ok: true, last_index: 2, staleness_ms: 0 });
  });
  test('lacking the last 3 entries: the first missing one (6) was acked at 1300, the request left at 1420', () => {
    expect(one(probe(1420, canonicalBody(pick(3, 4, 5))))).toMatchObject({
      ok: true,
      last_index: 4,
      staleness_ms: 120,
    });
  });
  test('an entry acked after the request left is not held against the body', () => {
    // At 1320, 7 (acked 1350) is not yet due: [4,5,6] is current.
    expect(one(probe(1320, canonicalBody(pick(4, 5, 6))))).toMatchObject({ ok: true, staleness_ms: 0 });
  });
});

describe('invalid bodies, by kind', () => {
  const cases: [string, Probe, string, RegExp][] = [
    ['non-200', probe(1, canonicalBody(pick(6, 7, 8)), 500), 'status', /HTTP 500/],
    ['not JSON', probe(1, '<html>oops</html>'), 'not-json', /<html>/],
    ['JSON of another shape', probe(1, '{"entries":[{"id":"6-0"}]}'), 'shape', /no "fields"/],
    [
      'the right entries, pretty-printed',
      probe(1, JSON.stringify(JSON.parse(canonicalBody(pick(6, 7, 8))), null, 1)),
      'shape',
      /canonical bytes/,
    ],
    [
      // As long as the canonical body, byte for byte but for the order: not the canonical bytes.
      'the right entries, each with its keys swapped',
      probe(1, JSON.stringify({ entries: pick(6, 7, 8).map((e) => ({ fields: e.fields, id: e.id })) })),
      'shape',
      /canonical bytes/,
    ],
    [
      'an id never written',
      probe(1, canonicalBody([...pick(6, 7), { id: '9-0', fields: { color: 'red', n: '9' } }])),
      'unknown-id',
      /9-0/,
    ],
    ['old head, new tail', probe(1, canonicalBody(pick(1, 7, 8))), 'torn', /entry 0 is 1-0.*had 6-0/],
    ['a window too short', probe(1, canonicalBody(pick(7, 8))), 'torn', /2 entries.*held 3/],
    ['a window too long (MAXLEN ignored)', probe(1, canonicalBody(pick(5, 6, 7, 8))), 'torn', /4 entries.*held 3/],
    ['an id twice', probe(1, canonicalBody(pick(7, 7, 8))), 'torn', /twice/],
    ['ending where the stream never ended', probe(1, canonicalBody(pick(1, 2))), 'torn', /never ended/],
    ['swapped entries', probe(1, canonicalBody(pick(6, 8, 7))), 'reordered', /\(7-0\) comes after 8-0/],
    [
      'a value altered',
      probe(1, canonicalBody([...pick(6, 7), { id: '8-0', fields: { color: 'red', n: '8' } }])),
      'fields',
      /entry 2 \(8-0\).*color=red, written color=violet/,
    ],
    [
      'fields in another order',
      probe(1, canonicalBody([...pick(6, 7), { id: '8-0', fields: { n: '8', color: 'violet' } }])),
      'fields',
      /field 0 is n=8/,
    ],
    [
      'a field missing',
      probe(1, canonicalBody([...pick(6, 7), { id: '8-0', fields: { color: 'violet' } }])),
      'fields',
      /field 1 is missing/,
    ],
  ];
  test('the swapped keys make a body exactly as long as the canonical one', () => {
    const swapped = cases.find(([name]) => name.includes('keys swapped'))![1].body;
    expect(swapped.length).toBe(canonicalBody(pick(6, 7, 8)).length);
    expect(swapped).not.toBe(canonicalBody(pick(6, 7, 8)));
  });
  for (const [name, p, kind, reason] of cases) {
    test(name, () => {
      const r = one(p);
      expect(r).toMatchObject({ ok: false, kind });
      expect(r.ok ? '' : r.reason).toMatch(reason);
    });
  }
  test('an empty body is valid only if the stream started empty', () => {
    expect(one(probe(1, '{"entries":[]}'))).toMatchObject({ ok: false, kind: 'torn' });
    const fresh = [entry(1, 'red', 100)];
    expect(judge([probe(50, '{"entries":[]}')], fresh, 3, 50).results[0]).toMatchObject({ ok: true, staleness_ms: 0 });
    expect(judge([probe(130, '{"entries":[]}')], fresh, 3, 50).results[0]).toMatchObject({
      ok: true,
      staleness_ms: 30,
    });
  });
});

describe('judge summary', () => {
  test('counts, kinds, the first invalid and over-bound reads, staleness quantiles', () => {
    const probes = [
      probe(1450, canonicalBody(pick(6, 7, 8))), // 0
      probe(1420, canonicalBody(pick(3, 4, 5))), // 120
      probe(1380, canonicalBody(pick(4, 5, 6))), // 1380 − 1350 = 30
      probe(1500, canonicalBody(pick(3, 4, 5))), // 1500 − 1300 = 200
      probe(900, canonicalBody(pick(1, 2, 3))), // 0
      probe(1600, 'nope'),
      probe(1200, '', 503),
      probe(1700, '', 503),
    ];
    const { summary } = judge(probes, seq, MAXLEN, 50);
    expect(summary).toMatchObject({
      count: 8,
      valid: 5,
      invalid: { 'not-json': 1, status: 2 },
      bound_ms: 50,
      over_bound: 2,
    });
    expect(summary.first_invalid).toEqual({ sent_ms: 1200, kind: 'status', reason: 'HTTP 503' });
    expect(summary.first_over_bound).toEqual({ sent_ms: 1420, staleness_ms: 120 });
    // Sorted: 0 0 30 120 200. simple-statistics interpolates: p50 is the middle one; p99 sits at
    // rank (5 − 1) × 0.99 = 3.96, so 120 + 0.96 × (200 − 120) = 196.8.
    expect(summary.staleness_ms).toEqual({ p50: 30, p99: expect.closeTo(196.8, 9), max: 200 });
  });
  test('a read half a ms over its bound counts as over it; one exactly at its bound does not', () => {
    // [3,4,5] lacks 6, acked at 1300: sent at 1350.5 it is 50.5 ms stale, at 1350 exactly 50.
    const at = (sent: number) => judge([probe(sent, canonicalBody(pick(3, 4, 5)))], seq, MAXLEN, 50).summary;
    expect(at(1350.5)).toMatchObject({
      valid: 1,
      over_bound: 1,
      first_over_bound: { sent_ms: 1350.5, staleness_ms: 50.5 },
    });
    expect(at(1350)).toMatchObject({ valid: 1, over_bound: 0, first_over_bound: null });
  });
  test('torn reads are counted among the invalid kinds, beside the others', () => {
    const probes = [
      probe(1450, canonicalBody(pick(7, 8))), // torn: too short
      probe(1460, canonicalBody(pick(6, 7, 7))), // torn: an id twice
      probe(1470, canonicalBody(pick(6, 8, 7))), // reordered
      probe(1480, canonicalBody(pick(6, 7, 8))), // valid
    ];
    const { summary } = judge(probes, seq, MAXLEN, 50);
    expect(summary).toMatchObject({ count: 4, valid: 1, invalid: { torn: 2, reordered: 1 } });
    expect(summary.invalid).toEqual({ torn: 2, reordered: 1 });
    expect(summary.first_invalid).toMatchObject({ sent_ms: 1450, kind: 'torn' });
  });
  test('no valid reads: no staleness', () => {
    expect(judge([probe(1, 'x')], seq, MAXLEN, 50).summary.staleness_ms).toBeNull();
  });
});

describe('snapshotLengths', () => {
  // MAXLEN 2. Entry bytes: {"id":"1-0","fields":{"c":"a"}} is 31, and one more per value character;
  // a body is 14 bytes ({"entries":[ and ]}) plus its entries plus the commas between them.
  const cs = (n: number, c: string, acked = -Infinity, sent?: number): SequencedEntry => ({
    id: `${n}-0`,
    fields: { c },
    acked_ms: acked,
    ...(sent ? { sent_ms: sent } : {}),
  });
  const tiny = [cs(1, 'a'), cs(2, 'bbb', 100, 95), cs(3, 'dddd', 200, 190), cs(4, 'eeeee', 300, 290)];
  // Snapshots: [1] 14+31 = 45; [1,2] 14+31+33+1 = 79; [2,3] 14+33+34+1 = 82; [3,4] 14+34+35+1 = 84.
  test('by hand', () => {
    expect(snapshotLengths(tiny, 2, 0, 50)).toEqual({ min: 45, max: 45 });
    expect(snapshotLengths(tiny, 2, 0, 96)).toEqual({ min: 45, max: 79 }); // 2 was sent at 95: Redis may show it
    expect(snapshotLengths(tiny, 2, 150, 250)).toEqual({ min: 79, max: 82 });
    expect(snapshotLengths(tiny, 2, 350, 400)).toEqual({ min: 84, max: 84 });
    expect(snapshotLengths(tiny, 2, -Infinity, Infinity)).toEqual({ min: 45, max: 84 });
  });
  test("a window's sizes reach back by the contender's bound: a ttl cache's older snapshot", async () => {
    // A window 250..400 of a cache bounded at 150 ms: [1,2] (79 bytes), current at 100, is a size it may serve.
    const live = { timeline: () => Timeline.of(tiny), maxlen: 2, writer: { hasExited: () => false } };
    const w = await judgeWindow(live as never, [], 150, 250, 400);
    expect([w.bytes_min, w.bytes_max]).toEqual([79, 84]);
    expect((await judgeWindow(live as never, [], 0, 250, 400)).bytes_min).toBe(82); // [2,3] is current at 250
    expect((await judgeWindow(live as never, [], 0, 350, 400)).bytes_min).toBe(84);
    expect((await judgeWindow(live as never, [], 150, 350, 400)).bytes_min).toBe(82);
  });
  test('a body whose newest entry the log has not yet: judged again once it has; a dead writer said', async () => {
    // The writer logs 4 a moment after a reader saw it: the timeline has it from the second reading on.
    const timeline = new Timeline().add(tiny.slice(0, 3));
    let readings = 0;
    const live = {
      timeline: () => (++readings === 2 ? timeline.add(tiny.slice(3)) : timeline),
      maxlen: 2,
      writer: { hasExited: () => false },
    };
    const seen = { sent_ms: 320, received_ms: 325, status: 200, body: canonicalBody(tiny.slice(2)) };
    const w = await judgeWindow(live as never, [seen], 50, 250, 400);
    expect(w).toMatchObject({ count: 1, valid: 1, invalid: {}, writer_alive: true });
    const dead = { timeline: () => Timeline.of(tiny), maxlen: 2, writer: { hasExited: () => true } };
    expect((await judgeWindow(dead as never, [seen], 50, 250, 400)).writer_alive).toBe(false);
  });
  test('a timeline extended a few entries at a time answers as one built whole', () => {
    const grown = new Timeline().add(tiny.slice(0, 1)).add(tiny.slice(1, 3)).add([]).add(tiny.slice(3));
    expect(grown.initial).toBe(1);
    for (const [from, to] of [
      [0, 50],
      [0, 96],
      [150, 250],
      [350, 400],
      [-Infinity, Infinity],
    ] as const) {
      expect(snapshotLengths(grown, 2, from, to)).toEqual(snapshotLengths(tiny, 2, from, to));
    }
    // The binary search finds the last entry acked by a time, initial entries (acked at -Infinity) included.
    expect([-1e9, 99, 100, 250, 1e9].map((t) => grown.lastIndex((e) => e.acked_ms <= t))).toEqual([0, 0, 1, 2, 3]);
    const half = new Timeline().add(seq.slice(0, 5));
    const body = canonicalBody(pick(6, 7, 8));
    expect(judge([probe(1450, body)], half, MAXLEN, 50).summary.invalid['unknown-id']).toBe(1);
    expect(judge([probe(1450, body)], half.add(seq.slice(5)), MAXLEN, 50).results[0]).toEqual(one(probe(1450, body)));
  });
  test('counts UTF-8 bytes, like the canonical body on the wire', () => {
    const wide = [cs(1, 'é'), cs(2, '€', 10)];
    expect(snapshotLengths(wide, 5, 20, 20).max).toBe(Buffer.byteLength(canonicalBody(wide)));
  });
});

describe('helpers', () => {
  test('canonicalBody is byte-identical to the direct transform', () => {
    const flat = seq.map((e) => [e.id, Object.entries(e.fields).flat()] as [string, string[]]);
    expect(canonicalBody(seq)).toBe(toJson({ shape: 'flat', entries: flat }));
  });
  test('sequenceOf: initial entries acked at -Infinity, then the written ones', () => {
    const s = sequenceOf({
      initial: [{ id: '1-0', fields: {} }],
      written: [{ id: '2-0', fields: { a: 'b' }, sent_ms: 5, acked_ms: 7 }],
    });
    expect(s).toEqual([
      { id: '1-0', fields: {}, acked_ms: -Infinity },
      { id: '2-0', fields: { a: 'b' }, sent_ms: 5, acked_ms: 7 },
    ]);
  });
});

describe('the prober', () => {
  test('its gaps are exponential, 50 ms on average, cut at four means', () => {
    const scale = 50 / (1 - Math.exp(-4));
    expect(probeGapMs(0)).toBe(0);
    expect(probeGapMs(1 - Math.exp(-1))).toBeCloseTo(scale, 9);
    expect(probeGapMs(1 - 1e-12)).toBeCloseTo(4 * scale, 9);
    // The mean over evenly spaced draws: 20 probes a second.
    const n = 200_000;
    let sum = 0;
    for (let i = 0; i < n; i++) sum += probeGapMs((i + 0.5) / n);
    expect(sum / n).toBeCloseTo(50, 1);
  });

  // A cache that serves each write 70 ms after its ack, at 20 writes/s: over a 50 ms bound for 20 ms after every
  // write. Probes at a fixed 50 ms fell at one phase of the writer's grid and missed it in about half the windows.
  test('a cache stale for a stretch after every write is caught in every window, whatever its phase', async () => {
    const [M, LAG, RATE] = [5, 70, 20];
    const mk = (i: number) => ({ id: `${1000 + i}-0`, fields: { n: String(i) } });
    const t0 = nowMs() + 100;
    const seq: SequencedEntry[] = [
      ...Array.from({ length: M }, (_, i) => ({ ...mk(i), acked_ms: -Infinity })),
      ...Array.from({ length: 10 * RATE }, (_, k) => ({
        ...mk(M + k),
        sent_ms: t0 + (k * 1000) / RATE,
        acked_ms: t0 + (k * 1000) / RATE + 1,
      })),
    ];
    const server = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch() {
        const t = nowMs() - LAG;
        let j = M - 1;
        while (j + 1 < seq.length && seq[j + 1]!.acked_ms <= t) j++;
        return new Response(canonicalBody(seq.slice(j + 1 - M, j + 1)));
      },
    });
    try {
      await Bun.sleep(150);
      // Each window starts at its own phase of the writer's 50 ms grid, a third of it apart: a prober at a fixed
      // 50 ms keeps its start's phase, and at least one of the three misses the 20 ms stretch.
      for (let w = 0; w < 3; w++) {
        const cycle = 1000 / RATE;
        await Bun.sleep((((w * cycle) / 3 - ((nowMs() - t0) % cycle)) % cycle) + cycle);
        const prober = startProber(`http://127.0.0.1:${server.port}/`);
        await Bun.sleep(1000);
        const probes = await prober.stop();
        expect(probes.length).toBeGreaterThan(5);
        expect(judge(probes, seq, M, 50).summary.over_bound).toBeGreaterThan(0);
      }
    } finally {
      server.stop(true);
    }
  }, 30_000);
});

test("a ttl cache's staleness bound is the TTL the app is given; an exact cache's is 0", () => {
  expect(stalenessBoundMs('ttl', { CACHE_TTL_MS: '500' })).toBe(500);
  expect(stalenessBoundMs('ttl', {})).toBe(DEFAULT_CACHE_TTL_MS);
  expect(stalenessBoundMs('none', { CACHE_TTL_MS: '500' })).toBe(0);
  expect(stalenessBoundMs('tail', { CACHE_TTL_MS: '500' })).toBe(0);
});

test('a cache question names a cache that is not exact as such, beside the exact ones it is weighed against', () => {
  const c = (name: string, cache: string) => ({ name, tuned: cache === 'none' ? [] : [cache], settings: { cache } });
  const contenders = [c('x', 'none'), c('x-ttl', 'ttl'), c('x-csc', 'csc'), c('x-tail', 'tail')];
  const an = { results: { contenders, settings: {} } } as any;
  const label = labeller(an, { id: 'cache: x', kind: 'cache', about: 'x', members: contenders.map((m) => m.name) });
  expect(contenders.map((m) => label(m.name))).toEqual([
    'no cache',
    'the ttl cache (not exact: stale up to its bound)',
    'the csc cache',
    'the tail cache',
  ]);
});
