// One GET of an app's route with its send and receive times (the clock of system/clock.ts): what a workload's
// prober sends beside oha, and what an app's first answer after a Redis restart is judged on.
import { nowMs } from '../system/clock';

export interface Probe {
  sent_ms: number;
  received_ms: number;
  status: number;
  body: string;
}

/** GET `url` once (5 s at most): its status and body, or status 0 and the error. */
export async function probeOnce(url: string): Promise<Probe> {
  const sent_ms = nowMs();
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    const body = await res.text();
    return { sent_ms, received_ms: nowMs(), status: res.status, body };
  } catch (e) {
    return { sent_ms, received_ms: nowMs(), status: 0, body: (e as Error).message };
  }
}
