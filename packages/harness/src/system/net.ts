import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Where the kernel's ephemeral ports begin (Linux's ip_local_port_range; elsewhere IANA's 49152). */
export function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 49_152;
  } catch {
    return 49_152;
  }
}

/**
 * How many connections one load generator can hold open to one app: each takes an open file in oha and in the app
 * (Bun raises its soft limit to the hard one, and its children inherit it) and an ephemeral port. 100 are kept
 * for everything else the two hold open. Infinity where neither limit can be read.
 */
export function connectionsCeiling(): { max: number; why: string } {
  const bounds: { max: number; why: string }[] = [];
  try {
    const line = readFileSync('/proc/self/limits', 'utf8').match(/^Max open files\s+\S+\s+(\d+)/m);
    if (line) bounds.push({ max: Number(line[1]) - 100, why: `${line[1]} open files a process (ulimit -Hn)` });
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high)
      bounds.push({ max: high - low + 1 - 100, why: `${high - low + 1} ephemeral ports (ip_local_port_range)` });
  } catch {}
  return bounds.sort((a, b) => a.max - b.max)[0] ?? { max: Infinity, why: '' };
}

/** The lowest port freePort hands out: above the registered services most machines run. */
const LOWEST = 10_000;
/** Ports this process handed out lately: not handed out again while an app may still be binding one. */
const handedOut: number[] = [];

/**
 * A loopback port that was free a moment ago, below the kernel's ephemeral range: there, no outgoing connection
 * and no server that asks for port 0 (every neighbouring test's) can take it before the app binds it. Another
 * process's pick of the same port stays possible, if rare: startApp starts again on another port then.
 */
export async function freePort(opts: { room?: number } = {}): Promise<number> {
  // `room`: the port + room must be below the ephemeral range too (a cluster node's bus port, port + 10000).
  const high = ephemeralLow() - 1 - (opts.room ?? 0);
  for (let tries = 0; high - LOWEST >= 1000 && tries < 100; tries++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST + 1));
    if (handedOut.includes(port) || (await portTaken(port))) continue;
    handedOut.push(port);
    if (handedOut.length > 256) handedOut.shift();
    return port;
  }
  return osPort();
}

/** How many ports a start tries when another process binds its port before the server does. */
const PORT_ATTEMPTS = 3;

/**
 * `start` on the asked port, or on a free one: a start that failed because a neighbour bound its port first (`lost`)
 * is tried again on another (an asked port is the caller's to change).
 */
export function onFreePort<T>(
  asked: number | undefined,
  start: (port: number) => Promise<T>,
  lost: (e: unknown) => boolean,
): Promise<T> {
  return asked !== undefined ? start(asked) : onFreePorts(async () => start(await freePort()), lost);
}

/** `start` (which picks its own free ports) tried again, up to PORT_ATTEMPTS times, while it fails as `lost`. */
export async function onFreePorts<T>(start: () => Promise<T>, lost: (e: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (e) {
      if (attempt >= PORT_ATTEMPTS || !lost(e)) throw e;
    }
  }
}

/** The port the OS picks for a listen on port 0 (in its ephemeral range). */
function osPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** True when something already listens on 127.0.0.1:port. */
export function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(true));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(false)));
  });
}

/**
 * True while a socket listens on the port in the process's own network namespace (its /proc/PID/net/tcp and tcp6: an
 * app in another namespace is looked up in its own). False once the process is gone.
 */
export function listensOn(pid: number, port: number): boolean {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  return ['tcp', 'tcp6'].some((file) => {
    let table: string;
    try {
      table = readFileSync(`/proc/${pid}/net/${file}`, 'utf8');
    } catch {
      return false;
    }
    return table.split('\n').some((line) => {
      const [, local, , state] = line.trim().split(/\s+/);
      return local?.endsWith(hex) && state === '0A'; // 0A: LISTEN
    });
  });
}
