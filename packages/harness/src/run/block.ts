// A block of one round: the contenders of one runtime launched together, each verified and warmed
// up, then their measured windows interleaved (every cycle measures each once, in an order
// shuffled from the seed, with each twin question's members side by side), so the windows a
// question pairs lie seconds apart, not minutes: the machine's drift over minutes is the largest
// noise here, and it cancels in a ratio only when both sides see it. While one app is measured
// the others sit idle; each window records the CPU the idle ones used meanwhile (`idle_cpu_s`),
// which must stay near zero.
import { type Workload, workloadOfRun } from '../workloads';
import { meeting, pointLabel, type Load } from '../measure/measure';
import type { DuetWindow, Results, RunRecord } from '../model/results';
import { log } from '../system/progress';
import { launch, type Launched, type Launcher, measureWindow, type Out, safe, type TrialOutcome } from './launch';
import { blockRandom, changePairs, cycles, handicapPairs, pairMode, type Slot, twinPairs } from './plan';
import { pooled, windowsOf } from './windows';

interface Member extends Slot {
  key: string;
  app?: Launched;
  windows: RunRecord[];
  /** Its side of each duet window with its twin (--against, --handicap, the default run's handicap check). */
  duet: DuetWindow[];
  /** The same windows' full records: a round with no window alone is recorded from them. */
  duetRuns: RunRecord[];
  /** The handicap check's windows alone after the cycle's (CHECK_ALONE), each on its launch. */
  checkRuns: RunRecord[];
  /** Which launch of the round it is on, from 0 (the handicap check's pair is launched anew for each pair alone). */
  launch: number;
  outcome?: Out;
  /** Redis died under one of its windows (one stopped when it died leaves no record of its own). */
  redisDied?: boolean;
}

type WindowResult = 'ok' | 'out' | 'redis-died';

/** The members Redis died under. */
const died = (...ms: Member[]): 'redis-died' => {
  for (const m of ms) m.redisDied = true;
  return 'redis-died';
};

/** What a block reads of the results: the settings, the comparisons, the design chosen; it adds Redis restarts. */
export type BlockResults = Pick<Results, 'settings' | 'family' | 'changes' | 'handicap' | 'data'>;

/**
 * The most a window waits for the apps to go idle (Launcher.settle), so that the after-work of the app measured before
 * (in-flight requests, garbage) does not land on it.
 */
const SETTLE_MS = 250;

/**
 * The handicap check's window pairs alone per cycle, each on a launch of its own (relaunch): its pair's window in the
 * cycle, and CHECK_ALONE − 1 pairs more at the end of the cycle, each app alone, kept apart from the run's windows
 * (RunRecord.check_windows) so that its plain twin's windows stay paired with its family's as every contender's are.
 * Beside a one-thread noisy neighbour, with one pair a launch (seven rounds of two launches in 15 minutes) the check
 * missed its 10% in 4 of 13 default runs: its window pairs varied by sd 6–33% within a round, its rounds by about
 * that over √2, the windows most of its noise (docs/runs/against.md). Its duets, at half the cost of a pair alone,
 * show the burn at a fraction of its size.
 */
export const CHECK_ALONE = 3;

/**
 * The handicap check's duet windows at the end of each cycle, after its windows alone. The check is judged on its
 * windows alone; its duets are said beside it, with their CPU per request (answers/handicap.ts).
 */
export const CHECK_DUETS = 1;

/**
 * --layout walk: load on the next app for this long before its window, instead of the pause. Its
 * windows come after idle spells of different lengths (a pair's hub is measured more often than
 * its leaves), and an app idle for a while starts slower: the first window after 40 s idle was
 * 10% slower here, and in blocks the later windows of a launch ran 4% under its first.
 */
const TOUCH_S = 0.5;

