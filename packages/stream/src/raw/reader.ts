// DECODE=raw: a minimal RESP reader for the one XRANGE a request sends, on a connection of its own, its replies
// transcoded to the JSON body with no per-value parse (transcode.ts). A named technique, not a library's default, and
// a module of its own for an app of yours (index.ts; docs/your-app.md). What it gives up: cluster redirects
// (MOVED/ASK are answered as errors), RESP3 and its pushes, TLS, and every command but the read and the handshake
// (AUTH, SELECT). Reads in flight are pipelined on the one connection, their replies taken in order. A reply that is
// an error or null fails its read only. A connection that drops, a Redis that is gone, and a read not answered within
// its deadline fail the reads the connection holds as Unavailable (an app answers them 503, never with part of a
// body); the next read opens a new connection. Each read has its own deadline, which fires under any traffic (an idle
// timer on the socket would be reset by every new read's write, and under steady arrivals a stalled Redis would hold
// a growing queue for as long as it hung). After a read went past its deadline, reads fail at once until a PING on a
// new connection is answered: a stall then holds no requests. The queue of waiting reads is bounded: a read over the
// bound fails at once. Replies are received into a WebAssembly memory and walked there as they arrive, their end found
// and their body written in one pass (transcode.ts ReplyBuffer); the memory is replaced by one of the first size after
// a large reply.
import { connect, type Socket } from 'node:net';
import { MORE, ReplyBuffer, RespError } from './transcode.ts';

/**
 * Redis did not answer in time, the queue of waiting reads is full, or the connection went: the read failed without a
 * reply, and an app answers it 503 (statusOf). Any other failure (an error reply, a refused AUTH) is a 500.
 */
export class Unavailable extends Error {
  readonly status = 503;
}

/** The status an app answers a failed read with: 503 when Redis is unavailable (Unavailable), else 500. */
export const statusOf = (e: unknown): number => (e instanceof Unavailable ? 503 : 500);

/** A read not answered this long after it was sent drops the connection, and every read it holds fails. */
const DEADLINE_MS = 5_000;
/**
 * Reads sent to Redis and not answered yet, at most; the reads past them wait here, unsent, until replies come. A
 * stalled Redis then holds at most this many reads of a connection, not every read of the stall, which it would all
 * run, for connections long dropped, before it answers a new one (docs/runs/decode.md, the stall). Above the load of a
 * benchmark's connections, so it never holds one back.
 */
const MAX_IN_FLIGHT = 128;
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

/** Why the raw reader cannot read `url`, in one line, or null: TLS, a cluster's hosts, or not a Redis URL. */
export function refusal(url: string): string | null {
  // host:port,host:port… is a cluster's (or a Sentinel's) list of nodes, and no one URL.
  if (/^[a-z]+:\/\/[^/]*,/i.test(url))
    return 'the raw reader reads one standalone Redis: a cluster URL is refused (it does not follow MOVED)';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `the raw reader reads a redis:// URL, not "${url}"`;
  }
  if (u.protocol === 'rediss:')
    return 'the raw reader has no TLS: rediss:// is refused; use a redis:// URL, or a client with TLS';
  if (u.protocol !== 'redis:') return `the raw reader reads redis:// URLs only, not ${u.protocol}`;
  return null;
}

export class RawReader {
  private socket: Socket | null = null;
  private waiting: Waiting[] = [];
  /** How many of `waiting`, from its head, were sent to Redis; the rest are sent as replies come (MAX_IN_FLIGHT). */
  private written = 0;
  /** Bytes received and not yet taken as a complete reply, walked where they are (transcode.ts ReplyBuffer). */
  private replies = new ReplyBuffer(BUF_SIZE);
  /** How far the reply at the buffer's start has been scanned (transcode.ts scanReply), when it is not walked. */
  private scan = { pos: 0, pending: 1 };
  /**
   * How the reply at the buffer's start is taken: walked to its body as it arrives (ReplyBuffer.step), scanned for its
   * end first (a handshake's reply, or one the walk hands to the JavaScript walk), or not begun.
   */
  private mode: 'new' | 'walk' | 'scan' = 'new';
  private readonly read_: Buffer;
  private closed = false;
  /** Fires at the oldest waiting read's deadline. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  /**
   * A read went past its deadline: Redis is stalled. Until a PING on a new connection is answered, a read fails at
   * once, so that a stall holds no requests (and no bodies at its end: every request that waited would be answered
   * at once when Redis goes on, docs/runs/decode.md).
   */
  private stalled = false;

  private readonly url: string;
  private readonly deadlineMs: number;
  private readonly maxWaiting: number;

  /** Reads `args` (one read command) from the Redis at `url`; refuses, in one line, a URL it cannot read. */
  constructor(url: string, args: string[], deadlineMs = DEADLINE_MS, maxWaiting = MAX_WAITING) {
    this.url = url;
    this.deadlineMs = deadlineMs;
    this.maxWaiting = maxWaiting;
    this.read_ = command(args);
    // At start, in one line, not on every read.
    const refused = refusal(url);
    if (refused) throw new Error(refused);
  }

