// Every section a report shows, once, in its order: results.md and report.html both read this
// list, so a section added here is in both (a test checks it). The README's block is shorter: the
// picks in plain words (picks.ts), read off the same analysis, and links to results.md. A published
// read run's pages open with the README's picks table (first-screen.ts), from the same picks.
import type { Analysis } from '../answers/analysis';
import { answersSection, settingsTable } from './answers';
import { breakdownTable, ceilingsTable, efficiencyTable } from './ceilings';
import { changesSection } from './changes';
import { gridTables } from './matrix';
import { heldTable } from './held';
import { picksScreen } from './first-screen';
import { poolSection } from './across-runs';
import { yoursSection } from './yours';
import type { Scaling } from '../model/results';
import { scalingTable } from './scaling';
import {
  costTable,
  describeRun,
  headlineTable,
  pointsTable,
  contractFindings,
  problems,
  seedMethodTable,
  selfCheckTable,
} from './table';
import { type Section, WORKLOAD_MODULES, workloadOfRun } from '../workloads';

export type { Place, Section } from '../workloads';

/** Each workload's own sections (workloads/), once, each shown in the runs of its workload only. */
const workloadSections: Section[] = [...new Set(Object.values(WORKLOAD_MODULES).flatMap((w) => w.sections))].map(
  (s) => ({ ...s, render: (an) => (workloadOfRun(an.results.settings).sections.includes(s) ? s.render(an) : '') }),
);

const scaling = (s: Scaling | undefined) => (s ? scalingTable(s) : '');

export const SECTIONS: Section[] = [
  // The picks table a published read run's README opens with, from the same picks: first here too.
  { id: 'picks', place: 'pick', render: (an) => picksScreen(an, false) },
  { id: 'yours', place: 'pick', render: yoursSection },
  { id: 'changes', place: 'changes', render: changesSection },
  { id: 'answers', place: 'pick', render: answersSection },
  { id: 'pool', place: 'pick', render: poolSection },
  { id: 'held', place: 'pick', render: heldTable },
  ...workloadSections,
  { id: 'grid', place: 'tables', render: gridTables },
  { id: 'settings', place: 'tables', render: settingsTable },
  { id: 'contenders', place: 'contenders', title: 'Every contender', render: headlineTable },
  {
    id: 'cost',
    place: 'tables',

    title: 'Spread, cost per request and Redis calls per request',
    render: costTable,
  },
  { id: 'ceilings', place: 'tables', render: ceilingsTable },
  { id: 'efficiency', place: 'tables', render: efficiencyTable },
  { id: 'breakdown', place: 'tables', render: breakdownTable },
  { id: 'scaling', place: 'tables', render: (an) => scaling(an.results.scaling) },
  { id: 'points', place: 'tables', render: pointsTable },
  { id: 'seed-method', place: 'tables', render: seedMethodTable },
  { id: 'self-check', place: 'tables', render: (an) => selfCheckTable(an.results) },
  { id: 'not-ranked', place: 'left-out', title: 'Not ranked', render: (an) => problems(an.results) },
  {
    id: 'contract',
    place: 'left-out',
    title: "Bodies that differ from the contract's by named causes",
    render: (an) => contractFindings(an.results),
  },
  { id: 'run', place: 'method', render: describeRun },
];

/** Each section of a run that has something to show, with its markdown (its title above it, if `titled`). */
export const sectionsOf = (an: Analysis, where: (s: Section) => boolean = () => true, titled = true) =>
  SECTIONS.filter(where).flatMap((s) => {
    const body = s.render(an);
    return body ? [{ ...s, md: titled && s.title ? `**${s.title}**\n\n${body}` : body }] : [];
  });
