import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startApp } from '../../packages/harness/src/measure/apps';
import type { Contender } from '../../packages/harness/src/model/contenders';
import { ROOT } from '../../packages/harness/src/system/paths';
import { ephemeralLow, freePort, listensOn } from '../../packages/harness/src/system/net';
import { availableParallelism } from 'node:os';
import {
  busiestThread,
  clockTicks,
  isAlive,
  killAllSync,
  killTree,
  machineCpuTicks,
  processTree,
  rssMb,
  selfCpuSeconds,
  spawnTracked,
  threadTicks,
  threadWaitSeconds,
  threadWaits,
  treeCpuSeconds,
  untilIdle,
} from '../../packages/harness/src/system/proc';

// A parent shell whose child burns CPU for a while, then sleeps: a two-level tree.
const busyTree = (seconds: number) =>
  spawnTracked('bash', ['-c', `bash -c 'timeout ${seconds} bash -c "while :; do :; done"; sleep 30' & wait`]);

/**
 * Waits until the tree has used `cpuS` CPU-seconds since `before` (bounded at 20 s of wall time): on a busy machine
 * the loop gets less than a CPU, so a fixed wait would measure the neighbours, not the accounting.
 */
async function untilUsed(pid: number, before: number, cpuS: number): Promise<{ used: number; wall: number }> {
  const start = performance.now();
  let used = 0;
  while (used < cpuS && performance.now() - start < 20_000) {
    await Bun.sleep(100);
    used = treeCpuSeconds(pid) - before;
  }
  return { used, wall: (performance.now() - start) / 1000 };
}

