// The published first screen's figures, each against the results.json and pool it is rendered from: how sure, the
// machines' runs, boots and days, the versions, the load command and the table's columns. Every expected figure is
// computed from the Analysis the page renders (and from variants of it), never copied from the page.
import { atDefault } from '../../packages/harness/src/model/across-runs';
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import { defaultOptions } from '../../packages/harness/src/cli/args';
import { cpuShortName, machineNames } from '../../packages/harness/src/model/kept';
import { readResults } from '../../packages/harness/src/model/results-file';
import { analyzeRun } from '../../packages/harness/src/publish/index';
import { keptFor, pooledView, recordOf } from '../../packages/harness/src/publish/kept-runs';
import { picksScreen } from '../../packages/harness/src/report/first-screen';
import { readmeSection } from '../../packages/harness/src/report/index';
import { ROOT } from '../../packages/harness/src/system/paths';

const dir = join(ROOT, 'results/latest');
const kept = keptFor(readResults(join(dir, 'results.json')), join(ROOT, 'results/runs'));
const own = analyzeRun(dir, kept);
const { analysis: published } = pooledView(own, kept, recordOf(own.results, own));

/** The line of a rendered text that starts with `head`. */
const lineOf = (text: string, head: string) => {
  const line = text.split('\n').find((l) => l.startsWith(head));
  expect(line).toBeDefined();
  return line!;
};
const pool = (an: Analysis) => an.pool!;
const picks = (an: Analysis) => an.picks!;
const percent = (alpha: number) => `${+(alpha * 100).toFixed(1)}%`;
const plural = (n: number) => (n === 1 ? '' : 's');
const CONTENDED = '[contended](docs/glossary.md#contended)';

/** A machine's boots and how many were contended, as the machines line should say them. */
const contendedWords = (x: { boots: number; contended_boots: number }) => {
  const n = x.contended_boots;
  if (!n) return '';
  if (n < x.boots) return `, ${n} of them ${CONTENDED}`;
  return x.boots === 1 ? `, ${CONTENDED}` : `, all ${CONTENDED}`;
};

/** The published analysis with its pool's default-placement priors changed by `f`. */
type Prior = NonNullable<Analysis['pool']>['priors'][number];
const withPriors = (an: Analysis, f: (x: Prior) => Partial<Prior>): Analysis => ({
  ...an,
  pool: {
    ...pool(an),
    priors: pool(an).priors.map((x) => (atDefault(x) ? { ...x, ...f(x) } : x)),
  },
});
const withSettings = (an: Analysis, s: Partial<Analysis['results']['settings']>): Analysis => ({
  ...an,
  results: { ...an.results, settings: { ...an.results.settings, ...s } },
});

