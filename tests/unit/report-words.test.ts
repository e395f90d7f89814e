// The words results.md and the README say of decided answers, from either side: the figure and the word turned round
// with the side, the bound of equal answers, the counts, a framework's or a setting's faster or slower, how much
// slower a range is, and where the answers held in the other kept runs (the same way, each interval low end first).
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { type Analysis, analyze } from '../../packages/harness/src/answers/analysis';
import { bound, sides } from '../../packages/harness/src/answers/decide';
import { heldUp } from '../../packages/harness/src/answers/held';
import type { KeptAnswers } from '../../packages/harness/src/model/kept';
import type { Question } from '../../packages/harness/src/model/questions';
import type { Answer } from '../../packages/harness/src/model/results';
import { readResults } from '../../packages/harness/src/model/results-file';
import { settingsTable } from '../../packages/harness/src/report/answers';
import { times } from '../../packages/harness/src/report/picks';
import { heldLine, heldTable } from '../../packages/harness/src/report/held';
import { picksSection } from '../../packages/harness/src/report/picks';
import { ROOT } from '../../packages/harness/src/system/paths';

const fixture = () => readResults(join(ROOT, 'tests/fixtures/results/results.json'));

type Figures = Analysis['answers'][number];
type Said = 'faster' | 'equal' | 'undecided';

/** A hand-made answer of `question`, a ÷ b with its interval, as the analysis gives it (sides, bound). */
function answer(question: string, a: string, b: string, [ratio, lo, hi]: number[], verdict: Said): Figures {
  const base = { id: `${a} vs ${b}`, question, a, b, ratio: ratio!, lo: lo!, hi: hi!, level: 0.99, p: 0.01 };
  const own = { ...base, verdict, pairs: 6, rounds: 6, look: 1 } as Answer;
  return { ...own, sides: sides(own), bound: bound(own), roundsToClose: null };
}

/** A question of hand-made members (no contender: each is named as it is). */
const question = (id: string, members: string[]): Question => {
  const [kind, about] = id.split(': ') as [Question['kind'], string];
  return { id, kind, about, members };
};

/** The fixture's analysis with these questions added, these answers only, and these leaders. */
function page(qs: Question[], answers: Figures[], leaders: [Question, string[]][] = []): Analysis {
  const an = analyze(fixture());
  return {
    ...an,
    questions: [...an.questions, ...qs],
    answers,
    leaders: leaders.map(([q, best]) => ({ question: q, best, beaten: [], direct: false })),
  };
}

/** The picks as read: the glossary links taken off their words. */
const plain = (md: string) => md.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
const lineOf = (md: string, start: string) =>
  plain(md)
    .split('\n')
    .find((l) => l.startsWith(start))!;

