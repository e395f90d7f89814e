// A private Redis Cluster: 3 primaries, each with 1 replica, on loopback, holding what the RDB
// holds. Like redis.ts, the harness drives it through redis-cli only, so the set-up and the
// counters never depend on a client under test.
import { pinned } from '../system/placement';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import keySlot from 'cluster-key-slot';
import { freePort, onFreePorts, portTaken } from '../system/net';
import { killTree, scratchDir, spawnTracked, type Tracked } from '../system/proc';
import {
  cli,
  commandStats,
  portLost,
  redisFailureReason,
  RedisError,
  serverArgs,
  startPrivateRedis,
  type CommandStat,
  type RedisTarget,
} from './redis';

export type NodeRole = 'primary' | 'replica';

export interface ClusterNode {
  url: string;
  port: number;
  pid: number;
  /** The role at start (a failover would change it; nothing here triggers one). */
  role: NodeRole;
}

export interface ClusterTarget extends RedisTarget {
  /**
   * Every node, in the order given to `redis-cli --cluster create` (on one host it makes the first three the primaries;
   * `role` says).
   */
  nodes: ClusterNode[];
}

const PRIMARIES = 3;
const NODE_COUNT = PRIMARIES * 2;
/** Redis listens for the cluster bus on port + 10000 (so the port must be at most 55535). */
const BUS_OFFSET = 10_000;
const PORT_TRIES = 200;
/** The loader copies key by key through redis-cli: enough for the benchmark's RDB, not for a big one. */
const MAX_KEYS = 1000;

interface Node {
  port: number;
  url: string;
  proc: Tracked;
  logFile: string;
}

/** `n` loopback ports that are free, and whose bus ports (+10000) are free and clash with none of the others. */
export async function clusterPorts(n: number): Promise<number[]> {
  const ports: number[] = [];
  for (let tries = 0; ports.length < n && tries < PORT_TRIES; tries++) {
    // Port and bus port both below the ephemeral range: no outgoing connection takes either before its node binds it.
    const p = await freePort({ room: BUS_OFFSET });
    const clash = ports.some((q) => q === p || q + BUS_OFFSET === p || p + BUS_OFFSET === q);
    if (p + BUS_OFFSET <= 65_535 && !clash && !(await portTaken(p + BUS_OFFSET))) ports.push(p);
  }
  if (ports.length < n) {
    throw new RedisError(
      `cluster: found only ${ports.length} of ${n} free loopback ports whose bus port (port + ${BUS_OFFSET}) ` +
        `is free too, in ${PORT_TRIES} tries (free some loopback ports)`,
    );
  }
  return ports;
}

function startNode(port: number, dir: string, cpuList: string | null): Node {
  const logFile = join(dir, `redis-${port}.log`);
  // Each node keeps its own cluster state file and RDB name in the shared temp dir; nothing is saved.
  // A replica is listed to clients only once its replication offset is above 0; the primary's
  // pings move it, every 10 s by default, so a primary with no keys would hide its replica that long.
  // The first sync starts at once, not after the 5 s a primary waits for more replicas to share it.
  const args = [
    ...serverArgs({ port, dir, rdb: `dump-${port}.rdb`, logFile }),
    '--cluster-enabled',
    'yes',
    '--cluster-config-file',
    `nodes-${port}.conf`,
    '--repl-ping-replica-period',
    '1',
    '--repl-diskless-sync-delay',
    '0',
  ];
  // Pinned where the run's placement puts Redis, as a single private Redis is.
  const [bin, ...rest] = pinned(cpuList, ['redis-server', ...args]);
  return { port, url: `redis://127.0.0.1:${port}`, proc: spawnTracked(bin!, rest), logFile };
}

const readLog = (n: Node) => (existsSync(n.logFile) ? readFileSync(n.logFile, 'utf8') : '');

