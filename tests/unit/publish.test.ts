// The publishing policy (publish/rules.ts) against the options' own defaults (cli/args.ts defaultOptions).
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { defaultOptions } from '../../packages/harness/src/cli/args';
import { whyNotKept } from '../../packages/harness/src/cli/keep';
import { keepAndPool, showsPicks } from '../../packages/harness/src/publish/kept-runs';
import { METHOD_KEYS, notKeptQuestion, notPublished, QUESTION_KEYS } from '../../packages/harness/src/publish/rules';
import { familyOf } from '../../packages/harness/src/model/questions';
import type { Results, Settings } from '../../packages/harness/src/model/results';
import { settingsFrom } from '../../packages/harness/src/run/prepare';
import { defaultRun, firstRoundOnly } from '../helpers/runs';

const place = { dir: 'latest' };

// The method, and the part of it that asks the question, spelt out here: a key dropped from rules.ts's lists fails.
const METHOD = [
  ...['suite', 'profile', 'workload', 'connections', 'rates', 'duration_s', 'windows', 'layout', 'warmup_s', 'runs'],
  ...['target_ci_pct', 'max_runs', 'budget_s', 'max_steal_pct', 'placement', 'servers', 'redis_rtt_ms', 'redis_tls'],
];
const QUESTION = ['suite', 'profile', 'workload', 'connections', 'rates', 'servers', 'redis_rtt_ms', 'redis_tls'];
/** `r` with the setting `k` at a value no default has. */
const changedAt = (r: Results, k: string): Results => {
  (r.settings as unknown as Record<string, unknown>)[k] = { changed: k };
  return r;
};

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
  test("each method key changed, alone, is named; so is the workload's own key (under its name)", () => {
    for (const k of new Set([...METHOD, ...METHOD_KEYS]))
      expect(notPublished(changedAt(defaultRun(), k), place, defaults)).toBe(`not the default method (${k} changed)`);
    const upserts = settingsFrom(defaultOptions('upsert', 0));
    const upsert = defaultRun();
    upsert.settings = { ...upserts, upsert: { keys: 7 } } as Settings;
    expect(notPublished({ ...upsert, settings: upserts }, place, upserts)).toBeNull();
    expect(notPublished(upsert, place, upserts)).toBe('not the default method (upsert changed)');
  });

  test('each other reason is named: data not from dump.rdb, --self-check, --handicap, --against, --app', () => {
    const reason = (change: (r: Results) => void) => {
      const r = defaultRun();
      change(r);
      return notPublished(r, place, defaults);
    };
    expect(reason((r) => (r.data.rdb = 'other.rdb'))).toBe('data from other.rdb, not dump.rdb');
    expect(reason((r) => (r.settings.self_check = ['x']))).toBe('--self-check changes the schedule');
    expect(reason((r) => (r.settings.handicap = 'node-raw-node-redis'))).toBe(
      '--handicap slows a contender on purpose',
    );
    const against = { spec: 'HEAD~1', kind: 'ref', commit: null, apps_dir: 'apps', equal_pct: 2, pair: 'auto' };
    // --publish publishes a run of another method, never a change's pair nor one of your own app.
    expect(reason((r) => Object.assign(r.settings, { against, publish: true }))).toBe(
      '--against measures a change, never published',
    );
    const app = { name: 'mine', command: 'node app.js', path: '/', body: 'any' } as const;
    expect(reason((r) => Object.assign(r.settings, { apps: [app], publish: true }))).toBe(
      '--app measures your own app, never published',
    );
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

  test('each question key changed, alone, is named; the other method keys keep the run', () => {
    for (const k of new Set([...QUESTION, ...QUESTION_KEYS]))
      expect(notKeptQuestion(changedAt(defaultRun(), k), defaults)).toBe(`it asks another question (${k} changed)`);
    for (const k of METHOD.filter((m) => !QUESTION.includes(m)))
      expect(notKeptQuestion(changedAt(defaultRun(), k), defaults)).toBeNull();
    const upserts = settingsFrom(defaultOptions('upsert', 0));
    const upsert = { ...defaultRun(), settings: { ...upserts, upsert: { keys: 7 } } as Settings };
    expect(notKeptQuestion(upsert, upserts)).toBe('it asks another question (upsert changed)');
  });

  test('data not from dump.rdb is not kept; a key an older result lacks was at its default, so it is kept', () => {
    const other = defaultRun();
    other.data.rdb = 'other.rdb';
    expect(notKeptQuestion(other, defaults)).toBe('data from other.rdb, not dump.rdb');
    const url = defaultRun();
    url.data = { ...url.data, rdb: null, redis_url: 'redis://elsewhere:6379' };
    expect(notKeptQuestion(url, defaults)).toBe('data from redis://elsewhere:6379, not dump.rdb');
    const old = defaultRun();
    for (const k of ['profile', 'rates', 'servers', 'redis_rtt_ms'] as const)
      delete (old.settings as Partial<Settings>)[k];
    expect(notKeptQuestion(old, defaults)).toBeNull();
    expect(whyNotKept({ ...old, family: familyOf(old.contenders) })).toBeNull();
  });

  test('a run of one round that asks another question is told it asks another question, not that it is short', () => {
    const one = firstRoundOnly(defaultRun());
    one.settings.connections = [64];
    expect(whyNotKept(one)).toBe('it asks another question (connections changed)');
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
