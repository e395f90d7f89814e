// The raw read path for an app of your own: one XRANGE of a key on one connection of its own, its reply written
// straight into the JSON body of the contract (docs/methodology.md), with no value parsed or decoded on the way.
// No dependency beyond node:net, node:tls and node:fs; these three files run as they are on Node ≥ 23.6, Bun and
// Deno (docs/your-app.md).
import { type RawOptions, RawReader } from './reader.ts';

export {
  HandshakeRefused,
  type RawOptions,
  RawReader,
  refusal,
  statusOf,
  TlsRefused,
  tlsFromEnv,
  Unavailable,
} from './reader.ts';

/**
 * A reader of `XRANGE key - +` from the Redis at `url` (redis://[user:password@]host:port[/db]: AUTH and SELECT on
 * connect; rediss:// over TLS with `o.tls`; a cluster URL is refused here, in one line). `read()` resolves to the JSON
 * body.
 */
export const xrangeReader = (url: string, key: string, o: RawOptions = {}): RawReader =>
  new RawReader(url, ['XRANGE', key, '-', '+'], o);
