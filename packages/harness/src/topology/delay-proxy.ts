// A TCP proxy that puts Redis "at a network distance": every chunk is delivered rttMs/2 after it
// arrived, in each direction. The kernel here has no netem, and sub-millisecond RTTs are needed,
// which toxiproxy cannot do. Runs as its own process so its CPU is measured apart from the app's.
//
//   bun delay-proxy.ts --listen-port P --target-host H --target-port Q --rtt-ms X
//
// Timing: Bun's timers have 1 ms granularity (setTimeout(0.2) fires after ~1.1 ms, Bun.sleep(0.2)
// does not sleep at all), and polling with setImmediate is accurate but burns a whole core while
// anything is in flight. So a worker thread (precise-timer.ts) sleeps on a futex until
// the next chunk is due, minus a learnt lead, and wakes this thread with a message; when that
// lands early, a short setImmediate poll covers the rest. Idle, both threads sleep.
import type { Socket, TCPSocketListener } from 'bun';
import { PreciseTimer } from './precise-timer';

export interface ProxyOptions {
  listenPort: number;
  targetHost: string;
  targetPort: number;
  rttMs: number;
}

const USAGE = 'usage: delay-proxy.ts --listen-port P --target-host H --target-port Q --rtt-ms X';

/** The options, or a one-line reason they are wrong. */
export function parseProxyArgs(argv: string[]): ProxyOptions | string {
  const raw: Record<string, string> = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i]!, argv[i + 1]];
    if (!['--listen-port', '--target-host', '--target-port', '--rtt-ms'].includes(flag))
      return `unknown argument ${flag}; ${USAGE}`;
    if (value === undefined || value.startsWith('--')) return `${flag} needs a value; ${USAGE}`;
    raw[flag] = value;
  }
  const missing = ['--listen-port', '--target-host', '--target-port', '--rtt-ms'].filter((f) => raw[f] === undefined);
  if (missing.length) return `missing ${missing.join(', ')}; ${USAGE}`;
  const port = (flag: string, min: number) => {
    const v = raw[flag]!;
    return /^\d+$/.test(v) && +v >= min && +v <= 65535 ? +v : null;
  };
  const listenPort = port('--listen-port', 0); // 0: the OS picks one, and `ready` tells which
  const targetPort = port('--target-port', 1);
  const rttMs = /^\d+(\.\d+)?$/.test(raw['--rtt-ms']!) ? Number(raw['--rtt-ms']) : NaN;
  if (listenPort === null) return `--listen-port must be an integer 0-65535, got ${raw['--listen-port']}`;
  if (targetPort === null) return `--target-port must be an integer 1-65535, got ${raw['--target-port']}`;
  if (!(rttMs >= 0 && rttMs <= 60_000))
    return `--rtt-ms must be a number of milliseconds from 0 to 60000, got ${raw['--rtt-ms']}`;
  return { listenPort, targetHost: raw['--target-host']!, targetPort, rttMs };
}

// ---------------------------------------------------------------------------------------------
// Connections. A pair of Sides; each side's socket receives what its peer sent, delayed.

/** Pause reading a side when this much is on its way to the peer and not yet taken by its kernel. */
const HIGH_WATER = 4 * 1024 * 1024;
const LOW_WATER = 1024 * 1024;

interface Side {
  name: 'client' | 'target';
  sock: Socket<Side> | null; // null until the target connection is open
  peer: Side;
  /** Due bytes the kernel did not take yet (backpressure), oldest first. */
  backlog: Uint8Array[];
  backlogBytes: number;
  /** Bytes in the delay queue heading to this side. */
  inFlight: number;
  /** What to do once the backlog is out: the peer sent FIN (shut our write half) or closed (close). */
  endPending: End | null;
  /** We sent FIN / the remote end did: both, and the socket is done. */
  writeEnded: boolean;
  readEnded: boolean;
  closed: boolean;
  paused: boolean;
}

type End = 'fin' | 'close';
type Item = Uint8Array | End;

interface Pending {
  due: number;
  to: Side;
  item: Item;
}

/** Far below what a wake-up on this host can hit anyway (tens of microseconds). */
const BATCH_MS = 0.01;

