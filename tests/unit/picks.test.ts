// The README's first screen and the answers' noise line: the picks say no more than the answers
// (each bullet links them and carries their range), a run noisier than the published one says so
// first with what a longer budget would answer, and the forest plot draws every answer.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { answeredWithin, NOISY_FACTOR, referenceOf, roundsToClose } from '../../packages/harness/src/answers/noise';
import type { KeptAnswers } from '../../packages/harness/src/model/kept';
import jstat from 'jstat';
import type { Answer, DesignRecord, Results } from '../../packages/harness/src/model/results';
import { readResults } from '../../packages/harness/src/model/results-file';
import { answersSection, noiseLine } from '../../packages/harness/src/report/answers';
import { answersSpec, forestValues, labelSide } from '../../packages/harness/src/report/forest';
import { readmeSection } from '../../packages/harness/src/report/index';
import { picksSection } from '../../packages/harness/src/report/picks';
import { ROOT } from '../../packages/harness/src/system/paths';
import { onSomeMachines } from '../../packages/harness/src/report/words';

const fixture = () => readResults(join(ROOT, 'tests/fixtures/results/results.json'));

/** The fixture with a design record whose sd between windows is `sd`, at the published run's costs. */
function withNoise(sd: number): Results {
  const r = fixture();
  const design: DesignRecord = {
    t2_window: sd * sd,
    t2_launch: 0.03 ** 2,
    warnings: [],
    cost_window_s: 1.06,
    cost_launch_s: 1.79,
    optimal_windows: 5,
    windows: 2,
    comparisons: 11,
    first_window_bias: 0,
  } as DesignRecord;
  return { ...r, design, settings: { ...r.settings, runs: 'auto' } };
}

/** A kept run of the fixture's workload with noise `sd`, on the fixture's kind of machine or on `machine`. */
function keptAt(sd: number, startedAt: string, machine?: string): KeptAnswers {
  const r = fixture();
  const e = r.environment;
  return {
    started_at: startedAt,
    workload: r.settings.workload,
    commit: `${startedAt.slice(5, 7)}00000aaaa`,
    machine: machine ?? `${e.cpu_model}, ${e.logical_cpus} logical CPUs, Linux 1.2.3`,
    sd_windows: sd,
    answers: [],
  };
}

