// The contract on any stream: the golden body of names that objects cannot hold in stream order (contractJson), and
// how a contender's body is judged against it (measure/contract.ts): named causes only, or a difference of data.
import { describe, expect, test } from 'bun:test';
import { contractJson, type FlatEntry, toBody, toJson } from '@bench/stream';
import { join } from 'node:path';
import { causesLine, contractDifference, integerLike, parsePairs } from '../../packages/harness/src/measure/contract';
import { readResults } from '../../packages/harness/src/model/results-file';
import { contractFindings } from '../../packages/harness/src/report/table';
import { ROOT } from '../../packages/harness/src/system/paths';

const entries: FlatEntry[] = [
  ['1-0', ['color', 'red', '2', 'two', '1', 'one']],
  ['2-0', ['color', 'red', 'font', 'karla', 'color', 'blue']],
  ['3-0', ['color', 'red', '__proto__', 'proto']],
  ['4-0', ['note', '\uFEFFA']],
];
const golden = contractJson(entries);

/** What a JavaScript object makes of the fields: toBody's plain transform, stringified. */
const plain = JSON.stringify(toBody({ shape: 'flat', entries }));
/** The stream's own order, every pair kept: the direct transform of a flat reply (and the raw reader's body). */
const direct = toJson({ shape: 'flat', entries });

describe('the golden body', () => {
  test('names in stream order, a repeated name once with its last value, __proto__ and a leading BOM kept', () => {
    expect(golden).toBe(
      '{"entries":[{"id":"1-0","fields":{"color":"red","2":"two","1":"one"}},' +
        '{"id":"2-0","fields":{"color":"blue","font":"karla"}},' +
        '{"id":"3-0","fields":{"color":"red","__proto__":"proto"}},' +
        '{"id":"4-0","fields":{"note":"\uFEFFA"}}]}',
    );
  });

  test('on a stream of plain names it is the plain transform byte for byte', () => {
    const usual: FlatEntry[] = [['5-0', ['color', 'teal', 'height', '12', 'say', '"hi"\n']]];
    expect(contractJson(usual)).toBe(JSON.stringify(toBody({ shape: 'flat', entries: usual })));
    expect(contractDifference(contractJson(usual), contractJson(usual))).toBeNull();
  });

  test('integer-like: array indices only', () => {
    for (const k of ['0', '2', '42', '4294967294']) expect(integerLike(k)).toBe(true);
    for (const k of ['01', '-1', '1.5', '4294967295', '', 'a1']) expect(integerLike(k)).toBe(false);
  });
});

