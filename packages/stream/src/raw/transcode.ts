// XRANGE's reply as RESP bytes, straight to the contract's JSON body ({"entries":[{"id":…,"fields":{…}}…]})
// in one pass: each bulk string is copied into a JSON string literal, escaped byte by byte exactly as
// JSON.stringify escapes the string a decoding client would have made of it. No JS value per id, field or value
// is built.

/** A Redis error reply (-ERR …, -MOVED …, -LOADING …), with its text. */
export class RespError extends Error {}

const CR = 13;

/** Where the reply that starts at `start` ends (one past its last byte), or -1 while bytes are missing. */
export function replyEnd(buf: Uint8Array, start: number, len: number): number {
  const scan = { pos: start, pending: 1 };
  return scanReply(buf, scan, len) ? scan.pos : -1;
}

/**
 * Walks a reply's headers from where `scan` stopped, over what has arrived (buf[0, len)): true when the reply is
 * complete (scan.pos one past its end). Incomplete, scan stops at the start of the first header or bulk string still
 * missing bytes, so a reply that arrives in many chunks is walked once, not once per chunk.
 */
export function scanReply(buf: Uint8Array, scan: { pos: number; pending: number }, len: number): boolean {
  while (scan.pending > 0) {
    const pos = scan.pos;
    if (pos >= len) return false;
    const type = buf[pos]!;
    const eol = lineEnd(buf, pos + 1, len);
    if (eol < 0) return false;
    let next = eol + 2;
    let more = 0;
    if (type === 0x2a /* * */ || type === 0x24 /* $ */) {
      const n = intAt(buf, pos + 1, eol);
      if (type === 0x2a) more = Math.max(n, 0);
      else if (n >= 0) {
        if (next + n + 2 > len) return false;
        next += n + 2;
      }
    } else if (type !== 0x2b /* + */ && type !== 0x2d /* - */ && type !== 0x3a /* : */ && type !== 0x5f /* _ */)
      throw new Error(`unexpected RESP type byte 0x${type.toString(16)} at ${pos}`);
    scan.pos = next;
    scan.pending += more - 1;
  }
  return true;
}

/**
 * The index of the CR of the CRLF that ends the line from `from`, or -1 when the line is not complete. A loop, not
 * indexOf: header lines are a few bytes, and a reply has thousands of them.
 */
function lineEnd(buf: Uint8Array, from: number, len: number): number {
  for (let i = from; i < len; i++) if (buf[i] === CR) return i + 1 < len ? i : -1;
  return -1;
}

function intAt(buf: Uint8Array, from: number, to: number): number {
  let sign = 1;
  let i = from;
  if (buf[i] === 0x2d) {
    sign = -1;
    i++;
  }
  let n = 0;
  for (; i < to; i++) {
    const d = buf[i]! - 0x30;
    if (d < 0 || d > 9) throw new Error('malformed RESP length');
    n = n * 10 + d;
  }
  return sign * n;
}

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const HEAD = ascii('{"entries":[');
const ID = ascii('{"id":');
const FIELDS = ascii(',"fields":{');
const HEX = ascii('0123456789abcdef');
// A leading U+FEFF is data, kept as node-redis's Buffer#toString keeps it (the contract, docs/methodology.md).
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const encoder = new TextEncoder();

/** How many bulk strings took the slow path (not valid UTF-8), since the process started. */
export const fallbacks = { strings: 0 };

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
  // One byte out per byte in, and the quotes; an escape asks for more room when it comes.
  room(b - a + 2);
  const mark = o;
  out[o++] = 0x22;
  for (let i = a; i < b; i++) {
    const c = src[i]!;
    if (SAFE[c] === 1) {
      out[o++] = c;
      continue;
    }
    if (c >= 0x80) {
      const n = utf8Length(src, i, b);
      if (n === 0) {
        o = mark;
        putDecoded(src, a, b);
        return;
      }
      for (let k = 0; k < n; k++) out[o++] = src[i + k]!;
      i += n - 1;
      continue;
    }
    room(b - i + 7);
    out[o++] = 0x5c;
    const short = c === 0x22 ? 0x22 : c === 0x5c ? 0x5c : SHORT[c];
    if (short) out[o++] = short;
    else {
      out[o++] = 0x75;
      out[o++] = 0x30;
      out[o++] = 0x30;
      out[o++] = HEX[c >> 4]!;
      out[o++] = HEX[c & 15]!;
    }
  }
  out[o++] = 0x22;
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

/** A cursor over one complete reply: the next header's type and number, then the bulk string it announces. */
class Cursor {
  private readonly buf: Uint8Array;
  pos: number;
  // Fields assigned here, not as parameter properties: the file runs with types stripped (Node's own TypeScript).
  constructor(buf: Uint8Array, pos: number) {
    this.buf = buf;
    this.pos = pos;
  }
  /** The header at the cursor, which must be of `type` (* or $); its number. */
  head(type: number): number {
    const buf = this.buf;
    if (buf[this.pos] === 0x2d /* - */) throw new RespError(decoder.decode(buf.subarray(this.pos + 1, this.eol())));
    if (buf[this.pos] !== type)
      throw new Error(`expected ${String.fromCharCode(type)} at ${this.pos}, got 0x${buf[this.pos]?.toString(16)}`);
    const eol = this.eol();
    const n = intAt(buf, this.pos + 1, eol);
    this.pos = eol + 2;
    return n;
  }
  private eol(): number {
    return lineEnd(this.buf, this.pos, this.buf.length);
  }
  /** The bulk string at the cursor, written as a JSON string literal. */
  string(): void {
    const n = this.head(0x24);
    if (n < 0) throw new Error('a null bulk string where XRANGE sends a string');
    putString(this.buf, this.pos, this.pos + n);
    this.pos += n + 2;
  }
}

/**
 * The JSON body of the XRANGE reply in buf[start, end): entries and fields in stream order, as the direct transform
 * (canonical.ts toJson) writes them. An error reply throws RespError; a reply of another shape throws.
 */
export function xrangeToJson(buf: Uint8Array, start: number, end: number): string {
  // A null reply ($-1, RESP3's _): no stream here, and the connection is still in step.
  if (buf[start] === 0x5f || (buf[start] === 0x24 && buf[start + 1] === 0x2d))
    throw new RespError('a null reply where XRANGE sends an array');
  const at = new Cursor(buf, start);
  o = 0;
  put(HEAD);
  const entries = at.head(0x2a);
  for (let e = 0; e < entries; e++) {
    if (e > 0) putByte(0x2c);
    if (at.head(0x2a) !== 2) throw new Error('an XRANGE entry is [id, [field, value, …]]');
    put(ID);
    at.string();
    put(FIELDS);
    const kv = at.head(0x2a);
    for (let j = 0; j < kv; j += 2) {
      if (j > 0) putByte(0x2c);
      at.string();
      putByte(0x3a);
      at.string();
    }
    putByte(0x7d);
    putByte(0x7d);
  }
  putByte(0x5d);
  putByte(0x7d);
  if (at.pos !== end) throw new Error(`the reply ends at ${end}, its entries at ${at.pos}`);
  return done();
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