/** Why a node stopped, in one line: a missing binary, or the reason in its log. */
function exitReason(n: Node): string {
  const spawnErr = n.proc.tail().find((l) => l.startsWith('spawn redis-server'));
  if (spawnErr)
    return `${spawnErr} (redis-server is missing: run npm run bench to install it, or apt-get install redis-server)`;
  return (
    `redis-server on port ${n.port} (cluster node) exited: ` +
    `${redisFailureReason(readLog(n) || n.proc.tail().join('\n'))}`
  );
}

/**
 * Polls `check` (a throw counts as not yet) every 100 ms until it holds, for at most `timeoutMs`;
 * a node that exits ends the wait at once with its reason.
 */
async function waitFor(nodes: Node[], what: string, timeoutMs: number, check: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (let attempt = 0; attempt <= timeoutMs / 100; attempt++) {
    const dead = nodes.find((n) => n.proc.hasExited());
    if (dead) throw new RedisError(exitReason(dead));
    try {
      if (check()) return;
    } catch (e) {
      last = ` (last: ${(e as Error).message})`;
    }
    if (Date.now() > deadline) break;
    await Bun.sleep(100);
  }
  throw new RedisError(`cluster: ${what} did not happen within ${timeoutMs / 1000}s${last}`);
}

/** `redis-cli --cluster create`: the first three nodes become primaries, one replica each. */
function createCluster(nodes: Node[]): void {
  const args = [
    '--cluster',
    'create',
    ...nodes.map((n) => `127.0.0.1:${n.port}`),
    '--cluster-replicas',
    '1',
    '--cluster-yes',
  ];
  const res = spawnSync('redis-cli', args, { encoding: 'utf8', timeout: 60_000 });
  const out = `${res.stdout ?? ''}\n${res.stderr ?? ''}`;
  if (res.error || res.status !== 0 || !out.includes('All 16384 slots covered')) {
    const why =
      res.error?.message ??
      out
        .split('\n')
        .filter((l) => /ERR|error|fail/i.test(l))
        .slice(-2)
        .join(' / ');
    throw new RedisError(
      `redis-cli --cluster create failed: ${why || `exit ${res.status}`} ` +
        '(is redis-cli 7.x installed? run npm run bench to set it up)',
    );
  }
}

interface NodeLine {
  id: string;
  port: number;
  role: NodeRole;
  primaryId: string | null;
  slots: [number, number][];
}

/** CLUSTER NODES, one line per node: id ip:port@bus flags primary-id … slot ranges. */
function clusterNodes(target: { url: string }): NodeLine[] {
  return cli(target, ['CLUSTER', 'NODES'])
    .trim()
    .split('\n')
    .map((line) => {
      const [id, addr, flags, primary, , , , , ...slots] = line.split(' ');
      return {
        id: id!,
        port: Number(/:(\d+)@/.exec(addr!)?.[1]),
        role: flags!.split(',').includes('master') ? 'primary' : 'replica',
        primaryId: primary === '-' ? null : primary!,
        // Ranges only: an importing/migrating marker ([…]) never occurs in a fresh cluster.
        slots: slots
          .filter((s) => /^\d/.test(s))
          .map((s) => s.split('-').map(Number))
          .map(([a, b]) => [a!, b ?? a!]),
      };
    });
}

const clusterOk = (n: Node) => /^cluster_state:ok\r?$/m.test(cli(n, ['CLUSTER', 'INFO'], { timeoutMs: 2000 }));
const linkUp = (n: Node) => /^master_link_status:up\r?$/m.test(cli(n, ['INFO', 'replication'], { timeoutMs: 2000 }));
/**
 * What clients discover, as this node tells it: every replica online in CLUSTER SHARDS (node-redis)
 * and listed in CLUSTER SLOTS (ioredis, glide). Redis 7 leaves out a replica whose replication
 * offset it has not yet heard (through the cluster bus) to be above 0, and a client would then read from the primary.
 */
