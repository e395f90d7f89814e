// --app: the user's own app beside the stacks measured with it, as answers/yours.ts computed it: its figures, its
// Redis commands per response by name (its design, reported, never gated), the bodies' sizes, and the answers of the
// family's "yours" questions (decided, equal or open, with their intervals).
import type { Analysis } from '../answers/analysis';
import type { YoursRow } from '../answers/yours';
import { pct } from './answers';
import { againstText } from './changes';
import { asFactor, MORE } from './words';

const int = (x: number | null) => (x === null ? '–' : Math.round(x).toLocaleString('en-US'));
const ms = (x: number | null) => (x === null ? '–' : `${x < 10 ? x.toFixed(1) : Math.round(x)} ms`);
const commands = (cs: [string, number][]) =>
  cs.length ? cs.map(([name, n]) => `${name.toUpperCase()} ${n.toFixed(2)}`).join(', ') : 'none counted';

/** An interval with both ends: Infinity in memory, null read back from results.json, when rounds were too few. */
const finite = (a: { lo: number | null; hi: number | null }) =>
  Number.isFinite(a.lo) && Number.isFinite(a.hi) && a.lo! > 0;

/**
 * "faster than X by 12% (3%…22%)", "equal to X within ±10%", "open against X (−8%…+15%)", or open with no
 * interval where the rounds were too few for one.
 */
export function answerText(an: Analysis, name: string): string[] {
  return an.answers
    .filter((a) => !a.out && a.question.startsWith('yours: ') && a.a === name)
    .map((a) => {
      const other = `\`${a.b}\``;
      if (!finite(a))
        return `- open against ${other}: too few rounds for an interval (${a.short ? `${a.short}; ` : ''}${MORE})`;
      const f = (r: number) => (asFactor(a.hi) || asFactor(1 / a.lo) ? `${r.toFixed(2)}×` : pct(r - 1));
      const span = `(${f(a.lo)}…${f(a.hi)})`;
      if (a.verdict === 'equal') return `- equal to ${other} within ±${an.results.settings.target_ci_pct}% ${span}`;
      if (a.verdict === 'undecided') return `- open against ${other}: ${f(a.ratio)} ${span}, not yet known`;
      return `- **${a.ratio > 1 ? 'faster' : 'slower'}** than ${other}: ${f(a.ratio)} ${span}`;
    });
}

/** "20,130 B", or for an app held to no body (--body any) "mean 20,130 B": its body may change. */
const bodyText = (r: YoursRow) => {
  const mean = r.body_mean ? 'mean ' : '';
  return r.body_bytes === null ? '–' : `${mean}${int(r.body_bytes)} B`;
};

/** "`node server.mjs`, GET /colors, held to its first response, byte for byte". */
function appWords(app: NonNullable<Analysis['yours']>['apps'][number]): string {
  const body =
    app.body === 'any'
      ? 'any non-empty body (`--body any`: the status checked, not the length or the bytes)'
      : app.body === 'file'
        ? 'the body of `--body FILE`, byte for byte'
        : 'its first response, byte for byte';
  return `\`${app.name}\`: \`${app.command}\`, GET ${app.path}, held to ${body}`;
}

export function yoursSection(an: Analysis): string {
  const y = an.yours;
  if (!y) return '';
  // Two versions of the app (--app twice, --against) are measured with no stack beside them.
  const beside = y.rows.some((r) => !r.yours) ? 'the stacks beside it' : 'each other';
  const head =
    `**Your app${y.apps.length > 1 ? 's' : ''}** (${y.apps.map(appWords).join('; ')}), measured in the same rounds ` +
    `as ${beside}. Redis commands per response are counted by Redis (INFO commandstats, the harness's own INFO, ` +
    "AUTH and SELECT left out); a different key, COUNT or several calls are the app's design, reported here.";
  // Two --app: the first is measured as the second's twin, <second>@base; its row says which app it is.
  const first = y.apps.length > 1 ? y.apps[0]!.name : null;
  const label = (r: YoursRow) =>
    r.yours ? `**\`${r.name}\`**${first && r.name.endsWith('@base') ? ` (\`${first}\`)` : ''}` : `\`${r.name}\``;
  const table = [
    '| stack | req/s | p50 | p99 | CPU per request | memory | Redis commands per response | body |',
    '|---|---:|---:|---:|---:|---:|---|---:|',
    ...y.rows.map(
      (r) =>
        `| ${label(r)} | ${int(r.rps)} | ${ms(r.p50)} | ${ms(r.p99)} | ` +
        `${r.cpu_us === null ? '–' : `${int(r.cpu_us)} µs`} | ` +
        `${r.rss_mb === null ? '–' : `${int(r.rss_mb)} MB`} | ` +
        `${commands(r.commands)} | ${bodyText(r)} |`,
    ),
  ].join('\n');
  const sizes = new Set(y.rows.flatMap((r) => (r.body_bytes === null ? [] : [r.body_bytes])));
  const differ =
    sizes.size > 1
      ? 'The bodies differ in size, so the work per response differs: the answers compare the endpoints as served.'
      : '';
  const notMeasured = y.rows
    .filter((r) => r.status !== 'ok')
    .map((r) => `- \`${r.name}\` is ${r.status}${r.reason ? `: ${r.reason}` : ''}; nothing of it is counted`);
  // An app that reads no Redis (a cache, a static route) is compared with stacks that read it on every request.
  const noReads = y.rows
    .filter((r) => r.yours && r.status === 'ok' && r.rps !== null && !r.commands.length)
    .map(
      (r) =>
        `\`${r.name}\` made no Redis call per response (a cache or a static route?): its answers compare it with ` +
        'stacks that read Redis for every response.',
    );
  const answers = y.apps.flatMap((app) => {
    const lines = answerText(an, app.name);
    return lines.length
      ? [
          `**${app.name} against each**, decided as every answer is (the chance of any false "faster" in the ` +
            `run's family at most 5%):\n\n${lines.join('\n')}`,
        ]
      : [];
  });
  return [head, table, notMeasured.join('\n'), differ, ...noReads, ...answers, againstText(an)]
    .filter(Boolean)
    .join('\n\n');
}
