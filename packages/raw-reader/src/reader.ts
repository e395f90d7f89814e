// DECODE=raw: a minimal RESP reader for the one XRANGE a request sends, on a connection of its own, its replies
// transcoded to the JSON body with no per-value parse (transcode.ts). A named technique, not a library's default, and
// a module of its own for an app of yours (index.ts; docs/your-app.md). What it gives up: cluster redirects
// (MOVED/ASK are answered as errors), Sentinel, RESP3 and its pushes, and every command but the read and the handshake
// (AUTH, SELECT). It reads one standalone Redis, over TCP or TLS (rediss://). Reads in flight are pipelined on the one
// connection, their replies taken in order. The framing is strict (transcode.ts scanReply): a reply that is an error,
// a nil or of another shape fails its read only, named; bytes that are not RESP, or a reply over the size cap, fail
// the reads the connection holds and drop it. A connection that drops fails the reads sent on it as Unavailable (an
// app answers them 503, never with part of a body); it is opened again after a bounded, jittered backoff, and reads
// not sent yet wait for it up to their deadline (AUTH and SELECT replayed first). Each read has its own deadline, which
// fires under any traffic (an idle timer on the socket would be reset by every new read's write, and under steady
// arrivals a stalled Redis would hold a growing queue for as long as it hung). After a read went past its deadline,
// reads fail at once until a PING on a new connection is answered: a stall then holds no requests. The queue of
// waiting reads is bounded: a read over the bound fails at once. Replies are received into a WebAssembly memory and
// walked there as they arrive, their end found and their body written in one pass (transcode.ts ReplyBuffer); the
// memory is replaced by one of the first size within a second of a large reply, under load too.
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { MAX_REPLY_BYTES, MORE, ReplyBuffer, ReplyShapeError, RespError, RespFramingError } from './transcode.ts';

/**
 * Redis did not answer in time, the queue of waiting reads is full, or the connection went: the read failed without a
 * reply, and an app answers it 503 (statusOf). Any other failure (an error reply, a refused AUTH) is a 500.
 */
export class Unavailable extends Error {
  readonly status = 503;
}

/**
 * The TLS handshake with Redis failed on what a retry cannot change: Redis's certificate is not signed by a CA the
 * reader trusts, names another host, has expired, or the port does not speak TLS. Every read fails at once with it (an
 * app answers 503), and connect() rejects with it, until a handshake succeeds.
 */
export class TlsRefused extends Unavailable {}

/**
 * Redis refused the URL's AUTH or SELECT (a wrong password, a user without the right, a database out of range): what
 * a retry does not mend either. connect() rejects with it, and every read fails at once with it (an app answers 500),
 * until a handshake succeeds; the reader tries a new connection after its backoff.
 */
export class HandshakeRefused extends Error {}

/** A TLS error before the handshake completed, which a retry cannot mend (not the network's: ECONNREFUSED, …). */
const tlsRefusal = (e: Error & { code?: string }): TlsRefused =>
  new TlsRefused(
    `the TLS handshake with Redis failed: ${e.message}${e.code ? ` (${e.code})` : ''}; REDIS_TLS_CA ` +
      "(or RawOptions.tls.ca) must name the CA that signed Redis's certificate, for the host the URL names",
  );

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
/** Reconnects back off from this many ms, doubling to RETRY_MAX_MS, each delay jittered down by up to half. */
const RETRY_MS = 20;
const RETRY_MAX_MS = 500;

/** How the reader reaches Redis and bounds it: each read's deadline, the reads that may wait, a reply's size, TLS. */
export interface RawOptions {
  /** A read not answered within this many ms fails (503), with every read on its connection (default 5000). */
  deadlineMs?: number;
  /** Reads waiting on Redis at once; one more fails at once (503) (default 1000). */
  maxWaiting?: number;
  /** A reply larger than this fails its reads and drops the connection (default 64 MiB). */
  maxReplyBytes?: number;
  /**
   * For rediss:// URLs: node:tls's options (ca, cert, key, servername, rejectUnauthorized). Without it, the files an
   * app is given in its environment: REDIS_TLS_CA (the CA that signed Redis's certificate), REDIS_TLS_CERT and
   * REDIS_TLS_KEY (a client certificate, when Redis asks for one).
   */
  tls?: Pick<ConnectionOptions, 'ca' | 'cert' | 'key' | 'servername' | 'rejectUnauthorized'>;
}

