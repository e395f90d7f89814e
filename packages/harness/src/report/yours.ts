// --app: the user's own app beside the stacks measured with it, as answers/yours.ts computed it: its figures, its
// Redis commands per response by name (its design, reported, never gated), the bodies' sizes, and the answers of the
// family's "yours" questions (decided, equal or open, with their intervals).
import type { Analysis } from '../answers/analysis';
import { pct } from './answers';
import { changeSentence, otherSideText } from './changes';

const int = (x: number | null) => (x === null ? '–' : Math.round(x).toLocaleString('en-US'));
const ms = (x: number | null) => (x === null ? '–' : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
const commands = (cs: [string, number][]) =>
  cs.length ? cs.map(([name, n]) => `${name.toUpperCase()} ${n.toFixed(2)}`).join(', ') : 'none counted';

/** "faster than X by 12% (3%…22%)", "equal to X within ±10%", "open against X (−8%…+15%)". */
function answerText(an: Analysis, name: string): string[] {
  return an.answers
    .filter((a) => !a.out && a.question.startsWith('yours: ') && a.a === name)
    .map((a) => {
      const f = (r: number) => (a.hi >= 1.5 || a.lo <= 1 / 1.5 ? `${r.toFixed(2)}×` : pct(r - 1));
      const span = `(${f(a.lo)}…${f(a.hi)})`;
      const other = `\`${a.b}\``;
      if (a.verdict === 'equal') return `- equal to ${other} within ±${an.results.settings.target_ci_pct}% ${span}`;
      if (a.verdict === 'undecided') return `- open against ${other}: ${f(a.ratio)} ${span}, not yet known`;
      return `- **${a.ratio > 1 ? 'faster' : 'slower'}** than ${other}: ${f(a.ratio)} ${span}`;
    });
}

/** "`node server.mjs`, GET /colors, held to its first response, byte for byte". */
function appWords(app: NonNullable<Analysis['yours']>['apps'][number]): string {
  const body =
    app.body === 'any'
      ? 'any body (`--body any`: status and length checked, not the bytes)'
      : app.body === 'file'
        ? 'the body of `--body FILE`, byte for byte'
        : 'its first response, byte for byte';
  return `\`${app.name}\`: \`${app.command}\`, GET ${app.path}, held to ${body}`;
}

/** --app with --against: the app (head, its folder as it is) against its version at the ref (base), as decided. */
function againstText(an: Analysis): string {
  const r = an.results;
  const changes = r.changes?.answers ?? [];
  if (!r.settings.against || !changes.length) return '';
  const lines = changes.map((a) => `- ${changeSentence(a, r.settings.against!.equal_pct, an.aloneScale)}`);
  return (
    `**Against ${otherSideText(r)}**, side by side in every round and decided as every change is (the chance of a ` +
    `false "faster" or "slower" at most 5% at any stop; ratio = head ÷ base req/s):\n\n${lines.join('\n')}`
  );
}

export function yoursSection(an: Analysis): string {
  const y = an.yours;
  if (!y) return '';
  const head =
    `**Your app${y.apps.length > 1 ? 's' : ''}** (${y.apps.map(appWords).join('; ')}), measured in the same rounds ` +
    'as the stacks beside it. Redis commands per response are counted by Redis (INFO commandstats, the ' +
    "harness's own INFO left out); a different key, COUNT or several calls are the app's design, reported here.";
  const table = [
    '| stack | req/s | p50 | p99 | CPU per request | memory | Redis commands per response | body |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
    ...y.rows.map(
      (r) =>
        `| ${r.yours ? `**\`${r.name}\`**` : `\`${r.name}\``} | ${int(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ` +
        `${r.cpu_us === null ? '–' : `${int(r.cpu_us)} µs`} | ` +
        `${r.rss_mb === null ? '–' : `${int(r.rss_mb)} MB`} | ` +
        `${commands(r.commands)} | ${r.body_bytes === null ? '–' : `${int(r.body_bytes)} B`} |`,
    ),
  ].join('\n');
  const sizes = new Set(y.rows.map((r) => r.body_bytes));
  const differ =
    sizes.size > 1
      ? 'The bodies differ in size, so the work per response differs: the answers compare the endpoints as served.'
      : '';
  const answers = y.apps.flatMap((app) => {
    const lines = answerText(an, app.name);
    return lines.length
      ? [
          `**${app.name} against each**, decided as every answer is (the chance of any false "faster" in the ` +
            `run's family at most 5%):\n\n${lines.join('\n')}`,
        ]
      : [];
  });
  return [head, table, differ, ...answers, againstText(an)].filter(Boolean).join('\n\n');
}
