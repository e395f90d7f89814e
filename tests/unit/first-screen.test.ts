// The README's first screen: a table of the fastest stacks with req/s, latency and CPU and their rank intervals, the
// overall answer from the ranking's own tests, the picks each saying what they are decided against (no "or"), one
// unit per range, and every glossary link landing on an entry of docs/glossary.md.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Analysis, analyze } from '../../packages/harness/src/answers/analysis';
import {
  atDefault,
  type OnMachine,
  type PickLine,
  type PicksResult,
  type PoolAnswer,
} from '../../packages/harness/src/model/across-runs';
import { analyzeRun } from '../../packages/harness/src/publish/index';
import { CHAIN_MIN_SHARED, chainRounds, poolPicks } from '../../packages/harness/src/answers/picks';
import type { KeptAnswers } from '../../packages/harness/src/model/kept';
import type { Member } from '../../packages/harness/src/model/questions';
import { besideThePicks, holdsOn, onMachineText, picksScreen } from '../../packages/harness/src/report/first-screen';
import { keptFor, pooledView, recordOf } from '../../packages/harness/src/publish/kept-runs';
import { type RankedContender, topOf } from '../../packages/harness/src/answers/ranking';
import { readResults } from '../../packages/harness/src/model/results-file';
import { charts } from '../../packages/harness/src/report/charts';
import { readmeAnswers, readmeSection } from '../../packages/harness/src/report/index';
import { spliceReadme } from '../../packages/harness/src/publish/readme';
import { anchorOf } from '../../packages/harness/src/report/words';
import { ROOT } from '../../packages/harness/src/system/paths';

const fixture = () => readResults(join(ROOT, 'tests/fixtures/results/results.json'));

/** A ranking of hand-made stacks: each beats the names given. */
const stack = (name: string, beats: string[], extra: Partial<RankedContender> = {}) =>
  ({ name, beats, static: false, rank: '', rankLo: 0, rankHi: 0, ...extra }) as RankedContender;

describe('the overall answer', () => {
  test('one stack decided faster than every other: it alone, separated', () => {
    const t = topOf([stack('a', ['b', 'c']), stack('b', ['c']), stack('c', [])])!;
    expect(t.top).toEqual(['a']);
    expect(t.notSeparated).toEqual([]);
    expect(t.ranks.map((x) => x.rank)).toEqual(['1', '2', '3']);
  });

  test('said in ranks, a family apart from the answers: never their words "decided" or "open"', () => {
    const readme = readmeSection(analyze(fixture()));
    const line = readme.split('\n').find((l) => l.startsWith('**Not ruled out as the fastest stack'))!;
    expect(line).toContain('none ranked above another');
    expect(line).not.toMatch(/\bdecided\b|\bopen\b/);
    expect(readme).toContain('a family of its own beside the answers below');
  });

  test('two not separated from each other; a third one of them does not beat is named', () => {
    const t = topOf([stack('a', ['c', 'd']), stack('b', ['d']), stack('c', []), stack('d', [])])!;
    expect(t.top).toEqual(['a', 'b']);
    expect(t.notSeparated).toEqual(['c']);
    expect(t.ranks.find((x) => x.name === 'c')!.rank).toBe('2–4');
  });

  test('static pages and write floors are not stacks to pick: left out, and the ranks are among the rest', () => {
    const t = topOf([
      stack('page', ['a', 'b'], { static: true }),
      stack('a', ['b']),
      stack('b', []),
      stack('ping', ['a', 'b'], { settings: { write: 'ping' } } as Partial<RankedContender>),
    ])!;
    expect(t.top).toEqual(['a']);
    expect(t.ranks).toEqual([
      { name: 'a', rank: '1' },
      { name: 'b', rank: '2' },
    ]);
    // At the libraries' defaults only: the tuned stack is left out.
    const d = topOf([stack('a', ['b'], { tuned: ['decode'] }), stack('b', []), stack('c', [])], (c) => !c.tuned)!;
    expect(d.top).toEqual(['b', 'c']);
  });
});

