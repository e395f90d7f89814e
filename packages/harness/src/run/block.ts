// A block of one round: the contenders of one runtime launched together, each verified and warmed
// up, then their measured windows interleaved (every cycle measures each once, in an order
// shuffled from the seed, with each twin question's members side by side), so the windows a
// question pairs lie seconds apart, not minutes: the machine's drift over minutes is the largest
// noise here, and it cancels in a ratio only when both sides see it. While one app is measured
// the others sit idle; each window records the CPU the idle ones used meanwhile (`idle_cpu_s`),
// which must stay near zero.
import { type AppError, startApp, type RunningApp } from '../measure/apps';
import { measureRun, meeting, pointLabel, unmeasuredTarget, type Load, type Meeting } from '../measure/measure';
import { freePort } from '../system/net';
import { runOha } from '../measure/oha';
import { treeCpuSeconds } from '../system/proc';
import type { ContenderResult, DuetWindow, PairMode, PointResult, RunRecord } from '../model/results';
import { FIRST_ROUNDS } from '../answers/racing';
import { seededRandom, shuffled } from '../stats/stats';
import { contenderOf, ctxFor, serversAlive, stopApp, type Suite } from './suite';
import { log } from '../system/progress';
import { checkAfterRun, judgeProbe, liveBoundMs, pooled, safe, verifyFor, type TrialOutcome } from './trial';
import { restartPrivateRedis } from '../topology/redis';
import { probeOnce } from '../live/session';
import { clustered, glued, walkOrder } from './walk';

export interface BlockSlot {
  r: ContenderResult;
  point: PointResult;
}

interface Member extends BlockSlot {
  key: string;
  app?: RunningApp;
  launchS: number;
  bytes: number;
  windows: RunRecord[];
  /** Its side of each duet window with its twin (--against, --handicap). */
  duet: DuetWindow[];
  outcome?: TrialOutcome;
}

/** Pause before each window, so the previous window's app is idle by the time this one is measured. */
const SETTLE_MS = 250;

/**
 * --layout walk: load on the next app for this long before its window, instead of the pause. Its
 * windows come after idle spells of different lengths (a pair's hub is measured more often than
 * its leaves), and an app idle for a while starts slower: the first window after 40 s idle was
 * 10% slower here, and in blocks the later windows of a launch ran 4% under its first.
 */
const TOUCH_S = 0.5;

const loadOf = (suite: Suite, point: PointResult): Load => ({
  connections: point.connections,
  rate: point.rate,
  durationS: suite.settings.duration_s,
  requests: suite.settings.requests,
  seedDefaults: false,
});
const baseName = (m: BlockSlot, round: number) => `${safe(m.r.name)}/${pointLabel(m.point)}-run${round}`;

/**
 * Start, verify and warm up one member; on failure its outcome is set and it takes no further
 * part. A change's two sides meet before their warmups, which then run at the same moments.
 */
async function launch(suite: Suite, m: Member, round: number, meet?: Meeting): Promise<void> {
  try {
    await launchOne(suite, m, round, meet);
  } finally {
    meet?.leave();
  }
}

async function launchOne(suite: Suite, m: Member, round: number, meet?: Meeting): Promise<void> {
  const c = contenderOf(suite, m.r);
  const t0 = Date.now();
  try {
    m.app = await startApp(c, {
      port: await freePort(),
      env: suite.appEnv(c),
      timeoutMs: suite.settings.start_timeout_s * 1000,
      cpuList: suite.settings.placement.app,
    });
  } catch (e) {
    const err = e as AppError;
    m.outcome = { kind: 'out', status: 'failed', reason: `start: ${err.message}`, output: err.output, runs: [] };
    return;
  }
  suite.session.apps.set(m.key, m.app);
  m.launchS = (Date.now() - t0) / 1000;
  const verdict = await verifyFor(suite, m.app.url, c);
  if (!verdict.ok) m.outcome = { kind: 'out', status: 'invalid', reason: verdict.reason!, runs: [] };
  else m.bytes = verdict.bytes!;
  if (m.outcome) return;
  const s = suite.settings;
  if (s.warmup_s > 0) {
    const load = { ...loadOf(suite, m.point), durationS: s.warmup_s, requests: null };
    await meet?.at('start');
    await runOha({
      ...load,
      ...unmeasuredTarget(ctxFor(suite, c), m.app.url),
      outFile: `${suite.runDir}/raw/${baseName(m, round)}-warmup.json`,
      cpuList: s.placement.loadgen,
    }).catch((e) => log(`${m.r.name}: warmup failed: ${(e as Error).message}`));
  }
}

