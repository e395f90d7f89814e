// The procedures' registry (stats/procedures.ts): each entry says its own name, assumptions and sentence; what a
// test returns, and so what results.json records, is that name; answers recorded before by a sentence read as it.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResults } from '../../packages/harness/src/model/results-file';
import { PROCEDURES, type ProcedureName, testRatio } from '../../packages/harness/src/stats/procedures';

const rounds = [0.05, 0.02, 0.08, -0.01, 0.04, 0.06, 0.03, 0.07];
const mean = rounds.reduce((s, x) => s + x, 0) / rounds.length;
const s2 = rounds.reduce((s, x) => s + (x - mean) ** 2, 0) / (rounds.length - 1);
const prior = { d0: 4, s02: 0.002, scale: () => 0.002, n: 10, df: 40 };
const data = {
  rounds,
  reps: { n: rounds.length, mean, s2, df: rounds.length - 1 },
  prior: prior as never,
  covariate: rounds.map((_, i) => i % 3),
};

describe('procedures describe themselves', () => {
  const names = Object.keys(PROCEDURES) as ProcedureName[];

  test('each entry names itself, with its assumptions and a sentence', () => {
    for (const n of names) {
      const p = PROCEDURES[n];
      expect(p.name).toBe(n);
      expect(p.assumptions.length).toBeGreaterThan(0);
      expect(p.sentence.length).toBeGreaterThan(20);
    }
  });

  test('what a test returns carries the name results.json records', () => {
    for (const n of names) expect(testRatio(n, data).procedure).toBe(n);
  });

  test('answers recorded with a sentence before the registry are read by name', () => {
    const r = JSON.parse(readFileSync('tests/fixtures/results/results.json', 'utf8'));
    r.answers = [{ id: 'a vs b', procedure: 'moderated t on per-round log ratios (empirical Bayes)' }];
    r.changes = {
      answers: [{ id: 'a vs a@base', procedure: 'Wilcoxon signed-rank on per-round log ratios (Hodges–Lehmann)' }],
    };
    const dir = mkdtempSync(join(tmpdir(), 'procedures-'));
    writeFileSync(join(dir, 'results.json'), JSON.stringify(r));
    const read = readResults(join(dir, 'results.json'));
    expect(read.answers![0]!.procedure).toBe('moderated-t');
    expect(read.changes!.answers![0]!.procedure).toBe('signed-rank');
  });
});
