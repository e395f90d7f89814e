// Every section a report shows, once, in its order: results.md, report.html and the README block
// all read this list, so a section added here is in all three (a test checks it).
import type { Analysis } from '../answers/analysis';
import { answersSection, settingsTable } from './answers';
import { breakdownTable, ceilingsTable, efficiencyTable } from './ceilings';
import { changesSection } from './changes';
import { liveTable } from './live';
import { gridTables } from './matrix';
import type { Scaling } from '../model/results';
import { scalingTable } from './scaling';
import { costTable, describeRun, headlineTable, pointsTable, problems, seedMethodTable, selfCheckTable } from './table';
import { upsertTable } from './upsert';

/**
 * Where a section goes in report.html: 'changes' and 'pick' lead with headings of their own,
 * 'contenders' is the page's sortable table (its markdown twin is the headline table), 'tables'
 * gathers the rest, 'left-out' and 'method' close the page.
 */
export type Place = 'changes' | 'pick' | 'contenders' | 'tables' | 'left-out' | 'method';

export interface Section {
  id: string;
  place: Place;
  /** A bold line above the section in the markdown; the README's block leaves it out. */
  title?: string;
  /** In the README's block too (the rest is in report.html, which the block links). */
  readme: boolean;
  /** The section's markdown, from the run's analysis; empty when the run has nothing for it. */
  render: (an: Analysis) => string;
}

const scaling = (s: Scaling | undefined) => (s ? scalingTable(s) : '');

export const SECTIONS: Section[] = [
  { id: 'changes', place: 'changes', readme: false, render: changesSection },
  { id: 'answers', place: 'pick', readme: true, render: answersSection },
  { id: 'live', place: 'tables', readme: false, render: liveTable },
  { id: 'upsert', place: 'tables', readme: false, render: upsertTable },
  { id: 'grid', place: 'tables', readme: false, render: gridTables },
  { id: 'settings', place: 'tables', readme: false, render: settingsTable },
  { id: 'contenders', place: 'contenders', readme: true, title: 'Every contender', render: headlineTable },
  {
    id: 'cost',
    place: 'tables',
    readme: false,
    title: 'Spread, cost per request and proof of Redis reads',
    render: costTable,
  },
  { id: 'ceilings', place: 'tables', readme: false, render: ceilingsTable },
  { id: 'efficiency', place: 'tables', readme: false, render: efficiencyTable },
  { id: 'breakdown', place: 'tables', readme: false, render: breakdownTable },
  { id: 'scaling', place: 'tables', readme: false, render: (an) => scaling(an.results.scaling) },
  { id: 'points', place: 'tables', readme: false, render: pointsTable },
  { id: 'seed-method', place: 'tables', readme: false, render: seedMethodTable },
  { id: 'self-check', place: 'tables', readme: false, render: (an) => selfCheckTable(an.results) },
  { id: 'not-ranked', place: 'left-out', readme: false, title: 'Not ranked', render: (an) => problems(an.results) },
  { id: 'run', place: 'method', readme: true, render: describeRun },
];

/** Each section of a run that has something to show, with its markdown (its title above it, if `titled`). */
export const sectionsOf = (an: Analysis, where: (s: Section) => boolean = () => true, titled = true) =>
  SECTIONS.filter(where).flatMap((s) => {
    const body = s.render(an);
    return body ? [{ ...s, md: titled && s.title ? `**${s.title}**\n\n${body}` : body }] : [];
  });