describe('/proc accounting', () => {
  test('the tree holds the grandchild, and its CPU time is counted', async () => {
    const t = busyTree(30);
    try {
      await Bun.sleep(300);
      expect(processTree(t.pid).length).toBeGreaterThanOrEqual(2);
      const { used, wall } = await untilUsed(t.pid, treeCpuSeconds(t.pid), 0.3);
      // One busy process: its CPU time is counted, and never more than one CPU-second per second.
      expect(used).toBeGreaterThanOrEqual(0.3);
      expect(used).toBeLessThan(wall * 1.3 + 0.05);
      expect(rssMb(processTree(t.pid))).toBeGreaterThan(0.5);
    } finally {
      await killTree(t.pid);
    }
  });

  test("the busiest thread is the busy grandchild: its own CPU, within the tree's", async () => {
    const t = busyTree(30);
    try {
      await Bun.sleep(300);
      const pids = processTree(t.pid);
      // The tree read before the threads and after them: its span holds theirs, so the busy thread's ticks cannot
      // outrun it (read the other way round, the busy loop ran between the two reads and counted for the thread only).
      const treeBefore = treeCpuSeconds(t.pid);
      const threadsBefore = threadTicks(pids);
      expect([...threadsBefore.keys()]).toContain(`${t.pid}/${t.pid}`);
      await untilUsed(t.pid, treeBefore, 0.3);
      const busiest = busiestThread(threadsBefore, threadTicks(pids));
      const tree = treeCpuSeconds(t.pid) - treeBefore;
      expect(busiest.s).toBeGreaterThan(0.2);
      expect(busiest.s).toBeLessThanOrEqual(tree + 0.02);
      expect(busiest.id).not.toBe(`${t.pid}/${t.pid}`); // the shell at the top only waits
    } finally {
      await killTree(t.pid);
    }
  });

  test("a thread's wait for a CPU: one busy loop more than CPUs, and they wait; a thread gone gives null", async () => {
    const loops = Array.from({ length: availableParallelism() + 1 }, () => busyTree(3));
    try {
      await Bun.sleep(300);
      const ids = loops.flatMap((t) => [...threadTicks(processTree(t.pid)).keys()]);
      const before = threadWaits(ids);
      expect(before.size).toBe(ids.length); // the kernel keeps it for every thread here
      await Bun.sleep(600);
      const after = threadWaits(ids);
      // n + 1 loops on n CPUs: together they wait about one CPU's worth of the time. Asked: some wait.
      const waited = ids.reduce((s, id) => s + (after.get(id)! - before.get(id)!), 0);
      expect(waited).toBeGreaterThan(0.05);
    } finally {
      for (const t of loops) await killTree(t.pid);
    }
    expect(threadWaitSeconds('999999999/999999999')).toBeNull();
  });

  test('busiestThread: the largest growth between readings; a thread born since counts from zero', () => {
    const before = new Map([
      ['1/1', 100],
      ['1/2', 50],
    ]);
    const after = new Map([
      ['1/1', 130],
      ['1/2', 95],
      ['1/3', 20],
    ]);
    expect(busiestThread(before, after)).toEqual({ id: '1/2', s: 45 / clockTicks() });
    expect(busiestThread(before, new Map([...after, ['1/4', 60]]))).toEqual({ id: '1/4', s: 60 / clockTicks() });
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

  test('killTree: a server closed on SIGTERM whose process lives on is killed soon after the close', async () => {
    // As Elysia on Node (srvx's graceful shutdown): the server closes on SIGTERM, a timer keeps the process alive.
    const port = await freePort();
    const serve = `const s = Bun.serve({ port: ${port}, hostname: '127.0.0.1', fetch: () => new Response('ok') });`;
    const p = spawnTracked('bun', [
      '-e',
      `${serve} process.on('SIGTERM', () => s.stop(true)); setInterval(() => {}, 1e3);`,
    ]);
    for (let i = 0; i < 200 && !listensOn(p.pid, port); i++) await Bun.sleep(50);
    expect(listensOn(p.pid, port)).toBe(true);
    // When the port closes, seen by a watch of its own every 10 ms while killTree runs.
    let closedAt: number | undefined;
    let killing = true;
    const watch = (async () => {
      for (; killing && closedAt === undefined; await Bun.sleep(10)) if (!listensOn(p.pid, port)) closedAt = Date.now();
    })();
    const t0 = Date.now();
    await killTree(p.pid, 30_000, () => listensOn(p.pid, port));
    const killedAt = Date.now();
    killing = false;
    await watch;
    // Gone once killTree returns (a killTree that never sent SIGKILL fails here, not by hanging on its exit).
    for (let i = 0; i < 20 && isAlive(p.pid); i++) await Bun.sleep(50);
    expect(isAlive(p.pid)).toBe(false);
    // Killed 250 ms after its port closed (about 300 ms, with killTree's 50 ms polls), though the grace was 30 s: never
    // sooner than 250 ms after SIGTERM, since the close comes after it, and within 2,500 ms of the close, 8 times what
    // it takes here and still short of the default 3 s grace.
    expect((await p.exited).signal).toBe('SIGKILL');
    expect(closedAt).toBeDefined();
    expect(killedAt - t0).toBeGreaterThanOrEqual(250);
    expect(killedAt - closedAt!).toBeLessThan(2500);
  });

  test('untilIdle: idle processes after a short quiet, a busy one at the bound, a burst once it ends', async () => {
    const loop = (s: number) => `timeout ${s} bash -c "while :; do :; done"`;
    const idle = spawnTracked('sleep', ['30']);
    const busy = spawnTracked('bash', ['-c', `${loop(10)}; sleep 30`]);
    const bursts: { pid: number }[] = [];
    try {
      await Bun.sleep(100); // the loop running
      const tree = (p: { pid: number }) => processTree(p.pid);
      // Idle after 100 ms without a CPU tick: never sooner, and well before the 1 s a tenfold quiet would take (best
      // of three tries, for a try the lane's neighbours delayed).
      const quiet: number[] = [];
      for (let i = 0; i < 3 && !quiet.some((ms) => ms < 900); i++) quiet.push(await untilIdle(tree(idle), 5000));
      expect(Math.min(...quiet)).toBeGreaterThanOrEqual(100);
      expect(Math.min(...quiet)).toBeLessThan(900);
      // A busy loop starved of CPU for 100 ms by the lane's neighbours reads idle (a fresh clone saw it return at
      // 547 ms, once in four): at the bound in one of three tries. An untilIdle that never saw its ticks fails all
      // three.
      const tries: number[] = [];
      for (let i = 0; i < 3 && !tries.some((ms) => ms >= 600); i++) tries.push(await untilIdle(tree(busy), 600));
      expect(Math.max(...tries)).toBeGreaterThanOrEqual(600);
      // The burst's loop ends 0.5 s after its start: not idle before. Starved the same way, a try can read idle
      // early (a fresh clone saw 164 ms): past 250 ms in one of three bursts, and every try done by the bound.
      const waits: number[] = [];
      for (let i = 0; i < 3 && !waits.some((ms) => ms > 250); i++) {
        const burst = spawnTracked('bash', ['-c', `${loop(0.5)}; sleep 30`]);
        bursts.push(burst);
        await Bun.sleep(100);
        waits.push(await untilIdle(tree(burst), 10_000));
      }
      expect(Math.max(...waits)).toBeGreaterThan(250);
      expect(Math.max(...waits)).toBeLessThan(8000);
    } finally {
      for (const p of [idle, busy, ...bursts]) await killTree(p.pid, 500);
    }
  });

  test('startApp: a port a neighbour binds before the app does is picked again, served on another', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-bench-port-'));
    // The first start leaves a squatter (its own process group, outliving the start) on PORT and exits without a word;
    // the next one serves.
    // The squatter shrugs off the reset of startApp's first request (it never answers it).
    const server = "require('net').createServer((s) => s.on('error', () => {}))";
    const squat = `${server}.listen(+process.argv[1], '127.0.0.1', () => console.log('up'));`;
    writeFileSync(
      join(dir, 'app.mjs'),
      `import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
const port = process.env.PORT;
if (existsSync('squatter.json')) createServer((q, s) => s.end('served')).listen(+port, '127.0.0.1');
else {
  const args = ['-e', ${JSON.stringify(`${squat} setTimeout(() => {}, 30000);`)}, port];
  const s = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  s.stdout.once('data', () => {
    writeFileSync('squatter.json', JSON.stringify({ pid: s.pid, port: +port }));
    process.exit(1);
  });
}`,
    );
    const c = { name: 'port-lost', appDir: dir, start: ['node', 'app.mjs'], path: '/' } as unknown as Contender;
    const app = await startApp(c, { env: {}, timeoutMs: 20_000 });
    const squatter = JSON.parse(readFileSync(join(dir, 'squatter.json'), 'utf8')) as { pid: number; port: number };
    try {
      expect(listensOn(squatter.pid, squatter.port)).toBe(true);
      expect(Number(new URL(app.url).port)).not.toBe(squatter.port);
      // Both picks were below the ephemeral range, where no port-0 server or outgoing connection lands.
      for (const port of [squatter.port, Number(new URL(app.url).port)]) expect(port).toBeLessThan(ephemeralLow());
      expect(await (await fetch(app.url)).text()).toBe('served');
    } finally {
      process.kill(squatter.pid, 'SIGKILL');
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.each([
    ['its registry never listed (spawned just before a kill -9)', true],
    ['after a normal exit, its registry gone (one that left its group: setsid, a daemon)', false],
  ])('the orphan guard kills a marked child %s', async (_, registryLeft) => {
    const dir = mkdtempSync(join(tmpdir(), 'stream-bench-'));
    const registry = join(dir, 'process-groups');
    if (registryLeft) writeFileSync(registry, '\n');
    const harness = spawn('sleep', ['0.3']);
    const child = spawn('sleep', ['30'], { env: { ...process.env, BENCH_ORPHAN_GUARD: dir }, detached: true });
    const other = spawn('sleep', ['30'], {
      env: { ...process.env, BENCH_ORPHAN_GUARD: `${dir}-other` },
      detached: true,
    });
    const guard = spawn('bash', [
      join(ROOT, 'packages/harness/src/system/orphan-guard.sh'),
      String(harness.pid),
      registry,
    ]);
    try {
      await new Promise((r) => guard.on('exit', r));
      await Bun.sleep(100);
      expect(isAlive(child.pid!)).toBe(false);
      expect(isAlive(other.pid!)).toBe(true); // another harness's mark: not this one's
      expect(existsSync(dir)).toBe(false);
    } finally {
      other.kill('SIGKILL');
    }
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

  test("killTree takes down its group's orphan: the root gone, a child left to init in its group", async () => {
    const t = spawnTracked('bash', ['-c', '(sleep 30 &); exit 0']);
    await t.exited;
    const orphans = processTree(t.pid);
    expect(orphans.length).toBe(1);
    try {
      await killTree(t.pid, 1000);
      for (let i = 0; i < 20 && orphans.some(isAlive); i++) await Bun.sleep(50);
      expect(orphans.filter(isAlive)).toEqual([]);
    } finally {
      for (const pid of orphans.filter(isAlive)) process.kill(pid, 'SIGKILL');
    }
  });

  test("a tree's CPU holds what its exited children used (reaped into the parent's counts)", async () => {
    const t = spawnTracked('bash', ['-c', 'timeout 0.5 bash -c "while :; do :; done"; sleep 30']);
    try {
      // Until the loop has ended and been reaped: the shell has become its last command, sleep (at most 10 s).
      const sleeping = () => readFileSync(`/proc/${t.pid}/cmdline`, 'utf8').startsWith('sleep\0');
      for (let i = 0; i < 200 && !sleeping(); i++) await Bun.sleep(50);
      expect(processTree(t.pid)).toEqual([t.pid]);
      // Half a second of a busy loop, counted though it is gone (under 0.05 s: the shell and sleep alone).
      expect(treeCpuSeconds(t.pid)).toBeGreaterThan(0.05);
    } finally {
      await killTree(t.pid, 1000);
    }
  });

  test("the /proc fields: a thread's wait is schedstat's 2nd, steal /proc/stat's 8th, RSS VmRSS / 1024", async () => {
    const sleeper = spawnTracked('sleep', ['30']);
    try {
      // Read once it is sleep, asleep: between the fork and the exec its RSS is the spawner's, and changes under us.
      const asleep = () => /^\d+ \(sleep\) S /.test(readFileSync(`/proc/${sleeper.pid}/stat`, 'utf8'));
      for (let i = 0; i < 200 && !asleep(); i++) await Bun.sleep(10);
      const id = `${sleeper.pid}/${sleeper.pid}`;
      const read = () => readFileSync(`/proc/${sleeper.pid}/task/${sleeper.pid}/schedstat`, 'utf8').split(' ');
      const [ran, waited] = read().map(Number);
      expect(threadWaitSeconds(id)).toBe(waited! / 1e9);
      expect(ran).not.toBe(waited);
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${sleeper.pid}/status`, 'utf8'))![1]);
      expect(rssMb([sleeper.pid])).toBe(kb / 1024);
    } finally {
      process.kill(sleeper.pid, 'SIGKILL');
    }
    const cpu = () => readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [before, m, after] = [cpu(), machineCpuTicks(), cpu()];
    expect(m.steal).toBeGreaterThanOrEqual(before[7]!);
    expect(m.steal).toBeLessThanOrEqual(after[7]!);
    const sum = (f: number[]) => f.slice(0, 8).reduce((a, b) => a + b, 0);
    expect(m.total).toBeGreaterThanOrEqual(sum(before));
    expect(m.total).toBeLessThanOrEqual(sum(after));
  });

  test("killAllSync, on the harness's exit: every tree spawned and still running is killed", async () => {
    // SIGTERM ignored by the shell and its children: only a SIGKILL ends them.
    const t = spawnTracked('bash', ['-c', 'trap "" TERM; sleep 30 & sleep 30 & wait']);
    await Bun.sleep(300);
    const pids = processTree(t.pid);
    try {
      expect(pids.length).toBe(3);
      killAllSync();
      for (let i = 0; i < 20 && pids.some(isAlive); i++) await Bun.sleep(50);
      expect(pids.filter(isAlive)).toEqual([]);
    } finally {
      await killTree(t.pid, 500);
    }
  });

  test('machine CPU ticks grow, steal never exceeds the total', async () => {
    const a = machineCpuTicks();
    await Bun.sleep(200);
    const b = machineCpuTicks();
    expect(b.total).toBeGreaterThan(a.total);
    expect(b.steal - a.steal).toBeLessThanOrEqual(b.total - a.total);
  });
});
