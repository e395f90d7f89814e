// CPU placement of app, Redis and load generator (taskset CPU lists; null = unpinned).
import os from 'node:os';

export const PLACEMENTS = ['auto', 'none', 'split', 'disjoint'] as const;
export type PlacementName = (typeof PLACEMENTS)[number];

export interface Placement {
  name: string;
  app: string | null;
  redis: string | null;
  loadgen: string | null;
}

const range = (from: number, to: number) => (from === to ? `${from}` : `${from}-${to}`);

/** The placement `auto` takes on a machine of `cpus` logical CPUs: its default configuration. */
export const autoPlacement = (cpus: number): 'disjoint' | 'none' => (cpus >= 4 ? 'disjoint' : 'none');

/**
 * none: no pinning. split (2+ CPUs): the app alone on the last CPU, Redis and oha share the rest.
 * disjoint (4+ CPUs): Redis on CPU 0, the app on the upper half, oha on what is left.
 * auto: disjoint with 4+ CPUs, otherwise none, the placement with the smallest measured
 * run-to-run spread on a 2-CPU machine (README, methodology).
 */
export function resolvePlacement(name: PlacementName, cpus = os.cpus().length): Placement {
  if (name === 'auto') return resolvePlacement(autoPlacement(cpus), cpus);
  if (name === 'none' || cpus < 2) return { name: 'none', app: null, redis: null, loadgen: null };
  if (name === 'split' || cpus < 4) {
    const last = cpus - 1;
    return { name: 'split', app: `${last}`, redis: range(0, last - 1), loadgen: range(0, last - 1) };
  }
  const half = Math.floor(cpus / 2);
  return { name: 'disjoint', redis: '0', loadgen: range(1, half - 1), app: range(half, cpus - 1) };
}

/** Prefix a command with taskset when it has a CPU list; taskset execs, so the pid stays the same. */
export function pinned(cpuList: string | null, cmd: string[]): string[] {
  return cpuList ? ['taskset', '-c', cpuList, ...cmd] : cmd;
}

export const cpuCount = (list: string | null) =>
  list === null
    ? os.cpus().length
    : list.split(',').reduce((n, part) => {
        const [a, b] = part.split('-').map(Number);
        return n + (b === undefined ? 1 : b - a! + 1);
      }, 0);
