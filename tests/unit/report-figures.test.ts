// Figures the report words: every "faster than" in the README's answers by question carries its interval, and the
// machines it holds on where it was not measured on each; no interval's level reads as 100%; a pool.json beside a
// run's own report is removed; docs/reading.md gives the first screen's error rate as its share of the page's 5%.
import { describe, expect, test } from 'bun:test';
import { levelText } from '../../packages/harness/src/report/words';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AnswerFigures, analyze } from '../../packages/harness/src/answers/analysis';
import { analyzeRun } from '../../packages/harness/src/publish/index';
import { keptFor, pooledView, recordOf } from '../../packages/harness/src/publish/kept-runs';
import { atDefault, type OnMachine } from '../../packages/harness/src/model/across-runs';
import { readResults } from '../../packages/harness/src/model/results-file';
import { answersSection, settingsTable } from '../../packages/harness/src/report/answers';
import { removePooled } from '../../packages/harness/src/publish/files';
import { picksSection, times } from '../../packages/harness/src/report/picks';
import { ROOT } from '../../packages/harness/src/system/paths';

const fixture = () => readResults(join(ROOT, 'tests/fixtures/results/results.json'));
const x2 = (r: number) => `${r.toFixed(2)}×`;
/** "(1.36×, 1.09×–1.68×": a decided answer's factor and interval, as the faster side says them (an end near 1 with
 * the decimals that tell it from 1, "1.001×"). */
const bracket = (a: AnswerFigures) => `(${times(a.sides.factor)}, ${times(a.sides.lo)}–${times(a.sides.hi)}`;

function published() {
  const dir = join(ROOT, 'results/latest');
  const kept = keptFor(readResults(join(dir, 'results.json')), join(ROOT, 'results/runs'));
  const own = analyzeRun(dir, kept);
  return pooledView(own, kept, recordOf(own.results, own)).analysis;
}

const machine = (name: string, verdict: OnMachine['verdict'], ratio: number, lo: number, hi: number) =>
  ({ machine: name, placement: 'none', name, runs: 3, boots: 2, verdict, ratio, lo, hi, tau: 0.05 }) as OnMachine;

describe('"faster than" in the answers by question', () => {
  test("the framework bullet: each decided answer with its req/s ÷ its own server's and its interval", () => {
    const an = analyze(fixture());
    const md = picksSection(an);
    const decided = an.answers.filter((a) => a.verdict === 'faster' && !a.out && a.question.startsWith('framework'));
    expect(decided.length).toBeGreaterThan(0);
    expect(md).toContain("slower (req/s ÷ its own server's): ");
    for (const a of decided) expect(md).toContain(`: ${x2(a.ratio)}, ${x2(a.lo)}–${x2(a.hi)})`);
    expect(md).not.toContain('by estimates of');
  });

  test("each with its interval, the faster side's ratio of req/s", () => {
    const an = analyze(fixture());
    const md = picksSection(an);
    const won = an.answers.filter((a) => a.verdict === 'faster' && !a.out && !a.question.startsWith('setting: '));
    expect(won.length).toBeGreaterThan(2);
    // The leaders' lines: which client on a runtime, which runtime for a stack.
    for (const a of won.filter((x) => /^(client|runtime): /.test(x.question))) expect(md).toContain(bracket(a));
    // Every name a "faster than" lists has its brackets: its factor, then its interval.
    const plain = md.replace(/\]\([^)]*\)/g, '').replace(/\[/g, '');
    const lists = [...plain.matchAll(/faster than (.*?)(?=, open against|, equal to|, against|; |\.$)/gm)];
    expect(lists.length).toBeGreaterThan(2);
    for (const [, list] of lists) {
      const brackets = list!.match(/\([^)]*\)/g) ?? [];
      expect(brackets.length).toBe(list!.replace(/ \([^)]*\)/g, '').split(/, | and /).length);
      for (const b of brackets) expect(b).toMatch(/^\(\d+\.\d{2,6}×, \d+\.\d{2,6}×–\d+\.\d{2,6}×\)$/);
    }
  });

  test('pooled: one measured on fewer machines than the pool names them; one on each, none', () => {
    const an = published();
    const a = an.answers.find(
      (x) => x.verdict === 'faster' && x.question.startsWith('client') && an.leaders.some((f) => f.best.includes(x.a)),
    );
    expect(a).toBeTruthy();
    const on = a!.pool!.on_machines.filter(atDefault);
    expect(on.length).toBe(an.pool!.machines);
    expect(picksSection(an)).toContain(`${bracket(a!)})`);
    // The same answer measured on one machine alone: "holds on the one machine measured", named.
    const one = { ...a!, pool: { ...a!.pool!, on_machines: [on[0]!] } };
    const md = picksSection({ ...an, answers: an.answers.map((x) => (x === a ? one : x)) });
    expect(md).toContain(`${bracket(a!)}; holds on the one machine measured, ${on[0]!.name})`);
    expect(md).toContain('a "faster than" holds on every machine measured unless it names its machines');
  });

  test('decided on some machines: each deciding machine with its figure and interval, said of either side', () => {
    const an = analyze(fixture());
    const f = an.leaders.find((x) => x.question.members.length === 2 && x.best.length === 2)!;
    const a = an.answers.find((x) => x.question === f.question.id)!;
    const on_machines = [machine('M1', 'faster', 1.5, 1.2, 1.9), machine('M2', 'undecided', 1.1, 0.8, 1.5)];
    const where = 'faster on M1, open on M2';
    Object.assign(a, { verdict: 'undecided', pool: { holds: 'depends on the machine', where, on_machines } });
    const line = picksSection(an)
      .split('\n')
      .find((l) => l.startsWith(`  - ${f.question.about}, `))!;
    expect(line).toEndWith(': faster on M1 (1.50×, 1.20×–1.90×), open on M2.');
    // Decided the other way on M1, as a member's line says it of b: slower, at b's ratio.
    Object.assign(on_machines[0]!, { ratio: 0.5, lo: 0.4, hi: 0.6 });
    Object.assign(a.pool!, { where: 'slower on M1, open on M2' });
    expect(picksSection(an)).toContain(': slower on M1 (0.50×, 0.40×–0.60×), open on M2.');
  });
});