describe("the published first screen's figures, from their source", () => {
  const screen = readmeSection(published);

  test('the published analysis has picks and a pool, and its first screen is the picks screen', () => {
    expect(published.picks).not.toBeNull();
    expect(published.pool).not.toBeNull();
    expect(screen).toContain(picksScreen(published));
  });

  test("how sure: the bold figures at the picks' own level, the page at the picks' and answers' together", () => {
    const check = (an: Analysis) => {
      const line = lineOf(picksScreen(an), '- How sure:');
      const [p, all] = [picks(an).alpha, picks(an).alpha + pool(an).alpha];
      // Bold figures are said as such only where the table has one (none shown faster: none is bold).
      const bold = picksScreen(an)
        .split('\n')
        .some((l) => l.startsWith('|') && l.includes('**'));
      expect(line).toContain(
        bold
          ? `at most a ${percent(p)} chance that one or more of the bold figures is wrong`
          : 'no figure is bold (none shown faster); the chance of one or more wrong bold figures is held at ' +
              percent(p),
      );
      expect(line).toContain(
        `, and ${percent(all)} for ${bold ? 'them' : 'any bold figure'} and every read answer below`,
      );
    };
    check(published);
    // The picks' share and the answers' apart (as the published pool splits them), whatever the published one reads.
    const p = picks(published);
    check({ ...published, picks: { ...p, alpha: 0.012 }, pool: { ...pool(published), alpha: 0.038 } });
  });

  test("the machines: each machine's runs and boots as its pool's prior counts them, and its contended boots", () => {
    const check = (an: Analysis) => {
      const line = lineOf(picksScreen(an), '**Machines:**');
      const priors = pool(an).priors.filter(atDefault);
      expect(priors.length).toBeGreaterThan(0);
      for (const x of priors) {
        const [r, b] = [x.runs, x.boots];
        const said = `${cpuShortName(x.machine)} (${r} run${plural(r)} on ${b} boot${plural(b)}`;
        expect(line).toContain(`${said}${contendedWords(x)})`);
      }
    };
    check(published);
    // Boots apart from runs; every boot contended, all but one, one boot alone, none: each said as such.
    check(withPriors(published, (x) => ({ runs: x.boots + 3, boots: x.boots + 1 })));
    check(withPriors(published, () => ({ boots: 3, contended_boots: 3 })));
    check(withPriors(published, () => ({ boots: 3, contended_boots: 2 })));
    check(withPriors(published, () => ({ runs: 2, boots: 1, contended_boots: 1 })));
    check(withPriors(published, () => ({ contended_boots: 0 })));
    const all = picksScreen(withPriors(published, () => ({ boots: 4, contended_boots: 4 })));
    expect(lineOf(all, '**Machines:**')).not.toContain(`4 of them ${CONTENDED}`);
  });

  test('the machines: where oha, Redis and the app share the CPUs and where they are pinned apart, per machine', () => {
    const line = (an: Analysis) => lineOf(picksScreen(an), '**Machines:**');
    expect(line(published)).toEndWith("; oha, Redis and the app share each machine's CPUs.");
    // A 4-CPU machine measured at its default placement (disjoint) beside 2-CPU machines at theirs (none).
    const [first, ...rest] = pool(published).priors.filter(atDefault);
    const four = { ...first!, placement: 'disjoint', default_placement: 'disjoint' };
    const mixed = { ...published, pool: { ...pool(published), priors: [four, ...rest] } };
    const name = cpuShortName(first!.machine);
    expect(line(mixed)).toContain(`; Redis, oha and the app are pinned apart on the CPUs of ${name}`);
    expect(line(mixed)).toContain('; oha, Redis and the app share the CPUs of ');
    const pinned = { ...published, pool: { ...pool(published), priors: [four] } };
    expect(line(pinned)).toEndWith("; Redis, oha and the app are pinned apart on each machine's CPUs.");
  });

  test("the machines: the span of the pooled runs' days, not the published run's date", () => {
    const check = (an: Analysis) => {
      const days = pool(an)
        .runs.filter((r) => r.pooled)
        .map((r) => r.started_at.slice(0, 10))
        .sort();
      expect(days.length).toBeGreaterThan(0);
      const span = days[0] === days.at(-1) ? days[0]! : `${days[0]} to ${days.at(-1)}`;
      expect(lineOf(picksScreen(an), '**Machines:**')).toContain(`, ${span}; oha, Redis and the app share`);
    };
    check(published);
    // A pooled run a year before the published one: the span starts there.
    const runs = pool(published).runs;
    const early = { ...runs.find((r) => r.pooled)!, started_at: '2025-01-02T03:04:05.000Z' };
    check({ ...published, pool: { ...pool(published), runs: [early, ...runs] } });
    // The runs left out of the pool count for nothing.
    const unpooled = { ...early, started_at: '2024-06-07T00:00:00.000Z', pooled: 0 };
    check({ ...published, pool: { ...pool(published), runs: [unpooled, ...runs] } });
  });

  test('the versions: each runtime its own version, as the run recorded it', () => {
    const NAMES: [string, string][] = [
      ['node', 'Node'],
      ['bun', 'Bun'],
      ['deno', 'Deno'],
    ];
    const check = (an: Analysis) => {
      const rt = an.results.environment.runtimes ?? {};
      const said = NAMES.filter(([k]) => rt[k]).map(([k, n]) => `${n} ${rt[k]!.match(/\d+\.\d+\.\d+/)![0]}`);
      expect(said.length).toBeGreaterThan(0);
      expect(lineOf(picksScreen(an), '**Versions:**')).toStartWith(`**Versions:** ${said.join(', ')}; `);
    };
    check(published);
    const runtimes = { node: 'v1.2.3', bun: '4.5.6', deno: 'deno 7.8.9 (stable, release, x86_64-unknown-linux-gnu)' };
    const e = published.results.environment;
    check({ ...published, results: { ...published.results, environment: { ...e, runtimes } } });
  });

  test("the load: every setting of the published run that is not `npm run bench`'s default, and its length", () => {
    const check = (an: Analysis) => {
      const s = an.results.settings;
      const d = defaultOptions(s.workload, s.redis_rtt_ms ?? 0);
      const flags = [
        s.budget_s === d.budgetS ? '' : ` --budget ${s.budget_s % 60 ? `${s.budget_s}s` : `${s.budget_s / 60}m`}`,
        s.max_steal_pct === d.maxStealPct ? '' : ` --max-steal ${s.max_steal_pct}`,
        s.publish ? ' --publish' : '',
      ].join('');
      const line = lineOf(picksScreen(an), '**Load:**');
      if (!flags) {
        expect(line).toContain(`a run is ${d.budgetS / 60} minutes of rounds (\`npm run bench\`)`);
        return;
      }
      const length = s.budget_s % 60 ? `${s.budget_s} s` : `${s.budget_s / 60} minutes`;
      expect(line).toContain(
        `the ${s.publish ? 'published' : "page's"} run is ${length} of rounds (\`npm run bench --${flags}\``,
      );
      expect(line).toContain(`\`npm run bench\` alone: ${d.budgetS / 60} minutes)`);
    };
    check(published);
    // Each setting apart from its default, alone and together, published or not.
    check(withSettings(published, { max_steal_pct: 25, budget_s: 1800, publish: false }));
    check(withSettings(published, { max_steal_pct: 12, budget_s: 900 }));
    check(withSettings(published, { max_steal_pct: 5, budget_s: 3000 }));
    check(withSettings(published, { max_steal_pct: 5, budget_s: 900, publish: false }));
    const steal = lineOf(picksScreen(withSettings(published, { max_steal_pct: 15, publish: false })), '**Load:**');
    expect(steal).toContain(' --max-steal 15');
  });

  test("the table's columns: each machine by its short name, as the answers name it, never its key", () => {
    const check = (an: Analysis) => {
      const shown = picks(an).lines.flatMap((l) => l.answer ?? []);
      const measured = new Set(shown.flatMap((a) => a.pool.on_machines.filter(atDefault).map((o) => o.machine)));
      const keys = pool(an).priors.map((x) => x.machine);
      const name = machineNames(keys);
      const machines = [
        ...new Set(
          pool(an)
            .priors.filter(atDefault)
            .map((x) => x.machine),
        ),
      ];
      const columns = machines.filter((m) => measured.has(m)).map((m) => `on ${name(m)}`);
      expect(columns.length).toBeGreaterThan(0);
      const head = lineOf(picksScreen(an), '| you want | pick |');
      expect(head).toBe(`| you want | pick | ${columns.join(' | ')} | what it gives up |`);
      for (const m of machines) expect(head).not.toContain(m);
      expect(head).not.toContain('logical CPUs');
    };
    check(published);
  });
});