/** The short load before a window of --layout walk, no longer than the window (its figures are not kept). */
async function touch(suite: Suite, m: Member, round: number): Promise<void> {
  const load = {
    ...loadOf(suite, m.point),
    durationS: Math.min(TOUCH_S, suite.settings.duration_s ?? TOUCH_S),
    requests: null,
  };
  await runOha({
    ...load,
    ...unmeasuredTarget(ctxFor(suite, contenderOf(suite, m.r)), m.app!.url),
    outFile: `${suite.runDir}/raw/${baseName(m, round)}-touch.json`,
    cpuList: suite.settings.placement.loadgen,
  }).catch((e) => log(`${m.r.name}: touch failed: ${(e as Error).message}`));
}

/**
 * One measured window of a member, with the CPU every other live member used during it; `seq` is
 * its place in the walk (null outside --layout walk, where neighbours in time are not compared pairs).
 */
async function window(
  suite: Suite,
  m: Member,
  others: Member[],
  round: number,
  seq: number | null,
): Promise<'ok' | 'out' | 'redis-died'> {
  const idleBefore = others.map((o) => treeCpuSeconds(o.app!.pid));
  const j = m.windows.length;
  const rawName = j ? `${baseName(m, round)}-w${j + 1}.json` : `${baseName(m, round)}.json`;
  let measured;
  try {
    const c = contenderOf(suite, m.r);
    measured = await measureRun(
      ctxFor(suite, c),
      m.app!.pid,
      m.app!.url,
      loadOf(suite, m.point),
      rawName,
      liveBoundMs(suite, c),
    );
  } catch (e) {
    if (!serversAlive(suite)) return 'redis-died';
    m.outcome = {
      kind: 'out',
      status: 'failed',
      reason: `run ${round}: ${(e as Error).message}`,
      output: m.app!.process.tail(),
      runs: [],
    };
    return 'out';
  }
  const idle = others.reduce((s, o, i) => s + Math.max(0, treeCpuSeconds(o.app!.pid) - idleBefore[i]!), 0);
  const run: RunRecord = {
    ...measured,
    idle_cpu_s: idle,
    ...(seq !== null ? { seq } : {}),
    round,
    pid: m.app!.pid,
    launch_s: m.launchS,
    expected_bytes: m.bytes,
    after_check: 'ok',
  };
  m.windows.push(run);
  const bad = await checkAfterRun(suite, m.app!, contenderOf(suite, m.r), run);
  if (bad?.kind === 'redis-died') return 'redis-died';
  if (bad) m.outcome = { ...bad, runs: [] };
  return bad ? 'out' : 'ok';
}

/**
 * One duet window of a change's pair: both apps under load at the same moments, each with its own
 * oha at the run's load, each with its counters. Each side is checked after it as any window is.
 */
async function duetWindow(suite: Suite, pair: [Member, Member], round: number): Promise<'ok' | 'out' | 'redis-died'> {
  const meet = meeting(pair.length);
  // Which side reads its counters and spawns its oha first alternates by window and round: neither side always leads.
  const first = (pair[0]!.duet.length + round) % 2;
  const started = new Map<Member, ReturnType<typeof measureRun>>();
  for (const m of [pair[first]!, pair[1 - first]!]) {
    const c = contenderOf(suite, m.r);
    const run = measureRun(
      ctxFor(suite, c),
      m.app!.pid,
      m.app!.url,
      loadOf(suite, m.point),
      `${baseName(m, round)}-duet${m.duet.length + 1}.json`,
      0,
      meet,
    );
    started.set(
      m,
      run.finally(() => meet.leave()),
    );
  }
  const measured = await Promise.allSettled(pair.map((m) => started.get(m)!));
  if (measured.some((x) => x.status === 'rejected') && !serversAlive(suite)) return 'redis-died';
  let result: 'ok' | 'out' | 'redis-died' = 'ok';
  for (const [i, m] of pair.entries()) {
    const x = measured[i]!;
    if (x.status === 'rejected') {
      m.outcome = {
        kind: 'out',
        status: 'failed',
        reason: `run ${round} (duet): ${(x.reason as Error).message}`,
        output: m.app!.process.tail(),
        runs: [],
      };
      result = 'out';
      continue;
    }
    const run = x.value;
    m.duet.push({
      partner: pair[1 - i]!.r.name,
      started_at: run.started_at,
      ended_at: run.ended_at,
      rps: run.rps,
      ok: run.ok,
      cpu_us_per_req: run.cpu_us_per_req,
      redis_calls: run.redis_calls,
      raw: run.raw,
    });
    const bad = await checkAfterRun(suite, m.app!, contenderOf(suite, m.r), {
      ...run,
      round,
      pid: m.app!.pid,
      launch_s: m.launchS,
      expected_bytes: m.bytes,
      after_check: 'ok',
    });
    if (bad?.kind === 'redis-died') return 'redis-died';
    if (bad) {
      m.outcome = { ...bad, runs: [] };
      result = 'out';
    }
  }
  return result;
}