describe('the noise line', () => {
  test('held against the quietest kept run of the same kind of machine, read from the records', () => {
    const r = fixture();
    const kept = [
      keptAt(0.12, '2026-01-02T00:00:00Z'),
      keptAt(0.08, '2026-02-02T00:00:00Z'),
      keptAt(0.05, '2026-03-02T00:00:00Z', 'Apple M9, 64 logical CPUs, Darwin 30'),
      keptAt(0.01, '2026-04-02T00:00:00Z'),
    ];
    kept[3]!.workload = 'another';
    const ref = referenceOf(kept, r)!;
    expect(ref).toMatchObject({ sdWindows: 0.08, commit: '0200000aaaa', sameKind: true });
    // Only another kind of machine kept: the quietest of them, named.
    const other = referenceOf([kept[2]!], r)!;
    expect(other).toMatchObject({ sdWindows: 0.05, sameKind: false });
    // The run itself is never its own reference; nothing kept, no reference and no noise line.
    expect(referenceOf([{ ...kept[1]!, started_at: r.started_at }], r)).toBeNull();
    const none = analyze(withNoise(0.5), [{ ...kept[1]!, workload: 'another' }]);
    expect(none.noise?.reference).toBeNull();
    expect(noiseLine(none)).toBe('');
    // With no reference, noisy by the glossary's own bound (15% and up): never called a quiet machine.
    expect(none.noise?.noisy).toBe(true);
    expect(readmeSection(none)).toContain(': a noisy machine');
    expect(analyze(withNoise(0.1), [{ ...kept[1]!, workload: 'another' }]).noise?.noisy).toBe(false);
  });

  test('a run at the reference noise says nothing; well above it, the first line says so', () => {
    const kept = [keptAt(0.099, '2026-02-02T00:00:00Z')];
    const quiet = analyze(withNoise(0.099), kept);
    expect(quiet.noise?.noisy).toBe(false);
    expect(noiseLine(quiet)).toBe('');
    expect(answersSection(quiet).startsWith('**What to pick**')).toBe(true);

    const noisy = analyze(withNoise(0.099 * NOISY_FACTOR * 1.1), kept);
    const n = noisy.noise!;
    expect(n.noisy).toBe(true);
    const first = answersSection(noisy).split('\n')[0]!;
    expect(first).toBe(noiseLine(noisy));
    expect(first).toContain(
      `${(n.sdWindows * 100).toFixed(1)}%, against 9.9% in the quietest kept run (2026-02-02, 0200000)`,
    );
    expect(first).toContain(`${n.answered} of ${n.of} comparisons answered`);
    expect(first).toContain(`\`--budget ${(3 * noisy.results.settings.budget_s) / 60}m\` would answer about`);
    // The README's block says it in plain words after the machine, linked to what the sd means; a quiet run too.
    const said = (an: typeof noisy) =>
      readmeSection(an)
        .split('\n')
        .find((l) => l.startsWith('**The machine:**'))!;
    expect(said(noisy)).toContain(
      `**Noise:** the ratio of two stacks' req/s moved by ${(n.sdWindows * 100).toFixed(1)}% from one ` +
        `${noisy.results.settings.duration_s}-second [window]` +
        '(docs/glossary.md#window) to the next (9.9% in the quietest run kept on this kind of machine): a noisy ' +
        'machine',
    );
    expect(said(noisy)).toContain('(docs/glossary.md#sd-between-windows)');
    expect(said(quiet)).toContain(': a quiet machine');
    // A run as quiet as every kept one is said to be the least, the next named.
    expect(said(quiet)).toContain('to the next, the least of the runs kept on this kind of machine (the next: 9.9%)');
  });

  test('what a longer budget answers: never fewer than now, never more than all, more with more budget', () => {
    const an = analyze(withNoise(0.15));
    const r = an.results;
    const now = an.answers.filter((a) => !a.out && a.verdict !== 'undecided').length;
    const all = an.answers.filter((a) => !a.out).length;
    let last = now;
    for (const k of [1, 2, 3, 6, 20]) {
      const n = answeredWithin(r, an.answers, k * r.settings.budget_s)!;
      expect(n).toBeGreaterThanOrEqual(last);
      expect(n).toBeLessThanOrEqual(all);
      last = n;
    }
    expect(answeredWithin(r, an.answers, r.settings.budget_s)).toBe(now);
    // An open comparison with no estimate never closes; one a round away closes in the first extra round.
    const open = an.answers.filter((a) => a.verdict === 'undecided' && !a.out);
    const none = open.map((a) => ({ ...a, roundsToClose: null }));
    const soon = open.map((a) => ({ ...a, roundsToClose: 1 }));
    const rest = an.answers.filter((a) => !open.includes(a));
    expect(answeredWithin(r, [...rest, ...none], 20 * r.settings.budget_s)).toBe(now);
    expect(answeredWithin(r, [...rest, ...soon], 20 * r.settings.budget_s)).toBe(all);
  });
});

describe('rounds to close an open answer', () => {
  test('the same from its interval at 1 − α/m as from one at 1 − 2α/m (results written before)', () => {
    // ln ratio 0.05 (deciding is nearer) or 0.01 (equal is nearer) over 6 rounds, se 0.04, α/m = 0.05/47: each
    // interval from the normal, as the answers' t nears it.
    const at = (level: number, ln: number) => {
      const half = jstat.normal.inv((1 + level) / 2, 0, 1) * 0.04;
      return { ratio: Math.exp(ln), lo: Math.exp(ln - half), hi: Math.exp(ln + half), level, rounds: 6 };
    };
    const am = 0.05 / 47;
    for (const ln of [0.05, 0.01])
      for (const margin of [10, 6]) {
        const now = roundsToClose(at(1 - am, ln) as Answer, margin);
        expect(now).toBe(roundsToClose(at(1 - 2 * am, ln) as Answer, margin, true));
        expect(now).toBeGreaterThan(0);
      }
  });
});