/** RawOptions.tls from REDIS_TLS_CA, REDIS_TLS_CERT and REDIS_TLS_KEY (files), as an app is given them. */
export function tlsFromEnv(env: Record<string, string | undefined> = process.env): RawOptions['tls'] {
  const file = (name: string) => (env[name] ? readFileSync(env[name]!) : undefined);
  const [ca, cert, key] = [file('REDIS_TLS_CA'), file('REDIS_TLS_CERT'), file('REDIS_TLS_KEY')];
  return { ...(ca ? { ca } : {}), ...(cert ? { cert } : {}), ...(key ? { key } : {}) };
}

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

/** Why the raw reader cannot read `url`, in one line, or null: a cluster's hosts, or not a Redis URL. */
export function refusal(url: string): string | null {
  // host:port,host:port… is a cluster's (or a Sentinel's) list of nodes, and no one URL (a comma in the user or
  // password is theirs: the hosts are after the last @).
  const authority = /^[a-z]+:\/\/([^/]*)/i.exec(url)?.[1] ?? '';
  if (authority.slice(authority.lastIndexOf('@') + 1).includes(','))
    return 'the raw reader reads one standalone Redis: a cluster URL is refused (it does not follow MOVED)';
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `the raw reader reads a redis:// URL, not "${url}"`;
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    return `the raw reader reads redis:// and rediss:// URLs only, not ${u.protocol}`;
  try {
    decodeURIComponent(u.username);
    decodeURIComponent(u.password);
  } catch {
    return 'the URL\'s user or password holds a "%" that is not an escape: write it %25';
  }
  return null;
}

export class RawReader {
  private socket: Socket | null = null;
  /** The socket connected (TLS: its handshake done): the handshake's commands and the reads may be written. */
  private ready = false;
  /** rediss://: the TCP connection is up, its TLS handshake not done yet; since when (Date.now()). */
  private handshaking = false;
  private handshakeSince = 0;
  /** Every read not answered yet, in order of sending: the first `written` were sent, the rest wait to be. */
  private waiting: Waiting[] = [];
  /** How many of `waiting`, from its head, were sent to Redis; the rest are sent as replies come (MAX_IN_FLIGHT). */
  private written = 0;
  /** Bytes received and not yet taken as a complete reply, walked where they are (transcode.ts ReplyBuffer). */
  private readonly replies: ReplyBuffer;
  /** How far the reply at the buffer's start has been scanned (transcode.ts scanReply), when it is not walked. */
  private scan = { pos: 0, pending: 1 };
  /**
   * How the reply at the buffer's start is taken: walked to its body as it arrives (ReplyBuffer.step), scanned for its
   * end first (a handshake's reply, or one the walk hands to the JavaScript walk), or not begun.
   */
  private mode: 'new' | 'walk' | 'scan' = 'new';
  private readonly read_: Buffer;
  private closed = false;
  /** Fires at the earliest waiting read's deadline. */
  private timer: ReturnType<typeof setTimeout> | null = null;
  /**
   * A read went past its deadline: Redis is stalled. Until a PING on a new connection is answered, a read fails at
   * once, so that a stall holds no requests (and no bodies at its end: every request that waited would be answered
   * at once when Redis goes on, docs/runs/decode.md).
   */
  private stalled = false;
  /** Connections dropped since the last reply: the next is opened after backoff(failures). */
  private failures = 0;
  /** Why the last connection was dropped, for the reads that time out waiting for the next. */
  private lastError = '';
  private retry: ReturnType<typeof setTimeout> | null = null;
  /** The last handshake's refusal (TLS, AUTH or SELECT), until a handshake succeeds: reads fail at once with it. */
  private refused: TlsRefused | HandshakeRefused | null = null;
  /** connect()'s callers, answered when a connection is up and its AUTH and SELECT answered, or refused. */
  private connectWaiters: { resolve: () => void; reject: (e: Error) => void }[] = [];
  /** When the receive buffer was first seen grown past its first size (Date.now()), or 0. */
  private grownAt = 0;

  private readonly url: URL;
  private readonly deadlineMs: number;
  private readonly maxWaiting: number;
  private readonly maxReplyBytes: number;
  private readonly tls: RawOptions['tls'];

  /** Reads `args` (one read command) from the Redis at `url`; refuses, in one line, a URL it cannot read. */
  constructor(url: string, args: string[], o: RawOptions = {}) {
    // At start, in one line, not on every read.
    const refused = refusal(url);
    if (refused) throw new Error(refused);
    this.url = new URL(url);
    this.deadlineMs = o.deadlineMs ?? DEADLINE_MS;
    this.maxWaiting = o.maxWaiting ?? MAX_WAITING;
    this.maxReplyBytes = o.maxReplyBytes ?? MAX_REPLY_BYTES;
    this.tls = o.tls ?? (this.url.protocol === 'rediss:' ? tlsFromEnv() : undefined);
    this.replies = new ReplyBuffer(BUF_SIZE, this.maxReplyBytes);
    this.read_ = command(args);
  }

