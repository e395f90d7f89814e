// One registry of sections (report/sections.ts) feeds results.md, report.html and the README block:
// every section a run has is in each of them, and the markdown and README block are byte for byte
// what the reports wrote from the same results.json before the registry (tests/fixtures/report/).
// The report renders one analysis of the run (answers/analysis.ts), which leaves the results as read.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { readResults } from '../../packages/harness/src/model/results-file';
import { reportHtml } from '../../packages/harness/src/report/html';
import { markdown, readmeSection } from '../../packages/harness/src/report/index';
import { SECTIONS, sectionsOf } from '../../packages/harness/src/report/sections';
import { ROOT } from '../../packages/harness/src/system/paths';

const fixture = (name: string) => readResults(join(ROOT, 'tests/fixtures/results', `${name}.json`));
const golden = (file: string) => readFileSync(join(ROOT, 'tests/fixtures/report', file), 'utf8');

describe('report sections', () => {
  for (const name of ['results', 'against']) {
    test(`${name}.json: every section it has is in results.md, report.html and (if listed) the README block`, () => {
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
      for (const s of sectionsOf(an, (x) => x.readme, false)) expect(readme).toContain(s.md);
    });

    test(`${name}.json: results.md and the README block are as before the registry`, () => {
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
});