/** A block being measured: its members, the launcher, and what its windows read. */
interface Block {
  launcher: Launcher;
  results: BlockResults;
  members: Member[];
  round: number;
  /** --layout walk: the walk's pairs, and each window's place in it; null for --layout runtime. */
  pairs: [number, number][] | null;
  seq: number;
  /** The pairs measured in duets too: each change's (--against, --handicap's twin), and the default run's check. */
  duets: [Member, Member][];
  /** Of those, the default run's handicap check (measured both ways in every cycle). */
  checks: [Member, Member][];
  /** How each of those is measured in the current cycle (plan.ts: pairMode). */
  modeOf: (pair: [Member, Member]) => Mode;
  /** Whether a pair is under load at once in any cycle of this round (a duet): then its sides warm up together. */
  inDuets: (pair: [Member, Member]) => boolean;
}

type Mode = 'alone' | 'both' | 'duet';

const loadOf = (b: Block, m: Slot): Load => ({
  connections: m.point.connections,
  rate: m.point.rate,
  duration_s: b.results.settings.duration_s,
  requests: b.results.settings.requests,
  seedDefaults: false,
});
const baseName = (m: Slot, round: number) => `${safe(m.r.name)}/${pointLabel(m.point)}-run${round}`;
const partnerIn = (b: Block, m: Member) => b.duets.find((p) => p.includes(m));
const liveMembers = (b: Block) => b.members.filter((x) => x.app && !x.outcome);

/**
 * Start, verify and warm up every member, one by one; one that fails is out and stopped. A pair measured in duets
 * this round starts, is verified and warms up at the same time, its warmups meeting (its rounds are mostly
 * launches). A pair measured alone warms up one side after the other like any member: warmed up together, each
 * under load beside the other on two CPUs, more of its launches ran far from the rest (docs/runs/against.md, "a
 * pair's two sides warmed up one after the other").
 */
async function launchAll(b: Block): Promise<void> {
  for (const m of b.members) {
    const pair = partnerIn(b, m);
    if (pair && pair[0] !== m) continue;
    await launchGroup(b, pair ?? [m], pair !== undefined && b.inDuets(pair));
  }
}

/** Start, verify and warm up a member or a pair (`together`: at the same moments); a side that fails is stopped. */
async function launchGroup(b: Block, group: Member[], together: boolean): Promise<void> {
  const s = b.results.settings;
  const meet = together ? meeting(group.length) : undefined;
  const one = async (x: Member) => {
    const load = { ...loadOf(b, x), duration_s: s.warmup_s, requests: null };
    const warmup = s.warmup_s > 0 ? { load, rawName: `${baseName(x, b.round)}${launchTag(x)}-warmup.json` } : null;
    const { app, out } = await launch(b.launcher, x.r, x.key, warmup, meet);
    x.app = app;
    if (out) x.outcome = out;
  };
  // Which side starts first alternates by round.
  const ordered = b.round % 2 ? [...group].reverse() : group;
  if (together) await Promise.all(ordered.map(one));
  else for (const x of ordered) await one(x);
  for (const x of group) if (x.outcome) await b.launcher.stop(x.key);
}

const launchTag = (m: Member) => (m.launch ? `-l${m.launch + 1}` : '');

/**
 * The handicap check's pair stopped and launched anew, together, on the round's next launch: before each cycle after
 * the first, and before each of its pairs alone after the cycle's (checkAlone), so each launch holds one pair alone.
 * Its test takes each launch as a unit. Beside a neighbour burning two threads in bursts a launch's windows shared
 * part of their noise: with three pairs a launch, the launch's mean varied 0.61–0.74 as much as its first pair alone,
 * 0.58 had they varied apart (docs/runs/against.md). A relaunch costs about 2 s.
 */
async function relaunch(b: Block, pair: [Member, Member]): Promise<void> {
  if (pair.some((x) => !x.app || x.outcome)) return;
  await Promise.all(pair.map((x) => b.launcher.stop(x.key)));
  for (const x of pair) [x.app, x.launch] = [undefined, x.launch + 1];
  await launchGroup(b, pair, true);
}

/**
 * One measured window of a member, with the CPU every other live member used during it; under
 * --layout walk, its place in the walk (`seq`: outside it, neighbours in time are not compared pairs).
 * `check`: one of the handicap check's windows after the cycle's (CHECK_ALONE), kept apart. The check's two apps record
 * each window's launch, which its test takes as a unit.
 */
