// The values the apps and the harness accept, and refuse naming what was wrong: the settings from the environment
// (settingsFromEnv, streamOptionsFromEnv, CACHE_TTL_MS) and --redis-rtt's list of round-trip times (parseRtt).
import { afterEach, describe, expect, test } from 'bun:test';
import {
  cacheTtlMs,
  DEFAULT_CACHE_TTL_MS,
  DEFAULT_SETTINGS,
  settingsFromEnv,
  streamOptionsFromEnv,
} from '@bench/stream';
import { parseRtt } from '../../packages/harness/src/topology/delay';

describe('settingsFromEnv', () => {
  test('each variable sets its setting; unset or empty keeps the default', () => {
    expect(settingsFromEnv({})).toEqual(DEFAULT_SETTINGS);
    expect(settingsFromEnv({ DECODE: '', POOL: undefined })).toEqual(DEFAULT_SETTINGS);
    expect(settingsFromEnv({ DECODE: 'bytes', POOL: 'on', RESP: '2', REDIS_TIMEOUT: 'off' })).toEqual({
      ...DEFAULT_SETTINGS,
      decode: 'bytes',
      pool: 'on',
      resp: '2',
      timeout: 'off',
    });
  });

  test('a value not in the list is refused, naming the variable and what it accepts', () => {
    expect(() => settingsFromEnv({ DECODE: 'x' })).toThrow('DECODE="x" is not valid; use one of: default, bytes, raw');
    expect(() => settingsFromEnv({ POOL: 'yes' })).toThrow('POOL="yes" is not valid; use one of: off, on');
    expect(() => settingsFromEnv({ POOL: 'on', AUTOPIPELINE: 'true' })).toThrow('AUTOPIPELINE="true"');
  });
});

describe('CACHE_TTL_MS', () => {
  const saved = { CACHE: process.env.CACHE, CACHE_TTL_MS: process.env.CACHE_TTL_MS };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  test('a number of ms above 0; unset or empty: the default', () => {
    expect(cacheTtlMs('500')).toBe(500);
    expect(cacheTtlMs('0.5')).toBe(0.5);
    expect(cacheTtlMs(undefined)).toBe(DEFAULT_CACHE_TTL_MS);
    expect(cacheTtlMs(' ')).toBe(DEFAULT_CACHE_TTL_MS);
    for (const bad of ['0', '-1', 'abc', 'Infinity']) {
      expect(() => cacheTtlMs(bad)).toThrow(`CACHE_TTL_MS="${bad}" is not valid; use a number of ms above 0`);
    }
  });

  test('CACHE=ttl: streamOptionsFromEnv reads CACHE_TTL_MS; another cache has none', () => {
    process.env.CACHE = 'ttl';
    process.env.CACHE_TTL_MS = '500';
    expect(streamOptionsFromEnv()).toMatchObject({ settings: { cache: 'ttl' }, cacheTtlMs: 500 });
    process.env.CACHE_TTL_MS = '0';
    expect(() => streamOptionsFromEnv()).toThrow('CACHE_TTL_MS="0" is not valid');
    delete process.env.CACHE_TTL_MS;
    expect(streamOptionsFromEnv().cacheTtlMs).toBe(DEFAULT_CACHE_TTL_MS);
    process.env.CACHE = 'tail';
    process.env.CACHE_TTL_MS = '500';
    expect(streamOptionsFromEnv()).not.toHaveProperty('cacheTtlMs');
  });
});

describe('parseRtt: the limits of --redis-rtt', () => {
  test('60000ms, the largest accepted, is accepted; above it is refused', () => {
    expect(() => parseRtt('60000ms')).not.toThrow();
    expect(parseRtt('60000ms')).toEqual([60_000]);
    expect(parseRtt('0,60000ms')).toEqual([0, 60_000]);
    expect(() => parseRtt('60001ms')).toThrow('bad RTT "60001ms"');
    expect(() => parseRtt('60000.5ms')).toThrow('each at most 60000ms');
  });

  test('0 twice is a repeat, as any other RTT is', () => {
    expect(() => parseRtt('0,0')).toThrow('RTT "0" is listed twice in "0,0"');
    expect(() => parseRtt('0,0ms')).toThrow('listed twice');
    expect(() => parseRtt('1ms,1ms')).toThrow('listed twice');
  });
});
