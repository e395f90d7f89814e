// XRANGE's reply as RESP bytes, straight to the contract's JSON body ({"entries":[{"id":…,"fields":{…}}…]})
// in one pass: each bulk string is copied into a JSON string literal, escaped byte by byte exactly as
// JSON.stringify escapes the string a decoding client would have made of it. No JS value per id, field or value
// is built. A reply of printable ASCII is walked in WebAssembly (transcode.wat); any other, by the JavaScript walk.
import { TRANSCODE_WASM } from './transcode-wasm.ts';

/** A Redis error reply (-ERR …, -MOVED …, -LOADING …), with its text. */
export class RespError extends Error {}

/**
 * A reply framed as RESP but not of XRANGE's shape (a nil, an odd field count, an integer where a string goes): its
 * read fails, named, and the connection goes on at the next reply.
 */
export class ReplyShapeError extends Error {}

/**
 * Bytes that are not strict RESP (a CR without its LF, a length that lies, a minus that is not -1, a type byte RESP2
 * does not have) or a reply over the size cap: no reply after it can be trusted, so its connection is dropped.
 */
export class RespFramingError extends Error {}

const CR = 13;
const LF = 10;
/** The largest reply read by default (RawReader's maxReplyBytes): 64 MiB. */
export const MAX_REPLY_BYTES = 64 << 20;

/** Where the reply that starts at `start` ends (one past its last byte), or -1 while bytes are missing. */
export function replyEnd(buf: Uint8Array, start: number, len: number): number {
  const scan = { pos: start, pending: 1 };
  return scanReply(buf, scan, len) ? scan.pos : -1;
}

/**
 * Walks a reply's headers from where `scan` stopped, over what has arrived (buf[0, len)): true when the reply is
 * complete (scan.pos one past its end). Incomplete, scan stops at the start of the first header or bulk string still
 * missing bytes, so a reply that arrives in many chunks is walked once, not once per chunk. Strict: every line ends in
 * CRLF, every bulk string's bytes are followed by CRLF, a length is digits or -1; anything else, or a length or count
 * that would put the reply over `cap` bytes, throws RespFramingError naming it and where.
 */
export function scanReply(
  buf: Uint8Array,
  scan: { pos: number; pending: number },
  len: number,
  cap = MAX_REPLY_BYTES,
): boolean {
  // Locals in the loop, written back once: a header costs a few bytes' work, and a reply has thousands of them.
  let pos = scan.pos;
  let pending = scan.pending;
  while (pending > 0 && pos < len) {
    const type = buf[pos]!;
    const eol = lineEnd(buf, pos + 1, len);
    if (eol < 0) {
      // A length is 15 digits at most: a longer header line without its CRLF is not RESP.
      if ((type === 0x24 || type === 0x2a) && len - pos > 18)
        throw new RespFramingError(`a length line without CRLF at byte ${pos}`);
      break;
    }
    if (buf[eol + 1] !== LF) throw new RespFramingError(`a CR without its LF at byte ${eol}`);
    let next = eol + 2;
    if (type === 0x24 /* $ */) {
      const n = lengthAt(buf, pos + 1, eol);
      if (n > cap) throw new RespFramingError(`a bulk string of ${n} bytes, over the ${cap}-byte cap`);
      if (n >= 0) {
        if (next + n + 2 > len) break;
        if (buf[next + n] !== CR || buf[next + n + 1] !== LF)
          throw new RespFramingError(`a bulk string of ${n} bytes not followed by CRLF at byte ${next + n}`);
        next += n + 2;
      }
      pending--;
    } else if (type === 0x2a /* * */) {
      const n = lengthAt(buf, pos + 1, eol);
      pending += Math.max(n, 0) - 1;
      // Each element is 3 bytes at least ("_\r\n"): a count past the cap is refused before its bytes are awaited.
      if (pending * 3 > cap) throw new RespFramingError(`an array of ${n} elements, over the ${cap}-byte cap`);
    } else if (type === 0x2b /* + */ || type === 0x2d /* - */ || type === 0x3a /* : */ || type === 0x5f /* _ */)
      pending--;
    else throw new RespFramingError(`unexpected RESP type byte 0x${type.toString(16)} at byte ${pos}`);
    pos = next;
  }
  scan.pos = pos;
  scan.pending = pending;
  return pending === 0;
}

/**
 * The index of the CR of the CRLF that ends the line from `from`, or -1 when the line is not complete. A loop, not
 * indexOf: header lines are a few bytes, and a reply has thousands of them.
 */
