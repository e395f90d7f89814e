// Three "hosts" on one machine: network namespaces for the load generator, the app and Redis,
// joined by veth pairs (load ↔ app, app ↔ redis), the app's namespace routing between the two
// links as a router would. Only addresses inside these namespaces are used; the test that makes
// them removes them, and with them every link and address.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { killTree, spawnTracked, type Tracked } from '../../packages/harness/src/system/proc';

export type Host = 'load' | 'app' | 'redis';

export interface ThreeHosts {
  ns: Record<Host, string>;
  /** load 10.213.1.1 ↔ 10.213.1.2 app 10.213.2.1 ↔ 10.213.2.2 redis (two /30 links). */
  addr: { load: string; app: string; appToRedis: string; redis: string };
}

const ADDR = { load: '10.213.1.1', app: '10.213.1.2', appToRedis: '10.213.2.1', redis: '10.213.2.2' };

function ip(args: string[]): string {
  const r = spawnSync('ip', args, { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0)
    throw new Error(`ip ${args.join(' ')}: ${(r.stderr || r.error?.message || `exit ${r.status}`).trim()}`);
  return r.stdout;
}

/** Null when namespaces can be made here, else why not (the test is skipped with it). */
export function netnsUnavailable(): string | null {
  const probe = `rsb-probe-${process.pid}`;
  try {
    ip(['netns', 'add', probe]);
    ip(['netns', 'del', probe]);
    return null;
  } catch (e) {
    return (
      'network namespaces are not permitted here ' +
      `(${(e as Error).message.split('\n')[0]}): run as root with iproute2`
    );
  }
}

const hostsOf = (tag: string): ThreeHosts => ({
  ns: { load: `rsb-load-${tag}`, app: `rsb-app-${tag}`, redis: `rsb-redis-${tag}` },
  addr: ADDR,
});

/** Namespaces an earlier run of this test left when it was killed (its pid is gone): removed with what runs in them. */
function removeStale(): void {
  const names = ip(['netns', 'list'])
    .split('\n')
    .map((l) => l.split(' ')[0]!);
  const tags = new Set(names.map((n) => /^rsb-(?:load|app|redis)-(\d+)$/.exec(n)?.[1]).filter((t): t is string => !!t));
  for (const tag of tags) if (!existsSync(`/proc/${tag}`)) deleteNamespaces(hostsOf(tag));
}

/** Makes the namespaces and links; on any failure removes what it made and throws. */
export function makeThreeHosts(tag = String(process.pid)): ThreeHosts {
  removeStale();
  const h = hostsOf(tag);
  try {
    for (const ns of Object.values(h.ns)) {
      ip(['netns', 'add', ns]);
      ip(['-n', ns, 'link', 'set', 'lo', 'up']);
    }
    // Each veth end is created inside its namespace: no name ever exists on the machine's own network.
    link(h.ns.load, 'to-app', ADDR.load, h.ns.app, 'to-load', ADDR.app);
    link(h.ns.app, 'to-redis', ADDR.appToRedis, h.ns.redis, 'to-app', ADDR.redis);
    ip(['netns', 'exec', h.ns.app, 'sysctl', '-q', '-w', 'net.ipv4.ip_forward=1']);
    ip(['-n', h.ns.load, 'route', 'add', '10.213.2.0/30', 'via', ADDR.app]);
    ip(['-n', h.ns.redis, 'route', 'add', '10.213.1.0/30', 'via', ADDR.appToRedis]);
    return h;
  } catch (e) {
    deleteNamespaces(h);
    throw e;
  }
}

function link(nsA: string, devA: string, addrA: string, nsB: string, devB: string, addrB: string): void {
  ip(['-n', nsA, 'link', 'add', devA, 'type', 'veth', 'peer', 'name', devB, 'netns', nsB]);
  ip(['-n', nsA, 'addr', 'add', `${addrA}/30`, 'dev', devA]);
  ip(['-n', nsB, 'addr', 'add', `${addrB}/30`, 'dev', devB]);
  ip(['-n', nsA, 'link', 'set', devA, 'up']);
  ip(['-n', nsB, 'link', 'set', devB, 'up']);
}

/** Starts a command inside a namespace (ip netns exec execs it: the pid is the command's). */
export function startIn(
  h: ThreeHosts,
  host: Host,
  cmd: string[],
  opts: { cwd?: string; env?: Record<string, string> } = {},
): Tracked {
  return spawnTracked('ip', ['netns', 'exec', h.ns[host], ...cmd], {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
  });
}

/** Runs a command inside a namespace to its end, bounded by timeoutMs. */
export function runIn(
  h: ThreeHosts,
  host: Host,
  cmd: string[],
  opts: { timeoutMs?: number; env?: Record<string, string> } = {},
): { code: number | null; out: string } {
  const r = spawnSync('ip', ['netns', 'exec', h.ns[host], ...cmd], {
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 10_000,
    env: { ...process.env, ...opts.env },
  });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/** Stops the given processes, then anything still inside the namespaces (only ours live there), then the namespaces. */
export async function removeThreeHosts(h: ThreeHosts, procs: (Tracked | null | undefined)[] = []): Promise<void> {
  for (const p of procs) if (p) await killTree(p.pid, 2000);
  deleteNamespaces(h);
}

function deleteNamespaces(h: ThreeHosts): void {
  for (const ns of Object.values(h.ns)) {
    const pids =
      spawnSync('ip', ['netns', 'pids', ns], { encoding: 'utf8', timeout: 5000 })
        .stdout?.split('\n')
        .filter(Boolean)
        .map(Number) ?? [];
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {}
    }
    spawnSync('ip', ['netns', 'del', ns], { timeout: 5000 });
  }
}

/** The namespaces of this tag still present (none, after removeThreeHosts). */
export const leftNamespaces = (h: ThreeHosts) =>
  ip(['netns', 'list'])
    .split('\n')
    .map((l) => l.split(' ')[0]!)
    .filter((n) => Object.values(h.ns).includes(n));
