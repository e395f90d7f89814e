// The publishing policy (publish/rules.ts) against the options' own defaults (cli/args.ts defaultOptions).
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { defaultOptions } from '../../packages/harness/src/cli/args';
import { whyNotKept } from '../../packages/harness/src/cli/keep';
import { keepAndPool, showsPicks } from '../../packages/harness/src/publish/kept-runs';
import { notKeptQuestion, notPublished } from '../../packages/harness/src/publish/rules';
import { familyOf } from '../../packages/harness/src/model/questions';
import type { Results } from '../../packages/harness/src/model/results';
import { settingsFrom } from '../../packages/harness/src/run/prepare';
import { defaultRun, firstRoundOnly } from '../helpers/runs';

const place = { dir: 'latest' };

describe('publishing policy', () => {
  const defaults = settingsFrom(defaultOptions('xrange', 0));

  test('the defaults are those of a command given no flag', () => {
    expect(defaults.workload).toBe('xrange');
    expect(defaults.connections).toEqual([50]);
    expect(defaults.budget_s).toBe(900);
    expect(defaults.runs).toBe('auto');
    expect(defaults.redis_rtt_ms).toBe(0);
    expect(settingsFrom(defaultOptions('upsert', 0)).upsert).toBeDefined();
    expect(settingsFrom(defaultOptions('xrange', 1)).redis_rtt_ms).toBe(1);
  });

  test('a complete run of the default method is published', () => {
    expect(notPublished(defaultRun(), place, defaults)).toBeNull();
  });

  test('each reason is named: a changed method key, a part of the suite, an incomplete run, no place', () => {
    const r = defaultRun();
    r.settings.connections = [64];
    r.settings.budget_s = 60;
    expect(notPublished(r, place, defaults)).toBe('not the default method (connections, budget_s changed)');
    expect(notPublished({ ...defaultRun(), complete: false }, place, defaults)).toBe('the run is not complete');
    const part = defaultRun();
    part.settings.only = ['node-raw-node-redis'];
    expect(notPublished(part, place, defaults)).toBe('--only or --where runs a part of the suite');
    expect(notPublished(defaultRun(), null, null)).toBe('--workload xrange runs are not published');
  });

  test('--publish publishes a run of another method; a key older results lack counts as its default', () => {
    const r = defaultRun();
    r.settings.connections = [64];
    r.settings.publish = true;
    expect(notPublished(r, place, defaults)).toBeNull();
    const old = defaultRun();
    delete (old.settings as Partial<Results['settings']>).servers;
    expect(notPublished(old, place, defaults)).toBeNull();
  });
});

describe('keeping is a rule', () => {
  const defaults = settingsFrom(defaultOptions('xrange', 0));

  test('a run of another budget, windows or placement is kept; one that asks another question is not', () => {
    const r = defaultRun();
    r.settings.budget_s = 2700;
    r.settings.windows = 6;
    expect(notPublished(r, place, defaults)).toMatch(/not the default method/);
    expect(notKeptQuestion(r, defaults)).toBeNull();
    r.settings.connections = [64];
    expect(notKeptQuestion(r, defaults)).toBe('it asks another question (connections changed)');
    expect(notKeptQuestion(defaultRun(), null)).toMatch(/are not kept$/);
  });

  test('the picks take a share of the α only on the page that shows them: the reads, not the writes', () => {
    expect(showsPicks(defaultRun())).toBe(true);
    const upsert = defaultRun();
    upsert.settings.workload = 'upsert';
    expect(showsPicks(upsert)).toBe(false);
  });

  test('publishing keeps and pools by the same rule: a --publish run of another question is neither', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keep-rule-'));
    try {
      const [kept, latest] = [join(dir, 'runs'), join(dir, 'latest')];
      mkdirSync(latest);
      const other = defaultRun();
      other.settings.publish = true;
      other.settings.connections = [64];
      const an = analyze(other);
      const published = keepAndPool(an, kept, latest, whyNotKept);
      // Its own answers, and its own picks for the first screen, with no pool.
      expect(published.answers).toBe(an.answers);
      expect(published.pool).toBeFalsy();
      expect(published.picks?.lines.length).toBeGreaterThan(0);
      expect(existsSync(kept)).toBe(false);
      expect(existsSync(join(latest, 'pool.json'))).toBe(false);
      keepAndPool(analyze(defaultRun()), kept, latest, whyNotKept);
      expect(readdirSync(kept)).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a run that ended after one round is not kept: its record would hold no estimate to pool', () => {
    const whole: Results = { ...defaultRun(), family: familyOf(defaultRun().contenders) };
    expect(whyNotKept(whole)).toBeNull();
    const one = firstRoundOnly(whole);
    expect(whyNotKept(one)).toBe('too few rounds to estimate (1 round): measure 2 rounds or more (a longer --budget)');
    // A part of the suite of one round says the part first: its question is why.
    expect(whyNotKept({ ...one, settings: { ...one.settings, only: ['x'] } })).toMatch(/a part of the suite/);
    const dir = mkdtempSync(join(tmpdir(), 'keep-rule-'));
    try {
      const [kept, latest] = [join(dir, 'runs'), join(dir, 'latest')];
      mkdirSync(latest);
      const published = keepAndPool(analyze(one), kept, latest, whyNotKept);
      expect(published.pool).toBeFalsy();
      expect(existsSync(kept)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
