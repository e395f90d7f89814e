import { describe, expect, test } from 'bun:test';
import { replyCommand, toBody, toJson, workloadCommand, type Entries, type FlatEntry } from '@bench/stream';

const flat: FlatEntry[] = [
  ['1690000000001-0', ['color', 'violet', 'font', 'eczar', 'width', '374.390625']],
  ['1690000000002-0', ['color', 'te"al\\', 'font', 'kärla\n', 'width', '0']],
];
// The reference: objects, then JSON.stringify, exactly as the contract describes.
const expected = JSON.stringify({
  entries: [
    { id: '1690000000001-0', fields: { color: 'violet', font: 'eczar', width: '374.390625' } },
    { id: '1690000000002-0', fields: { color: 'te"al\\', font: 'kärla\n', width: '0' } },
  ],
});
const pairs = (kv: string[]) => [0, 2, 4].map((i) => [kv[i]!, kv[i + 1]!] as [string, string]);
const shapes: Entries[] = [
  { shape: 'flat', entries: flat },
  { shape: 'object', entries: flat.map(([id, kv]) => ({ id, message: Object.fromEntries(pairs(kv)) })) },
  { shape: 'pairs', entries: flat.map(([id, kv]) => ({ key: id, value: pairs(kv) })) },
];

describe('contract transforms', () => {
  for (const e of shapes) {
    test(`${e.shape} replies: direct (by hand) and plain (objects + JSON.stringify) give the contract bytes`, () => {
      expect(toJson(e)).toBe(expected);
      expect(JSON.stringify(toBody(e))).toBe(expected);
    });
    test(`${e.shape} replies: an empty stream gives an empty list`, () => {
      const empty = { shape: e.shape, entries: [] } as Entries;
      expect(toJson(empty)).toBe('{"entries":[]}');
      expect(JSON.stringify(toBody(empty))).toBe('{"entries":[]}');
    });
  }
  test('an entry without fields keeps an empty object', () => {
    expect(toJson({ shape: 'flat', entries: [['1-0', []]] })).toBe('{"entries":[{"id":"1-0","fields":{}}]}');
    expect(JSON.stringify(toBody({ shape: 'flat', entries: [['1-0', []]] }))).toBe(
      '{"entries":[{"id":"1-0","fields":{}}]}',
    );
  });
});

describe('the command each read workload sends, and the reply its body is made of', () => {
  test('xrange-count the first 100, xrevrange-count the last 100 newest first; the rest the whole stream', () => {
    expect(workloadCommand('xrange', 'k')).toEqual(['XRANGE', 'k', '-', '+']);
    expect(workloadCommand('live', 'k')).toEqual(['XRANGE', 'k', '-', '+']);
    expect(workloadCommand('xread', 'k')).toEqual(['XREAD', 'STREAMS', 'k', '0-0']);
    expect(workloadCommand('xrange-count', 'k')).toEqual(['XRANGE', 'k', '-', '+', 'COUNT', '100']);
    expect(workloadCommand('xrevrange-count', 'k')).toEqual(['XREVRANGE', 'k', '+', '-', 'COUNT', '100']);
    // The golden body's command: a page's own read, else XRANGE's whole stream (XREAD's entries, upsert's stream).
    expect(replyCommand('xrange-count', 'k')).toEqual(['XRANGE', 'k', '-', '+', 'COUNT', '100']);
    expect(replyCommand('xrevrange-count', 'k')).toEqual(['XREVRANGE', 'k', '+', '-', 'COUNT', '100']);
    for (const w of ['xrange', 'xread', 'live', 'upsert', 'xadd-trim'] as const)
      expect(replyCommand(w, 'k')).toEqual(['XRANGE', 'k', '-', '+']);
  });
});

test('an object reply keeps its names in stream order, not sorted, on both transforms', () => {
  const e: Entries = { shape: 'object', entries: [{ id: '1-0', message: { width: '1', color: 'red', alpha: 'a' } }] };
  const body = '{"entries":[{"id":"1-0","fields":{"width":"1","color":"red","alpha":"a"}}]}';
  expect(toJson(e)).toBe(body);
  expect(JSON.stringify(toBody(e))).toBe(body);
});