function lineEnd(buf: Uint8Array, from: number, len: number): number {
  for (let i = from; i < len; i++) if (buf[i] === CR) return i + 1 < len ? i : -1;
  return -1;
}

/** A header's length or count: digits (at most 15), or -1 (a nil); anything else is not RESP. */
function lengthAt(buf: Uint8Array, from: number, to: number): number {
  if (buf[from] === 0x2d && to === from + 2 && buf[from + 1] === 0x31) return -1;
  if (to === from || to - from > 15)
    throw new RespFramingError(`a length of ${to - from} characters at byte ${from} (digits or -1 only)`);
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = buf[i]! - 0x30;
    if (d < 0 || d > 9) throw new RespFramingError(`a length that is not digits or -1 at byte ${from}`);
    n = n * 10 + d;
  }
  return n;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const HEAD = ascii('{"entries":[');
const ID = ascii('{"id":');
const FIELDS = ascii(',"fields":{');
const HEX = ascii('0123456789abcdef');
// A leading U+FEFF is data, kept as node-redis's Buffer#toString keeps it (the contract, docs/methodology.md).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * Since the process started: bulk strings that took the slow path (not valid UTF-8), and replies the WebAssembly walk
 * handed to the JavaScript walk (a byte that is not printable ASCII, `"` or `\\`, an error reply, another shape).
 */
export const fallbacks = { strings: 0, replies: 0 };

/**
 * One body at a time, in a buffer kept between calls (a call runs to its end synchronously, so one is enough); it
 * grows for a large body and shrinks back after it (done).
 */
const OUT_SIZE = 1 << 16;
let out = new Uint8Array(OUT_SIZE);
let o = 0;

/** The body written: its text, and the buffer back to its first size if a large body grew it. */
function done(): string {
  const body = decoder.decode(out.subarray(0, o));
  if (out.length > OUT_SIZE * 4) out = new Uint8Array(OUT_SIZE);
  return body;
}

/** The output buffer's size now (tests: it shrinks back after a large body). */
export const outputBytes = () => out.length;

function room(n: number): void {
  if (o + n <= out.length) return;
  const bigger = new Uint8Array(Math.max(out.length * 2, o + n));
  bigger.set(out.subarray(0, o));
  out = bigger;
}

function put(bytes: Uint8Array): void {
  room(bytes.length);
  out.set(bytes, o);
  o += bytes.length;
}

function putByte(b: number): void {
  room(1);
  out[o++] = b;
}

/** 1 for the bytes a JSON string holds as they are: printable ASCII but `"` and `\\`. */
const SAFE = new Uint8Array(256);
for (let c = 0x20; c < 0x80; c++) SAFE[c] = c === 0x22 || c === 0x5c ? 0 : 1;

/**
 * Bytes `a`…`b` of `src` as a JSON string literal, copied byte by byte as they are scanned (no subarray per string).
 * Printable ASCII and valid UTF-8 are copied; `"`, `\` and control characters get JSON.stringify's escapes. A string
 * that is not valid UTF-8 is decoded as the runtime's TextDecoder decodes it (U+FFFD for each bad sequence, as a
 * decoding client's string would hold) and escaped by JSON.stringify itself: the slow path, counted in `fallbacks`.
 */
function putString(src: Uint8Array, a: number, b: number): void {
  // One byte out per byte in, and the quotes; an escape asks for more room when it comes. The buffer and the
  // position are held in locals for the loop (module bindings are loaded and stored on every byte otherwise).
  room(b - a + 2);
  let dst = out;
  let p = o;
  const safe = SAFE;
  const mark = p;
  dst[p++] = 0x22;
  for (let i = a; i < b; i++) {
    const c = src[i]!;
    if (safe[c] === 1) {
      dst[p++] = c;
      continue;
    }
    if (c >= 0x80) {
      const n = utf8Length(src, i, b);
      if (n === 0) {
        o = mark;
        putDecoded(src, a, b);
        return;
      }
      for (let k = 0; k < n; k++) dst[p++] = src[i + k]!;
      i += n - 1;
      continue;
    }
    o = p;
    room(b - i + 7);
    dst = out;
    dst[p++] = 0x5c;
    const short = c === 0x22 ? 0x22 : c === 0x5c ? 0x5c : SHORT[c];
    if (short) dst[p++] = short;
    else {
      dst[p++] = 0x75;
      dst[p++] = 0x30;
      dst[p++] = 0x30;
      dst[p++] = HEX[c >> 4]!;
      dst[p++] = HEX[c & 15]!;
    }
  }
  dst[p++] = 0x22;
  o = p;
}

