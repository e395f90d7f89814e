import { describe, expect, test } from 'bun:test';
import { flatEntriesToJson, flatXReadToJson, objectEntriesToJson, objectXReadToJson, type FlatEntry } from '@bench/stream';

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
const objects = flat.map(([id, kv]) => ({ id, message: Object.fromEntries([[kv[0], kv[1]], [kv[2], kv[3]], [kv[4], kv[5]]]) }));

describe('contract transforms', () => {
  test('ioredis / Bun / redis-cli XRANGE shape', () => expect(flatEntriesToJson(flat)).toBe(expected));
  test('ioredis XREAD shape', () => expect(flatXReadToJson([['OPTIONS:test:STREAM', flat]])).toBe(expected));
  test('node-redis xRange shape', () => expect(objectEntriesToJson(objects)).toBe(expected));
  test('node-redis xRead shape', () => expect(objectXReadToJson([{ name: 'OPTIONS:test:STREAM', messages: objects }])).toBe(expected));
  test('empty and missing streams give an empty list', () => {
    for (const body of [flatEntriesToJson([]), flatXReadToJson(null), objectEntriesToJson([]), objectEntriesToJson(null), objectXReadToJson(null)]) {
      expect(body).toBe('{"entries":[]}');
    }
  });
  test('an entry without fields keeps an empty object', () => {
    expect(flatEntriesToJson([['1-0', []]])).toBe('{"entries":[{"id":"1-0","fields":{}}]}');
  });
});