async function window(b: Block, m: Member, others: Member[], check = false): Promise<WindowResult> {
  const idleBefore = others.map((o) => b.launcher.cpuSeconds(o.app!));
  const j = m.windows.length;
  const rawName = check
    ? `${baseName(m, b.round)}${launchTag(m)}-alone${m.checkRuns.length + 1}.json`
    : j
      ? `${baseName(m, b.round)}-w${j + 1}.json`
      : `${baseName(m, b.round)}.json`;
  const seq = b.pairs && !check ? b.seq++ : null;
  const extra = () => ({
    idle_cpu_s: others.reduce((s, o, i) => s + Math.max(0, b.launcher.cpuSeconds(o.app!) - idleBefore[i]!), 0),
    ...(seq !== null ? { seq } : {}),
    ...(b.checks.some((p) => p.includes(m)) ? { launch: m.launch } : {}),
  });
  const { run, bad } = await measureWindow(b.launcher, m.app!, loadOf(b, m), rawName, b.round, extra);
  if (run) (check ? m.checkRuns : m.windows).push(run);
  if (bad?.kind === 'redis-died') return died(m);
  if (bad) m.outcome = bad;
  return bad ? 'out' : 'ok';
}

/** The handicap check's pairs alone after the cycle's (CHECK_ALONE − 1), each on a launch of its own, in turns. */
async function checkAlone(b: Block, pair: [Member, Member]): Promise<WindowResult> {
  for (let i = 1; i < CHECK_ALONE; i++) {
    await relaunch(b, pair);
    const first = (pair[0].checkRuns.length + b.round) % 2;
    for (const m of [pair[first]!, pair[1 - first]!]) {
      const live = liveMembers(b);
      if (!live.includes(m)) continue;
      await b.launcher.settle(SETTLE_MS);
      const result = await window(
        b,
        m,
        live.filter((x) => x !== m),
        true,
      );
      if (result === 'redis-died') return result;
      if (result === 'out') await b.launcher.stop(m.key);
    }
  }
  return 'ok';
}

/**
 * One duet window of a pair (a change's, or the handicap check's): both apps under load at the same
 * moments, each with its own oha at the run's load, each with its counters. Each side is checked
 * after it as any window is.
 */
async function duetWindow(b: Block, pair: [Member, Member]): Promise<WindowResult> {
  const { launcher, round } = b;
  const meet = meeting(pair.length);
  // Which side reads its counters and spawns its oha first alternates by window and round: neither side always leads.
  const first = (pair[0]!.duet.length + round) % 2;
  const started = new Map<Member, ReturnType<Launcher['measure']>>();
  for (const m of [pair[first]!, pair[1 - first]!]) {
    const rawName = `${baseName(m, round)}${launchTag(m)}-duet${m.duet.length + 1}.json`;
    started.set(
      m,
      launcher.measure(m.app!, loadOf(b, m), rawName, meet).finally(() => meet.leave()),
    );
  }
  const measured = await Promise.allSettled(pair.map((m) => started.get(m)!));
  if (measured.some((x) => x.status === 'rejected') && !launcher.serversAlive()) return died(...pair);
  let result: WindowResult = 'ok';
  for (const [i, m] of pair.entries()) {
    const x = measured[i]!;
    if (x.status === 'rejected') {
      const reason = `run ${round} (duet): ${(x.reason as Error).message}`;
      m.outcome = { kind: 'out', status: 'failed', reason, output: m.app!.tail() };
      result = 'out';
      continue;
    }
    const run = x.value;
    const { started_at, ended_at, rps, ok, cpu_us_per_req, redis_calls, raw } = run;
    const side = { partner: pair[1 - i]!.r.name, started_at, ended_at, rps, ok, cpu_us_per_req, redis_calls, raw };
    m.duet.push(m.launch ? { ...side, launch: m.launch } : side);
    const record: RunRecord = {
      ...run,
      round,
      pid: m.app!.pid,
      launch_s: m.app!.launchS,
      expected_bytes: m.app!.bytes,
      after_check: 'ok',
    };
    m.duetRuns.push(record);
    const bad = await launcher.check(m.app!, record);
    if (bad?.kind === 'redis-died') return died(m);
    if (bad) {
      m.outcome = bad;
      result = 'out';
    }
  }
  return result;
}

