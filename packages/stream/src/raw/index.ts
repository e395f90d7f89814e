// The raw read path for an app of your own: one XRANGE of a key on one connection of its own, its reply written
// straight into the JSON body of the contract (docs/methodology.md), with no value parsed or decoded on the way.
// No dependency beyond node:net; these three files run as they are on Node ≥ 23.6, Bun and Deno (docs/your-app.md).
import { RawReader } from './reader.ts';

export { RawReader, refusal, statusOf, Unavailable } from './reader.ts';

/** How the reader bounds a Redis that stalls: each read's deadline, and the reads that may wait at once. */
export interface RawOptions {
  /** A read not answered within this many ms fails (503), with every read on its connection (default 5000). */
  deadlineMs?: number;
  /** Reads waiting on Redis at once; one more fails at once (503) (default 1000). */
  maxWaiting?: number;
}

/**
 * A reader of `XRANGE key - +` from the Redis at `url` (redis://[user:password@]host:port[/db]: AUTH and SELECT on
 * connect; rediss:// and cluster URLs are refused here, in one line). `read()` resolves to the JSON body.
 */
export const xrangeReader = (url: string, key: string, o: RawOptions = {}): RawReader =>
  new RawReader(url, ['XRANGE', key, '-', '+'], o.deadlineMs, o.maxWaiting);