describe("the README's picks, from either side", () => {
  test('an answer decided on some machines, said of its B side: the word and the figure turned round', () => {
    const q = question('client: deno', ['node-redis', 'iovalkey', 'glide']);
    const some = answer(q.id, 'node-redis', 'iovalkey', [0.85, 0.6, 1.2], 'undecided');
    const machine = { placement: 'none', runs: 3, tau: 0.02, level: 0.99, p: 0.01 };
    some.pool = {
      holds: 'depends on the machine',
      where: 'slower on Intel Xeon, open on AMD EPYC',
      on_machines: [
        { ...machine, machine: 'xeon', name: 'Intel Xeon', verdict: 'faster', ratio: 0.8, lo: 0.7, hi: 0.9 },
        { ...machine, machine: 'epyc', name: 'AMD EPYC', verdict: 'undecided', ratio: 0.95, lo: 0.8, hi: 1.1 },
      ],
    } as unknown as Figures['pool'];
    const answers = [
      some,
      answer(q.id, 'iovalkey', 'glide', [1.3, 1.1, 1.5], 'faster'),
      answer(q.id, 'node-redis', 'glide', [1.05, 0.9, 1.2], 'undecided'),
    ];
    const line = lineOf(picksSection(page([q], answers, [[q, ['iovalkey', 'node-redis']]])), '  - on deno, ');
    // Of iovalkey (b): b ÷ a, 1 / 0.80 with its interval's ends turned round, and faster where a ÷ b is slower.
    expect(line).toContain(
      '**iovalkey**: faster than glide (1.30×, 1.10×–1.50×), ' +
        'against node-redis faster on Intel Xeon (1.25×, 1.11×–1.43×), open on AMD EPYC',
    );
    // Of node-redis (a): as a ÷ b says it.
    expect(line).toContain(
      'node-redis: against iovalkey slower on Intel Xeon (0.80×, 0.70×–0.90×), ' + 'open on AMD EPYC',
    );
    expect(line).not.toContain('iovalkey: against node-redis slower');
  });

  test('equal answers with the largest bound of those said: of one member, and of a whole question', () => {
    // A member equal to two others at ±5% and ±8%: within ±8%.
    const q = question('client: tsx', ['bun-redis', 'iovalkey', 'glide', 'ioredis']);
    const answers = [
      answer(q.id, 'bun-redis', 'ioredis', [1.3, 1.1, 1.5], 'faster'),
      answer(q.id, 'bun-redis', 'iovalkey', [1.0, 0.97, 1.05], 'equal'),
      answer(q.id, 'bun-redis', 'glide', [1.0, 0.95, 1.08], 'equal'),
      answer(q.id, 'iovalkey', 'glide', [1.0, 0.8, 1.2], 'undecided'),
      answer(q.id, 'iovalkey', 'ioredis', [1.1, 0.9, 1.3], 'undecided'),
      answer(q.id, 'glide', 'ioredis', [1.1, 0.9, 1.3], 'undecided'),
    ];
    const best = ['bun-redis', 'iovalkey', 'glide'];
    const line = lineOf(picksSection(page([q], answers, [[q, best]])), '  - on tsx, ');
    expect(line).toContain(
      '**bun-redis**: faster than ioredis (1.30×, 1.10×–1.50×), equal to iovalkey and glide (within ±8%)',
    );
    expect(line).toContain('iovalkey: equal to bun-redis (within ±5%), open against glide and ioredis');
    // Every answer of a question equal, at ±4%, ±9% and ±6%: equal between all 3 within ±9%.
    const all = question('runtime: raw + glide', ['bun-glide', 'node-glide', 'deno-glide']);
    const equal = [
      answer(all.id, 'bun-glide', 'node-glide', [1.0, 0.98, 1.04], 'equal'),
      answer(all.id, 'bun-glide', 'deno-glide', [1.0, 0.95, 1.09], 'equal'),
      answer(all.id, 'node-glide', 'deno-glide', [1.0, 0.97, 1.06], 'equal'),
    ];
    const md = picksSection(page([all], equal, [[all, all.members]]));
    expect(lineOf(md, '  - raw + glide, ')).toBe('  - raw + glide, equal between all 3 (within ±9%).');
  });

  test('every decided answer of a question is said: a member below a leader, with what it is faster than', () => {
    // As the published writes page's bun clients: bun-redis beats ioredis, and ioredis beats glide.
    const q = question('client: bun', ['bun-redis', 'ioredis', 'glide']);
    const answers = [
      answer(q.id, 'bun-redis', 'ioredis', [1.21, 1.01, 1.47], 'faster'),
      answer(q.id, 'bun-redis', 'glide', [1.75, 1.06, 2.9], 'faster'),
      answer(q.id, 'ioredis', 'glide', [1.51, 1.06, 2.16], 'faster'),
    ];
    const line = lineOf(picksSection(page([q], answers, [[q, ['bun-redis']]])), '  - on bun, ');
    expect(line).toBe(
      '  - on bun, **bun-redis**: faster than ioredis (1.21×, 1.01×–1.47×) and glide (1.75×, 1.06×–2.90×); ' +
        'ioredis, slower than bun-redis: faster than glide (1.51×, 1.06×–2.16×).',
    );
    // Each decided answer said once: three "faster than" pairs, three figures.
    expect(line.match(/\d\.\d+×, /g)).toHaveLength(3);
  });

  test('the counts are of the comparisons answered: one with a side out is none of them, and they add up', () => {
    const q = question('client: tsx', ['bun-redis', 'iovalkey', 'glide', 'ioredis']);
    const out = answer(q.id, 'glide', 'ioredis', [1.1, 0.9, 1.3], 'undecided');
    out.out = 'glide failed its check';
    const answers = [
      answer(q.id, 'bun-redis', 'ioredis', [1.3, 1.1, 1.5], 'faster'),
      answer(q.id, 'bun-redis', 'iovalkey', [1.0, 0.97, 1.05], 'equal'),
      answer(q.id, 'bun-redis', 'glide', [1.0, 0.8, 1.2], 'undecided'),
      answer(q.id, 'iovalkey', 'glide', [1.0, 0.8, 1.2], 'undecided'),
      out,
    ];
    const md = picksSection(page([q], answers, [[q, ['bun-redis', 'iovalkey', 'glide']]]));
    expect(md).toContain('of 4 comparisons, 1 decided, 1 equal, 2 open (');
    const [, n, d, e, o] = md.match(/of (\d+) comparisons, (\d+) decided, (\d+) equal, (\d+) open/)!.map(Number);
    expect(d! + e! + o!).toBe(n!);
  });

  test('a framework decided faster than its own server is listed as faster, never under slower', () => {
    const an = analyze(fixture());
    const q = an.questions.find((x) => x.id === 'framework: node-fastify-node-redis')!;
    const fast = answer(q.id, 'node-fastify-node-redis', 'node-raw-node-redis', [1.2, 1.1, 1.31], 'faster');
    const slow = answer(q.id, 'node-next-page-dynamic-ioredis', 'node-raw-ioredis', [0.45, 0.36, 0.57], 'faster');
    const bullet = lineOf(picksSection(page([], [fast, slow])), '- **Framework**');
    expect(bullet).toContain(
      "slower (req/s ÷ its own server's): next page-dynamic on node (ioredis: 0.45×, 0.36×–0.57×); " +
        "faster (req/s ÷ its own server's): fastify on node (node-redis: 1.20×, 1.10×–1.31×)",
    );
    expect(bullet.split('; ')[0]).not.toContain('fastify');
  });

  test("a named setting's answers over many stacks: a slower range as how much slower, the least first", () => {
    const an = analyze(fixture());
    const base = an.results.contenders.find((c) => c.name === 'node-raw-node-redis')!;
    const twins = [1.1, 1.2, 1.25, 1.3, 1.4].map((f, i) => ({
      twin: { ...base, name: `node-raw-node-redis-watch-${i}`, settings: { ...base.settings, write: 'watch' } },
      f,
    }));
    const answers = twins.map(({ twin, f }) =>
      answer('write: node', twin.name, base.name, [1 / f, 1 / (f * 1.05), 1 / (f * 0.95)], 'faster'),
    );
    const results = { ...an.results, contenders: [...an.results.contenders, ...twins.map((t) => t.twin)] };
    const bullet = lineOf(picksSection({ ...page([], answers), results }), '- **Write strategy**');
    expect(bullet).toContain('WATCH/MULTI/EXEC: **10% to 40% slower** on 5 stacks');
    expect(bullet).not.toMatch(/-\d/);
  });

  test('two tuned values on one stack answer too: WATCH against a function, over its stacks, in the count', () => {
    const an = analyze(fixture());
    const stacks = ['node-raw-node-redis', 'node-raw-ioredis'].map(
      (n) => an.results.contenders.find((c) => c.name === n)!,
    );
    const twin = (c: (typeof stacks)[0], write: string) => ({
      ...c,
      name: `${c.name}-${write}`,
      settings: { ...c.settings, write },
    });
    const answers = stacks.flatMap((c, i) => [
      answer('write: node', twin(c, 'watch').name, c.name, [0.3, 0.25, 0.36], 'faster'),
      answer('write: node', twin(c, 'function').name, c.name, [1.02, 0.9, 1.15], 'undecided'),
      // Either side first: the bullet says WATCH ÷ function.
      i === 0
        ? answer('write: node', twin(c, 'watch').name, twin(c, 'function').name, [0.25, 0.2, 0.3], 'faster')
        : answer('write: node', twin(c, 'function').name, twin(c, 'watch').name, [5, 4, 6], 'faster'),
    ]);
    const extra = stacks.flatMap((c) => [twin(c, 'watch'), twin(c, 'function')]);
    const results = { ...an.results, contenders: [...an.results.contenders, ...extra] };
    const bullet = plain(lineOf(picksSection({ ...page([], answers), results }), '- **Write strategy**'));
    expect(bullet).toContain(
      'WATCH/MULTI/EXEC against a Redis function (FCALL): **4.00× to 5.00× slower** on node + node-redis and ' +
        'node + ioredis',
    );
    expect(bullet).toContain('(6 answers; what they are)');
  });
});

