// The "what to pick" family (model/questions.ts familyOf), on members built by hand: which questions a suite asks and
// which pairwise comparisons each one adds, worked out here from the rules in the module's header.
import { describe, expect, test } from 'bun:test';
import { OWN_APP } from '../../packages/harness/src/model/contenders';
import { familyOf, type Member } from '../../packages/harness/src/model/questions';

const member = (name: string, over: Partial<Member> = {}): Member => {
  const [runtime, framework, client] = name.split('-');
  return { name, runtime: runtime!, framework: framework!, variant: null, client: client!, ...over };
};
const ids = (f: ReturnType<typeof familyOf>) => f.comparisons.map((c) => c.id);

describe('the family of comparisons', () => {
  test('a question of three members is three comparisons, each pair once, in the members’ order', () => {
    const f = familyOf([member('bun-raw-ioredis'), member('node-raw-ioredis'), member('deno-raw-ioredis')]);
    expect(f.questions.map((q) => [q.id, q.members])).toEqual([
      ['runtime: raw + ioredis', ['bun-raw-ioredis', 'node-raw-ioredis', 'deno-raw-ioredis']],
    ]);
    expect(ids(f)).toEqual([
      'bun-raw-ioredis vs node-raw-ioredis',
      'bun-raw-ioredis vs deno-raw-ioredis',
      'node-raw-ioredis vs deno-raw-ioredis',
    ]);
    // Members of different runtimes are measured half a block apart: never side by side.
    expect(f.comparisons.every((c) => c.side_by_side === undefined)).toBe(true);
  });

  test('a setting is asked against its plain twin of the same variant, side by side', () => {
    const next = (variant: string, tuned: string[] = []) =>
      member(['node-next', variant, 'ioredis', ...tuned].join('-'), {
        framework: 'next',
        variant,
        client: 'ioredis',
        tuned,
      });
    const f = familyOf([next('a'), next('b'), next('b', ['direct'])]);
    const setting = f.questions.filter((q) => q.kind === 'setting');
    expect(setting.map((q) => [q.about, q.members])).toEqual([
      ['node next b ioredis: direct', ['node-next-b-ioredis-direct', 'node-next-b-ioredis']],
    ]);
    expect(f.comparisons.find((c) => c.question === setting[0]!.id)).toEqual({
      id: 'node-next-b-ioredis-direct vs node-next-b-ioredis',
      question: 'setting: node-next-b-ioredis-direct',
      a: 'node-next-b-ioredis-direct',
      b: 'node-next-b-ioredis',
      side_by_side: true,
    });
  });

  test('each stack’s caches are one question with its own uncached twin', () => {
    const f = familyOf([
      member('bun-raw-ioredis'),
      member('bun-hono-ioredis'),
      member('bun-raw-ioredis-tail', { tuned: ['tail'] }),
      member('bun-raw-ioredis-ttl', { tuned: ['ttl'] }),
      member('bun-hono-ioredis-tail', { tuned: ['tail'] }),
    ]);
    expect(f.questions.filter((q) => q.kind === 'cache').map((q) => [q.id, q.members])).toEqual([
      ['cache: bun-raw-ioredis', ['bun-raw-ioredis', 'bun-raw-ioredis-tail', 'bun-raw-ioredis-ttl']],
      ['cache: bun-hono-ioredis', ['bun-hono-ioredis', 'bun-hono-ioredis-tail']],
    ]);
    expect(f.questions.some((q) => q.kind === 'setting')).toBe(false);
  });

  test('the write strategies are one question with their default; the PING floor is in no question', () => {
    const f = familyOf([
      member('bun-raw-ioredis'),
      ...['watch', 'function', 'ping'].map((w) => member(`bun-raw-ioredis-${w}`, { tuned: [w] })),
    ]);
    expect(f.questions.map((q) => [q.id, q.members])).toEqual([
      ['write: bun-raw-ioredis', ['bun-raw-ioredis', 'bun-raw-ioredis-watch', 'bun-raw-ioredis-function']],
    ]);
    expect(ids(f).filter((id) => id.includes('ping'))).toEqual([]);
  });

  test('your app is asked against the stacks that read Redis per request, never a ceiling, a page or a check', () => {
    const f = familyOf([
      member('mine', { runtime: 'node', framework: 'raw', client: 'yours', app: OWN_APP }),
      member('bun-raw-ioredis'),
      member('bun-raw-precomputed', { client: '', tuned: ['precomputed'], ceiling: 'http' }),
      member('bun-next-ioredis', { static: true }),
      member('bun-raw-ioredis-handicap', { tuned: ['handicap'] }),
      member('bun-raw-node', { self_check_of: 'bun-raw-ioredis' }),
    ]);
    expect(f.questions.filter((q) => q.kind === 'yours').map((q) => q.members)).toEqual([['mine', 'bun-raw-ioredis']]);
  });
});