describe("a contender's body against it", () => {
  test("an object's body: integer-like names moved first (order only) and __proto__ dropped, each named", () => {
    expect(plain).toContain('"fields":{"1":"one","2":"two","color":"red"}');
    const d = contractDifference(plain, golden)!;
    expect(d).toEqual({
      causes: [
        { cause: 'integer', at: 'entry 1-0, field "1"' },
        { cause: 'proto', at: 'entry 3-0, field "__proto__"' },
      ],
    });
    expect(causesLine((d as { causes: never[] }).causes)).toBe(
      'moves integer-like field names first (entry 1-0, field "1"; key order only); ' +
        'drops a field named __proto__ (entry 3-0, field "__proto__")',
    );
  });

  test('integer-like names moved first in numeric order: "2" before "10", as an object holds them', () => {
    const stream: FlatEntry[] = [['1-0', ['color', 'red', '10', 'ten', '2', 'two']]];
    const body = JSON.stringify(toBody({ shape: 'flat', entries: stream }));
    expect(body).toContain('"fields":{"2":"two","10":"ten","color":"red"}');
    expect(contractDifference(body, contractJson(stream))).toEqual({
      causes: [{ cause: 'integer', at: 'entry 1-0, field "2"' }],
    });
  });

  test('the stream order with every pair: the repeated name named', () => {
    const d = contractDifference(direct, golden);
    expect(d).toEqual({ causes: [{ cause: 'repeated', at: 'entry 2-0, field "color"' }] });
  });

  test('another order than the one objects force is not a named cause: the contract keeps stream order', () => {
    const swapped = golden.replace('"color":"red","2":"two","1":"one"', '"2":"two","color":"red","1":"one"');
    expect(contractDifference(swapped, golden)).toEqual({
      data: "entry 1-0: the fields in another order than the stream's (2, color, 1)",
    });
  });

  test('differences of data are not findings: a value, a missing or extra field, an id, the count, the bytes', () => {
    const data = (body: string) => {
      const d = contractDifference(body, golden);
      expect(d && 'data' in d).toBe(true);
      return (d as { data: string }).data;
    };
    expect(data(golden.replace('"one"', '"uno"'))).toBe('entry 1-0, field "1": got "uno", want "one"');
    expect(data(golden.replace(',"font":"karla"', ''))).toBe(
      'entry 2-0, field "font": got no such field, want "karla"',
    );
    expect(data(golden.replace('"note":"\uFEFFA"', '"note":"A"'))).toContain('field "note": got "A"');
    expect(data(golden.replace('"note":', '"x":"y","note":'))).toBe(
      'entry 4-0, field "x": a field the stream does not have',
    );
    expect(data(golden.replace('"4-0"', '"4-1"'))).toBe('entry 4-0: got the id "4-1"');
    expect(data(golden.replace(/,\{"id":"4-0"[^}]*\}\}/, ''))).toBe('3 entries, want 4');
    expect(data(golden.replace('{"color":"blue"', '{ "color":"blue"'))).toBe(
      'the same entries and fields, written with other bytes',
    );
    expect(data('not json')).toContain("not of the contract's shape");
    expect(data('{"entries":[{"id":1,"fields":{}}]}')).toContain("not of the contract's shape");
  });

  test('the parser keeps names in order and repeated, and refuses bad JSON', () => {
    expect(parsePairs('{"2":1,"1":[true,null,"x"],"2":{"a":-1.5e3}}')).toEqual({
      pairs: [
        ['2', 1],
        ['1', [true, null, 'x']],
        ['2', { pairs: [['a', -1500]] }],
      ],
    });
    for (const bad of ['{"a":1,}', '{"a" 1}', '[1 2]', '{"a":1} x', '"\u0001"'])
      expect(() => parsePairs(bad)).toThrow();
  });
});

