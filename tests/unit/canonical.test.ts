import { describe, expect, test } from 'bun:test';
import { toBody, toJson, type Entries, type FlatEntry } from '@bench/stream';

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
