// CACHE=ttl (cache.ts withCache): cache-aside over a fake adapter and a fake clock (performance.now), no Redis and no
// sleep. A copy is aged from when its read was sent, concurrent misses share one read, and a failed read is retried.
import { afterEach, describe, expect, test } from 'bun:test';
import { DEFAULT_SETTINGS, type Entries, type StreamOptions } from '@bench/stream';
import { withCache } from '../../packages/stream/src/cache';

const realNow = performance.now.bind(performance);
let clock = 0;
afterEach(() => {
  performance.now = realNow;
});

/** An adapter whose reads the test settles by hand, in order; `calls` counts the Redis reads. */
function fakeAdapter() {
  const pending: { resolve(e: Entries): void; reject(e: Error): void }[] = [];
  const a = {
    calls: 0,
    entries: () => {
      a.calls++;
      return new Promise<Entries>((resolve, reject) => pending.push({ resolve, reject }));
    },
    close: async () => {},
  };
  return { a, next: () => pending.shift()! };
}

const snapshot = (id: string): Entries => ({ shape: 'flat', entries: [[id, ['f', 'v']]] });
const ttl = (a: ReturnType<typeof fakeAdapter>['a'], cacheTtlMs: number) =>
  withCache(a, {
    client: 'node-redis',
    url: 'redis://127.0.0.1:1',
    workload: 'live',
    key: 'k',
    settings: { ...DEFAULT_SETTINGS, cache: 'ttl' },
    handicapUs: 0,
    cacheTtlMs,
  } as StreamOptions);

describe('CACHE=ttl', () => {
  test('a copy is aged from when its read was sent: served for the TTL after it, read again at the TTL', async () => {
    performance.now = () => clock;
    clock = 0;
    const { a, next } = fakeAdapter();
    const c = await ttl(a, 30);
    const first = c.entries();
    clock = 20; // the reply came 20 ms after the read was sent
    next().resolve(snapshot('1-0'));
    expect(await first).toEqual(snapshot('1-0'));
    clock = 29.5;
    expect(await c.entries()).toEqual(snapshot('1-0'));
    expect(a.calls).toBe(1);
    clock = 30; // 30 ms after the read was sent, though only 10 after its reply came
    const second = c.entries();
    expect(a.calls).toBe(2);
    next().resolve(snapshot('2-0'));
    expect(await second).toEqual(snapshot('2-0'));
  });

  test('concurrent misses share one Redis read; a failed read fails its waiters, the next goes to Redis', async () => {
    performance.now = () => clock;
    clock = 0;
    const { a, next } = fakeAdapter();
    const c = await ttl(a, 30);
    const reads = [c.entries(), c.entries(), c.entries()];
    expect(a.calls).toBe(1);
    next().reject(new Error('gone'));
    for (const r of await Promise.allSettled(reads))
      expect(r).toMatchObject({ status: 'rejected', reason: { message: 'gone' } });
    const again = c.entries();
    expect(a.calls).toBe(2);
    next().resolve(snapshot('3-0'));
    expect(await again).toEqual(snapshot('3-0'));
  });
});

describe('CACHE=tail and tail-body', () => {
  test('refused with WORKLOAD=xrevrange-count, whose body is the newest page newest first, before a read', async () => {
    for (const cache of ['tail', 'tail-body'] as const) {
      const { a } = fakeAdapter();
      const opened = withCache(
        { ...a, follow: () => Promise.reject(new Error('no follower here')) } as never,
        {
          client: 'node-redis',
          url: 'redis://127.0.0.1:1',
          workload: 'xrevrange-count',
          key: 'k',
          settings: { ...DEFAULT_SETTINGS, cache },
          handicapUs: 0,
        } as StreamOptions,
      );
      await expect(opened).rejects.toThrow(
        `CACHE=${cache} is not available with WORKLOAD=xrevrange-count: its copy is kept oldest first`,
      );
      expect(a.calls).toBe(0);
    }
  });
});
