// The contract between the apps, the layers and the client modules: what a client module
// provides (Adapter, Follower) and what an app reads from (StreamSource). A leaf: everything in the
// package imports it, and it imports only the value types it names.
import type { Entries, StreamBody, Workload } from './canonical.ts';
import type { ClientName } from './clients.ts';
import type { SettingValues } from './settings.ts';

/** What each client module provides: one Redis read of the workload, in the client's own reply shape. */
export interface Adapter {
  entries(): Promise<Entries>;
  close(): Promise<void>;
  /** CACHE=tail, tail-body: opens a dedicated connection that follows the stream. */
  follow?: Follow;
}

export interface StreamSource {
  /** The plain transform: the reply as plain objects, for the framework's own JSON path. */
  read(): Promise<StreamBody>;
  /** The direct transform: the contract string built by hand. */
  readJson(): Promise<string>;
  /** TRANSFORM=direct: apps send readJson() as it is. */
  direct: boolean;
  close(): Promise<void>;
}

export interface StreamOptions {
  client: ClientName;
  url: string;
  workload: Workload;
  key: string;
  settings: SettingValues;
  /** HANDICAP=on: µs of CPU burnt per request (HANDICAP_US); 0 when the handicap is off. */
  handicapUs: number;
  /** CACHE=ttl: ms a Redis read is served again (CACHE_TTL_MS); DEFAULT_CACHE_TTL_MS when absent. */
  cacheTtlMs?: number;
  /**
   * REDIS_CLUSTER=1: `url` is one node of a Redis Cluster, and the adapter opens the client's cluster client. Default
   * false.
   */
  cluster?: boolean;
}

/**
 * A dedicated connection that follows the stream (CACHE=tail, tail-body); each client module makes its own.
 * It reads with XREVRANGE (newest first), never XRANGE, so that INFO commandstats tells a follower's
 * reads from the XRANGEs that requests make: an idle app's follower must not count as another's reads.
 */
export interface Follower {
  /** XREVRANGE key + - */
  all(): Promise<Entries>;
  /** XREAD COUNT 1 BLOCK 0 STREAMS key id: settles once an entry after `id` exists. */
  wait(id: string): Promise<unknown>;
  /**
   * MULTI, XREVRANGE key + (id, XLEN key, EXEC: the entries after `id` and the length, at one instant.
   * Called while a `wait` is still blocked: a client that can queue it on the same connection
   * sends it at once, so Redis runs it right after the wake-up.
   */
  after(id: string): Promise<{ entries: Entries; length: number }>;
  /** Closes the connection, without reconnecting. */
  close(): void | Promise<void>;
}

/** Opens a follower; the client calls `dropped` when it sees the connection go. */
export type Follow = (dropped: () => void) => Promise<Follower>;

/**
 * What a client module provides for the upsert workload (writes/): commands on its shared
 * connection, and connections of its own for the WATCH strategy.
 */
export interface WriteConnection {
  /**
   * One command on the shared (multiplexed) connection; its reply as the client gives it. On a cluster, routed by
   * routingKey.
   */
  call(args: string[]): Promise<unknown>;
  /** REDIS_CLUSTER=1: one command on every primary (FUNCTION LOAD); a single server has call(). */
  everyPrimary?(args: string[]): Promise<void>;
  /** A new connection for one transaction at a time: nothing else is sent on it. */
  dedicated(): Promise<TxConnection>;
  close(): Promise<void>;
}

/** A connection of its own, for WATCH … EXEC: each client through its own transaction API. */
export interface TxConnection {
  watch(key: string): Promise<void>;
  hget(key: string, field: string): Promise<string | null>;
  unwatch(): Promise<void>;
  /** MULTI, HSET key fields, HINCRBY key applied 1, EXEC: false when EXEC was aborted (a watched key changed). */
  commit(key: string, fields: Record<string, string>): Promise<boolean>;
  close(): Promise<void>;
}
