// DECODE=raw: a minimal RESP reader for the one XRANGE a request sends, on a connection of its own, its replies
// transcoded to the JSON body with no per-value parse (transcode.ts). A named technique, not a library's default.
// What it gives up: cluster redirects (MOVED/ASK are answered as errors), RESP3 and its pushes, TLS, and every
// command but the read and the handshake (AUTH, SELECT). Reads in flight are pipelined on the one connection, their
// replies taken in order. A reply that is an error or null fails its read only. A connection that drops, a Redis that
// is gone, and a read not answered within its deadline fail the reads the connection holds (the app answers them with
// an error, never with part of a body); the next read opens a new connection. Each read has its own deadline, which
// fires under any traffic: an idle timer on the socket is reset by every new read's write, so under steady arrivals
// a stalled Redis held a growing queue for as long as it hung (13.1 s for a 12 s stop at 150 req/s). The queue of
// waiting reads is bounded: a read over the bound fails at once. The receive buffer shrinks back after a large reply.
import { connect, type Socket } from 'node:net';
import { RespError, scanReply, xrangeToJson } from './transcode.ts';

/** A read not answered this long after it was sent drops the connection, and every read it holds fails. */
const DEADLINE_MS = 5_000;
/** Reads that may wait on the connection at once; one more fails at once. */
const MAX_WAITING = 1_000;
/** The receive buffer's first size, and how large it may stay between replies. */
const BUF_SIZE = 1 << 17;

interface Waiting {
  resolve(body: string): void;
  reject(e: Error): void;
  /** The handshake's replies are checked, not transcoded. */
  handshake?: boolean;
  /** Date.now() past which it fails. */
  deadline: number;
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
  private buf = new Uint8Array(BUF_SIZE);
  private len = 0;
  /** How far the reply at buf[0] has been walked (transcode.ts scanReply). */
  private scan = { pos: 0, pending: 1 };
  private readonly read_: Buffer;
  private closed = false;
  /** Fires at the oldest waiting read's deadline. */
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly url: string,
    args: string[],
    private readonly deadlineMs = DEADLINE_MS,
    private readonly maxWaiting = MAX_WAITING,
  ) {
    this.read_ = command(args);
    // At start, in one line, not on every read.
    const protocol = new URL(url).protocol;
    if (protocol !== 'redis:') throw new Error(`DECODE=raw reads redis:// URLs only (no TLS), not ${protocol}`);
  }

  /** One read: its JSON body. */
  read(): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the raw reader is closed'));
    if (this.waiting.length >= this.maxWaiting)
      return Promise.reject(new Error(`${this.maxWaiting} reads are waiting on Redis already`));
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject, deadline: Date.now() + this.deadlineMs });
      this.arm();
      socket.write(this.read_);
    });
  }

  /** The timer set for the oldest waiting read's deadline (the queue is in order of sending, so its head's). */
  private arm(): void {
    if (this.timer || !this.waiting.length) return;
    const wait = Math.max(0, this.waiting[0]!.deadline - Date.now());
    this.timer = setTimeout(() => this.expire(), wait);
    this.timer.unref?.();
  }

  /** The oldest read past its deadline: the connection is stalled, and every read on it fails. */
  private expire(): void {
    this.timer = null;
    const head = this.waiting[0];
    if (head && head.deadline <= Date.now() && this.socket)
      this.drop(this.socket, new Error(`no complete reply from Redis in ${this.deadlineMs} ms`));
    this.arm();
  }

  /** Opens the connection, with the URL's AUTH and SELECT first (their replies checked, in order). */
  private open(): Socket {
    const u = new URL(this.url);
    const socket = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379), noDelay: true });
    this.socket = socket;
    this.len = 0;
    this.scan = { pos: 0, pending: 1 };
    socket.on('data', (chunk: Buffer) => this.take(socket, chunk));
    socket.on('error', (e) => this.drop(socket, e));
    socket.on('close', () => this.drop(socket, new Error('the connection to Redis closed')));
    const hello: string[][] = [];
    if (u.password)
      hello.push(['AUTH', ...(u.username ? [decodeURIComponent(u.username)] : []), decodeURIComponent(u.password)]);
    const db = u.pathname.slice(1);
    if (db && db !== '0') hello.push(['SELECT', db]);
    for (const args of hello) {
      this.waiting.push({
        deadline: Date.now() + this.deadlineMs,
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
    // Grown for a large reply: back to its first size once what is left fits.
    if (this.buf.length > BUF_SIZE && this.len <= BUF_SIZE / 2) this.buf = this.buf.slice(0, BUF_SIZE);
  }

  /** The receive buffer's size now (tests: it shrinks back after a large reply). */
  get bufferBytes(): number {
    return this.buf.length;
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
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    socket.destroy();
    for (const w of failed) if (!w.handshake) w.reject(e);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.socket) this.drop(this.socket, new Error('the raw reader is closed'));
  }
}