/**
 * --restart-redis: the writer pauses, Redis restarts keeping its data, the writer resumes, and
 * each live member must answer 200 again within 10 s (launcher.ts: RECOVER_MS; or it failed), and that first answer
 * must be a snapshot within its staleness bound (or it is invalid: an exact cache never serves a
 * copy from before the restart). Its later windows are judged as usual.
 */
async function restartRedis(b: Block, blockIndex: number): Promise<void> {
  const live = liveMembers(b);
  const { downMs: down_ms, restartedAt } = await b.launcher.restartRedis();
  log(
    `--restart-redis: Redis restarted (down ${down_ms} ms); ` +
      `waiting for ${live.map((m) => m.r.name).join(', ')} to serve again`,
  );
  const recovered_ms: Record<string, number | null> = {};
  // Every app asked at once: one app's recovery is not counted in the next one's.
  const back = await Promise.all(live.map((m) => b.launcher.recover(m.app!, restartedAt)));
  for (const [i, m] of live.entries()) {
    const { ms, out } = back[i]!;
    recovered_ms[m.r.name] = ms;
    if (!out) continue;
    m.outcome = out;
    await b.launcher.stop(m.key);
  }
  const restart = { round: b.round, block: blockIndex, at: Date.now(), down_ms, recovered_ms };
  (b.results.data.redis_restarts ??= []).push(restart);
}

/**
 * One cycle: each live member's window in `order` (unless its pair is measured in duets only), and
 * once a cycle, after both members of a pair have had their turn, their duet window when the pair's
 * mode in this cycle has one (a walk visits a hub more than once). The handicap check's duets
 * (CHECK_DUETS) wait for the end of the cycle: within it, they would come between a raw server and
 * a framework clustered beside it, whose windows must stay adjacent; its windows alone beyond the cycle's
 * (CHECK_ALONE) come first. An app out of the race stops
 * at once: alive, it could use CPU no window accounts for.
 */
async function cycle(b: Block, order: Member[]): Promise<WindowResult> {
  const seen = new Set<Member>();
  const done = new Set<[Member, Member]>();
  const atEnd: [Member, Member][] = [];
  for (const m of order) {
    const live = liveMembers(b);
    if (!live.includes(m)) continue;
    seen.add(m);
    const pair = partnerIn(b, m);
    const inDuet = pair ? pair.every((x) => live.includes(x)) : false;
    const mode = pair ? b.modeOf(pair) : 'alone';
    if (!(inDuet && mode === 'duet')) {
      // The app measured before finishes its in-flight work and garbage: not on this one's window
      // (under --layout walk, during this one's touch).
      if (b.pairs) await touch(b, m);
      else await b.launcher.settle(SETTLE_MS);
      const result = await window(
        b,
        m,
        live.filter((x) => x !== m),
      );
      if (result === 'redis-died') return result;
      if (result === 'out') await b.launcher.stop(m.key);
    }
    if (!pair || !inDuet || mode === 'alone' || done.has(pair) || !pair.every((x) => seen.has(x))) continue;
    done.add(pair);
    if (b.checks.includes(pair)) atEnd.push(pair);
    else if ((await duet(b, pair)) === 'redis-died') return 'redis-died';
  }
  for (const pair of atEnd) {
    if ((await checkAlone(b, pair)) === 'redis-died') return 'redis-died';
    for (let i = 0; i < CHECK_DUETS; i++) if ((await duet(b, pair)) === 'redis-died') return 'redis-died';
  }
  return 'ok';
}

/** A pair's duet window, if both are still in the race; a side that fails it is stopped. */
async function duet(b: Block, pair: [Member, Member]): Promise<WindowResult> {
  if (pair.some((x) => !x.app || x.outcome)) return 'ok';
  await b.launcher.settle(SETTLE_MS);
  const result = await duetWindow(b, pair);
  if (result !== 'redis-died') for (const x of pair) if (x.outcome) await b.launcher.stop(x.key);
  return result;
}

