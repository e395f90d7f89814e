// The runtimes a manifest may name. Each is pinned and installed by scripts/setup.sh, which
// puts its executable on PATH under this name; results record each one's version.
export const RUNTIMES = {
  node: { exec: 'node', about: 'Node.js 24 LTS' },
  node20: { exec: 'node20', about: 'Node.js 20 (end of life since April 2026)' },
  bun: { exec: 'bun', about: 'Bun' },
  deno: { exec: 'deno', about: 'Deno 2' },
} as const;

export type RuntimeName = keyof typeof RUNTIMES;
export const RUNTIME_NAMES = Object.keys(RUNTIMES) as RuntimeName[];

/** What Deno needs for every client (valkey-glide's native binding wants sys, read, write and ffi). */
export const DENO_RUN = [
  'deno',
  'run',
  '--allow-net',
  '--allow-env',
  '--allow-sys',
  '--allow-read',
  '--allow-write',
  '--allow-ffi',
  '--no-lock',
  '--no-prompt',
];

/**
 * The command that runs a TypeScript script of the harness's own (a probe) on a runtime: Bun and
 * Deno run the source; Node runs the bundle scripts/build-node-app.ts made of it (`bundled`).
 */
export function scriptCommand(runtime: RuntimeName, source: string, bundled: string): string[] {
  if (runtime === 'bun') return ['bun', source];
  if (runtime === 'deno') return [...DENO_RUN, source];
  return [RUNTIMES[runtime].exec, bundled];
}
