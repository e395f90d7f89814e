// jstat 1.9.6 ships no types: moderated.ts reads studentt.cdf and studentt.inv from it, run-effect.ts chisquare.inv.
declare module 'jstat';