/**
 * How a change's pair is measured in cycle `j` of a round: 'alone' (each app alone, adjacent),
 * 'both' (alone, then a duet window), or 'duet' (a duet window only). Until a design is chosen
 * (--pair auto, the first rounds) every cycle measures both ways; once chosen duet, a launch's
 * first cycle still measures each alone, where its absolute req/s and latency come from.
 */
export function pairMode(
  asked: 'auto' | PairMode,
  chosen: PairMode | null | undefined,
  round: number,
  j: number,
): 'alone' | 'both' | 'duet' {
  const design = asked === 'auto' ? (round <= FIRST_ROUNDS ? null : (chosen ?? null)) : asked;
  if (design === null) return 'both';
  if (design === 'alternate') return 'alone';
  return j === 0 ? 'both' : 'duet';
}

/** How long an app may take to serve a fresh snapshot after Redis restarts (--restart-redis). */
const RECOVER_MS = 10_000;

/**
 * --restart-redis: the writer pauses, Redis restarts keeping its data, the writer resumes, and
 * each live member must answer 200 again within RECOVER_MS (or it failed), and that first
 * answer must be a snapshot within its staleness bound (or it is invalid: an exact cache never
 * serves a copy from before the restart). Its later windows are judged as usual.
 */
async function restartRedis(suite: Suite, live: Member[], round: number, block: number): Promise<void> {
  let restarted = 0;
  // Timed from Redis answering again, not from the writer's restart after it.
  const down_ms = await suite.ctx.live!.pause(async () => {
    const ms = await restartPrivateRedis(suite.redis);
    restarted = performance.now();
    return ms;
  });
  log(
    `--restart-redis: Redis restarted (down ${down_ms} ms); waiting for ${live.map((m) => m.r.name).join(', ')} to serve again`,
  );
  const recovered_ms: Record<string, number | null> = {};
  for (const m of live) {
    let probe = await probeOnce(m.app!.url);
    while (probe.status !== 200 && performance.now() - restarted < RECOVER_MS) {
      await Bun.sleep(100);
      probe = await probeOnce(m.app!.url);
    }
    const verdict = probe.status === 200 ? await judgeProbe(suite, contenderOf(suite, m.r), probe) : null;
    recovered_ms[m.r.name] = verdict?.ok ? Math.round(probe.received_ms - performance.timeOrigin - restarted) : null;
    if (verdict?.ok) continue;
    m.outcome = verdict
      ? { kind: 'out', status: 'invalid', reason: `after a Redis restart: ${verdict.reason}`, runs: [] }
      : {
          kind: 'out',
          status: 'failed',
          reason: `did not answer 200 within ${RECOVER_MS / 1000} s of a Redis restart (last: ${probe.status || probe.body})`,
          output: m.app!.process.tail(),
          runs: [],
        };
    await stopApp(suite.session, m.key);
  }
  (suite.results.data.redis_restarts ??= []).push({ round, block, at: Date.now(), down_ms, recovered_ms });
}

/**
 * The members' order in each of the block's `windows` cycles. Without pairs: each member once, in
 * an order shuffled from the seed, round and cycle, then the members of each twin question
 * (`side_by_side` comparisons: a framework and its raw server, a setting and its default) brought
 * together, and each handicap check's two apps side by side (which goes first alternates by cycle
 * and round). With `pairs` (--layout walk, indices of compared members): a walk in which every
 * pair is measured in consecutive windows, walked forward and backward in turn (by cycle, and by
 * round when a round has one), so each side of a pair goes first equally often.
 */
function cycles(
  members: Member[],
  pairs: [number, number][] | null,
  random: () => number,
  count: number,
  round: number,
  twins: [Member, Member][],
  checks: [Member, Member][],
): Member[][] {
  if (!pairs)
    return Array.from({ length: count }, (_, j) =>
      glued(clustered(shuffled(members, random), [...twins, ...checks]), checks, (j + round) % 2 === 1),
    );
  const walk = walkOrder(
    members.map((_, i) => String(i)),
    pairs.map(([a, b]) => [String(a), String(b)]),
    random,
  ).map((i) => members[Number(i)]!);
  return Array.from({ length: count }, (_, j) => ((j + round) % 2 ? [...walk].reverse() : walk));
}

/** The members of `name` and `other` at one load point, where both are in the block. */
function pairsOf(members: Member[], name: string, other: string | null): [Member, Member][] {
  return members.flatMap((m): [Member, Member][] => {
    const o = members.find((x) => x.r.name === other && pointLabel(x.point) === pointLabel(m.point));
    return m.r.name === name && o ? [[o, m]] : [];
  });
}

/**
 * Each side-by-side comparison of the family (model/questions.ts) or of the changes (--against) whose two contenders
 * are members of the block.
 */