describe("the picks' factors", () => {
  test('a bound near 1 keeps the decimals that tell it from 1: a decided end never prints as 1.00×', () => {
    expect([times(1.0024), times(0.9996), times(1), times(1.32), times(12.34)]).toEqual([
      '1.002×',
      '0.9996×',
      '1.00×',
      '1.32×',
      '12.3×',
    ]);
  });
});

describe("results.md's settings table", () => {
  test('a setting decided below its default says slower; above it, faster', () => {
    const an = analyze(fixture());
    const [below, above] = an.answers.filter((a) => a.question.startsWith('setting: '));
    Object.assign(below!, { verdict: 'faster', ratio: 0.8, lo: 0.7, hi: 0.9 });
    Object.assign(above!, { verdict: 'faster', ratio: 1.25, lo: 1.1, hi: 1.4 });
    const rows = settingsTable(an)
      .split('\n')
      .filter((l) => l.startsWith('| direct |'));
    expect(rows[0]).toMatch(/\| 0\.80 \(0\.70–0\.90, [^)]*\) \| \d+ \| slower \|$/);
    expect(rows[1]).toMatch(/\| 1\.25 \(1\.10–1\.40, [^)]*\) \| \d+ \| faster \|$/);
  });

  test('an answer too short for an interval (one boot) shows its ratio and why, as its sentence does', () => {
    const an = analyze(fixture());
    const [a] = an.answers.filter((x) => x.question.startsWith('setting: '));
    Object.assign(a!, { verdict: 'undecided', ratio: 3.52, lo: 1, hi: 7.34, short: 'measured on one boot' });
    const row = settingsTable(an)
      .split('\n')
      .find((l) => l.startsWith('| direct |'));
    expect(row).toMatch(/\| 3\.52 \(measured on one boot\) \| \d+ \| open \|$/);
  });
});

