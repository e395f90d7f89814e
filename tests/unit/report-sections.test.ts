// One registry of sections (report/sections.ts) feeds results.md and report.html: every section a
// run has is in both, and the markdown and the README block (the picks in plain words, picks.ts)
// are byte for byte the goldens rendered from the same results.json (tests/fixtures/report/).
// The report renders one analysis of the run (answers/analysis.ts), which leaves the results as read.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { readResults } from '../../packages/harness/src/model/results-file';
import { reportHtml } from '../../packages/harness/src/report/html';
import { markdown, readmeSection } from '../../packages/harness/src/report/index';
import { picksSection } from '../../packages/harness/src/report/picks';
import { charts } from '../../packages/harness/src/report/charts';
import { costTable } from '../../packages/harness/src/report/table';
import { SECTIONS, sectionsOf } from '../../packages/harness/src/report/sections';
import { WORKLOAD_MODULES } from '../../packages/harness/src/workloads';
import { ROOT } from '../../packages/harness/src/system/paths';

const fixture = (name: string) => readResults(join(ROOT, 'tests/fixtures/results', `${name}.json`));
const golden = (file: string) => readFileSync(join(ROOT, 'tests/fixtures/report', file), 'utf8');

describe('report sections', () => {
  for (const name of ['results', 'against']) {
    test(`${name}.json: every section it has is in results.md and report.html; the README block has the picks`, () => {
      const an = analyze(fixture(name));
      const md = markdown(an, './');
      const html = reportHtml(an);
      const readme = readmeSection(an);
      const shown = sectionsOf(an);
      expect(shown.length).toBeGreaterThan(name === 'results' ? 5 : 1);
      for (const s of shown) {
        expect(md).toContain(s.md);
        expect(html).toContain(`data-section="${s.id}"`);
      }
      expect(readme).toContain(picksSection(an));
    });

    test(`${name}.json: results.md and the README block are as the goldens`, () => {
      const an = analyze(fixture(name));
      expect(markdown(an, './')).toBe(golden(`${name}.md`));
      expect(readmeSection(an)).toBe(golden(`${name}.readme.md`));
    });

    test(`${name}.json: the analysis and every rendering leave the results as read`, () => {
      const r = fixture(name);
      const an = analyze(r);
      markdown(an, './');
      reportHtml(an);
      readmeSection(an);
      expect(an.results).toBe(r);
      expect(r).toEqual(fixture(name));
    });
  }

  test('each section has one id and a place on the page', () => {
    const ids = SECTIONS.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const s of SECTIONS)
      expect(['changes', 'pick', 'contenders', 'tables', 'left-out', 'method']).toContain(s.place);
  });

  test("a workload's own sections and charts come from its module, in the runs of that workload only", () => {
    for (const w of Object.values(WORKLOAD_MODULES))
      for (const own of w.sections) expect(SECTIONS.map((x) => x.id)).toContain(own.id);
    // The published write run (results/latest-upsert): its table, chart and accounting line, from workloads/upsert.
    const writes = analyze(readResults(join(ROOT, 'results/latest-upsert/results.json')));
    expect(sectionsOf(writes).map((x) => x.id)).toContain('upsert');
    expect(Object.keys(charts(writes))).toContain('upsert-over-time.png');
    expect(readmeSection(writes)).toContain('**Accounting:**');
    const reads = analyze(fixture('results'));
    expect(sectionsOf(reads).map((x) => x.id)).not.toContain('upsert');
    expect(Object.keys(charts(reads))).not.toContain('upsert-over-time.png');
  });

  test("a write run's spread table names the one command its Redis columns count (WATCH's, not its path's)", () => {
    const writes = costTable(analyze(readResults(join(ROOT, 'results/latest-upsert/results.json'))));
    expect(writes).toContain('| one Redis command: calls/req | its µs/call |');
    expect(writes).not.toContain('Redis calls/req');
    const row = (name: string) =>
      writes
        .split('\n')
        .find((l) => l.startsWith(`| ${name} |`))!
        .split(' | ');
    expect(row('node-raw-node-redis-watch')[7]).toMatch(/^watch \d\.\d\d$/);
    expect(row('bun-raw-bun-redis')[7]).toBe('evalsha 1.00');
    expect(row('bun-raw-bun-redis-function')[7]).toBe('fcall 1.00');
    // A read run's columns stay as they were: the one command it sends.
    expect(costTable(analyze(fixture('results')))).toContain('| Redis calls/req | Redis µs/call |');
  });

  test("the upsert chart and per-minute table say req/s, each window's HTTP rate they plot, not calls/s", () => {
    const an = analyze(readResults(join(ROOT, 'results/latest-upsert/results.json')));
    const upsert = WORKLOAD_MODULES.upsert;
    const table = upsert.sections.map((x) => x.render(an)).join('\n');
    expect(table).toContain('**Requests per second by minute**');
    // Each column over the stacks that run its strategy, counted, since they differ from column to column.
    expect(table).toMatch(/\| minute of the run \| function req\/s \(3 stacks\) \| lua req\/s \(\d+ stacks\) \|/);
    expect(table).toContain('Each column is over the stacks that run its strategy, which differ from column to column');
    const spec = JSON.stringify(upsert.charts[0]!.spec(an, {}, ''));
    expect(spec).toContain(
      "req/s through the run, a point per strategy and 10 s (its windows' median, over the stacks that run it)",
    );
    expect(spec).toContain('"field":"rps"');
    expect(`${table}${spec}`).not.toContain('calls/s');
  });

  test('a write table says the requests answered with an error or not at all, which no branch counts', () => {
    const read = () => readResults(join(ROOT, 'results/latest-upsert/results.json'));
    const quiet = WORKLOAD_MODULES.upsert.sections.map((x) => x.render(analyze(read()))).join('\n');
    expect(quiet).not.toContain('answered with an error or not at all');
    const results = read();
    const c = results.contenders.find((x) => x.status === 'ok')!;
    const runs = c.points[0]!.runs.filter((r) => r.workload?.kind === 'upsert');
    for (const r of runs) (r.workload!.data as { unanswered: number }).unanswered = 7;
    const table = WORKLOAD_MODULES.upsert.sections.map((x) => x.render(analyze(results))).join('\n');
    const row = table.split('\n').find((l) => l.startsWith(`| ${c.name} |`))!;
    expect(row).toContain(
      `; ${7 * runs.length} answered with an error or not at all (not acknowledged; each may have written)`,
    );
  });
});
