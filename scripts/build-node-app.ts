// Builds a Node entry of an app (run in the app's folder): the TypeScript of the app and of
// @bench/stream bundled, every npm package left external so Node loads it from node_modules as
// usual. What the source imports on demand (`import()`: a client's adapter) stays a chunk of its
// own, so that an app loads its own client's library only, as it does from source on Bun and
// Deno (in one file, a Node app loaded all four at start: 22–32 MB more RSS, 0.2–0.3 s more CPU).
// Usage: bun ../../scripts/build-node-app.ts src/node.ts [dist/server.js]
import { readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const [entry, outFile = 'dist/server.js'] = process.argv.slice(2);
if (!entry) {
  console.error('usage: bun scripts/build-node-app.ts <entry.ts> [out.js] (run in the app folder)');
  process.exit(2);
}
const npmDeps = (dir: string) =>
  Object.entries<string>(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies ?? {})
    .filter(([, spec]) => !spec.startsWith('workspace:'))
    .map(([name]) => name);
const external = [...npmDeps('.'), ...npmDeps(resolve(import.meta.dir, '../packages/stream'))];

// Each output's chunks in a folder of its own beside it (dist/server.js: dist/server-chunks/), so that a build of
// another output in the same folder (a probe, a test's bundle) leaves them alone; an earlier build's go first.
const chunks = `${basename(outFile, '.js')}-chunks`;
rmSync(outFile, { force: true });
rmSync(join(dirname(outFile), chunks), { recursive: true, force: true });
const out = await Bun.build({
  entrypoints: [entry],
  target: 'node',
  outdir: dirname(outFile),
  naming: { entry: basename(outFile), chunk: `${chunks}/[name]-[hash].[ext]` },
  splitting: true,
  external,
});
if (!out.success) {
  for (const log of out.logs) console.error(log);
  process.exit(1);
}
