// results.json on disk (model/results-file.ts): what reading one checks and upgrades, and how a run's folder is named.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResults, runFolder, writeJsonAtomic } from '../../packages/harness/src/model/results-file';

const dir = mkdtempSync(join(tmpdir(), 'results-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, value: unknown) => {
  const f = join(dir, name, 'results.json');
  writeJsonAtomic(f, value);
  return f;
};

describe('results.json', () => {
  test('a results.json of another schema, or of a workload this version does not know, is refused, naming it', () => {
    const f = file('old', { schema: 1, contenders: [], settings: { workload: 'xrange' } });
    expect(() => readResults(f)).toThrow(`${f} has results schema 1, this version reads schema 2: measure again`);
    writeFileSync(join(dir, 'x.json'), '{"schema": 2}');
    expect(() => readResults(join(dir, 'x.json'))).toThrow('is not a results.json of npm run bench');
    // A newer checkout's workload: named, so that npm run pool skips that run and reads the others.
    const newer = file('newer', { schema: 2, contenders: [], settings: { workload: 'xfuture' } });
    expect(() => readResults(newer)).toThrow(
      `${newer} is a run of workload "xfuture", which this version does not know`,
    );
  });

  test("an answer's procedure recorded as a sentence is read as its name", () => {
    const sentence = 'least squares on per-unit log ratios with a covariate (ANCOVA)';
    const f = file('legacy', {
      schema: 2,
      contenders: [],
      settings: { workload: 'xrange' },
      answers: [{ procedure: sentence }, { procedure: 'moderated-t' }],
      changes: {
        comparisons: [],
        answers: [{ procedure: 'Wilcoxon signed-rank on per-round log ratios (Hodges–Lehmann)' }],
      },
    });
    const r = readResults(f);
    expect(r.answers!.map((a) => a.procedure)).toEqual(['covariate-t', 'moderated-t']);
    expect(r.changes!.answers!.map((a) => a.procedure)).toEqual(['signed-rank']);
  });

  test("every run's old workload record is moved into { kind, data }, a discarded run's too", () => {
    const old = () => ({ upsert: { applied: 3 }, redis_commands: { evalsha: 3 } });
    const f = file('upgrade', {
      schema: 2,
      contenders: [{ runs: [old()], points: [{ runs: [old()], discarded_runs: [old()] }] }],
      settings: { workload: 'upsert' },
    });
    const c = readResults(f).contenders[0]!;
    const want = { workload: { kind: 'upsert', data: { applied: 3, redis_commands: { evalsha: 3 } } } };
    for (const run of [c.runs![0], c.points![0]!.runs[0], c.points![0]!.discarded_runs![0]])
      expect(run).toEqual(want as never);
  });

  test("a run's folder, given as the folder or as its results.json", () => {
    const f = file('run', { schema: 2 });
    expect(runFolder(f)).toBe(join(dir, 'run'));
    expect(runFolder(join(dir, 'run'))).toBe(join(dir, 'run'));
  });
});
