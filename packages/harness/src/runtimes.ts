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