function replicasListed(n: Node): boolean {
  const slots = JSON.parse(cli(n, ['CLUSTER', 'SLOTS'], { json: true, timeoutMs: 2000 })) as unknown[][];
  const shards = JSON.parse(cli(n, ['CLUSTER', 'SHARDS'], { json: true, timeoutMs: 2000 })) as unknown[][];
  // RESP2 flattens each map to [name, value, …]: a shard's 'nodes', a node's 'health'.
  const nodes = shards.flatMap((shard) => shard[shard.indexOf('nodes') + 1] as unknown[][]);
  const online = nodes.filter((node) => node[node.indexOf('health') + 1] === 'online').length;
  return slots.length === PRIMARIES && slots.every((range) => range.length === 4) && online === NODE_COUNT;
}

const dbsize = (n: { url: string }) => Number(cli(n, ['DBSIZE'], { timeoutMs: 2000 }).trim());

/** Checks the layout is 3 primaries with one replica each, and returns each replica's primary. */
function pairs(layout: NodeLine[]): { replica: NodeLine; primary: NodeLine }[] {
  const primaries = layout.filter((l) => l.role === 'primary' && l.slots.length > 0);
  const out = layout
    .filter((l) => l.role === 'replica')
    .map((replica) => ({ replica, primary: primaries.find((p) => p.id === replica.primaryId)! }));
  if (
    layout.length !== NODE_COUNT ||
    primaries.length !== PRIMARIES ||
    out.length !== PRIMARIES ||
    out.some((p) => !p.primary)
  ) {
    const roles = layout.map((l) => `${l.port}:${l.role}`).join(' ');
    throw new RedisError(`cluster: expected ${PRIMARIES} primaries with one replica each, CLUSTER NODES says ${roles}`);
  }
  return out;
}

const byPort = (nodes: Node[], port: number) => nodes.find((n) => n.port === port)!;

/** Copies every key of the RDB, through a private single Redis, to the primary that owns its slot. */
async function loadRdb(rdbPath: string, nodes: Node[], layout: NodeLine[]): Promise<void> {
  const single = await startPrivateRedis(rdbPath);
  try {
    const keys = cli(single, ['--scan']).split('\n').filter(Boolean);
    if (keys.length > MAX_KEYS)
      throw new RedisError(
        `cluster: ${rdbPath} holds ${keys.length} keys; the cluster loader copies at most ${MAX_KEYS}`,
      );
    for (const key of keys) {
      const slot = Number(cli(nodes[0]!, ['CLUSTER', 'KEYSLOT', key]).trim());
      const owner = layout.find((l) => l.role === 'primary' && l.slots.some(([a, b]) => slot >= a && slot <= b));
      if (!owner) throw new RedisError(`cluster: no primary owns slot ${slot} (key ${key})`);
      // COPY leaves the key in the single Redis, which is stopped next anyway; MIGRATE's own errors (IOERR, NOKEY) are
      // replies, not ERR.
      const reply = cli(single, ['MIGRATE', '127.0.0.1', String(owner.port), key, '0', '5000', 'COPY'], {
        timeoutMs: 10_000,
      }).trim();
      if (reply !== 'OK')
        throw new RedisError(`cluster: MIGRATE of ${key} to 127.0.0.1:${owner.port} answered ${reply.split('\n')[0]}`);
    }
  } finally {
    await single.stop();
  }
}

/**
 * Starts the cluster from the RDB: six redis-servers on free ports, `redis-cli --cluster create`,
 * the RDB's keys copied in, then ready once every node says cluster_state:ok, every replica holds
 * as many keys as its primary (a keyless check: a replica answers key commands only after READONLY)
 * and every node lists every replica to clients.
 */
export async function startCluster(
  rdbPath: string,
  opts: { timeoutMs?: number; cpuList?: string | null; ports?: (n: number) => Promise<number[]> } = {},
): Promise<ClusterTarget> {
  if (!existsSync(rdbPath) || !statSync(rdbPath).isFile())
    throw new RedisError(`RDB file not found: ${rdbPath} (pass an existing file, or run npm run make-rdb)`);
  // A node whose port (or bus port) another process bound first: the cluster starts again, on other ports.
  return onFreePorts(async () => startOnPorts(rdbPath, await (opts.ports ?? clusterPorts)(NODE_COUNT), opts), portLost);
}

