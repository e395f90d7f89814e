// Builds a Node entry of an app (run in the app's folder): the TypeScript of the app and of
// @bench/stream bundled into one file, every npm package left external so Node loads it from
// node_modules as usual. Usage: bun ../../scripts/build-node-app.ts src/node.ts [dist/server.js]
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

rmSync(outFile, { force: true });
const out = await Bun.build({
  entrypoints: [entry],
  target: 'node',
  outdir: dirname(outFile),
  naming: basename(outFile),
  external,
});
if (!out.success) {
  for (const log of out.logs) console.error(log);
  process.exit(1);
}