describe('levels', () => {
  test('the settings table gives a strict level as 1 − its complement, never as 100%', () => {
    const an = analyze(fixture());
    const a = an.answers.find((x) => x.question.startsWith('setting: ') && !x.out)!;
    a.level = 0.99999726;
    const table = settingsTable(an);
    expect(table).toContain(`, 1 − 2.7e-6) |`);
    expect(table).not.toMatch(/100\.0*%/);
    expect(settingsTable(published())).not.toMatch(/100\.0*%/);
    // Every level a family reaches, however strict: never "100%" (a miss of 1e-5 printed with two decimals did).
    for (let e = -9; e <= -1; e += 0.25) expect(levelText(1 - 10 ** e)).not.toMatch(/^100(\.0+)?%$/);
  });

  test('a family of one comparison has no prior, and says so (not "sd 0.0% worth 0.0 df")', () => {
    const an = analyze(fixture());
    // As results.json holds it: NaN is written as null.
    const none = { ...an, prior: { d0: 0, s0: null as unknown as number, comparisons: 1, df: 11 } };
    const md = answersSection(none);
    expect(md).toContain('prior is none (from 1 comparison): each comparison takes its own sd on its own df');
    expect(md).not.toContain('sd 0.0% per round');
  });
});

describe("a run's own report beside a pool.json", () => {
  test('the pool.json, pooled answers of another view, is removed and said in one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'report-pool-'));
    expect(removePooled(dir)).toBeNull();
    writeFileSync(join(dir, 'pool.json'), '{}');
    const said = removePooled(dir)!;
    expect(existsSync(join(dir, 'pool.json'))).toBe(false);
    expect(said).toStartWith(`removed ${join(dir, 'pool.json')}: `);
    expect(said).toContain('`npm run pool`');
    expect(said).not.toContain('\n');
  });
});

describe('docs/reading.md', () => {
  test('the first screen\'s false "faster": at most its share of the page\'s 5%, no figure of its own', () => {
    const doc = readFileSync(join(ROOT, 'docs/reading.md'), 'utf8');
    const bullet = doc
      .slice(doc.indexOf('- **The first screen'), doc.indexOf('- **Beside the picks'))
      .replace(/\s+/g, ' ');
    expect(bullet).toContain("at most its share of the page's 5%");
    expect(bullet).not.toMatch(/in that table is at most \d/);
  });
});
