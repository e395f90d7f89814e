import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** A loopback port that was free a moment ago (the OS picks it). */
export function freePort(): Promise<number> {
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