describe("the README's picks", () => {
  test('each bullet links the answers and carries a range; the counts are the answers', () => {
    const an = analyze(fixture());
    const md = picksSection(an);
    const bullets = md.split('\n').filter((l) => l.startsWith('- '));
    expect(bullets.length).toBeGreaterThan(2);
    for (const b of bullets) expect(b).toContain('](results/latest/results.md)');
    const n = (v: string) => an.answers.filter((a) => !a.out && a.verdict === v).length;
    expect(md).toContain(`${n('faster')} decided, ${n('equal')} equal, ${n('undecided')} open`);
    expect(md).toContain('docs/methodology.md#the-method');
  });

  test('a question none of whose members is faster reads as its answers do: open, or equal with the bound', () => {
    const an = analyze(fixture());
    const f = an.leaders.find((x) => x.question.members.length === 2 && x.best.length === 2)!;
    const mine = an.answers.filter((a) => a.question === f.question.id);
    expect(mine.every((a) => a.verdict === 'undecided')).toBe(true);
    expect(picksSection(an)).toContain(`${f.question.about}, open between the two.`);
    for (const a of mine) Object.assign(a, { verdict: 'equal', lo: 0.95, hi: 1.07, bound: 0.07 });
    expect(picksSection(an)).toContain(`${f.question.about}, equal between the two (within ±7%).`);
  });

  test('an answer decided on some machines is said with its machines, never as open', () => {
    const an = analyze(fixture());
    const f = an.leaders.find((x) => x.question.members.length === 2 && x.best.length === 2)!;
    const a = an.answers.find((x) => x.question === f.question.id)!;
    const where = 'faster on Intel Xeon, open on AMD EPYC; with --placement split on Intel Xeon (split): open';
    Object.assign(a, { verdict: 'undecided', pool: { holds: 'depends on the machine', where } });
    const md = picksSection(an);
    const line = md.split('\n').find((l) => l.startsWith(`  - ${f.question.about}, `))!;
    expect(line).toMatch(/^ {2}- .*, \S+ against \S+: faster on Intel Xeon, open on AMD EPYC\.$/);
    expect(md).not.toContain(`${f.question.about}, open between the two.`);
    // Said of the other side, its words turn round.
    expect(onSomeMachines(a, a.b)).toBe('slower on Intel Xeon, open on AMD EPYC');
  });
});

describe('the read path', () => {
  test('each decode twin against its default, named with its verdict and interval; none without one', () => {
    expect(picksSection(analyze(fixture()))).not.toContain('**Read path**');
    // A setting's answer of the fixture, its tuned side made a decode twin.
    const r = fixture();
    const setting = analyze(r).answers.find((a) => a.question.startsWith('setting: ') && !a.out)!;
    const tuned = r.contenders.find((c) => c.name === setting.a)!;
    tuned.settings = { ...tuned.settings, decode: 'raw' };
    const bullet = picksSection(analyze(r))
      .split('\n')
      .find((l) => l.startsWith('- **Read path**'))!;
    expect(bullet).toContain(`the project's own raw reader on ${tuned.runtime} + ${tuned.client}: `);
    expect(bullet).toContain(`${setting.lo.toFixed(2)}×–${setting.hi.toFixed(2)}× the default's req/s`);
    expect(bullet).toContain('docs/usage.md#the-raw-read-path-decode');
  });
});

describe('the write strategy', () => {
  test('each write twin against its Lua default, either side first, named with its verdict and interval', () => {
    // A setting's answer of the fixture, one side at a time made a WATCH twin: the bullet says twin ÷ default.
    const setting = analyze(fixture()).answers.find((a) => a.question.startsWith('setting: ') && !a.out)!;
    for (const side of ['a', 'b'] as const) {
      const r = fixture();
      const twin = r.contenders.find((c) => c.name === setting[side])!;
      twin.settings = { ...twin.settings, write: 'watch' };
      const [lo, hi] = side === 'a' ? [setting.lo, setting.hi] : [1 / setting.hi, 1 / setting.lo];
      const picks = picksSection(analyze(r));
      const bullet = picks.split('\n').find((l) => l.startsWith('- **Write strategy**'))!;
      expect(bullet).toContain(`WATCH/MULTI/EXEC on ${twin.runtime} + ${twin.client}: `);
      expect(bullet).toContain(`${lo.toFixed(2)}×–${hi.toFixed(2)}× the default's req/s`);
      expect(bullet).toContain('docs/writes.md#writes-the-upsert-workload');
    }
  });
});

