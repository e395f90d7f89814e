// The contract gate: a contender is measured only if it returns the golden body byte for byte, or a body that differs
// from it only by causes a stream's field names force on objects, named (measure/contract.ts).
import { causesLine, contractDifference } from './contract';

export interface Verdict {
  ok: boolean;
  reason?: string;
  /** Byte length of the whole response body (a page's HTML, not just its JSON). */
  bytes?: number;
  /** Where the body differs from the golden one by named causes only: the causes, in one line (a finding). */
  finding?: string;
}

const PAGE_JSON = /<script id="stream-json" type="application\/json">([\s\S]*?)<\/script>/;

/** Where two bodies first differ: the index of the first differing character, or -1 where they are the same. */
export function differingAt(actual: string, expected: string): number {
  if (actual === expected) return -1;
  let i = 0;
  while (i < actual.length && i < expected.length && actual[i] === expected[i]) i++;
  return i;
}

export function firstDifference(actual: string, expected: string): string | null {
  const i = differingAt(actual, expected);
  if (i < 0) return null;
  const from = Math.max(0, i - 20);
  const cut = (s: string) => JSON.stringify(s.slice(from, i + 30));
  return (
    `body differs from the golden body at byte ${Buffer.byteLength(expected.slice(0, i))} ` +
    `(got ${actual.length} chars, want ${expected.length}): got ${cut(actual)}, want ${cut(expected)}`
  );
}

/**
 * How a response carries the body: the JSON itself (false), a page with the JSON in a script tag (true), or an app's
 * own body (--target --body): the whole response, byte for byte, of any content type ('own').
 */
export type Carrier = boolean | 'own' | 'any';

/**
 * Checks one response against the contract. Pages carry the body inside a script tag. `stream`: the stream's every
 * pair in stream order (contractDifference's option), where known; without it a repeat is checked by its last value.
 */
export async function verifyContract(url: string, golden: string, page: Carrier, stream?: string): Promise<Verdict> {
  let res: Response;
  try {
    res = await fetch(url, { headers: { 'accept-encoding': 'identity' }, signal: AbortSignal.timeout(10_000) });
  } catch (e) {
    return { ok: false, reason: `request failed: ${(e as Error).message}` };
  }
  const text = await res.text();
  if (res.status !== 200) return { ok: false, reason: `status ${res.status}, want 200` };
  // --app --body any: a body that changes; its status is checked, its length recorded.
  if (page === 'any')
    return text.length ? { ok: true, bytes: Buffer.byteLength(text) } : { ok: false, reason: 'empty body' };
  if (page === 'own') {
    const diff = firstDifference(text, golden);
    return diff
      ? { ok: false, reason: diff.replace('the golden body', "the app's own body") }
      : { ok: true, bytes: Buffer.byteLength(text) };
  }
  const type = res.headers.get('content-type') ?? '';
  const wantType = page ? 'text/html' : 'application/json';
  if (!type.startsWith(wantType)) return { ok: false, reason: `content-type "${type}", want ${wantType}` };
  let body = text;
  if (page) {
    const m = PAGE_JSON.exec(text);
    if (!m) return { ok: false, reason: 'page has no <script id="stream-json"> with the body' };
    body = m[1]!;
  }
  const want = page ? golden.replaceAll('<', '\\u003c') : golden;
  const diff = contractDifference(body, want, { page: page === true, stream });
  if (diff && 'data' in diff) return { ok: false, reason: `${firstDifference(body, want)}; ${diff.data}` };
  return { ok: true, bytes: Buffer.byteLength(text), ...(diff && { finding: causesLine(diff.causes) }) };
}
