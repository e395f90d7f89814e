import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import {
  busiestThreadSeconds,
  CLOCK_TICKS,
  isAlive,
  killTree,
  machineCpuTicks,
  processTree,
  rssMb,
  selfCpuSeconds,
  spawnTracked,
  threadTicks,
  treeCpuSeconds,
} from '../../packages/harness/src/system/proc';

// A parent shell whose child burns CPU for a while, then sleeps: a two-level tree.
const busyTree = (seconds: number) =>
  spawnTracked('bash', ['-c', `bash -c 'timeout ${seconds} bash -c "while :; do :; done"; sleep 30' & wait`]);

describe('/proc accounting', () => {
  test('the tree holds the grandchild, and its CPU time is counted', async () => {
    const t = busyTree(3);
    await Bun.sleep(300);
    expect(processTree(t.pid).length).toBeGreaterThanOrEqual(2);
    const before = treeCpuSeconds(t.pid);
    const wallStart = performance.now();
    await Bun.sleep(500);
    const used = treeCpuSeconds(t.pid) - before;
    const wall = (performance.now() - wallStart) / 1000;
    // One busy process: close to one CPU-second per second (steal and scheduling allow some slack).
    expect(used).toBeGreaterThan(wall * 0.5);
    expect(used).toBeLessThan(wall * 1.3);
    expect(rssMb(processTree(t.pid))).toBeGreaterThan(0.5);
    await killTree(t.pid);
  });

  test("the busiest thread is the busy grandchild: its own CPU, within the tree's", async () => {
    const t = busyTree(3);
    await Bun.sleep(300);
    const pids = processTree(t.pid);
    const [threadsBefore, treeBefore] = [threadTicks(pids), treeCpuSeconds(t.pid)];
    expect([...threadsBefore.keys()]).toContain(`${t.pid}/${t.pid}`);
    await Bun.sleep(500);
    const busiest = busiestThreadSeconds(threadsBefore, threadTicks(pids));
    const tree = treeCpuSeconds(t.pid) - treeBefore;
    expect(busiest).toBeGreaterThan(0.2);
    expect(busiest).toBeLessThanOrEqual(tree + 0.02);
    await killTree(t.pid);
  });

  test('busiestThreadSeconds: the largest growth between readings; a thread born since counts from zero', () => {
    const before = new Map([
      ['1/1', 100],
      ['1/2', 50],
    ]);
    const after = new Map([
      ['1/1', 130],
      ['1/2', 95],
      ['1/3', 20],
    ]);
    expect(busiestThreadSeconds(before, after)).toBe(45 / CLOCK_TICKS);
    expect(busiestThreadSeconds(before, new Map([...after, ['1/4', 60]]))).toBe(60 / CLOCK_TICKS);
  });

  test('killTree takes down the whole process group, grandchildren included', async () => {
    const t = busyTree(0);
    await Bun.sleep(300);
    const pids = processTree(t.pid);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    await killTree(t.pid, 1000);
    await Bun.sleep(100);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  test("a child has its own process group in the harness's session (one scheduler autogroup)", async () => {
    const t = spawnTracked('bash', ['-c', 'sleep 30 & sleep 30 & wait']);
    await Bun.sleep(300);
    const field = (pid: number, i: number) => {
      const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return +s.slice(s.lastIndexOf(')') + 2).split(' ')[i]!;
    };
    const [PGRP, SESSION] = [2, 3];
    const pids = processTree(t.pid);
    try {
      expect(pids.length).toBeGreaterThanOrEqual(3);
      for (const pid of pids) {
        expect(field(pid, PGRP)).toBe(t.pid);
        expect(field(pid, SESSION)).toBe(field(process.pid, SESSION));
      }
    } finally {
      await killTree(t.pid, 1000);
    }
    expect(pids.filter(isAlive)).toEqual([]);
  });

  test("a command not found fails with spawn's own error", async () => {
    const t = spawnTracked('no-such-command-here', []);
    expect((await t.exited).code).toBe(-1);
    expect(t.tail().join(' ')).toContain('spawn no-such-command-here');
  });

  test('children that exited are counted through the parent (reaped CPU time)', async () => {
    const before = selfCpuSeconds().reapedChildren;
    const t = spawnTracked('bash', ['-c', 'timeout 1 bash -c "while :; do :; done"']);
    await t.exited;
    expect(selfCpuSeconds().reapedChildren - before).toBeGreaterThan(0.2);
  });

  test('machine CPU ticks grow, steal never exceeds the total', async () => {
    const a = machineCpuTicks();
    await Bun.sleep(200);
    const b = machineCpuTicks();
    expect(b.total).toBeGreaterThan(a.total);
    expect(b.steal - a.steal).toBeLessThanOrEqual(b.total - a.total);
  });
});
