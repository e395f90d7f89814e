// DECODE=raw: a minimal RESP reader for the one XRANGE a request sends, on a connection of its own, its replies
// transcoded to the JSON body with no per-value parse (transcode.ts). A named technique, not a library's default.
// What it gives up: cluster redirects (MOVED/ASK are answered as errors), RESP3 and its pushes, TLS, and every
// command but the read and the handshake (AUTH, SELECT). Reads in flight are pipelined on the one connection, their
// replies taken in order. A reply that is an error, a connection that drops or stalls mid-reply, or a Redis that is
// gone fails the reads it holds (the app answers them with an error, never with part of a body); the next read opens
// a new connection.
import { connect, type Socket } from 'node:net';
import { RespError, scanReply, xrangeToJson } from './transcode.ts';

/** A reply not complete after this long, with reads waiting, drops the connection. */
const STALL_MS = 5_000;

interface Waiting {
  resolve(body: string): void;
  reject(e: Error): void;
  /** The handshake's replies are checked, not transcoded. */
  handshake?: boolean;
}

const command = (args: string[]) => {
  let s = `*${args.length}\r\n`;
  for (const a of args) s += `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
  return Buffer.from(s);
};

export class RawReader {
  private socket: Socket | null = null;
  private waiting: Waiting[] = [];
  /** Bytes received and not yet taken as a complete reply: buf[0, len). */
  private buf = new Uint8Array(1 << 17);
  private len = 0;
  /** How far the reply at buf[0] has been walked (transcode.ts scanReply). */
  private scan = { pos: 0, pending: 1 };
  private readonly read_: Buffer;
  private closed = false;

  constructor(
    private readonly url: string,
    args: string[],
    private readonly stallMs = STALL_MS,
  ) {
    this.read_ = command(args);
    // At start, in one line, not on every read.
    const protocol = new URL(url).protocol;
    if (protocol !== 'redis:') throw new Error(`DECODE=raw reads redis:// URLs only (no TLS), not ${protocol}`);
  }

  /** One read: its JSON body. */
  read(): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the raw reader is closed'));
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      socket.write(this.read_);
    });
  }

  /** Opens the connection, with the URL's AUTH and SELECT first (their replies checked, in order). */
  private open(): Socket {
    const u = new URL(this.url);
    const socket = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379), noDelay: true });
    this.socket = socket;
    this.len = 0;
    this.scan = { pos: 0, pending: 1 };
    socket.setTimeout(this.stallMs);
    socket.on('data', (chunk: Buffer) => this.take(socket, chunk));
    socket.on('timeout', () => {
      if (this.waiting.length) this.drop(socket, new Error(`no complete reply from Redis in ${this.stallMs} ms`));
    });
    socket.on('error', (e) => this.drop(socket, e));
    socket.on('close', () => this.drop(socket, new Error('the connection to Redis closed')));
    const hello: string[][] = [];
    if (u.password)
      hello.push(['AUTH', ...(u.username ? [decodeURIComponent(u.username)] : []), decodeURIComponent(u.password)]);
    const db = u.pathname.slice(1);
    if (db && db !== '0') hello.push(['SELECT', db]);
    for (const args of hello) {
      this.waiting.push({
        handshake: true,
        resolve: () => {},
        reject: (e) => this.drop(socket, new Error(`${args[0]} failed: ${e.message}`)),
      });
      socket.write(command(args));
    }
    return socket;
  }

  /** New bytes: every complete reply goes to the read waiting longest. */
  private take(socket: Socket, chunk: Buffer): void {
    if (socket !== this.socket) return;
    if (this.len + chunk.length > this.buf.length) {
      const bigger = new Uint8Array(Math.max(this.buf.length * 2, this.len + chunk.length));
      bigger.set(this.buf.subarray(0, this.len));
      this.buf = bigger;
    }
    this.buf.set(chunk, this.len);
    this.len += chunk.length;
    // The reply in progress starts at `start`; its scan goes on from where the last chunk left it.
    let start = 0;
    while (start < this.len) {
      let complete: boolean;
      try {
        complete = scanReply(this.buf, this.scan, this.len);
      } catch (e) {
        this.drop(socket, e as Error);
        return;
      }
      if (!complete) break;
      const end = this.scan.pos;
      const w = this.waiting.shift();
      if (!w) {
        this.drop(socket, new Error('a reply from Redis that no read asked for'));
        return;
      }
      this.settle(w, start, end);
      start = end;
      this.scan = { pos: end, pending: 1 };
    }
    if (start > 0) {
      this.buf.copyWithin(0, start, this.len);
      this.len -= start;
      this.scan.pos -= start;
    }
  }

  private settle(w: Waiting, start: number, end: number): void {
    const isError = this.buf[start] === 0x2d;
    if (w.handshake) {
      if (isError) w.reject(new RespError(Buffer.from(this.buf.subarray(start + 1, end - 2)).toString()));
      return;
    }
    try {
      w.resolve(xrangeToJson(this.buf, start, end));
    } catch (e) {
      // An error reply fails its read only; a reply of another shape means the connection cannot be trusted.
      w.reject(e as Error);
      if (!(e instanceof RespError) && this.socket) this.drop(this.socket, e as Error);
    }
  }

  /** The connection is gone or untrusted: every read on it fails, and the next read opens a new one. */
  private drop(socket: Socket, e: Error): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.len = 0;
    this.scan = { pos: 0, pending: 1 };
    const failed = this.waiting;
    this.waiting = [];
    socket.destroy();
    for (const w of failed) if (!w.handshake) w.reject(e);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.socket) this.drop(this.socket, new Error('the raw reader is closed'));
  }
}