describe('the bytes and pairs behind the causes', () => {
  const hole: FlatEntry[] = [
    ['1-0', ['color', 'red', '2', 'two', '1', 'one']],
    ['2-0', ['text', 'A']],
  ];
  const holeGolden = contractJson(hole);
  const obj = toBody({ shape: 'flat', entries: hole });
  const data = (body: string, want = holeGolden, opts = {}) => {
    const d = contractDifference(body, want, opts);
    return d && 'data' in d ? d.data : `passed: ${JSON.stringify(d)}`;
  };
  const BYTES = 'the same entries and fields, written with other bytes';

  test('a cause found does not excuse other bytes: indented, \\u0041, an extra key at the top or in an entry', () => {
    expect(contractDifference(JSON.stringify(obj), holeGolden)).toEqual({
      causes: [{ cause: 'integer', at: 'entry 1-0, field "1"' }],
    });
    expect(data(JSON.stringify(obj, null, 2))).toBe(BYTES);
    expect(data(JSON.stringify(obj).replace('"A"', '"\\u0041"'))).toBe(BYTES);
    expect(data(JSON.stringify({ ...obj, extra: 'garbage' }))).toBe(BYTES);
    expect(data(JSON.stringify({ entries: obj.entries.map((e) => ({ ...e, junk: 1 })) }))).toBe(BYTES);
    expect(data(JSON.stringify({ entries: obj.entries.map(({ id, fields }) => ({ fields, id })) }))).toBe(BYTES);
    // The test's own stream, every cause present: an object's body and the stream-order body, each indented.
    expect(data(JSON.stringify(JSON.parse(plain), null, 2), golden)).toBe(BYTES);
    expect(data(direct.replace('{"color":"red","font"', '{ "color":"red","font"'), golden)).toBe(BYTES);
  });

  test('a page embeds the body with < written \\u003c: with a cause, that and only that is its bytes', () => {
    const lt: FlatEntry[] = [['1-0', ['b', '<x>', '1', 'y']]];
    const page = (s: string) => s.replaceAll('<', '\\u003c');
    const body = JSON.stringify(toBody({ shape: 'flat', entries: lt }));
    const want = page(contractJson(lt));
    expect(contractDifference(page(body), want, { page: true })).toEqual({
      causes: [{ cause: 'integer', at: 'entry 1-0, field "1"' }],
    });
    expect(data(body, want, { page: true })).toBe(BYTES);
    expect(data(page(body), contractJson(lt))).toBe(BYTES);
  });

  test("an invented repeated pair on a stream without repeats is refused where the stream's pairs are known", () => {
    const once: FlatEntry[] = [['1-0', ['color', 'red', 'font', 'karla']]];
    const onceGolden = contractJson(once);
    const stream = toJson({ shape: 'flat', entries: once });
    const bad = onceGolden.replace('{"color":', '{"color":"GARBAGE","color":');
    expect(data(bad, onceGolden, { stream })).toBe(
      'entry 1-0, field "color": repeated, and the stream does not repeat it',
    );
    // A name the stream repeats: each of its values is the stream's at that place, not only the last.
    expect(data(direct.replace('"color":"red","font"', '"color":"GARBAGE","font"'), golden, { stream: direct })).toBe(
      'entry 2-0, field "color", pair 1: got "color":"GARBAGE", want "color":"red"',
    );
    expect(data(direct.replace(',"color":"blue"', ',"color":"red","color":"blue"'), golden, { stream: direct })).toBe(
      'entry 2-0, field "color", pair 3: got "color":"red", want "color":"blue"',
    );
  });

  test("the causes alone still pass, with the stream's pairs known or not", () => {
    const objects = {
      causes: [expect.objectContaining({ cause: 'integer' }), expect.objectContaining({ cause: 'proto' })],
    };
    const repeated = { causes: [{ cause: 'repeated' as const, at: 'entry 2-0, field "color"' }] };
    expect(contractDifference(plain, golden)).toEqual(objects);
    expect(contractDifference(plain, golden, { stream: direct })).toEqual(objects);
    expect(contractDifference(direct, golden)).toEqual(repeated);
    expect(contractDifference(direct, golden, { stream: direct })).toEqual(repeated);
    expect(contractDifference(golden, golden, { stream: direct })).toBeNull();
  });
});

describe('the report', () => {
  test('names each contender measured on its own body with its causes; none when every body was the golden one', () => {
    const r = readResults(join(ROOT, 'tests/fixtures/results/results.json'));
    expect(contractFindings(r)).toBe('');
    const [first, second] = r.contenders.filter((c) => c.status === 'ok');
    first!.contract = 'drops a field named __proto__ (entry 3-0, field "__proto__")';
    second!.contract = 'moves integer-like field names first (entry 1-0, field "1"; key order only)';
    const ok = r.contenders.filter((c) => c.status === 'ok').length;
    const md = contractFindings(r);
    expect(md).toStartWith(
      `${ok - 2} contenders served the golden body byte for byte; 2 differ from it by named causes`,
    );
    expect(md).toContain(
      `- **${first!.name}**: drops a field named \\_\\_proto\\_\\_ (entry 3-0, field "\\_\\_proto\\_\\_")`,
    );
    expect(md).toContain(`- **${second!.name}**: moves integer-like field names first`);
  });
});
