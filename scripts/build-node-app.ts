// Builds a Node entry of an app (run in the app's folder): the TypeScript of the app and of
// @bench/stream bundled into dist/server.js, every npm package left external so Node loads it
// from node_modules as usual. Usage: bun ../../scripts/build-node-app.ts src/node.ts
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const entry = process.argv[2];
if (!entry) {
  console.error('usage: bun scripts/build-node-app.ts <entry.ts> (run in the app folder)');
  process.exit(2);
}
const npmDeps = (dir: string) =>
  Object.entries<string>(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies ?? {})
    .filter(([, spec]) => !spec.startsWith('workspace:'))
    .map(([name]) => name);
const external = [...npmDeps('.'), ...npmDeps(resolve(import.meta.dir, '../packages/stream'))];

rmSync('dist', { recursive: true, force: true });
const out = await Bun.build({ entrypoints: [entry], target: 'node', outdir: 'dist', naming: 'server.js', external });
if (!out.success) {
  for (const log of out.logs) console.error(log);
  process.exit(1);
}
