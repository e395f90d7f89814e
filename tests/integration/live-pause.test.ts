// The live writer inside the harness (workloads/live/session.ts) against a private Redis: a pause stops the writer and
// starts a new one whose log continues the sequence, a Redis that lost entries while paused is refused there, and
// stop() leaves no writer running and every log gzipped.
import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { isAlive } from '../../packages/harness/src/system/proc';
import { startLive } from '../../packages/harness/src/workloads/live/session';
import { cli } from '../../packages/harness/src/topology/redis';
import { redisAndFolder } from '../helpers/writer';

const held = redisAndFolder('live-pause');

test('a pause continues the sequence; entries lost while paused refused; stop() kills writer, gzips logs', async () => {
  const runDir = mkdtempSync(join(held.dir, 'run-'));
  const live = await startLive(held.redis.url, STREAM_KEY, 339, 50, 1, runDir);
  const writers = [live.writer.pid];
  try {
    await Bun.sleep(300);
    // Nothing lost: the next writer's header is the stream the first one left, and its writes extend the timeline.
    expect(await live.pause(async () => 'paused')).toBe('paused');
    writers.push(live.writer.pid);
    expect(isAlive(writers[0]!)).toBe(false);
    const before = live.timeline().seq.length;
    await Bun.sleep(300);
    expect(live.timeline().seq.length).toBeGreaterThan(before);
    // Redis loses its newest entry while paused (as a restart from an RDB saved before it): refused, naming where the
    // stream ends.
    const newest = () => cli(held.redis, ['XREVRANGE', STREAM_KEY, '+', '-', 'COUNT', '1']).split('\n')[0]!.trim();
    const lose = live.pause(async () => cli(held.redis, ['XDEL', STREAM_KEY, newest()]));
    await expect(lose).rejects.toThrow(
      /^after the pause the stream ends at \S+, not at \S+ where the writer's log ended/,
    );
    writers.push(live.writer.pid);
  } finally {
    await live.stop();
  }
  for (const pid of writers) expect(isAlive(pid)).toBe(false);
  expect(readdirSync(runDir).sort()).toEqual(['writer-2.jsonl.gz', 'writer-3.jsonl.gz', 'writer.jsonl.gz']);
  expect(existsSync(join(runDir, 'writer.jsonl'))).toBe(false);
}, 60_000);