describe('the first screen', () => {
  const an = analyze(fixture());
  const block = readmeSection(an);
  const lines = block.split('\n');

  test('in its first lines: a table of req/s, p50, p99 and CPU, ranked as the analysis ranks, then the answer', () => {
    const head = lines.findIndex((l) => l.startsWith('| [rank]'));
    expect(head).toBeGreaterThanOrEqual(0);
    expect(head).toBeLessThan(10);
    expect(lines[head]).toContain('[req/s]');
    expect(lines[head]).toContain('p99');
    expect(lines[head]).toContain('[CPU per request]');
    const rows = lines.slice(head + 2).filter((l) => l.startsWith('| '));
    const ranks = an.top!.ranks;
    expect(rows.length).toBe(Math.min(6, ranks.length));
    rows.forEach((row, i) => {
      const c = an.ranked.find((x) => x.name === ranks[i]!.name)!;
      expect(row).toStartWith(
        `| ${ranks[i]!.rank} | \`${c.name}\` | ${Math.round(c.rps!.median).toLocaleString('en-US')} |`,
      );
    });
    const answer = lines.findIndex((l) => /^\*\*(The fastest stack|Not ruled out as the fastest stack)/.test(l));
    expect(answer).toBeGreaterThan(head);
    expect(answer).toBeLessThan(30);
    // The fastest named up to six, then counted; several that may each be first, each with its rank among them.
    const top = an.top!.top;
    const rank = new Map(an.top!.ranks.map((x) => [x.name, x.rank]));
    for (const name of top.slice(0, 6))
      expect(lines[answer]).toContain(top.length > 1 ? `\`${name}\` (${rank.get(name)})` : `\`${name}\``);
    if (top.length > 6) expect(lines[answer]).toContain(`and ${top.length - 6} more**`);
  });

  test('the machine in one line: its CPUs, shared by oha, Redis and the app', () => {
    const e = an.results.environment;
    const line = lines.find((l) => l.startsWith('**The machine:**'))!;
    expect(line).toContain(`${e.logical_cpus} logical CPUs`);
    expect(line).toContain('oha, Redis and the app share them');
  });

  test('each pick says what it is decided faster than, and what it is open against; no "or" between picks', () => {
    const picks = lines.filter((l) => l.startsWith('  - '));
    expect(picks.length).toBeGreaterThan(0);
    for (const l of picks) {
      expect(l).not.toContain(' or ');
      expect(l).toMatch(/faster than|open against|open between (all|the two)|equal to/);
    }
    // One unit in a range: never a percentage and a factor at once ("8% to 2.1×").
    expect(block).not.toMatch(/\d+% to \d+(\.\d+)?×/);
  });

  test('every glossary link lands on an entry of docs/glossary.md', () => {
    const headings = new Set(
      readFileSync(join(ROOT, 'docs/glossary.md'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('#'))
        .map((l) => anchorOf(l.replace(/^#+ /, ''))),
    );
    const links = [...block.matchAll(/\(docs\/glossary\.md#([^)]+)\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    for (const a of links) expect(headings.has(a)).toBe(true);
    // A client's name is linked at its first use in the picks, and only there.
    const picks = block.slice(block.indexOf('**What to pick**'));
    for (const name of ['node-redis', 'ioredis'])
      expect(picks.split(`[${name}](docs/glossary.md#${name})`).length - 1).toBe(1);
  });
});

describe('the charts name their run', () => {
  test('every chart: the run (date, commit), workload and where Redis was in its title; ranks not list numbers', () => {
    for (const name of ['results', 'against']) {
      const r = readResults(join(ROOT, 'tests/fixtures/results', `${name}.json`));
      const specs = charts(analyze(r));
      expect(Object.keys(specs).length).toBeGreaterThan(1);
      for (const spec of Object.values(specs)) {
        const title = JSON.stringify((spec as { title?: unknown }).title);
        expect(title).toContain(`run of ${r.started_at.slice(0, 10)} (${r.environment.git_commit.slice(0, 7)})`);
        expect(title).toContain(r.settings.workload.toUpperCase());
        expect(title).toContain('Redis, oha and the app on one machine');
      }
      const names = (specs['req-sec.png'] as { data: { values: { name: string }[] } }).data.values.map((v) => v.name);
      for (const n of names) {
        expect(n).not.toMatch(/^\d/);
        expect(n).toMatch(/\[rank \d+(–\d+)?\]$| \(static\)$/);
      }
    }
    // A run with Redis at a distance says so in every title.
    const far = readResults(join(ROOT, 'tests/fixtures/results/results.json'));
    far.settings.redis_rtt_ms = 1;
    for (const spec of Object.values(charts(analyze(far))))
      expect(JSON.stringify((spec as { title?: unknown }).title)).toContain('Redis 1 ms away');
  });
});

/** A kept run of hand-made rounds: each [a, b, rounds of ln(a ÷ b)] one answered comparison. */
const keptRun = (at: string, machine: string, pairs: [string, string, number[]][]): KeptAnswers => ({
  schema: 2,
  started_at: at,
  workload: 'xrange',
  commit: 'c',
  machine,
  sd_windows: 0.05,
  host: { cpu_model: machine, logical_cpus: 2, kernel: 'k', placement: 'none', shared_cpus: true },
  inputs: {},
  answers: pairs.map(([a, b, rounds]) => {
    const ln = rounds.reduce((s, x) => s + x, 0) / rounds.length;
    const sd = Math.sqrt(rounds.reduce((s, x) => s + (x - ln) ** 2, 0) / (rounds.length - 1));
    const estimate = {
      ln,
      se: sd / Math.sqrt(rounds.length),
      df: rounds.length - 1,
      procedure: 'moderated-t' as const,
    };
    return {
      a,
      b,
      ratio: Math.exp(ln),
      lo: 0,
      hi: 9,
      verdict: 'undecided' as const,
      estimate: { ...estimate, rounds },
    };
  }),
});
const member = (name: string): Member => {
  const [runtime, framework, ...client] = name.split('-');
  return { name, runtime: runtime!, framework: framework!, variant: null, client: client.join('-') };
};

describe('the first screen: each stack against the usual choice, one family', () => {
  const jitter = (base: number, n: number, k: number) =>
    Array.from({ length: n }, (_, i) => base + ((i * k) % 5) * 0.01);
  test('a stack two changes away is compared through the stack between them, round by round, B cancelling', () => {
    const k = keptRun('2026-01-01T00:00:00Z', 'M', [
      ['bun-raw-bun-redis', 'bun-raw-node-redis', [0.3, 0.2, 0.25, 0.1]],
      ['bun-raw-node-redis', 'node-raw-node-redis', [-0.1, 0.05, 0, 0.02]],
      ['deno-raw-iovalkey', 'deno-raw-node-redis', [0.1, 0.2, 0.3]],
      ['deno-raw-node-redis', 'node-raw-node-redis', [0.1, 0.2, 0.3, 0.4]],
    ]);
    const got = chainRounds(k, 'bun-raw-bun-redis', 'node-raw-node-redis')!;
    // Each round the sum of its two links.
    expect(got.rounds.map((x) => +x.toFixed(6))).toEqual([0.2, 0.25, 0.25, 0.12]);
    expect(got.direct).toBeUndefined();
    const back = chainRounds(k, 'node-raw-node-redis', 'bun-raw-bun-redis')!;
    expect(back.rounds.map((x) => +x.toFixed(6))).toEqual([-0.2, -0.25, -0.25, -0.12]);
    // Links of unequal rounds (a fault or a raced-out stack): which round is which is not known, so no chain.
    expect(chainRounds(k, 'deno-raw-iovalkey', 'node-raw-node-redis')).toBeNull();
    expect(chainRounds(k, 'bun-raw-bun-redis', 'bun-raw-glide')).toBeNull();
  });

  test('links of unequal rounds with their round numbers: chained over the rounds every link measured', () => {
    // A link that lost round 2 to a fault beside a link of every round; a stack raced out after round 3 (a framework
    // decided slower than its own server), whose few rounds its race stopped on, is not chained.
    const k = keptRun('2026-01-01T00:00:00Z', 'M', [
      ['bun-raw-glide', 'node-raw-ioredis', [0.5, 0.7, 0.6, 0.4, 0.5]],
      ['node-raw-ioredis', 'node-raw-node-redis', [-0.1, -0.2, -0.3, -0.4, -0.5, -0.6]],
      ['node-next-page-dynamic-ioredis', 'node-raw-ioredis', [-1, -1.1, -0.9]],
    ]);
    const ids = [
      [1, 3, 4, 5, 6],
      [1, 2, 3, 4, 5, 6],
      [1, 2, 3],
    ];
    for (const [i, x] of k.answers.entries()) x.estimate!.round_ids = ids[i];
    const got = chainRounds(k, 'bun-raw-glide', 'node-raw-node-redis')!;
    expect(got.ids).toEqual([1, 3, 4, 5, 6]);
    // Each the sum of its own round's links: round 3's 0.7 with round 3's −0.3.
    expect(got.rounds.map((x) => +x.toFixed(6))).toEqual([0.4, 0.4, 0.2, -0.1, -0.1]);
    const back = chainRounds(k, 'node-raw-node-redis', 'bun-raw-glide')!;
    expect(back.rounds.map((x) => +x.toFixed(6))).toEqual([-0.4, -0.4, -0.2, 0.1, 0.1]);
    expect(CHAIN_MIN_SHARED).toBe(5);
    expect(chainRounds(k, 'node-next-page-dynamic-ioredis', 'node-raw-node-redis')).toBeNull();
    // A record without the numbers on a link: as before, unequal links are not chained.
    delete k.answers[0]!.estimate!.round_ids;
    expect(chainRounds(k, 'bun-raw-glide', 'node-raw-node-redis')).toBeNull();
  });

  test('a worked example by hand: the pick is decided faster on both machines, one open stack, one slower', () => {
    const usual = 'node-raw-node-redis';
    const runs = ['M1', 'M2'].flatMap((m, j) =>
      [0, 1, 2].map((r) =>
        keptRun(`2026-01-0${j * 3 + r + 1}T00:00:00Z`, m, [
          ['deno-raw-iovalkey', 'deno-raw-node-redis', jitter(0.2, 8, r + 1)],
          ['deno-raw-node-redis', usual, jitter(0.05, 8, r + 2)],
          // Open: a low estimate, a wide spread.
          ['node-raw-iovalkey', usual, jitter(-0.4, 8, r + 3).map((x, i) => (i % 2 ? x + 1 : x - 1))],
          // Decided slower, yet above the open one: never the pick. Stored as the run stored it, the usual choice
          // first (ln of usual ÷ it): read back as exp(−0.3).
          [usual, 'node-raw-ioredis', jitter(0.3, 8, r + 1)],
          // Faster on M1, slower on M2, the highest on M1: a reversal is no pick.
          ['node-raw-glide', usual, jitter(j ? -0.3 : 0.6, 8, r + 2)],
        ]),
      ),
    );
    const members = [
      usual,
      'deno-raw-iovalkey',
      'deno-raw-node-redis',
      'node-raw-iovalkey',
      'node-raw-ioredis',
      'node-raw-glide',
    ];
    const p = poolPicks(runs, members.map(member), null, 'xrange', 10)!;
    const fastest = p.lines.find((l) => l.id === 'fastest')!;
    expect(fastest.pick).toBe('deno-raw-iovalkey');
    expect(fastest.decided).toBe(true);
    expect(fastest.answer!.pool.holds).toBe('holds on every machine measured');
    // exp(0.2 + 0.05 + the jitter's mean): the sum of the two links' estimates.
    expect(fastest.answer!.ratio).toBeGreaterThan(Math.exp(0.25));
    expect(fastest.answer!.ratio).toBeLessThan(Math.exp(0.32));
    expect(holdsOn(fastest.answer!)).toBe('every machine measured');
    // On Node none is decided faster: the open one, never the one decided slower, said as not yet known.
    const node = p.lines.find((l) => l.id === 'node')!;
    expect(node.decided).toBe(false);
    // The usual choice is a Node stack: with none shown faster, it is the one to keep.
    expect(node.keep).toBe(true);
    expect(fastest.keep).toBe(false);
    expect(node.pick).toBe('node-raw-iovalkey');
    const against = (name: string) => p.answers.find((x) => x.a === name)!;
    expect(against('node-raw-ioredis').ratio).toBeLessThan(Math.exp(-0.29));
    expect(against('node-raw-ioredis').pool.on_machines.every((o) => o.verdict === 'faster')).toBe(true);
    expect(against('node-raw-glide').pool.holds).toBe('reverses');
    // A reversal is no pick, and the row names it where it is faster (report/first-screen.ts keptCell).
    expect(node.reverses).toEqual(['node-raw-glide']);
    const onNode = node.answer!.pool.on_machines.map((o) => o.machine);
    expect(onNode.length).toBe(2);
    for (const m of onNode) expect(onMachineText(node.answer!, m)).toContain('not yet known');
    // Equal on a machine is said as its bound, never "not yet known" (whose range the key says includes 1×).
    const o = node.answer!.pool.on_machines[0]!;
    const equal = { ...o, verdict: 'equal' as const, ratio: 1.02, lo: 1.01, hi: 1.06 };
    const asEqual = { ...node.answer!, pool: { ...node.answer!.pool, on_machines: [equal] } };
    expect(onMachineText(asEqual, o.machine)).toBe('within ±6% (1.01×–1.06×)');
    // Said below the table by the same rule: Bun's own pick (none measured here).
    expect(p.notes!.map((l) => [l.id, l.pick])).toEqual([['bun', null]]);
    expect(p.alpha).toBe(0.05);
    // Keeping the usual choice on Node gives up nothing beyond the margin only where no Node stack may be faster on
    // any machine: not here (one open, one reversing); with its other stacks equal or slower everywhere, nothing.
    expect(node.none_faster).toBe(false);
    // A pair's rounds in run r on machine j; null: not measured there.
    type Pair = [string, string, (r: number, machine: number) => number[] | null];
    const onNodeOnly = (pairs: Pair[]) =>
      poolPicks(
        ['M1', 'M2'].flatMap((m, j) =>
          [0, 1, 2, 3, 4, 5, 6, 7].map((r) =>
            keptRun(
              `2026-01-${String(j * 8 + r + 1).padStart(2, '0')}T00:00:00Z`,
              m,
              pairs.flatMap(([a, b, f]): [string, string, number[]][] => {
                const rounds = f(r, j);
                return rounds ? [[a, b, rounds]] : [];
              }),
            ),
          ),
        ),
        [usual, ...pairs.map(([a, b]) => (a === usual ? b : a))].map(member),
        null,
        'xrange',
        10,
      )!;
    const even: Pair = [
      'node-raw-iovalkey',
      usual,
      (r) => Array.from({ length: 8 }, (_, i) => (i % 2 ? 0.01 : -0.01) + (r - 3.5) * 0.002),
    ];
    const slower: Pair = ['node-raw-ioredis', usual, (r) => jitter(-0.3, 8, (r % 4) + 1)];
    const open: Pair = [
      'node-raw-glide',
      usual,
      (r) => jitter(0.02, 8, (r % 4) + 1).map((x, i) => (i % 2 ? x + 1 : x - 1)),
    ];
    const calm = onNodeOnly([even, slower]).lines.find((l) => l.id === 'node')!;
    expect([calm.keep, calm.answer?.a, calm.none_faster]).toEqual([true, 'node-raw-iovalkey', true]);
    expect(calm.answer!.pool.on_machines.map((o) => o.verdict)).toEqual(['equal', 'equal']);
    // None shown faster: the next best is the one with the highest figure on its least favourable machine (the
    // rule the page states), not the highest over the machines: iovalkey's mean is higher, glide's worst is.
    const wide = (m1: number, m2: number) => (r: number, j: number) =>
      jitter(j ? m2 : m1, 8, (r % 4) + 1).map((x, i) => (i % 2 ? x + 1 : x - 1));
    const ranked = onNodeOnly([
      ['node-raw-iovalkey', usual, wide(0.3, -0.05)],
      ['node-raw-glide', usual, wide(0.1, 0.08)],
    ]).lines.find((l) => l.id === 'node')!;
    expect(ranked.answer!.pool.on_machines.every((o) => o.verdict === 'undecided')).toBe(true);
    expect(ranked.pick).toBe('node-raw-glide');
    // Equal where measured, but on one machine only: it may be faster on the other, so not "nothing beyond".
    const [evenA, evenB, evenF] = even;
    const oneMachine = onNodeOnly([[evenA, evenB, (r, j) => (j ? null : evenF(r, j))], slower]);
    expect(oneMachine.lines.find((l) => l.id === 'node')!.none_faster).toBe(false);
    // The next best equal everywhere, and another stack open: it may be faster, so "maybe some speed".
    expect(onNodeOnly([even, slower, open]).lines.find((l) => l.id === 'node')!.none_faster).toBe(false);
  });
});

describe('the published first screen: one voice', () => {
  const dir = join(ROOT, 'results/latest');
  const kept = keptFor(readResults(join(dir, 'results.json')), join(ROOT, 'results/runs'));
  const own = analyzeRun(dir, kept);
  const { analysis: an } = pooledView(own, kept, recordOf(own.results, own));
  const screen = readmeSection(an);
  const answers = readmeAnswers(an)!;
  const block = `${screen}\n${answers}`;
  const place = { dir: 'latest', block: 'results-answers', shots: '' };
  const readme = spliceReadme(spliceReadme(readFileSync(join(ROOT, 'README.md'), 'utf8'), screen), answers, place);
  const first = readme.split('\n').slice(0, 45).join('\n');

  test('the first 45 lines hold the three picks, the versions, the machines and the load command', () => {
    expect(an.picks).not.toBeNull();
    for (const l of an.picks!.lines)
      expect(first).toContain(
        l.keep
          ? `| ${l.want} | keep \`${an.picks!.usual}\` | none shown faster than it | `
          : `| ${l.want} | \`${l.pick}\``,
      );
    // The whole README, as the report writes it, stays short enough to read.
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    for (const w of ['**Versions:** Node ', '**Machines:** ', '**Load:** `oha http://127.0.0.1:$PORT/ -z '])
      expect(first).toContain(w);
    // The code the answers are of: the published run's commit (the pooled runs ran the same contenders' inputs);
    // none named for a pool that took runs of any inputs.
    expect(first).toContain(`; the apps as at commit \`${an.results.environment.git_commit.slice(0, 7)}\`.`);
    const anyInputs = readmeSection({ ...an, pool: { ...an.pool!, any_inputs: true } });
    expect(anyInputs).toContain('; the apps of several commits (pooled with --any-inputs).');
    // Machines counted one way: the pool's machines, each named once; then the runs of a placement, answered apart.
    const line = first.split('\n').find((l) => l.startsWith('**Machines:**'))!;
    const [machines, apart = ''] = line.split(' (and ');
    expect(machines!.split(' runs').length - 1 + machines!.split(' run)').length - 1).toBe(an.pool!.machines);
    const runs = (s: string) => [...s.matchAll(/(\d+) runs? /g)].reduce((n, m) => n + Number(m[1]), 0);
    expect(runs(machines!) + runs(apart)).toBe(an.pool!.runs.filter((r) => r.pooled).length);
  });

  test("every ratio on the first screen is its answer's, and a pair said twice on the page says it alike", () => {
    const p = an.picks!;
    const factor = (r: number) => (r >= 1.5 ? `${r.toFixed(1)}×` : `${r.toFixed(2)}×`);
    for (const l of p.lines.filter((x) => !x.keep)) {
      const a = l.answer!;
      const row = screen.split('\n').find((r) => r.startsWith('| ') && r.includes(`\`${a.a}\``))!;
      // Each machine's range in that machine's column, and its figure where shown faster: no cell holds two machines'.
      const figures = a.pool.on_machines.filter(atDefault);
      expect(figures.length).toBe(an.pool!.machines);
      const cells = row.split(' | ');
      expect(cells.filter((c) => /\(\d\.\d\d×–\d\.\d\d×\)/.test(c)).length).toBe(figures.length);
      for (const f of figures) {
        expect(row).toContain(`(${f.lo.toFixed(2)}×–${f.hi.toFixed(2)}×)`);
        // A figure not yet known is not given: a bigger figure beside a bold one was read as a contradiction.
        if (f.verdict === 'faster') expect(row).toContain(`**${factor(f.ratio)}**`);
        else expect(row).not.toContain(`${factor(f.ratio)} (${f.lo.toFixed(2)}×`);
      }
    }
    // A row that keeps the usual choice shows no other stack's figures; its next best is said below, with them.
    for (const l of p.lines.filter((x) => x.keep)) {
      const row = screen.split('\n').find((r) => r.startsWith(`| ${l.want} |`))!;
      expect(row).not.toContain(l.answer!.a);
      // What it gives up: a stack of the row not yet known on some machine may be faster (the published pool's case).
      expect(l.none_faster).toBe(false);
      expect(row).toEndWith('| maybe some speed (the next best: below the table) |');
      // Every stack of the row equal or slower on every machine (answers/picks.ts): nothing beyond the margin.
      const equalEverywhere = structuredClone(p);
      for (const x of equalEverywhere.lines.filter((y) => y.keep)) x.none_faster = true;
      const screenEqual = picksScreen({ ...an, picks: equalEverywhere });
      const rowEqual = screenEqual.split('\n').find((r: string) => r.startsWith(`| ${l.want} |`))!;
      expect(rowEqual).toEndWith(`| nothing beyond ±${an.pool!.margin_pct}% (the next best: below the table) |`);
      const line = answers
        .split('\n')
        .find((r) => r.startsWith('- ') && r.includes(`the next best, \`${l.answer!.a}\``));
      for (const o of l.answer!.pool.on_machines.filter(atDefault))
        expect(line).toContain(`${factor(o.ratio)} (${o.lo.toFixed(2)}×–${o.hi.toFixed(2)}×)`);
    }
    // Express and each runtime's own pick (on Bun) are said below the first screen, with their answers' own figures.
    const beside = [p.answers.find((x) => x.a === 'node-express-node-redis'), ...p.notes!.map((l) => l.answer)];
    expect(beside.filter(Boolean).length).toBeGreaterThan(0);
    for (const a of beside.filter((x) => x !== undefined && x !== null)) {
      expect(first).not.toContain(`\`${a!.a}\`:`);
      const line = answers.split('\n').find((l) => l.startsWith('- ') && l.includes(`\`${a!.a}\``))!;
      for (const o of a!.pool.on_machines.filter(atDefault)) {
        expect(line).toContain(factor(o.ratio));
        expect(line).toContain(`(${o.lo.toFixed(2)}×–${o.hi.toFixed(2)}×)`);
      }
    }
    // The raw reader, not a pick, is said below the first screen and in the read path's bullet: one answer, the same
    // figures.
    const raw = an.answers.find((x) => x.a === 'node-raw-node-redis-rawreply' && x.b === p.usual)!;
    expect(first).not.toContain(raw.a);
    const ceiling = answers.split('\n').find((l) => l.startsWith("**The clients' ceiling, not a pick:**"));
    const bullet = block.split('\n').find((l) => l.includes('own raw reader on node + node-redis'))!;
    // Its interval, or why it has none (measured on one boot).
    expect(bullet).toContain(raw.short ?? `${raw.lo.toFixed(2)}×–${raw.hi.toFixed(2)}×`);
    // The ceiling is said only where the answer is decided: then both lines give the same figure.
    expect(!!ceiling).toBe(raw.verdict === 'faster');
    if (ceiling) for (const l of [ceiling, bullet]) expect(l).toContain(`**${factor(raw.ratio)}`);
  });

  test('the first screen needs no glossary: none of the method\'s words, no "latest" that is not the newest', () => {
    for (const w of [/\bdecided\b/, /\bopen\b/, /\brank/, /placement/, /\btwin/, /\bwindow/, /handicap/, /τ/, /floor/])
      expect(first).not.toMatch(w);
    const newest = an
      .pool!.runs.filter((r) => r.pooled)
      .map((r) => r.started_at)
      .sort()
      .at(-1);
    const saysLatest = /\blatest\b/.test(block.replace(/results\/latest/g, ''));
    expect(!saysLatest || an.results.started_at === newest).toBe(true);
  });
});

/** Two machines of a hand-built pool, as the answers name them. */
const XEON = { machine: 'Intel Xeon, 4 logical CPUs', name: 'Intel Xeon' };
const EPYC = { machine: 'AMD EPYC, 8 logical CPUs', name: 'AMD EPYC' };
/** One machine's figure: its verdict, ratio and interval. */
const onIt = (m: typeof XEON, verdict: OnMachine['verdict'], ratio: number, lo: number, hi: number): OnMachine => ({
  ...m,
  placement: 'none',
  runs: 3,
  boots: 3,
  verdict,
  ratio,
  lo,
  hi,
  level: 0.99,
  p: 0.001,
  tau: 0.01,
});
/** A stack against the usual choice, pooled, with each machine's figure. */
const against = (a: string, ons: OnMachine[], verdict: OnMachine['verdict'] = 'faster'): PoolAnswer =>
  ({
    a,
    b: 'node-raw-node-redis',
    question: 'picks',
    id: `${a} vs node-raw-node-redis`,
    ratio: ons[0]!.ratio,
    lo: ons[0]!.lo,
    hi: ons[0]!.hi,
    level: 0.99,
    p: 0.001,
    verdict,
    pairs: 6,
    rounds: 24,
    look: 1,
    pool: {
      runs: 6,
      machines: ons.length,
      tau: 0.01,
      tau_machine: 0,
      prediction: null,
      holds: 'open',
      where: '',
      on_machines: ons,
      estimates: [],
    },
  }) as PoolAnswer;
/** A line of the picks, as answers/picks.ts writes it. */
const line = (id: string, want: string, answer: PoolAnswer, more: Partial<PickLine> = {}): PickLine => ({
  id,
  want,
  candidates: 3,
  pick: answer.a,
  decided: true,
  keep: false,
  answer,
  also: [],
  ...more,
});

describe('the first screen of a decided pick, rendered from a hand-built pool', () => {
  const base = analyze(fixture());
  // Decided faster on both machines: the pick, bold on each.
  const pick = against('deno-raw-iovalkey', [
    onIt(XEON, 'faster', 1.25, 1.1, 1.4),
    onIt(EPYC, 'faster', 1.23, 1.08, 1.38),
  ]);
  // Faster on both too, but less where it gains least: below the table, not the pick.
  const bun = against('bun-raw-bun-redis', [
    onIt(XEON, 'faster', 1.35, 1.2, 1.52),
    onIt(EPYC, 'faster', 1.1, 1.03, 1.18),
  ]);
  // Equal on one machine (its lo 0.93: within ±8%, not ±7%), open on the other.
  const next = against('node-raw-iovalkey', [
    onIt(XEON, 'equal', 0.99, 0.93, 1.05),
    onIt(EPYC, 'undecided', 1.04, 0.96, 1.13),
  ]);
  // Open on both: a row with none shown faster, and no part of it given up.
  const fastify = against(
    'node-fastify-node-redis',
    [onIt(XEON, 'undecided', 1.04, 0.97, 1.12), onIt(EPYC, 'undecided', 1.02, 0.95, 1.1)],
    'undecided',
  );
  // Decided slower on both.
  const express = against('node-express-node-redis', [
    onIt(XEON, 'faster', 0.7, 0.62, 0.79),
    onIt(EPYC, 'faster', 0.72, 0.64, 0.81),
  ]);
  // The clients' ceiling, measured on one machine only.
  const raw = {
    ...against('node-raw-node-redis-rawreply', [onIt(XEON, 'faster', 1.8, 1.6, 2.1)]),
    lo: 1.6,
    hi: 2.1,
  };
  const usual = base.results.contenders.find((c) => c.name === 'node-raw-node-redis')!;
  const reader = { ...usual, name: raw.a, settings: { ...usual.settings, decode: 'raw' }, tuned: ['decode'] };
  const picks: PicksResult = {
    usual: 'node-raw-node-redis',
    alpha: 0.05,
    spent: 0.025,
    per_machine: 0.0125,
    machines: 2,
    configurations: 2,
    lines: [
      line('fastest', "more speed, at the libraries' defaults", pick, { also: [bun.a] }),
      line('node', 'on Node, no change of runtime', next, { decided: false, keep: true }),
      line('framework', 'with a web framework (routes, middleware)', fastify, { decided: false }),
    ],
    notes: [line('bun', 'on Bun', bun)],
    answers: [pick, bun, next, fastify, express],
  };
  const an = {
    ...base,
    pool: null,
    picks,
    answers: [...base.answers, raw],
    results: { ...base.results, contenders: [...base.results.contenders, reader] },
  } as Analysis;
  const screen = picksScreen(an);
  const beside = besideThePicks(an);
  const row = (want: string) => screen.split('\n').find((r) => r.startsWith(`| ${want} |`));
  const said = (start: string) => beside.split('\n').find((l) => l.startsWith(start));

  test('a kept row names a stack faster on one machine and slower on another where it is faster', () => {
    const glide = against('node-raw-glide', [
      onIt(XEON, 'faster', 1.2, 1.05, 1.4),
      onIt(EPYC, 'faster', 0.8, 0.7, 0.9),
    ]);
    const node = line('node', 'on Node, no change of runtime', next, {
      decided: false,
      keep: true,
      reverses: [glide.a],
    });
    const shown = picksScreen({
      ...an,
      picks: { ...picks, lines: [node], answers: [...picks.answers, glide] },
    } as Analysis)
      .split('\n')
      .find((r) => r.startsWith('| on Node'));
    expect(shown).toBe(
      '| on Node, no change of runtime | keep `node-raw-node-redis` | ' +
        '`node-raw-glide` faster here, slower on another machine | none shown faster than it | ' +
        'maybe some speed (the next best: below the table) |',
    );
  });

  test("a figure beside the picks from fewer of a machine's runs than the machines line counts says so", () => {
    const prior = (m: typeof XEON, runs: number) => ({ machine: m.machine, placement: 'none', runs });
    const pool = { priors: [prior(XEON, 4), prior(EPYC, 3)] } as unknown as Analysis['pool'];
    const text = besideThePicks({ ...an, pool } as Analysis);
    // Each figure is from 3 runs: 3 of Intel Xeon's 4, all 3 of AMD EPYC's.
    expect(text).toContain(
      '(1.20×–1.52×) on Intel Xeon, from 3 of its 4 runs; **1.10×** faster (1.03×–1.18×) on AMD EPYC;',
    );
    expect(text).not.toContain('of its 3 runs');
  });

  test("Bun's line beside the picks names a stack faster on one machine and slower on another", () => {
    const notes = [line('bun', 'on Bun', bun, { decided: false, reverses: ['bun-raw-ioredis'] })];
    const text = besideThePicks({ ...an, picks: { ...picks, notes } } as Analysis);
    expect(text).toContain(
      'On Bun: `bun-raw-bun-redis`, none shown faster on one machine without being slower on another ' +
        '(`bun-raw-ioredis` is): ',
    );
  });

  test('a pick not shown faster gives up some speed too, beside what it changes', () => {
    const open = {
      ...picks,
      lines: [line('fastest', "more speed, at the libraries' defaults", bun, { decided: false })],
    };
    const shown = picksScreen({ ...an, picks: open } as Analysis)
      .split('\n')
      .find((r) => r.startsWith('| more speed'));
    expect(shown).toEndWith(
      "| Bun in place of Node; Bun's built-in client: no Cluster or Sentinel; maybe some speed |",
    );
  });

  test('a machine with no figure for an answer is "not compared" (its runs may hold both stacks, unchained)', () => {
    expect([onMachineText(raw, XEON.machine), onMachineText(raw, EPYC.machine)]).toEqual([
      '**1.8×** faster (1.60×–2.10×)',
      'not compared',
    ]);
  });

  test('columns: each machine, then what a pick gives up', () => {
    expect(screen).toContain('| you want | pick | on Intel Xeon | on AMD EPYC | what it gives up |');
  });

  test('decided: bold figures, the others faster everywhere, and what the pick changes', () => {
    expect(row("more speed, at the libraries' defaults")).toBe(
      "| more speed, at the libraries' defaults | `deno-raw-iovalkey` (also faster: `bun-raw-bun-redis`) | " +
        '**1.25×** faster (1.10×–1.40×) | **1.23×** faster (1.08×–1.38×) | ' +
        "Deno in place of Node; iovalkey (ioredis's API) in place of node-redis's API |",
    );
    // Bold figures shown: how sure is said of them.
    expect(screen.split('\n').find((l) => l.startsWith('- How sure:'))).toContain(
      'chance that one or more of the bold figures is wrong',
    );
  });

  test('kept: its next best equal on one machine and open on another may still give some speed', () => {
    expect(row('on Node, no change of runtime')).toBe(
      '| on Node, no change of runtime | keep `node-raw-node-redis` | none shown faster than it | ' +
        'none shown faster than it | maybe some speed (the next best: below the table) |',
    );
    expect(said('- On Node, the next best')).toBe(
      '- On Node, the next best, `node-raw-iovalkey`: within ±8% (0.93×–1.05×) on Intel Xeon; ' +
        'not yet known: 1.04× (0.96×–1.13×) on AMD EPYC.',
    );
  });

  test('undecided: the row says none shown faster, and never that nothing is given up', () => {
    expect(row('with a web framework (routes, middleware)')).toBe(
      '| with a web framework (routes, middleware) | `node-fastify-node-redis` (no stack of this row shown faster) | ' +
        'not yet known (0.97×–1.12×) | not yet known (0.95×–1.10×) | maybe some speed |',
    );
  });

  test('slower: its own ratio below one, not bold', () => {
    expect(said('- Express')).toBe(
      '- Express (`node-express-node-redis`): 0.70×, slower (0.62×–0.79×) on Intel Xeon; ' +
        '0.72×, slower (0.64×–0.81×) on AMD EPYC; its other clients: `npm run bench -- --matrix`.',
    );
  });

  test("Bun's own pick: not the pick where it gains least", () => {
    expect(said('- On Bun')).toBe(
      '- On Bun: `bun-raw-bun-redis`: **1.35×** faster (1.20×–1.52×) on Intel Xeon; **1.10×** faster ' +
        "(1.03×–1.18×) on AMD EPYC; not the pick: where it gains least, 1.10×, against the pick's 1.23× " +
        '(Bun and Deno not tested against each other).',
    );
    // None shown faster on Bun: said so.
    const open = against('bun-raw-bun-redis', [
      onIt(XEON, 'undecided', 1.06, 0.98, 1.15),
      onIt(EPYC, 'undecided', 1.03, 0.96, 1.11),
    ]);
    const notes = [line('bun', 'on Bun', open, { decided: false })];
    const undecided = besideThePicks({ ...an, picks: { ...picks, notes } } as Analysis);
    expect(undecided.split('\n').find((l) => l.startsWith('- On Bun'))).toBe(
      '- On Bun: `bun-raw-bun-redis`, none shown faster: not yet known: 1.06× (0.98×–1.15×) on Intel Xeon; ' +
        'not yet known: 1.03× (0.96×–1.11×) on AMD EPYC; not the pick: where it gains least, 1.03×, ' +
        "against the pick's 1.23× (Bun and Deno not tested against each other).",
    );
  });

  test('ceiling: one machine, its interval to its upper end', () => {
    expect(beside).toContain(
      "**The clients' ceiling, not a pick:** the project's own reply reader (`node-raw-node-redis-rawreply`) serves " +
        "**1.8×** the usual choice's req/s (1.60×–2.10×, Intel Xeon only): most",
    );
  });
});

describe('the picks of a hand-built pool: decided on every machine first, then by the least favourable', () => {
  const usual = 'node-raw-node-redis';
  const steady = (base: number, r: number) => Array.from({ length: 8 }, (_, i) => base + ((i * (r + 1)) % 5) * 0.01);
  const runs = ['M1', 'M2'].flatMap((m, j) =>
    [0, 1, 2].map((r) =>
      keptRun(`2026-02-0${j * 3 + r + 1}T00:00:00Z`, m, [
        // Faster on both machines, about 1.24× on each.
        ['deno-raw-iovalkey', usual, steady(0.2, r)],
        // Faster on both: far more on M1, less on M2 than the pick.
        ['bun-raw-bun-redis', usual, steady(j ? 0.15 : 0.6, r)],
        // Faster on M1, higher than the pick on both; on M2 measured on one boot alone, so open there.
        ...(j && r ? [] : [['node-raw-iovalkey', usual, steady(j ? 0.35 : 0.4, r)] as [string, string, number[]]]),
      ]),
    ),
  );
  const members = [usual, 'deno-raw-iovalkey', 'bun-raw-bun-redis', 'node-raw-iovalkey'].map(member);
  const p = poolPicks(runs, members, null, 'xrange', 10)!;
  const by = (name: string) => p.answers.find((x) => x.a === name)!;
  const verdicts = (name: string) => by(name).pool.on_machines.map((o) => [o.name, o.verdict]);

  test('layout: each as meant, faster or open on each machine', () => {
    expect(verdicts('deno-raw-iovalkey')).toEqual([
      ['M1', 'faster'],
      ['M2', 'faster'],
    ]);
    expect(verdicts('bun-raw-bun-redis')).toEqual([
      ['M1', 'faster'],
      ['M2', 'faster'],
    ]);
    expect(verdicts('node-raw-iovalkey')).toEqual([
      ['M1', 'faster'],
      ['M2', 'undecided'],
    ]);
    // Where each gains least and most: the open one above the pick on both, the other faster one below it on M2.
    const span = (name: string) => by(name).pool.on_machines.map((o) => +o.ratio.toFixed(2));
    expect(span('deno-raw-iovalkey')).toEqual([1.24, 1.24]);
    expect(span('bun-raw-bun-redis')).toEqual([1.86, 1.18]);
    expect(span('node-raw-iovalkey')).toEqual([1.52, 1.44]);
  });

  test('ranking: faster everywhere beats faster somewhere; least favourable machine orders; open is no also', () => {
    const fastest = p.lines.find((l) => l.id === 'fastest')!;
    expect(fastest.decided).toBe(true);
    expect(fastest.pick).toBe('deno-raw-iovalkey');
    expect(fastest.also).toEqual(['bun-raw-bun-redis']);
    // On Node the one faster on some machine is decided, and picked.
    const node = p.lines.find((l) => l.id === 'node')!;
    expect([node.pick, node.decided, node.keep]).toEqual(['node-raw-iovalkey', true, false]);
  });
});
