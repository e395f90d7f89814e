// The ports and connections the machine allows (system/net.ts), against the kernel's own files read here.
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { connectionsCeiling, ephemeralLow, freePort } from '../../packages/harness/src/system/net';

const RANGE = '/proc/sys/net/ipv4/ip_local_port_range';
const linux = existsSync(RANGE) && existsSync('/proc/self/limits');

describe.skipIf(!linux)('ports and connections', () => {
  const [low, high] = linux ? readFileSync(RANGE, 'utf8').trim().split(/\s+/).map(Number) : [0, 0];

  test('the ephemeral range begins at its low end; free ports are picked from 10000 up to below it', async () => {
    expect(ephemeralLow()).toBe(low!);
    for (let i = 0; i < 20; i++) {
      const port = await freePort();
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low!);
    }
  });

  test('the connections ceiling: the lower of open files and ephemeral ports, 100 kept for the rest', () => {
    const hard = readFileSync('/proc/self/limits', 'utf8').match(/^Max open files\s+\S+\s+(\d+)/m)?.[1];
    const ports = high! - low! + 1;
    const bounds = [
      ...(hard ? [{ max: Number(hard) - 100, why: `${hard} open files a process (ulimit -Hn)` }] : []),
      { max: ports - 100, why: `${ports} ephemeral ports (ip_local_port_range)` },
    ];
    const lowest = bounds.reduce((a, b) => (b.max < a.max ? b : a));
    expect(connectionsCeiling()).toEqual(lowest);
  });
});