  /** One read: its JSON body. */
  read(): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the raw reader is closed'));
    if (this.waiting.length >= this.maxWaiting)
      return Promise.reject(new Unavailable(`${this.maxWaiting} reads are waiting on Redis already`));
    if (this.stalled) {
      this.connectSoon();
      return Promise.reject(new Unavailable(`Redis did not answer in ${this.deadlineMs} ms, and has not since`));
    }
    if (this.refused) {
      this.connectSoon();
      return Promise.reject(this.refused);
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject, deadline: Date.now() + this.deadlineMs });
      this.arm();
      const socket = this.socket;
      if (!socket) this.connectSoon();
      else if (this.ready && this.written < MAX_IN_FLIGHT) {
        socket.write(this.read_);
        this.written++;
      }
    });
  }

  /** The timer set for the earliest deadline of the reads waiting. */
  private arm(): void {
    if (this.timer || !this.waiting.length) return;
    let first = Infinity;
    for (const w of this.waiting) first = Math.min(first, w.deadline);
    this.timer = setTimeout(() => this.expire(), Math.max(0, first - Date.now()));
    this.timer.unref?.();
  }

  /**
   * Reads past their deadline. On an open connection, Redis is stalled: every read on it fails. Waiting for a
   * connection: the late reads fail, with why the last one was dropped, and the others wait on.
   */
  private expire(): void {
    this.timer = null;
    const now = Date.now();
    if (this.waiting.some((w) => w.deadline <= now)) {
      if (this.handshakeStuck(now)) {
        this.drop(this.socket!, this.noHandshake(), true);
      } else if (this.socket && this.ready) {
        this.stalled = true;
        this.drop(this.socket, new Unavailable(`no complete reply from Redis in ${this.deadlineMs} ms`), true);
      } else {
        const late = this.waiting.filter((w) => w.deadline <= now);
        this.waiting = this.waiting.filter((w) => w.deadline > now);
        const why = this.lastError ? ` (${this.lastError})` : '';
        const e = new Unavailable(`Redis was not reachable in ${this.deadlineMs} ms${why}`);
        for (const w of late) w.reject(e);
      }
    }
    this.arm();
  }

  /**
   * Opens the connection now, as an app may at its start: resolves once it is up (TLS: the handshake done) and Redis
   * answered the URL's AUTH and SELECT, rejects with the cause. A refusal (TlsRefused, HandshakeRefused: a wrong
   * password) rejects at once; a Redis not reachable, after the read deadline.
   */
  connect(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('the raw reader is closed'));
    if (this.socket && this.ready && !this.waiting.some((w) => w.handshake)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        // Connected, but no TLS handshake answer: refused (drop rejects every connect() waiting, this one too).
        if (this.handshakeStuck(Date.now())) return this.drop(this.socket!, this.noHandshake(), true);
        this.connectWaiters = this.connectWaiters.filter((w) => w !== waiter);
        const why = this.lastError ? ` (${this.lastError})` : '';
        reject(new Unavailable(`Redis was not reachable in ${this.deadlineMs} ms${why}`));
      }, this.deadlineMs);
      this.connectWaiters.push(waiter);
      if (!this.socket) {
        if (this.retry) clearTimeout(this.retry);
        this.retry = null;
        this.open();
      }
    });
  }

  /**
   * rediss://: the connection taken, and its TLS handshake unanswered for half a deadline or more (one just opened, as
   * Redis comes back, is given its time): a port that is not TLS, or a Redis stalled.
   */
  private handshakeStuck(now: number): boolean {
    return !!this.socket && this.handshaking && now - this.handshakeSince >= this.deadlineMs / 2;
  }

  private noHandshake(): TlsRefused {
    const ms = Date.now() - this.handshakeSince;
    return new TlsRefused(
      `the TLS handshake with Redis got no answer in ${ms} ms: rediss:// needs Redis's TLS port (a plain port ` +
        'takes the connection and waits for a command; use redis:// or the tls-port), or Redis is stalled',
    );
  }

  /** A connection now, or after the backoff of the connections that failed in a row. */
  private connectSoon(): void {
    if (this.socket || this.retry || this.closed) return;
    if (!this.failures) return void this.open();
    const wait = Math.min(RETRY_MAX_MS, RETRY_MS * 2 ** (this.failures - 1)) * (0.5 + Math.random() / 2);
    this.retry = setTimeout(() => {
      this.retry = null;
      if (
        !this.closed &&
        !this.socket &&
        (this.waiting.length || this.connectWaiters.length || this.stalled || this.refused)
      )
        this.open();
    }, wait);
    this.retry.unref?.();
  }

  /** Opens the connection (TCP, or TLS for rediss://); its handshake and the waiting reads go once it is up. */
  private open(): void {
    const u = this.url;
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
    const port = Number(u.port || 6379);
    const tls = u.protocol === 'rediss:';
    const servername = /^[\d.]+$|:/.test(host) ? undefined : host;
    const socket = tls ? tlsConnect({ host, port, servername, ...this.tls }) : connect({ host, port, noDelay: true });
    if (tls) socket.setNoDelay(true);
    this.socket = socket;
    this.ready = false;
    this.handshaking = false;
    if (tls)
      socket.once('connect', () => {
        if (socket !== this.socket || this.ready) return;
        this.handshaking = true;
        this.handshakeSince = Date.now();
      });
    this.replies.reset();
    this.scan = { pos: 0, pending: 1 };
    this.mode = 'new';
    socket.on(tls ? 'secureConnect' : 'connect', () => this.connected(socket));
    socket.on('data', (chunk: Buffer) => this.take(socket, chunk));
    socket.on('error', (e: Error & { code?: string }) =>
      // Before the TLS handshake completed, an error that is not the network's is the handshake refused.
      tls && !this.ready && !/^E[A-Z]+$/.test(e.code ?? '')
        ? this.drop(socket, tlsRefusal(e), true)
        : this.drop(socket, new Unavailable(`the connection to Redis failed: ${e.message}`)),
    );
    socket.on('close', () => this.drop(socket, new Unavailable('the connection to Redis closed')));
  }

  /**
   * Connected: the URL's AUTH and SELECT first (their replies checked, in order), after a stall a PING (whose answer
   * lets reads through again), then the reads that waited.
   */
  private connected(socket: Socket): void {
    if (socket !== this.socket) return;
    this.ready = true;
    this.handshaking = false;
    const u = this.url;
    const hello: string[][] = [];
    if (u.password)
      hello.push(['AUTH', ...(u.username ? [decodeURIComponent(u.username)] : []), decodeURIComponent(u.password)]);
    const db = u.pathname.slice(1);
    if (db && db !== '0') hello.push(['SELECT', db]);
    if (this.stalled) hello.push(['PING']);
    // connect()'s callers are answered with the last of the handshake's replies (at once when there is none); only
    // then is a refusal over, and, after a refused AUTH, the backoff too (a refused one must not retry at once).
    const greeted = () => {
      this.refused = null;
      if (hello.length) this.failures = 0;
      for (const w of this.connectWaiters.splice(0)) w.resolve();
    };
    if (!hello.length) greeted();
    this.waiting.unshift(
      ...hello.map((args, i) => ({
        deadline: Date.now() + this.deadlineMs,
        handshake: true,
        resolve: () => {
          if (args[0] === 'PING') this.stalled = false;
          if (i === hello.length - 1) greeted();
        },
        // An error reply to AUTH or SELECT is a refusal; a PING's is not (a Redis still loading its data, say).
        reject: (e: Error) => {
          const why = `${args[0]} failed: ${e.message}`;
          this.drop(socket, args[0] === 'PING' ? new Unavailable(why) : new HandshakeRefused(why), true);
        },
      })),
    );
    socket.cork();
    for (const args of hello) socket.write(command(args));
    this.written = hello.length;
    socket.uncork();
    this.sendHeld(socket);
    this.arm();
  }

  /** New bytes: every complete reply goes to the read waiting longest. */
  private take(socket: Socket, chunk: Buffer): void {
    if (socket !== this.socket) return;
    const replies = this.replies;
    try {
      replies.append(chunk);
    } catch (e) {
      // memory.grow refused: the reads on the connection fail, and nothing escapes the socket's handler.
      this.drop(socket, new Unavailable(`no memory for Redis's reply: ${(e as Error).message}`));
      return;
    }
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
          this.untrusted(socket, e as Error);
          return;
        }
        if (!complete) break;
        end = this.scan.pos;
      }
      this.answer(socket, start, end, walked);
      // A handshake refused, or a reply that no read asked for, dropped the connection, and the bytes with it.
      if (socket !== this.socket) return;
      start = end;
      this.scan = { pos: end, pending: 1 };
      this.mode = 'new';
    }
    if (start > 0) {
      replies.consume(start);
      this.scan.pos -= start;
    }
    if (replies.len > this.maxReplyBytes) {
      this.untrusted(socket, new RespFramingError(`a reply over the ${this.maxReplyBytes}-byte cap (maxReplyBytes)`));
      return;
    }
    this.sendHeld(socket);
    this.shrink();
  }

  /** The reply in [start, end) goes to the read waiting longest: its body (walked: the walk's), or why not. */
  private answer(socket: Socket, start: number, end: number, walked: number): void {
    if (this.written <= 0) return void this.drop(socket, new Error('a reply from Redis that no read asked for'));
    const w = this.waiting.shift()!;
    this.written--;
    // A read's reply: the connection serves (a handshake's counts once the whole handshake succeeded: greeted).
    if (!w.handshake) this.failures = 0;
    // Over the cap, though it came whole (in one chunk, or walked as it came): its read fails all the same.
    if (end - start > this.maxReplyBytes)
      w.reject(new RespFramingError(`a reply of ${end - start} bytes, over the ${this.maxReplyBytes}-byte cap`));
    else if (walked >= 0) w.resolve(this.replies.walked(walked));
    else this.settle(w, start, end);
  }

  /**
   * Bytes that are not RESP, or a reply over the cap: the read it answers fails with what is wrong, named; the
   * connection cannot be trusted after it, so the other reads on it fail as Unavailable and it is dropped.
   */
  private untrusted(socket: Socket, e: Error): void {
    const head = this.waiting[0];
    if (head && !head.handshake && this.written > 0) {
      this.waiting.shift();
      this.written--;
      head.reject(e);
    }
    this.drop(
      socket,
      new Unavailable(`the connection to Redis was dropped after a reply that is not RESP: ${e.message}`),
    );
  }

  /**
   * Grown for a large reply or a burst: back to its first size once no read waits, or under steady load a second after
   * it grew (a new memory is mapped, so not between the replies of a burst: Bun reads one in chunks of megabytes).
   */
  private shrink(): void {
    if (this.replies.bytes.length <= BUF_SIZE) return void (this.grownAt = 0);
    const now = Date.now();
    this.grownAt ||= now;
    if ((!this.waiting.length || now - this.grownAt >= 1_000) && this.replies.shrink()) this.grownAt = 0;
  }

  /** Sends the reads held back while MAX_IN_FLIGHT were unanswered, as far as the replies taken make room. */
  private sendHeld(socket: Socket): void {
    if (socket !== this.socket || !this.ready) return;
    if (this.written >= this.waiting.length || this.written >= MAX_IN_FLIGHT) return;
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
      // An error reply, a nil or a reply of another shape fails its read only: the scan found where it ends.
      w.reject(e as Error);
      if (!(e instanceof RespError || e instanceof ReplyShapeError) && this.socket) this.drop(this.socket, e as Error);
    }
  }

  /**
   * The connection is gone or untrusted: the reads sent on it fail (`all`: every read waiting), and it is opened again
   * for the reads that wait, after the backoff.
   */
  private drop(socket: Socket, e: Error, all = false): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.ready = false;
    this.handshaking = false;
    this.failures++;
    this.lastError = e.message;
    if (e instanceof TlsRefused || e instanceof HandshakeRefused) {
      this.refused = e;
      for (const w of this.connectWaiters.splice(0)) w.reject(e);
    }
    this.replies.reset();
    this.scan = { pos: 0, pending: 1 };
    this.mode = 'new';
    const failed = all ? this.waiting : this.waiting.slice(0, this.written);
    this.waiting = all ? [] : this.waiting.slice(this.written);
    this.written = 0;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    socket.destroy();
    for (const w of failed) if (!w.handshake) w.reject(e);
    // After a stall, a PING on a new connection is tried at once (then after the backoff), whether or not a read
    // waits: reads go through again as soon as Redis answers, not one read after it.
    if (this.waiting.length || this.connectWaiters.length || this.stalled) this.connectSoon();
    this.arm();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.connectWaiters.splice(0)) w.reject(new Error('the raw reader is closed'));
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    if (this.socket) this.drop(this.socket, new Error('the raw reader is closed'), true);
    const left = this.waiting;
    this.waiting = [];
    for (const w of left) if (!w.handshake) w.reject(new Error('the raw reader is closed'));
  }
}
