import { describe, expect, test } from 'bun:test';
import { forecast, TrialClock } from '../../packages/harness/src/run/eta';
import { clock, info, log, progress, progressLine, setProgressMode } from '../../packages/harness/src/system/progress';

describe('the ETA', () => {
  test("a contender's trial time is its own mean, else the mean of every trial so far, else the guess", () => {
    const c = new TrialClock(6);
    expect(c.of('a')).toBe(6);
    c.add('a', 4);
    c.add('a', 8);
    expect(c.of('a')).toBe(6);
    c.add('b', 12);
    expect(c.of('b')).toBe(12);
    expect(c.of('never-run')).toBe(8); // (4 + 8 + 12) / 3
    expect(c.sum(['a', 'b'])).toBe(18);
  });

  test('the rest of this round, then the rounds the budget still allows, then what follows the rounds', () => {
    const c = new TrialClock(10);
    const base = { elapsedS: 100, reserveS: 30, leftInRound: ['a', 'b'], laterRounds: [['a', 'b'], ['a', 'b'], ['a']] };
    // Fixed run count: every later round is run. 2 + 2 + 2 + 1 trials of 10 s, then the 30 s reserve.
    expect(forecast(c, { ...base, budgetS: null })).toEqual({ etaS: 70 + 30, runsLeft: 7 });
    // Budget 185 s: this round ends at 120 s, the next at 140 s (170 s with the reserve: within it);
    // the one after would end at 160 s, 190 s with the reserve: it is not started.
    expect(forecast(c, { ...base, budgetS: 185 })).toEqual({ etaS: 40 + 30, runsLeft: 4 });
    // A round with nothing due (every comparison decided or bounded) ends the rounds.
    expect(forecast(c, { ...base, budgetS: null, laterRounds: [['a'], [], ['a', 'b']] })).toEqual({
      etaS: 30 + 30,
      runsLeft: 3,
    });
  });

  test('the progress line: phase, contender, round k of N, runs left, ETA', () => {
    expect(clock(75)).toBe('1m15s');
    expect(clock(3725)).toBe('1h02m');
    const line = progressLine({
      phase: 'measuring',
      contender: 'bun-raw-ioredis c50',
      round: 2,
      rounds: 15,
      runsLeft: 1,
      etaS: 75,
    });
    const want = /^measuring · bun-raw-ioredis c50 · round 2 of 15 · 1 run left · ETA 1m15s \(\d\d:\d\d\)$/;
    expect(line).toMatch(want);
    expect(progressLine({ phase: 'building', contender: 'apps/next', etaS: null })).toBe(
      'building · apps/next · ETA after the first runs',
    );
  });

  test('the clock: seconds rounded and padded under an hour, hours and padded minutes from 3600 s', () => {
    expect([clock(0), clock(65), clock(59.5), clock(3599.4), clock(3600), clock(-3)]).toEqual([
      '0m00s',
      '1m05s',
      '1m00s',
      '59m59s',
      '1h00m',
      '0m00s',
    ]);
  });

  test('off a terminal: a progress line at most once a minute; --quiet keeps log() lines only', () => {
    const lines: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => lines.push(s) > 0) as typeof process.stderr.write;
    try {
      setProgressMode('plain');
      progress({ phase: 'measuring', etaS: 30 });
      lines.length = 0; // printed, unless another test printed one within the minute
      progress({ phase: 'measuring', etaS: 20 });
      progress({ phase: 'measuring', etaS: null });
      info('a step');
      setProgressMode('quiet');
      info('a step, quiet');
      log('a failure');
    } finally {
      process.stderr.write = write;
      setProgressMode('plain');
    }
    expect(lines).toEqual(['a step\n', 'a failure\n']);
  });
});