describe('many answers of a named setting', () => {
  test('told per value over the stacks: the range of the decided, and the open with their ends', () => {
    const r = fixture();
    // Answers whose A side can be made a WATCH twin with every B side left at the default.
    const settings: ReturnType<typeof analyze>['answers'] = [];
    for (const a of analyze(r).answers.filter((x) => !x.out))
      if (!settings.some((x) => x.b === a.a || x.a === a.b || x.a === a.a)) settings.push(a);
    expect(settings.length).toBeGreaterThan(4);
    for (const a of settings) {
      const c = r.contenders.find((x) => x.name === a.a)!;
      c.settings = { ...c.settings, write: 'watch' };
    }
    const bullet = picksSection(analyze(r))
      .split('\n')
      .find((l) => l.startsWith('- **Write strategy**'))!;
    expect(bullet).toStartWith('- **Write strategy** (against a Lua script, the default): WATCH/MULTI/EXEC: ');
    const form = /\*\*[^*]+ slower\*\* on .*open on \d+ stacks \(\d\.\d\d×–\d\.\d\d×\) \(\[\d+ answers\]/;
    expect(bullet).toMatch(form);
    // Not one clause per answer: the stacks are counted or listed once per verdict.
    expect(bullet.split(' on ').length).toBeLessThan(settings.length);
  });
});

describe('the forest plot of every answer', () => {
  test('one row per answer with an interval, in its question, the ±target band drawn', () => {
    const an = analyze(fixture());
    const values = forestValues(an);
    const drawn = an.answers.filter((a) => !a.out && Number.isFinite(a.lo) && Number.isFinite(a.hi) && a.lo > 0);
    expect(values.length).toBe(drawn.length);
    for (const a of drawn.filter((x) => x.verdict === 'faster'))
      expect(values.find((v) => v.a === a.a && v.b === a.b)?.state).toBe('decided');
    const spec = JSON.stringify(answersSpec(an, {}));
    const e = an.results.settings.target_ci_pct / 100;
    expect(spec).toContain(`"datum":${1 + e}`);
    expect(spec).toContain(`"datum":${1 / (1 + e)}`);
    expect(spec).toContain('"type":"log"');
  });

  test('each label beside the end of its interval that keeps it off the line at 1 and inside the axis, if any', () => {
    const axis = [0.2, 5] as const;
    // Below 1 with room on its left: left of it, clear of 1.
    expect(labelSide({ lo: 0.5, hi: 0.9 }, axis)).toBe('left');
    // Below 1 but from the axis' left edge: no room there, so right (over 1, on its white halo).
    expect(labelSide({ lo: 0.21, hi: 0.9 }, axis)).toBe('right');
    // Above 1, ending at the right edge, with room before it and after 1: left.
    expect(labelSide({ lo: 2, hi: 4.8 }, axis)).toBe('left');
    // Above 1 from just past it: right, never over the line at 1.
    expect(labelSide({ lo: 1.05, hi: 4.8 }, axis)).toBe('right');
    expect(labelSide({ lo: 1.1, hi: 1.6 }, axis)).toBe('right');
    // Straddling 1 (open): right of its upper end.
    expect(labelSide({ lo: 0.8, hi: 1.3 }, axis)).toBe('right');
    // Intervals beyond the axis are drawn to its edge and marked there.
    const wide = JSON.stringify(answersSpec(analyze(fixture()), {}));
    expect(wide).toContain('triangle-left');
    expect(wide).toContain('triangle-right');
  });
});
