// jstat 1.9.6 ships no types: moderated.ts reads studentt.cdf and studentt.inv from it, run-effect.ts
// chisquare.inv, answers/pair-design.ts centralF.inv.
declare module 'jstat';
