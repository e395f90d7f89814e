// The read workloads (xrange, xread, xrange-count, xrevrange-count): GET / against a fixed stream. Verified and
// checked after each window against the golden body, byte for byte; one read command per response.
import { perRequestCommand, type ReadWorkload, SETTINGS } from '@bench/stream';
import type { Results, RunRecord } from '../model/results';
import { CLUSTER_SERVERS } from '../model/servers';
import type { Fault } from '../measure/workload';
import { type Carrier, verifyContract } from '../measure/verify';
import type { NamedSetting, Workload } from './types';

/**
 * A fixed stream's run, checked after it (for a launched app and for --target's): the app still
 * answers with the golden body, and oha's bytes are that body's size times the responses.
 */
export async function bodyAfterRun(
  url: string,
  golden: string,
  page: Carrier,
  run: RunRecord,
  pairs?: string,
): Promise<Fault | null> {
  const again = await verifyContract(url, golden, page, pairs);
  if (!again.ok) run.after_check = again.reason!;
  if (!again.ok && again.reason!.startsWith('request failed'))
    return { status: 'failed', reason: `app stopped answering during run ${run.round} (${again.reason})` };
  // Non-2xx responses carry other bodies (the error-rate gate judges how many): the 2xx ones still hold the whole
  // body each, so the bytes are at least theirs, and at most one more body's worth per other response.
  const other = run.errors.non_2xx;
  const extra = run.total_bytes - run.expected_bytes * (run.responses - other);
  if (page !== 'any' && (other === 0 ? extra !== 0 : extra < 0 || extra > other * run.expected_bytes)) {
    const per = run.responses ? (run.total_bytes / run.responses).toFixed(1) : '–';
    return {
      status: 'invalid',
      reason:
        `run ${run.round}: responses under load were not the verified body: ${run.total_bytes} bytes over ` +
        `${run.responses} responses (${per} each), want ${run.expected_bytes} each`,
    };
  }
  // An app that already answered non-2xx under load is judged by the error-rate gate, with its counts.
  if (!again.ok && !(again.reason!.startsWith('status ') && run.errors.non_2xx > 0))
    return {
      status: 'invalid',
      reason: `run ${run.round}: the body changed under load; after the run, ${again.reason}`,
    };
  return null;
}

/** "the XRANGE of 339 entries answered as a 20 KB JSON body". */
const bodyWords = (r: Results, command: string) =>
  `the ${command.toUpperCase()} of ${r.data.entries.toLocaleString('en-US')} entries answered as a ` +
  `${Math.round(r.data.body_bytes / 1000)} KB JSON body`;

/** One read workload: its command counted once per response, more than one gated. */
/** The read path: measured where the reply is an XRANGE's (decode's workloads). */
const READ_PATH: NamedSetting = {
  setting: 'decode',
  title: "**Read path** (the `decode` setting, against the library's default)",
  words: { bytes: "the client's Buffers through the project's transcoder", raw: "the project's own raw reader" },
  doc: 'docs/usage.md#the-raw-read-path-decode',
};

export function readWorkload(name: Exclude<ReadWorkload, 'live'>): Workload {
  const command = perRequestCommand(name, '');
  return {
    name,
    rules: {
      command: () => command,
      label: command.toUpperCase(),
      gateTooMany: true,
      served: (run) => run.ok,
      exempt: () => 0,
    },
    ceilings: { redis: true, clients: true },
    flags: {},
    options: () => ({ settings: null, sweep: null }),
    suite: null,
    // The default workload's run is the project's published one.
    published: name === 'xrange' ? { dir: 'latest', block: 'results', shots: '' } : null,
    noTarget: null,
    noApp: null,
    privateRedis: null,
    noResume: null,
    slackMs: () => 0,
    restartsRedis: () => false,
    oneServer: null,
    clusterServers: CLUSTER_SERVERS,
    verify: (ctx) => verifyContract(ctx.url, ctx.golden, ctx.page, ctx.pairs),
    checkAfter: (ctx, run) => bodyAfterRun(ctx.url, ctx.golden, ctx.page, run, ctx.pairs),
    request: (_ctx, url) => ({ url }),
    around: () => null,
    pickFor: null,
    namedSettings: (SETTINGS.decode.workloads as readonly string[]).includes(name) ? [READ_PATH] : [],
    load: (r, long) => (long ? bodyWords(r, command) : name.toUpperCase()),
    // A read keeps no record of its own.
    pool: () => undefined,
    sections: [],
    charts: [],
    readme: () => [],
  };
}