/** The short load before a window of --layout walk, no longer than the window (its figures are not kept). */
async function touch(b: Block, m: Member): Promise<void> {
  const touchS = Math.min(TOUCH_S, b.results.settings.duration_s ?? TOUCH_S);
  const load = { ...loadOf(b, m), duration_s: touchS, requests: null };
  await b.launcher.load(m.app!, load, `${baseName(m, b.round)}-touch.json`, 'touch');
}

/**
 * Measure a block: launch every member, then `windows` cycles (plan.ts: cycles); then stop them
 * all. One outcome per slot, in order. `pairs`: --layout walk's pairs (plan.ts: walkPairs).
 */
export async function measureBlock(
  launcher: Launcher,
  results: BlockResults,
  slots: Slot[],
  round: number,
  blockIndex: number,
  pairs: [number, number][] | null = null,
): Promise<TrialOutcome[]> {
  const members: Member[] = slots.map((x) => ({
    ...x,
    key: `${x.r.name}#${pointLabel(x.point)}-block-${round}`,
    windows: [],
    duet: [],
    duetRuns: [],
    checkRuns: [],
    launch: 0,
  }));
  const s = results.settings;
  // The default run's handicap check is measured both ways in every cycle (answers/pair-design.ts checkDesign judges
  // it on the narrower), unless a member of its pair is in a change's pair (a --handicap pair is itself one).
  const changes = changePairs(results, members);
  const inChange = (x: Member) => changes.some((p) => p.includes(x));
  const checks = handicapPairs(results, members).filter((c) => !c.some(inChange));
  let changeMode: Mode = 'alone';
  const modeOf = (p: [Member, Member]) => (checks.includes(p) ? 'both' : changeMode);
  const asked = s.against?.pair ?? 'alternate';
  const changeDuets = Array.from({ length: s.windows ?? 1 }, (_, j) =>
    pairMode(asked, results.changes?.design?.chosen, round, j),
  ).some((mode) => mode !== 'alone');
  const inDuets = (p: [Member, Member]) => checks.includes(p) || changeDuets;
  const duets = [...changes, ...checks];
  const b: Block = { launcher, results, members, round, pairs, seq: 0, duets, checks, modeOf, inDuets };
  let redisDied = false;
  try {
    await launchAll(b);
    const random = blockRandom(s.seed, round, blockIndex);
    const twins = twinPairs(results, members);
    const orders = cycles(members, pairs, random, s.windows ?? 1, round, twins, handicapPairs(results, members));
    for (const [j, order] of orders.entries()) {
      if (j === 1 && round === 1 && workloadOfRun(s).restartsRedis(s[s.workload])) await restartRedis(b, blockIndex);
      if (j > 0) for (const pair of checks) await relaunch(b, pair);
      changeMode = pairMode(s.against?.pair ?? 'alternate', results.changes?.design?.chosen, round, j);
      if ((await cycle(b, order)) === 'redis-died') {
        redisDied = true;
        break;
      }
    }
  } finally {
    await Promise.all(members.map((m) => launcher.stop(m.key)));
  }
  return members.map((m) => outcomeOf(m, redisDied, workloadOfRun(s)));
}

/**
 * A member's outcome: its windows pooled into one run (with its duet windows), or, in a round of
 * duet windows only (plan.ts: aloneRound), those pooled and marked `duet_only`. When Redis died,
 * the members measured in this round lose their run (measured again on --resume), the one it died
 * under too when its window, stopped, left no record; a member not measured yet has nothing to report.
 */
function outcomeOf(m: Member, redisDied: boolean, workload: Workload): TrialOutcome {
  const check = m.checkRuns.length ? { check_windows: windowsOf(m.checkRuns) } : {};
  const runs = m.windows.length
    ? [{ ...pooled(m.windows, workload), ...(m.duet.length ? { duet: m.duet } : {}), ...check }]
    : m.duetRuns.length
      ? [{ ...pooled(m.duetRuns, workload), windows: [], duet: m.duet, duet_only: true as const, ...check }]
      : [];
  if (redisDied && !m.outcome)
    return runs.length || m.redisDied ? { kind: 'redis-died', runs } : { kind: 'runs', runs: [] };
  return m.outcome ? { ...m.outcome, runs } : { kind: 'runs', runs };
}