  /** One read: its JSON body. */
  read(): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the raw reader is closed'));
    if (this.waiting.length >= this.maxWaiting)
      return Promise.reject(new Unavailable(`${this.maxWaiting} reads are waiting on Redis already`));
    if (this.stalled) {
      if (!this.socket) this.open();
      return Promise.reject(new Unavailable(`Redis did not answer in ${this.deadlineMs} ms, and has not since`));
    }
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject, deadline: Date.now() + this.deadlineMs });
      this.arm();
      if (this.written < MAX_IN_FLIGHT) {
        socket.write(this.read_);
        this.written++;
      }
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
    if (head && head.deadline <= Date.now() && this.socket) {
      this.stalled = true;
      this.drop(this.socket, new Unavailable(`no complete reply from Redis in ${this.deadlineMs} ms`));
    }
    this.arm();
  }

  /**
   * Opens the connection, with the URL's AUTH and SELECT first (their replies checked, in order); after a stall, a
   * PING, whose answer lets reads through again.
   */
  private open(): Socket {
    const u = new URL(this.url);
    const socket = connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379), noDelay: true });
    this.socket = socket;
    this.replies.reset();
    this.scan = { pos: 0, pending: 1 };
    this.mode = 'new';
    socket.on('data', (chunk: Buffer) => this.take(socket, chunk));
    socket.on('error', (e) => this.drop(socket, new Unavailable(`the connection to Redis failed: ${e.message}`)));
    socket.on('close', () => this.drop(socket, new Unavailable('the connection to Redis closed')));
    const hello: string[][] = [];
    if (u.password)
      hello.push(['AUTH', ...(u.username ? [decodeURIComponent(u.username)] : []), decodeURIComponent(u.password)]);
    const db = u.pathname.slice(1);
    if (db && db !== '0') hello.push(['SELECT', db]);
    if (this.stalled) hello.push(['PING']);
    for (const args of hello) {
      this.waiting.push({
        deadline: Date.now() + this.deadlineMs,
        handshake: true,
        resolve: () => {
          if (args[0] === 'PING') this.stalled = false;
        },
        reject: (e) => this.drop(socket, new Error(`${args[0]} failed: ${e.message}`)),
      });
      socket.write(command(args));
      this.written++;
    }
    this.arm();
    return socket;
  }

  /** New bytes: every complete reply goes to the read waiting longest. */
  private take(socket: Socket, chunk: Buffer): void {
    if (socket !== this.socket) return;
    const replies = this.replies;
    replies.append(chunk);
    // The reply in progress starts at `start`; its walk or scan goes on from where the last chunk left it.
    let start = 0;
    while (start < replies.len) {
      if (this.mode === 'new') {
        // A read's reply is walked to its body as it arrives; a handshake's is only scanned.
        const head = this.waiting[0];
        this.mode = head && !head.handshake ? 'walk' : 'scan';
        if (this.mode === 'walk') replies.begin(start);
      }
      let end: number;
      let walked = -1;
      if (this.mode === 'walk') {
        walked = replies.step();
        if (walked === MORE) break;
        if (walked < 0) {
          // A byte or a shape the JavaScript walk takes: its end is found by the scan, from the reply's start.
          this.mode = 'scan';
          continue;
        }
        end = replies.end;
      } else {
        let complete: boolean;
        try {
          complete = replies.scan(this.scan);
        } catch (e) {
          this.drop(socket, e as Error);
          return;
        }
        if (!complete) break;
        end = this.scan.pos;
      }
      const w = this.waiting.shift();
      this.written--;
      if (!w) {
        this.drop(socket, new Error('a reply from Redis that no read asked for'));
        return;
      }
      if (walked >= 0) w.resolve(replies.walked(walked));
      else this.settle(w, start, end);
      // A reply of another shape dropped the connection, and the bytes with it.
      if (socket !== this.socket) return;
      start = end;
      this.scan = { pos: end, pending: 1 };
      this.mode = 'new';
    }
    if (start > 0) {
      replies.consume(start);
      this.scan.pos -= start;
    }
    this.sendHeld(socket);
    // Grown for a large reply or a burst: back to its first size once no read waits.
    if (!this.waiting.length) replies.shrink();
  }

  /** Sends the reads held back while MAX_IN_FLIGHT were unanswered, as far as the replies taken make room. */
  private sendHeld(socket: Socket): void {
    if (socket !== this.socket || this.written >= this.waiting.length || this.written >= MAX_IN_FLIGHT) return;
    socket.cork();
    for (; this.written < this.waiting.length && this.written < MAX_IN_FLIGHT; this.written++) socket.write(this.read_);
    socket.uncork();
  }

  /** The receive buffer's size now (tests: it shrinks back after a large reply). */
  get bufferBytes(): number {
    return this.replies.bytes.length;
  }

  private settle(w: Waiting, start: number, end: number): void {
    const bytes = this.replies.bytes;
    const isError = bytes[start] === 0x2d;
    if (w.handshake) {
      if (isError) w.reject(new RespError(Buffer.from(bytes.subarray(start + 1, end - 2)).toString()));
      else w.resolve('');
      return;
    }
    try {
      w.resolve(this.replies.body(start, end));
    } catch (e) {
      if (e instanceof RespError && /^(MOVED|ASK|CLUSTERDOWN) /.test(e.message))
        e.message = `a node of a Redis Cluster answered (${e.message}): the raw reader reads one standalone Redis`;
      // An error reply fails its read only; a reply of another shape means the connection cannot be trusted.
      w.reject(e as Error);
      if (!(e instanceof RespError) && this.socket) this.drop(this.socket, e as Error);
    }
  }

  /** The connection is gone or untrusted: every read on it fails, and the next read opens a new one. */
  private drop(socket: Socket, e: Error): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.replies.reset();
    this.scan = { pos: 0, pending: 1 };
    this.mode = 'new';
    const failed = this.waiting;
    this.waiting = [];
    this.written = 0;
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