/** JSON.stringify's one-letter escapes of control characters: \b \t \n \f \r. */
const SHORT: Record<number, number> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };

function putDecoded(src: Uint8Array, a: number, b: number): void {
  fallbacks.strings++;
  put(encoder.encode(JSON.stringify(decoder.decode(src.subarray(a, b)))));
}

/**
 * The length of the valid UTF-8 sequence at `i` (2–4), or 0 when it is not one: a stray continuation byte, overlong
 * form, a surrogate (U+D800–DFFF), a code point above U+10FFFF, or a sequence cut short by `end`.
 */
function utf8Length(s: Uint8Array, i: number, end: number): number {
  const c = s[i]!;
  const cont = (k: number, lo = 0x80, hi = 0xbf) => i + k < end && s[i + k]! >= lo && s[i + k]! <= hi;
  if (c >= 0xc2 && c <= 0xdf) return cont(1) ? 2 : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const [lo, hi] = c === 0xe0 ? [0xa0, 0xbf] : c === 0xed ? [0x80, 0x9f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xf0 && c <= 0xf4) {
    const [lo, hi] = c === 0xf0 ? [0x90, 0xbf] : c === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf];
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

/**
 * The JavaScript walk: the JSON body of the XRANGE reply in buf[start, end), for a reply the WebAssembly walk hands
 * over (xrangeToJson). An error reply throws RespError; a reply of another shape throws.
 *
 * One walk over locals (the output and its position): each bulk string's length read inline and its bytes copied
 * while they are scanned; putString (escapes, invalid UTF-8) only for a string with a byte that is not printable ASCII,
 * or is `"` or `\`. Without escapes a body is under twice its reply's length (a string's RESP framing is 6 bytes or
 * more and its JSON's 3; an entry's 17 or more and its JSON's 25 at most), so room is asked for once, and again only
 * after the slow path. Constants are copied byte by byte: set() of a few bytes costs more in JavaScriptCore.
 */
function jsWalk(buf: Uint8Array, start: number, end: number): string {
  fallbacks.replies++;
  // A null reply ($-1, *-1, RESP3's _): no stream here, and the connection is still in step.
  if (buf[start] === 0x5f || ((buf[start] === 0x24 || buf[start] === 0x2a) && buf[start + 1] === 0x2d))
    throw new ReplyShapeError(`a null reply (${String.fromCharCode(buf[start]!)}) where XRANGE sends an array`);
  o = 0;
  room(2 * (end - start) + 64);
  put(HEAD);
  let dst = out;
  let p = o;
  const entries = arrayAt(buf, start);
  let i = next;
  for (let e = 0; e < entries; e++) {
    if (e > 0) dst[p++] = 0x2c;
    if (arrayAt(buf, i) !== 2) throw new ReplyShapeError('an XRANGE entry is [id, [field, value, …]]');
    i = next;
    for (let k = 0; k < ID.length; k++) dst[p++] = ID[k]!;
    // The id (j = -1), then the fields' header and each field and value (j = 0, 1, …).
    for (let j = -1, kv = 0; j <= 0 || j < kv; j++) {
      if (j === 0) {
        for (let k = 0; k < FIELDS.length; k++) dst[p++] = FIELDS[k]!;
        kv = arrayAt(buf, i);
        i = next;
        if (kv & 1) throw new ReplyShapeError(`an entry with an odd number of field strings (${kv})`);
        if (kv === 0) break;
      } else if (j > 0) dst[p++] = j & 1 ? 0x3a : 0x2c;
      if (buf[i] !== 0x24) headError(buf, i, 0x24);
      let n = 0;
      for (let c = buf[++i]!; c !== CR; c = buf[++i]!) n = n * 10 + bulkDigit(c);
      const a = i + 2;
      const b = a + n;
      const mark = p;
      dst[p++] = 0x22;
      let k = a;
      for (; k < b; k++) {
        const c = buf[k]!;
        if (SAFE[c] !== 1) break;
        dst[p++] = c;
      }
      if (k < b) {
        o = mark;
        putString(buf, a, b);
        room(2 * (end - b) + 64);
        dst = out;
        p = o;
      } else dst[p++] = 0x22;
      i = b + 2;
    }
    dst[p++] = 0x7d;
    dst[p++] = 0x7d;
  }
  dst[p++] = 0x5d;
  dst[p++] = 0x7d;
  o = p;
  if (i !== end) throw new ReplyShapeError(`the reply ends at ${end}, its entries at ${i}`);
  return done();
}

/** Where the received bytes start in a WebAssembly memory (transcode.wat: the table and the constants come first). */
const WASM_IN = 512;

type WasmWalk = {
  memory: WebAssembly.Memory;
  scan(pos: number, len: number, pending: number): number;
  pending(): number;
  xrange(at: number, len: number, out: number): number;
  begin(at: number, out: number): void;
  step(end: number): number;
  at(): number;
  shift(d: number): void;
};

/** ReplyBuffer.step: the reply has not all arrived. */
export const MORE = -3;

const MODULE = new WebAssembly.Module(Uint8Array.from(atob(TRANSCODE_WASM), (c) => c.charCodeAt(0)));

/**
 * Bytes received from Redis, in a WebAssembly memory of their own, and walked there (transcode.wat) with no copy: where
 * a reply ends (scan) and its body (body). A WebAssembly memory never shrinks: after a large reply, a new instance
 * takes what is left (shrink).
 */
export class ReplyBuffer {
  private walk!: WasmWalk;
  /** The received bytes' room: [0, len) received. Past it in the memory, room for a body twice as long. */
  bytes!: Uint8Array;
  len = 0;
  private readonly first: number;
  /** The largest reply the scan accepts (scanReply's cap). */
  private readonly cap: number;
  /** Where the reply that step walks starts in the bytes received, or -1: none begun. */
  private walking = -1;

  constructor(size: number, cap = MAX_REPLY_BYTES) {
    this.first = size;
    this.cap = cap;
    this.open(size);
  }

  private open(size: number): void {
    this.walk = new WebAssembly.Instance(MODULE, {}).exports as WasmWalk;
    this.fit(size);
    new Uint8Array(this.walk.memory.buffer).set(SAFE, 0);
  }

  /** Room for `size` received bytes, and a body of twice as many (and the constants) after them. */
  private fit(size: number): void {
    const memory = this.walk.memory;
    const need = WASM_IN + 3 * size + 64;
    if (memory.buffer.byteLength < need) memory.grow(Math.ceil((need - memory.buffer.byteLength) / 65_536));
    this.bytes = new Uint8Array(memory.buffer, WASM_IN, size);
    // The body's room moved with the bytes' end: a reply being walked is walked again from its start.
    if (this.walking >= 0) this.begin(this.walking);
  }

  /** The memory's size now (tests: it shrinks back after a large reply). */
  get memoryBytes(): number {
    return this.walk.memory.buffer.byteLength;
  }

  append(chunk: Uint8Array): void {
    if (this.len + chunk.length > this.bytes.length) this.fit(Math.max(2 * this.bytes.length, this.len + chunk.length));
    this.bytes.set(chunk, this.len);
    this.len += chunk.length;
  }

  /** scanReply over the bytes received; a byte RESP does not have there is the JavaScript scan's to name. */
  scan(state: { pos: number; pending: number }): boolean {
    const at = this.walk.scan(WASM_IN + state.pos, WASM_IN + this.len, state.pending);
    if (at === -2) return scanReply(this.bytes, state, this.len, this.cap);
    state.pos = at - WASM_IN;
    state.pending = this.walk.pending();
    return state.pending === 0;
  }

  /**
   * The XRANGE reply that starts at `start` is walked by step as it arrives, in one pass that finds its end and
   * writes its body (transcode.wat step): no scan first for where it ends.
   */
  begin(start: number): void {
    this.walking = start;
    this.walk.begin(WASM_IN + start, WASM_IN + this.bytes.length);
  }

  /**
   * Walks the reply begun on over the bytes received: the body's length once it is complete (walked gives the body,
   * end where the reply ends); MORE while bytes are missing; -1 at a byte or a shape the JavaScript walk takes
   * (scan then body, from the reply's start).
   */
  step(): number {
    const n = this.walk.step(WASM_IN + this.len);
    if (n !== MORE) this.walking = -1;
    return n;
  }

  /** Where the reply step completed ends (one past its last byte). */
  get end(): number {
    return this.walk.at() - WASM_IN;
  }

  /** The body step wrote, `n` bytes long. */
  walked(n: number): string {
    return decoder.decode(new Uint8Array(this.walk.memory.buffer, WASM_IN + this.bytes.length, n));
  }

  /** The body of the XRANGE reply in bytes [start, end): the WebAssembly walk's, or the JavaScript walk's. */
  body(start: number, end: number): string {
    const out = WASM_IN + this.bytes.length;
    const n = this.walk.xrange(WASM_IN + start, end - start, out);
    return n < 0 ? jsWalk(this.bytes, start, end) : decoder.decode(new Uint8Array(this.walk.memory.buffer, out, n));
  }

  /** Every byte received is dropped (the connection went), and any walk begun with them. */
  reset(): void {
    this.len = 0;
    this.walking = -1;
  }

  /** The bytes before `start` are taken. */
  consume(start: number): void {
    this.bytes.copyWithin(0, start, this.len);
    this.len -= start;
    if (this.walking < 0) return;
    this.walking -= start;
    this.walk.shift(start);
  }

  /**
   * Back to the first size once what is left fits in half of it (true: done). A new instance maps a new memory: its
   * caller does it when idle or now and then, not between the replies of a burst (Bun reads a burst of pipelined
   * replies in chunks of megabytes). A reply being walked is walked again in the new memory, from its start.
   */
  shrink(): boolean {
    if (this.bytes.length <= this.first || this.len > this.first / 2) return false;
    const left = this.bytes.slice(0, this.len);
    this.open(this.first);
    this.bytes.set(left);
    return true;
  }
}

/**
 * For xrangeToJson: a reply is copied in, walked, and dropped; a memory of 832 KB, back to it after a larger reply.
 * Made at the first call, so that an app whose reads go through a RawReader (a memory of its own) never maps it.
 */
let shared: ReplyBuffer | undefined;
const sharedBuffer = () => (shared ??= new ReplyBuffer(1 << 18));

/** The WebAssembly memory xrangeToJson walks in, now (tests: it shrinks back after a large reply). */
export const wasmMemoryBytes = () => sharedBuffer().memoryBytes;

/**
 * The JSON body of the XRANGE reply in buf[start, end): entries and fields in stream order, as the direct transform
 * (canonical.ts toJson) writes them. A reply whose bytes are all printable ASCII but `"` and `\\` is walked in
 * WebAssembly (transcode.wat); any other, from its first byte of another kind, by the JavaScript walk (jsWalk). An
 * error reply throws RespError; a reply of another shape throws.
 */
export function xrangeToJson(buf: Uint8Array, start: number, end: number): string {
  const walk = sharedBuffer();
  walk.len = 0;
  walk.append(buf.subarray(start, end));
  try {
    return walk.body(0, end - start);
  } finally {
    walk.len = 0;
    walk.shrink();
  }
}

function bulkDigit(c: number): number {
  const d = c - 0x30;
  if (!(d >= 0 && d <= 9))
    throw c === 0x2d
      ? new ReplyShapeError('a null bulk string where XRANGE sends a string')
      : new RespFramingError('a length that is not digits');
  return d;
}

/** Where the header just read ends: its line's end + 2 (set by arrayAt). */
let next = 0;

/** The number of the array header at `p` (next: past it); an error reply throws RespError. */
function arrayAt(buf: Uint8Array, p: number): number {
  const t = buf[p];
  if (t !== 0x2a) headError(buf, p, 0x2a);
  let n = 0;
  let i = p + 1;
  for (let c = buf[i]!; c !== CR; c = buf[++i]!) {
    const d = c - 0x30;
    if (!(d >= 0 && d <= 9))
      throw c === 0x2d
        ? new ReplyShapeError('a null array where XRANGE sends an array')
        : new RespFramingError('a length that is not digits');
    n = n * 10 + d;
  }
  next = i + 2;
  return n;
}

function headError(buf: Uint8Array, p: number, type: number): never {
  if (buf[p] === 0x2d) throw new RespError(decoder.decode(buf.subarray(p + 1, lineEnd(buf, p, buf.length))));
  throw new ReplyShapeError(`expected ${String.fromCharCode(type)} at byte ${p}, got 0x${buf[p]?.toString(16)}`);
}

/** DECODE=bytes: the body of a client's flat reply of Buffers, each bulk string copied in as a JSON string literal. */
export function bytesToJson(entries: [id: Uint8Array, kv: Uint8Array[]][]): string {
  o = 0;
  put(HEAD);
  for (let e = 0; e < entries.length; e++) {
    const [id, kv] = entries[e]!;
    if (e > 0) putByte(0x2c);
    put(ID);
    putString(id, 0, id.length);
    put(FIELDS);
    for (let j = 0; j < kv.length; j++) {
      if (j > 0) putByte(j % 2 ? 0x3a : 0x2c);
      putString(kv[j]!, 0, kv[j]!.length);
    }
    putByte(0x7d);
    putByte(0x7d);
  }
  putByte(0x5d);
  putByte(0x7d);
  return done();
}