export function startProxy(opts: ProxyOptions): TCPSocketListener<Side> {
  const halfRtt = opts.rttMs / 2;
  // One FIFO for every connection and direction: the delay is the same for all, so arrival order is due order.
  const queue: Pending[] = [];
  let head = 0;
  const timer = halfRtt > 0 ? new PreciseTimer(drainDue) : null;

  function drainDue() {
    // Chunks due within BATCH_MS go together: one wake-up for a reply read in several chunks.
    const until = performance.now() + BATCH_MS;
    while (head < queue.length && queue[head]!.due <= until) {
      const p = queue[head]!;
      queue[head++] = undefined as unknown as Pending; // let the chunk be collected
      deliver(p.to, p.item);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
    timer!.arm(head < queue.length ? queue[head]!.due : 0);
  }

  function send(to: Side, item: Item) {
    if (typeof item !== 'string') to.inFlight += item.length;
    if (!timer) return deliver(to, item);
    const wasEmpty = head === queue.length;
    queue.push({ due: performance.now() + halfRtt, to, item });
    if (wasEmpty) timer.arm(queue[head]!.due); // otherwise the head, due sooner, is armed already
  }

  function deliver(to: Side, chunk: Item) {
    if (typeof chunk === 'string') {
      if (!to.closed && to.endPending !== 'close') to.endPending = chunk;
      return settle(to);
    }
    to.inFlight -= chunk.length;
    if (to.closed) return;
    if (to.backlog.length || !to.sock) queueBacklog(to, chunk);
    else {
      const n = to.sock.write(chunk);
      if (n < chunk.length) queueBacklog(to, chunk.subarray(Math.max(n, 0)));
    }
    settle(to);
  }

  return Bun.listen<Side>({
    hostname: '127.0.0.1',
    port: opts.listenPort,
    allowHalfOpen: true,
    socket: sideHandlers(send, (client) => connectTarget(opts, client, send)),
  });
}

function queueBacklog(to: Side, chunk: Uint8Array) {
  to.backlog.push(chunk);
  to.backlogBytes += chunk.length;
}

/** After anything changed for a side: flush its backlog, end it if due, resume its peer's reading. */
function settle(side: Side) {
  const sock = side.sock;
  if (!sock || side.closed) return;
  while (side.backlog.length) {
    const chunk = side.backlog[0]!;
    const n = sock.write(chunk);
    if (n < 0) return; // closing; the close handler cleans up
    side.backlogBytes -= n;
    if (n < chunk.length) {
      side.backlog[0] = chunk.subarray(n);
      break; // the drain handler calls settle again
    }
    side.backlog.shift();
  }
  if (side.endPending && !side.backlog.length) {
    // After the peer's last byte: its FIN shuts our write half (Bun's end() would close the
    // socket, reads included); its close, or a FIN when our remote has sent one too, closes.
    if (side.endPending === 'close' || side.readEnded) sock.end();
    else if (!side.writeEnded) sock.shutdown();
    side.endPending = null;
    side.writeEnded = true;
  }
  const peer = side.peer;
  if (peer.paused && side.backlogBytes + side.inFlight < LOW_WATER) {
    peer.paused = false;
    peer.sock?.resume();
  }
}

function newSide(name: Side['name'], sock: Socket<Side> | null): Side {
  return {
    name,
    sock,
    peer: null as unknown as Side,
    backlog: [],
    backlogBytes: 0,
    inFlight: 0,
    endPending: null,
    writeEnded: false,
    readEnded: false,
    closed: false,
    paused: false,
  };
}

type Send = (to: Side, item: Item) => void;

/** Socket callbacks, the same for both sides. onOpen: a client connected (only the listener passes it). */
function sideHandlers(send: Send, onOpen?: (client: Side) => void) {
  return {
    binaryType: 'uint8array' as const,
    open(sock: Socket<Side>) {
      if (!onOpen) return;
      sock.setNoDelay(true); // Nagle would hold small replies back for an ACK: latency not asked for
      sock.data = newSide('client', sock);
      onOpen(sock.data);
    },
    data(sock: Socket<Side>, chunk: Uint8Array) {
      const side = sock.data;
      send(side.peer, chunk);
      const peer = side.peer;
      if (!side.paused && peer.inFlight + peer.backlogBytes > HIGH_WATER) {
        side.paused = true; // the peer does not keep up: stop reading, let TCP push back on the sender
        sock.pause();
      }
    },
    drain: (sock: Socket<Side>) => settle(sock.data),
    end(sock: Socket<Side>) {
      // The remote sent FIN: pass it on after its last byte; once we sent ours too, the socket is done.
      const side = sock.data;
      side.readEnded = true;
      send(side.peer, 'fin');
      if (side.writeEnded) sock.end();
    },
    close(sock: Socket<Side>) {
      const side = sock.data;
      if (!side || side.closed) return;
      side.closed = true;
      if (side.peer.paused) side.peer.sock?.resume(); // nothing waits for this side any more
      // Closing one side closes the other, after what is still in flight to it.
      if (!side.peer.closed) send(side.peer, 'close');
    },
    error(sock: Socket<Side>, err: Error) {
      console.error(`delay-proxy: ${sock.data?.name ?? 'socket'} error: ${err.message}`);
    },
  };
}

function connectTarget(opts: ProxyOptions, client: Side, send: Send) {
  const target = newSide('target', null);
  client.peer = target;
  target.peer = client;
  // Reading the client while the target connects is fine: what it sends waits in target.backlog.
  Bun.connect<Side>({
    hostname: opts.targetHost,
    port: opts.targetPort,
    allowHalfOpen: true,
    data: target,
    socket: {
      ...sideHandlers(send),
      open(sock) {
        sock.setNoDelay(true);
        target.sock = sock;
        settle(target);
      },
      connectError(_sock, err) {
        console.error(`delay-proxy: cannot connect to ${opts.targetHost}:${opts.targetPort}: ${err.message}`);
        target.closed = true;
        client.sock?.terminate();
      },
    },
  }).catch(() => {}); // reported by connectError
}

function main() {
  const opts = parseProxyArgs(process.argv.slice(2));
  if (typeof opts === 'string') {
    console.error(`delay-proxy: ${opts}`);
    process.exit(2);
  }
  let listener: TCPSocketListener<Side>;
  try {
    listener = startProxy(opts);
  } catch (e) {
    console.error(`delay-proxy: cannot listen on 127.0.0.1:${opts.listenPort}: ${(e as Error).message}`);
    process.exit(1);
  }
  console.log(`ready ${listener.port}`);
}

if (import.meta.main) main();