async function startOnPorts(
  rdbPath: string,
  ports: number[],
  opts: { timeoutMs?: number; cpuList?: string | null },
): Promise<ClusterTarget> {
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const dir = mkdtempSync(join(scratchDir(), 'stream-bench-cluster-'));
  const nodes = ports.map((p) => startNode(p, dir, opts.cpuList ?? null));
  const stop = async () => {
    await Promise.all(nodes.map((n) => killTree(n.proc.pid, 2000)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(nodes, 'every node answering PING', timeoutMs, () =>
      nodes.every((n) => cli(n, ['PING'], { timeoutMs: 1000 }).trim() === 'PONG'),
    );
    createCluster(nodes);
    await waitFor(nodes, 'cluster_state:ok on every node', timeoutMs, () => nodes.every(clusterOk));
    // Every node has its role once the config has spread; until then pairs() throws, and the wait retries.
    let layout: NodeLine[] = [];
    let shards: ReturnType<typeof pairs> = [];
    const settled = () => {
      layout = clusterNodes(nodes[0]!);
      shards = pairs(layout);
      return true;
    };
    await waitFor(nodes, `${PRIMARIES} primaries with a replica each`, timeoutMs, settled);
    await waitFor(nodes, 'every replica linked to its primary', timeoutMs, () =>
      shards.every((s) => linkUp(byPort(nodes, s.replica.port))),
    );
    await loadRdb(rdbPath, nodes, layout);
    const caughtUp = () =>
      shards.every((s) => dbsize(byPort(nodes, s.replica.port)) === dbsize(byPort(nodes, s.primary.port)));
    await waitFor(nodes, "every replica holding its primary's keys", timeoutMs, caughtUp);
    await waitFor(
      nodes,
      'every replica listed to clients by every node (CLUSTER SLOTS, CLUSTER SHARDS)',
      timeoutMs,
      () => nodes.every(replicasListed),
    );
    const role = (port: number) => layout.find((l) => l.port === port)!.role;
    return {
      url: nodes[0]!.url,
      nodes: nodes.map((n) => ({ url: n.url, port: n.port, pid: n.proc.pid, role: role(n.port) })),
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}

export interface NodeStats extends ClusterNode {
  stats: Record<string, CommandStat>;
}

/** INFO commandstats of every node, and summed over the cluster (keyed by lower-case command name). */
export function clusterCommandStats(target: ClusterTarget): { total: Record<string, CommandStat>; nodes: NodeStats[] } {
  const nodes = target.nodes.map((n) => ({ ...n, stats: commandStats({ url: n.url, stop: async () => {} }) }));
  const total: Record<string, CommandStat> = {};
  for (const n of nodes) {
    for (const [cmd, s] of Object.entries(n.stats)) {
      const t = (total[cmd] ??= { calls: 0, usec: 0, usecPerCall: 0 });
      t.calls += s.calls;
      t.usec += s.usec;
      t.usecPerCall = t.calls ? t.usec / t.calls : 0;
    }
  }
  return { total, nodes };
}

/**
 * Which primary holds each key: `key(id)` names the key of each id, and each id is filed under the
 * URL of the primary that owns its slot (CLUSTER NODES now, so a resharded cluster is read right).
 */
export function byPrimary(target: ClusterTarget, ids: string[], key: (id: string) => string): Map<string, string[]> {
  const layout = clusterNodes(target).filter((l) => l.role === 'primary');
  const urlOf = (port: number) => target.nodes.find((n) => n.port === port)?.url ?? `redis://127.0.0.1:${port}`;
  const out = new Map<string, string[]>();
  for (const id of ids) {
    const slot = keySlot(key(id));
    const owner = layout.find((l) => l.slots.some(([a, b]) => slot >= a && slot <= b));
    if (!owner) throw new RedisError(`cluster: no primary owns slot ${slot} (key ${key(id)})`);
    const url = urlOf(owner.port);
    (out.get(url) ?? out.set(url, []).get(url)!).push(id);
  }
  return out;
}