describe('where the answers held, in words', () => {
  const run = (started_at: string, answers: KeptAnswers['answers']): KeptAnswers => ({
    started_at,
    workload: 'xrange',
    commit: 'abcdef0123',
    machine: 'AMD EPYC, 2 logical CPUs, Linux 6.18',
    sd_windows: 0.12,
    answers,
  });
  const ans = (a: string, b: string, ratio: number, lo = ratio * 0.9, hi = ratio * 1.1) => ({
    a,
    b,
    ratio,
    lo,
    hi,
    verdict: 'faster' as const,
  });
  const here = run('2026-11-26T10:00:00Z', [
    ans('x', 'y', 1.74, 1.05, 2.91),
    ans('x', 'z', 0.7),
    ans('y', 'z', 1.2),
    ans('u', 'v', 1.3),
  ]);
  // The most decided the same way first: 3 in one run, 1 in the other.
  const elsewhere = heldUp(here, [
    run('2026-11-24T10:00:00Z', [ans('x', 'y', 1.4), ans('z', 'x', 1.3), ans('u', 'v', 1.2)]),
    run('2026-11-25T10:00:00Z', [ans('x', 'y', 1.5)]),
  ])!;
  const an = { elsewhere, results: { settings: { workload: 'xrange' } } } as unknown as Analysis;

  test("the README's line: decided the same way in the fewest to the most per run", () => {
    expect(heldLine(an)).toContain('; decided the same way in 1–3 per run, the rest open');
  });

  test("results.md's table: each answer here with its estimate and interval, low end first", () => {
    const table = heldTable(an).split('\n');
    expect(table.find((l) => l.startsWith('| x ÷ y: '))).toStartWith('| x ÷ y: 1.74 (1.05–2.91) | ');
    expect(table.find((l) => l.startsWith('| x ÷ z: '))).toStartWith('| x ÷ z: 0.70 (0.63–0.77) | ');
  });
});
