// The README's first screen: a table of the fastest stacks with req/s, latency and CPU and their rank intervals, the
// overall answer from the ranking's own tests, the picks each saying what they are decided against (no "or"), one
// unit per range, and every glossary link landing on an entry of docs/glossary.md.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { type RankedContender, topOf } from '../../packages/harness/src/answers/ranking';
import { readResults } from '../../packages/harness/src/model/results-file';
import { charts } from '../../packages/harness/src/report/charts';
import { readmeSection } from '../../packages/harness/src/report/index';
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
