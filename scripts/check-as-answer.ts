// The default run's handicap check judged as the answers are (answers/handicap.ts handicapJudged), on the windows
// each results.json recorded, with what judged it when it ran: how often a rule detects the known 10%, run by run,
// and how often the runs' own power said it would (the sum of each run's chance, measured.power).
//   bash scripts/with-tools.sh bun scripts/check-as-answer.ts DIR/results.json …
import { analyzeStored } from '../packages/harness/src/publish/index';
import { handicapJudged } from '../packages/harness/src/answers/handicap';
import { readResults } from '../packages/harness/src/model/results-file';

const pct = (x: number) => `${x >= 1 ? '+' : '−'}${(Math.abs(x - 1) * 100).toFixed(1)}%`;
const interval = (x: { ratio: number; lo: number; hi: number }) => `${pct(x.ratio)} (${pct(x.lo)}…${pct(x.hi)})`;
const isCheck = (h: { compared_with: string | null }) => !!h.compared_with && !h.compared_with.endsWith('@base');

let expected = 0;
let detected = 0;
let judged = 0;
for (const file of process.argv.slice(2)) {
  const r = readResults(file);
  const sd = analyzeStored(r).noise?.sdWindows;
  const before = r.handicap?.find(isCheck)?.measured;
  r.handicap = handicapJudged(r);
  const h = r.handicap?.find(isCheck);
  if (!h?.measured) {
    console.log(`${file}: no handicap check`);
    continue;
  }
  const m = h.measured;
  judged++;
  detected += h.detected ? 1 : 0;
  expected += m.power?.chance ?? NaN;
  const power = m.power
    ? `, power ${(m.power.chance * 100).toFixed(0)}% (se ${((m.se ?? NaN) * 100).toFixed(1)}%)`
    : '';
  const beside = (m.diagnostics ?? []).map(
    (d) => `${d.procedure} ${interval(d)} ${d.detected ? 'detected' : 'missed'}`,
  );
  console.log(
    `${r.started_at} ${r.environment.git_commit.slice(0, 7)}, sd between windows ${((sd ?? NaN) * 100).toFixed(1)}%, ` +
      `${m.rounds} rounds: as an answer ${interval(m)} ${h.detected ? 'DETECTED' : 'MISSED'}${power}; beside: ` +
      `${beside.join('; ')}; as it ran: ${before?.procedure ?? 'moderated-t'} ${before ? interval(before) : ''}`,
  );
}
if (judged > 1)
  console.log(`detected in ${detected} of ${judged}; the runs' own power expected ${expected.toFixed(1)} of ${judged}`);
