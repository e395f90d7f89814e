// The published (pooled) results.md and report.html speak with one voice: the req/s chart's ranks are the "Every
// contender" table's, the page opens with the README's picks table, and the table of how the run's own answers held
// up is named as the run's own, not the pooled answers the rest of the page gives.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { analyzeRun } from '../../packages/harness/src/publish/index';
import { keptFor, pooledView, recordOf } from '../../packages/harness/src/publish/kept-runs';
import { readResults } from '../../packages/harness/src/model/results-file';
import { answerSentence } from '../../packages/harness/src/report/answers';
import { spansMachines } from '../../packages/harness/src/report/across-runs';
import { reqSecSpec } from '../../packages/harness/src/report/charts';
import { picksScreen } from '../../packages/harness/src/report/first-screen';
import { heldTable } from '../../packages/harness/src/report/held';
import { reportHtml } from '../../packages/harness/src/report/html';
import { markdown, readmeAnswers } from '../../packages/harness/src/report/index';
import { ROOT } from '../../packages/harness/src/system/paths';

const fixture = () => readResults(join(ROOT, 'tests/fixtures/results/results.json'));

/** The published read run as `npm run report` shows it: pooled with the runs kept in results/runs/. */
function published() {
  const dir = join(ROOT, 'results/latest');
  const kept = keptFor(readResults(join(dir, 'results.json')), join(ROOT, 'results/runs'));
  const own = analyzeRun(dir, kept);
  return pooledView(own, kept, recordOf(own.results, own)).analysis;
}

type Values = { data: { values: { name: string }[] }; title: { subtitle: string[] } };

describe('the req/s chart', () => {
  test('each label\'s rank is the one "Every contender" gives it, whatever the picks\' family ranks', () => {
    const an = analyze(fixture());
    // The picks' family ranks its stacks among fewer: a rank of its own that no label may show.
    const top = an.top && { ...an.top, ranks: an.top.ranks.map((x) => ({ ...x, rank: '99' })) };
    const spec = reqSecSpec({ ...an, top }) as unknown as Values;
    const bars = spec.data.values;
    expect(bars.length).toBeGreaterThan(3);
    // Every bar, a static page's too, with the table's rank.
    expect(an.ranked.some((c) => c.static)).toBe(true);
    for (const v of bars) {
      const c = an.ranked.find((x) => v.name === x.name || v.name.startsWith(`${x.name} `))!;
      expect(v.name).toEndWith(` [rank ${c.rank}]`);
    }
    expect(spec.title.subtitle.join(' ')).toContain("among every contender, as in results.md's table");
  });
});

describe('the published page', () => {
  const an = published();
  const md = markdown(an, null);
  const html = reportHtml(an);

  test("opens with the README's picks table, from the same picks, with no link out of the run's folder", () => {
    expect(an.picks).toBeTruthy();
    const section = picksScreen(an, false);
    expect(md.startsWith(section)).toBe(true);
    // The README's table, its head and rows, byte for byte.
    const rows = (s: string) => s.split('\n').filter((l) => l.startsWith('|'));
    expect(rows(section).length).toBe(an.picks!.lines.length + 2);
    expect(rows(section)).toEqual(rows(picksScreen(an)));
    expect(section).not.toMatch(/\]\((docs\/|#)/);
    expect(section).toContain('**How a pick is chosen:**');
    // In report.html under "What to pick", before the answers; the answers' heading no longer promises a pick.
    expect(html.indexOf('data-section="picks"')).toBeGreaterThan(html.indexOf('<h2 id="pick">'));
    expect(html.indexOf('data-section="picks"')).toBeLessThan(html.indexOf('data-section="answers"'));
    expect(md).not.toContain('**What to pick** (default settings)');
    expect(md).toContain('**Every answer** (default settings)');
  });

  test("one error rate per family wherever said; the settings in the answers' family; later runs as later", () => {
    const alpha = `${+(an.pool!.alpha * 100).toPrecision(2)}%`;
    // The answers decided on some machines only are claims at the same level: counted with the "faster" ones.
    const live = an.answers.filter((a) => !a.out);
    const some = live.filter((a) => a.pool?.holds === 'depends on the machine').length;
    const faster = live.filter((a) => a.verdict === 'faster').length;
    // The same count as the page's count line gives ("(4 of them decided on some machines only)").
    if (some) expect(readmeAnswers(an)).toContain(`(${some} of them decided on some machines only)`);
    const reverse = live.filter((a) => a.pool?.holds === 'reverses').length;
    const others = [
      some ? `of those among the ${some} decided on some machines only` : '',
      reverse ? `of the ${reverse} that reverse` : '',
    ].filter(Boolean);
    const sure =
      (others.length
        ? `even one "faster" answer is wrong, of the ${faster} and ${others.join(' and ')}, is`
        : `even one of the ${faster} "faster" answers is wrong is`) +
      ` at most ${alpha} (5% with the first screen's picks)`;
    expect(readmeAnswers(an)).toContain(sure);
    expect(md).toContain(`is at most ${alpha}, and with the first screen's picks at most 5%`);
    expect(md).not.toContain('the same family as "what to pick"');
    if (md.includes('**Settings: each against'))
      expect(md).toContain('pooled over the kept runs; the same family as "Every answer"');
    // Leaving a machine out pools the others at their own level (α split over fewer machines): said, since they may
    // claim more than the whole pool does.
    if (an.pool!.leave_one_out?.length)
      expect(md).toContain('Each machine left out in turn (the others pooled without it, at their own level): ');
    // Kept runs after the published one ran later code; nothing there "changed since".
    const later = an.pool!.runs.filter((r) => !r.pooled && !r.left_out && r.started_at > an.results.started_at);
    if (later.length) expect(md).toMatch(/whose contenders ran later code \(/);
  });

  test("an answer measured on two machines says its interval spans them; one measured on one machine doesn't", () => {
    // Its ratio is then the machines' geometric mean and its interval the envelope of theirs (answers/where.ts).
    const asked = an.answers.filter((a) => a.pool && !a.out);
    const counted = asked.map((a) => [spansMachines(a), answerSentence(an, a)] as const);
    expect(counted.some(([spans]) => spans)).toBe(true);
    for (const [spans, sentence] of counted) {
      expect(md).toContain(sentence);
      expect(sentence.includes(' over its machines') || sentence.includes("its machines' geometric mean")).toBe(spans);
    }
  });

  test("a run's own page has no picks table, and its answers keep their heading", () => {
    const own = analyze(fixture());
    expect(own.picks).toBeFalsy();
    expect(picksScreen(own, false)).toBe('');
    expect(markdown(own, null)).toContain('**What to pick** (default settings)');
  });

  test("the table of how the run's own answers held up is named as that run's, not the pooled answers'", () => {
    expect(an.pool && an.elsewhere).toBeTruthy();
    const run = `the run of ${an.results.started_at.slice(0, 10)}`;
    const table = heldTable(an);
    expect(md).toContain(table);
    expect(table).toStartWith(`**How ${run}'s own answers held up in the kept runs**: each answer ${run} decided`);
    expect(table).toContain('not the pooled answers above');
    expect(table).toContain(`\n| ${run} alone: its answer (A ÷ B req/s) | `);
    expect(table).not.toContain('answer here');
    expect(table).not.toContain('**Where the answers hold**');
  });
});
