// CACHE: a layer between the adapter and the app, as HANDICAP is; apps do not change. Every cache
// but ttl is exact: a body served is the stream as it stood at some instant during the request
// (tail: once the follower has seen the write, a fraction of a ms after XADD returns). ttl is
// stale by design, by up to CACHE_TTL_MS. csc lives in the node-redis adapter (the client's own cache).
import { PAGE, toJson, type Entries } from './canonical.ts';
import type { Adapter, Follow, Follower, StreamOptions } from './contract.ts';
import { SETTINGS } from './settings.ts';

export type CacheName = (typeof SETTINGS.cache.values)[number];

/** What the harness checks of each cache: exact, or stale by up to the bound in `boundEnv` (ms). */
export interface CacheDef {
  exact: boolean;
  boundEnv?: string;
}

export const CACHES: Record<CacheName, CacheDef> = {
  none: { exact: true },
  csc: { exact: true },
  tail: { exact: true },
  'tail-body': { exact: true },
  ttl: { exact: false, boundEnv: 'CACHE_TTL_MS' },
};

export const DEFAULT_CACHE_TTL_MS = 100;

/** CACHE_TTL_MS: a number of ms above 0, DEFAULT_CACHE_TTL_MS when unset. */
export function cacheTtlMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_CACHE_TTL_MS;
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0)
    throw new Error(`CACHE_TTL_MS="${value}" is not valid; use a number of ms above 0`);
  return ms;
}

/** The declared staleness bound of a cache in ms (0: exact), as the app would read it from `env`. */
export function stalenessBoundMs(cache: CacheName, env: Record<string, string | undefined>): number {
  const def = CACHES[cache];
  return def.exact ? 0 : cacheTtlMs(env[def.boundEnv!]);
}

/** Why a client has no client-side cache for XRANGE (CACHE=csc). */
const NO_CSC: Record<string, string> = {
  glide: 'valkey-glide caches only GET, HGETALL and SMEMBERS, not XRANGE',
  ioredis: 'ioredis drops the RESP3 invalidate pushes, so a cached reply would never be invalidated',
  iovalkey: 'iovalkey drops the RESP3 invalidate pushes, so a cached reply would never be invalidated',
  'bun-redis': "Bun's RedisClient would take an invalidate push for the reply to its next command",
};

/** Fails at startup, in one line, when the client cannot run the cache asked for. */
export function checkCache({ client, settings }: StreamOptions): void {
  const only = (SETTINGS.cache.valueClients as Record<string, readonly string[]>)[settings.cache];
  if (only && !only.includes(client)) {
    throw new Error(
      `CACHE=${settings.cache} is not available with REDIS_CLIENT=${client}: ` +
        `${NO_CSC[client] ?? `only ${only.join(', ')} has it`}`,
    );
  }
}

/** tail-body serves this instead of building a body per request. */
export interface CachedAdapter extends Adapter {
  json?(): Promise<string>;
}

/** The adapter behind the cache the settings ask for (csc: the adapter itself caches). */
export async function withCache(a: Adapter, o: StreamOptions): Promise<CachedAdapter> {
  const cache = o.settings.cache;
  if (cache === 'ttl') return withTtl(a, o.cacheTtlMs ?? DEFAULT_CACHE_TTL_MS);
  if (cache !== 'tail' && cache !== 'tail-body') return a;
  // The copy follows the stream oldest first: the whole of it, or its first page (xrange-count), never the newest.
  if (o.workload === 'xrevrange-count')
    throw new Error(
      `CACHE=${cache} is not available with WORKLOAD=xrevrange-count: its copy is kept oldest first, ` +
        `not the newest ${PAGE} newest first`,
    );
  if (!a.follow) throw new Error(`CACHE=${cache} needs a follower, which REDIS_CLIENT=${o.client} does not provide`);
  const tail = new Tail(a.follow, cache === 'tail-body', o.workload === 'xrange-count' ? PAGE : null, a);
  await tail.start();
  return {
    entries: () => tail.entries(),
    ...(cache === 'tail-body' ? { json: () => tail.json() } : {}),
    close: async () => {
      await tail.close();
      await a.close();
    },
  };
}

/** Cache-aside: one Redis read serves every read for ttlMs after it was sent; concurrent misses share it. */
function withTtl(a: Adapter, ttlMs: number): Adapter {
  let value: Entries | null = null;
  let sentAt = 0;
  let pending: Promise<Entries> | null = null;
  const refresh = () => {
    // Aged from when the read was sent: the reply may show the stream as early as that.
    const t0 = performance.now();
    pending = a.entries().then((v) => {
      value = v;
      sentAt = t0;
      return v;
    });
    pending.then(
      () => (pending = null),
      () => (pending = null),
    );
    return pending;
  };
  return {
    entries: () => (value && performance.now() - sentAt < ttlMs ? Promise.resolve(value) : (pending ?? refresh())),
    close: () => a.close(),
  };
}

const HEAD = '{"entries":[';
/** One entry's part of the canonical body, made by toJson itself so the bytes are the same. */
const part = (shape: Entries['shape'], entry: unknown) =>
  toJson({ shape, entries: [entry] } as Entries).slice(HEAD.length, -2);
// biome-ignore lint/suspicious/noExplicitAny: one entry of any of the three shapes, told apart by `shape`
const idOf = (shape: Entries['shape'], e: any): string => (shape === 'flat' ? e[0] : shape === 'object' ? e.id : e.key);

