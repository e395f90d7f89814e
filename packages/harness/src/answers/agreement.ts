// What two runs must share to be compared (the machine, the software, the data), and whether their
// "what to pick" answers agree: npm run compare's preconditions and its A/A check of the answers.
import type { Results } from '../model/results';
import { heldIn } from './held';
import { hostCpu } from '../model/kept';

export class CompareRefused extends Error {}

/** What must match for two runs to be compared: the machine, the software and the data. */
export function setupDifferences(a: Results, b: Results): string[] {
  const ea = a.environment;
  const eb = b.environment;
  const checks: [string, unknown, unknown][] = [
    ['CPU model', ea.cpu_model, eb.cpu_model],
    ['CPU count', ea.logical_cpus, eb.logical_cpus],
    // The rest of a machine's key (model/kept.ts machineKeys): its architecture, and the host CPU behind a generic
    // name where both runs recorded one (as the pool, which splits a name by the host CPUs recorded under it).
    ['architecture', ea.arch ?? 'x64', eb.arch ?? 'x64'],
    ...(ea.cpu_id && eb.cpu_id
      ? [['host CPU', hostCpu(ea.cpu_id), hostCpu(eb.cpu_id)] as [string, unknown, unknown]]
      : []),
    ['Node', ea.node, eb.node],
    ['Bun', ea.bun, eb.bun],
    // Results without a runtimes record have nothing to compare there.
    ...(ea.runtimes && eb.runtimes
      ? (['node20', 'deno'] as const).map((rt): [string, unknown, unknown] => [rt, ea.runtimes[rt], eb.runtimes[rt]])
      : []),
    ['Redis', ea.redis_server.split(' sha=')[0], eb.redis_server.split(' sha=')[0]],
    ['oha', ea.oha, eb.oha],
    // A session per child (results without the record) and one session schedule the CPU differently (methodology).
    ['child sessions', ea.children?.session ?? 'own', eb.children?.session ?? 'own'],
    ['workload', a.settings.workload, b.settings.workload],
    // The first server's contenders carry no suffix: a run on Valkey or at a distance has the same names as one on
    // Redis. Results without data.servers read one Redis, the one the environment's redis_server names
    // (checked above).
    ...(a.data.servers && b.data.servers
      ? [
          [
            'servers',
            a.data.servers.map((s) => `${s.name} ${s.version}`),
            b.data.servers.map((s) => `${s.name} ${s.version}`),
          ] as [string, unknown, unknown],
        ]
      : []),
    ['Redis RTT (ms)', a.settings.redis_rtt_ms ?? 0, b.settings.redis_rtt_ms ?? 0],
    // What the load asks (publish/rules.ts QUESTION_KEYS) and how the processes share the CPUs.
    // Results written before a setting was recorded read as its only value then (keep-alive, no compression).
    ['connections', a.settings.connections ?? b.settings.connections, b.settings.connections ?? a.settings.connections],
    ['rates', a.settings.rates ?? [], b.settings.rates ?? []],
    ['profile', a.settings.profile ?? 'default', b.settings.profile ?? 'default'],
    ['Redis over TLS', a.settings.redis_tls ?? false, b.settings.redis_tls ?? false],
    ['keep-alive', a.settings.keep_alive ?? true, b.settings.keep_alive ?? true],
    ['compression', a.settings.compression ?? false, b.settings.compression ?? false],
    ['placement', a.settings.placement?.name ?? 'none', b.settings.placement?.name ?? 'none'],
    ['stream entries', a.data.entries, b.data.entries],
    ['body bytes', a.data.body_bytes, b.data.body_bytes],
  ];
  const out = checks
    .filter(([, x, y]) => JSON.stringify(x) !== JSON.stringify(y))
    .map(([what, x, y]) => `${what}: ${JSON.stringify(x)} in A, ${JSON.stringify(y)} in B`);
  for (const app of Object.keys(ea.packages ?? {})) {
    for (const [pkg, v] of Object.entries(ea.packages[app] ?? {})) {
      const w = eb.packages?.[app]?.[pkg];
      if (w !== undefined && w !== v) out.push(`${pkg} in apps/${app}: ${v} in A, ${w} in B`);
    }
  }
  return out;
}

/** The two runs' "what to pick" answers to the comparisons both asked (an A/A check: no answer may flip). */
export interface Agreement {
  both: number;
  same: number;
  /** Decided in one run and not in the other, or "equal" in one and "faster" in the other. */
  differ: string[];
  /** "faster" in both runs, in opposite directions. */
  flipped: string[];
}

/** Each answer of A's run to a comparison B's run asked too, with B's; a pair "flipped" is decided both ways. */
export function answersAgreement(a: Results, b: Results): Agreement {
  const inB = new Map((b.answers ?? []).map((x) => [x.id, x]));
  const pairs = (a.answers ?? []).flatMap((x) => (inB.has(x.id) ? [[x, inB.get(x.id)!] as const] : []));
  const flipped = pairs.filter(([x, y]) => x.verdict === 'faster' && heldIn(x, [y]) === 'reversed').map(([x]) => x.id);
  const differ = pairs
    .filter(([x, y]) => x.verdict !== y.verdict)
    .map(([x, y]) => `${x.id} (${x.verdict} → ${y.verdict})`);
  return { both: pairs.length, same: pairs.length - differ.length - flipped.length, differ, flipped };
}