const twinPairs = (suite: Suite, members: Member[]) =>
  [...(suite.results.family?.comparisons ?? []), ...(suite.results.changes?.comparisons ?? [])]
    .filter((c) => c.side_by_side)
    .flatMap((c) => pairsOf(members, c.a, c.b));

/** Each handicap check's plain twin and handicapped app at one load point, where both are members of the block. */
const handicapPairs = (suite: Suite, members: Member[]) =>
  (suite.results.handicap ?? []).flatMap((h) => pairsOf(members, h.contender, h.compared_with));

/**
 * Measure a block: launch every member, then `windows` cycles (see cycles); then stop them all.
 * One outcome per slot, in order.
 */
export async function measureBlock(
  suite: Suite,
  slots: BlockSlot[],
  round: number,
  blockIndex: number,
  pairs: [number, number][] | null = null,
): Promise<TrialOutcome[]> {
  const members: Member[] = slots.map((x) => ({
    ...x,
    key: `${x.r.name}#${pointLabel(x.point)}-block-${round}`,
    launchS: NaN,
    bytes: NaN,
    windows: [],
    duet: [],
  }));
  const changes = suite.results.changes;
  const duets = (changes?.comparisons ?? []).flatMap((c) => pairsOf(members, c.a, c.b));
  const partnerIn = (m: Member) => duets.find((p) => p.includes(m));
  let redisDied = false;
  try {
    // A change's two sides start, are verified and warm up at the same time (a launch costs more
    // than a window, and a pair's rounds are mostly launches); the other members one by one.
    for (const m of members) {
      const pair = partnerIn(m);
      if (pair && pair[0] !== m) continue;
      const group = pair ?? [m];
      const meet = pair ? meeting(pair.length) : undefined;
      // Which side starts first alternates by round.
      await Promise.all((round % 2 ? [...group].reverse() : group).map((x) => launch(suite, x, round, meet)));
      for (const x of group) if (x.outcome) await stopApp(suite.session, x.key);
    }
    const random = seededRandom(((suite.settings.seed * 31 + 7) * 1009 + round) * 131 + blockIndex);
    let seq = 0;
    for (const [j, order] of cycles(
      members,
      pairs,
      random,
      suite.settings.windows ?? 1,
      round,
      twinPairs(suite, members),
      handicapPairs(suite, members),
    ).entries()) {
      if (redisDied) break;
      if (j === 1 && round === 1 && suite.settings.live?.restart_redis)
        await restartRedis(
          suite,
          members.filter((x) => x.app && !x.outcome),
          round,
          blockIndex,
        );
      const mode = pairMode(suite.settings.against?.pair ?? 'alternate', changes?.design?.chosen, round, j);
      for (const m of order) {
        const live = members.filter((x) => x.app && !x.outcome);
        if (!live.includes(m)) continue;
        const pair = partnerIn(m);
        const inDuet = pair ? pair.every((x) => live.includes(x)) : false;
        if (!(inDuet && mode === 'duet')) {
          // The app measured before finishes its in-flight work and garbage: not on this one's window
          // (under --layout walk, during this one's touch).
          if (pairs) await touch(suite, m, round);
          else await Bun.sleep(SETTLE_MS);
          const result = await window(
            suite,
            m,
            live.filter((x) => x !== m),
            round,
            pairs ? seq++ : null,
          );
          if (result === 'redis-died') {
            redisDied = true;
            break;
          }
          // An app out of the race stops now: alive, it could use CPU no window accounts for.
          if (result === 'out') await stopApp(suite.session, m.key);
        }
        // The pair's duet window, after the second of its two (adjacent) members in this cycle.
        if (!pair || !inDuet || mode === 'alone' || order.indexOf(m) !== Math.max(...pair.map((x) => order.indexOf(x))))
          continue;
        if (pair.some((x) => x.outcome)) continue;
        await Bun.sleep(SETTLE_MS);
        const result = await duetWindow(suite, pair, round);
        if (result === 'redis-died') {
          redisDied = true;
          break;
        }
        for (const x of pair) if (x.outcome) await stopApp(suite.session, x.key);
      }
    }
  } finally {
    await Promise.all(members.map((m) => stopApp(suite.session, m.key)));
  }
  // When Redis died, the members measured in this round lose their run (measured again on --resume);
  // a member not measured yet has nothing to report.
  return members.map((m): TrialOutcome => {
    const runs = m.windows.length ? [{ ...pooled(m.windows), ...(m.duet.length ? { duet: m.duet } : {}) }] : [];
    if (redisDied && !m.outcome) return runs.length ? { kind: 'redis-died', runs } : { kind: 'runs', runs: [] };
    return m.outcome ? { ...m.outcome, runs } : { kind: 'runs', runs };
  });
}