/** A follower's XREVRANGE reply in stream order. */
const oldestFirst = (e: Entries): unknown[] => (e.entries as unknown[]).slice().reverse();

const MIN_BACKOFF_MS = 50;
const MAX_BACKOFF_MS = 1000;

/**
 * CACHE=tail: a copy of the stream, kept by a follower on its own connection. Each wake-up
 * (a blocked XREAD) is followed on the same connection by one MULTI that reads what came after
 * the last id and the length; the last `length` entries of old ++ new are the stream, because
 * writers only ever trim from the head (MAXLEN, XTRIM).
 * The copy is replaced, never changed in place. When the follower fails or its connection
 * drops, the copy is invalid at once (reads go to the adapter) until a fresh connection and a
 * full read have rebuilt it: a copy from before a Redis restart may be stale.
 */
class Tail {
  #copy: unknown[] | null = null;
  #shape: Entries['shape'] = 'flat';
  #served: Entries | null = null;
  #parts: string[] = [];
  #body = '';
  #lastId = '0-0';
  #f: Follower | null = null;
  /** Rejects when the current follower is lost, so a wait the client never settles cannot hang the loop. */
  #lost: Promise<never> = new Promise(() => {});
  #cut: (e: Error) => void = () => {};
  #closed = false;
  #wake = () => {};
  #loop: Promise<void> = Promise.resolve();
  #closing: Promise<unknown> = Promise.resolve();

  #follow: Follow;
  #keepBody: boolean;
  #page: number | null;
  #adapter: Adapter;

  constructor(follow: Follow, keepBody: boolean, page: number | null, adapter: Adapter) {
    this.#follow = follow;
    this.#keepBody = keepBody;
    this.#page = page;
    this.#adapter = adapter;
  }

  async start(): Promise<void> {
    try {
      await this.#sync();
    } catch (e) {
      this.#lose(e as Error);
      throw e;
    }
    this.#loop = this.#run();
  }

  entries(): Promise<Entries> {
    return this.#served ? Promise.resolve(this.#served) : this.#adapter.entries();
  }

  json(): Promise<string> {
    return this.#served ? Promise.resolve(this.#body) : this.#adapter.entries().then(toJson);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#lose(new Error('closed'));
    this.#wake();
    await this.#loop;
    await this.#closing;
  }

  async #run(): Promise<void> {
    let delay = MIN_BACKOFF_MS;
    while (!this.#closed) {
      try {
        if (!this.#f) {
          await this.#sync();
          delay = MIN_BACKOFF_MS;
        }
        const f = this.#f!;
        // The MULTI goes out right behind the blocked XREAD: Redis runs it the moment the XREAD
        // is served, and both replies come back together. Awaiting the XREAD first would cost
        // one more event-loop turn, which a saturated loop makes tens of ms.
        const woken = this.#guard(f.wait(this.#lastId));
        const read = this.#guard(f.after(this.#lastId));
        read.catch(() => {}); // if the XREAD fails, its error is the one handled below
        await woken;
        const { entries, length } = await read;
        if (f === this.#f) this.#set(oldestFirst(entries), length);
      } catch (e) {
        if (this.#closed) break;
        this.#lose(e as Error);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, delay);
          this.#wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        delay = Math.min(delay * 2, MAX_BACKOFF_MS);
      }
    }
  }

  /** A fresh connection and a full read; the copy is valid from here until #lose. */
  async #sync(): Promise<void> {
    this.#lost = new Promise<never>((_, reject) => (this.#cut = reject));
    this.#lost.catch(() => {});
    let f: Follower | null = null;
    f = await this.#follow(() => f !== null && f === this.#f && this.#lose(new Error('connection lost')));
    if (this.#closed) {
      this.#closing = Promise.resolve(f.close()).catch(() => {});
      throw new Error('closed');
    }
    this.#f = f;
    this.#lastId = '0-0';
    const all = await this.#guard(f.all());
    this.#shape = all.shape;
    this.#copy = [];
    this.#parts = [];
    this.#set(oldestFirst(all), all.entries.length);
  }

  /** The copy becomes the last `length` entries of copy ++ added; readers see the new one whole. */
  #set(added: unknown[], length: number): void {
    const shape = this.#shape;
    const copy = [...this.#copy!, ...added];
    this.#copy = copy.slice(Math.max(0, copy.length - length));
    if (added.length) this.#lastId = idOf(shape, added[added.length - 1]);
    const served = this.#page === null ? this.#copy : this.#copy.slice(0, this.#page);
    if (this.#keepBody) {
      const parts = [...this.#parts, ...added.map((e) => part(shape, e))];
      this.#parts = parts.slice(Math.max(0, parts.length - length));
      this.#body = `${HEAD + (this.#page === null ? this.#parts : this.#parts.slice(0, this.#page)).join(',')}]}`;
    }
    this.#served = { shape, entries: served } as Entries;
  }

  /** Invalid at once; the follower's connection closed (a pending wait is cut off). */
  #lose(e: Error): void {
    if (this.#served && !this.#closed) {
      console.error(
        `cache ${this.#keepBody ? 'tail-body' : 'tail'}: follower lost (${e.message}); reading Redis until it is back`,
      );
    }
    this.#served = null;
    this.#copy = null;
    const f = this.#f;
    this.#f = null;
    this.#cut(e);
    if (f)
      this.#closing = Promise.resolve()
        .then(() => f.close())
        .catch(() => {});
  }

  #guard<T>(p: Promise<T>): Promise<T> {
    return Promise.race([p, this.#lost]);
  }
}
