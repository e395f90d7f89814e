// npm run bench -- [flags]: parse flags, run, always clean up; partial results survive
// errors and signals.
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseCli, usage, UsageError } from './args';
import { log, runBench, stopAll, type Session } from './bench';
import { loadContenders, ROOT } from './contenders';
import { killAllSync, startOrphanGuard } from './proc';
import { publishReport, writeReport } from './report/index';
import { publishLatest, resultsFile, writeJsonAtomic } from './results';

const session: Session = { results: null, runDir: null, redis: null, apps: new Map() };

function savePartial(reason: string): void {
  const { results, runDir } = session;
  if (!results || !runDir || results.complete) return;
  results.exit_reason ??= reason;
  results.finished_at = new Date().toISOString();
  try {
    writeJsonAtomic(resultsFile(runDir), results);
    log(`partial results saved in ${resultsFile(runDir)} (resume with --resume ${runDir})`);
  } catch (e) {
    log(`could not save partial results: ${(e as Error).message}`);
  }
}

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    log(`\n${signal}: stopping every child process`);
    killAllSync();
    savePartial(`interrupted by ${signal}`);
    if (session.redis?.server) rmSync(session.redis.server.dir, { recursive: true, force: true });
    process.exit(EXIT_CODES[signal]);
  });
}

async function main(): Promise<number> {
  const contenders = loadContenders();
  let opts;
  try {
    opts = parseCli(process.argv.slice(2), contenders.map((c) => c.name));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    log(`error: ${e.message}`);
    return 2;
  }
  if (opts.help) {
    console.log(usage());
    return 0;
  }
  if (opts.list) {
    console.log(contenders.map((c) => c.name).join('\n'));
    return 0;
  }
  startOrphanGuard();
  try {
    const code = await runBench(opts, contenders, session);
    const runDir = session.runDir!;
    await writeReport(runDir);
    log(`results: ${resultsFile(runDir)}`);
    const outDir = dirname(runDir);
    if (session.results?.complete) publishLatest(runDir, join(outDir, 'latest'));
    // README and screenshots/ only follow full runs into the project's own results folder.
    if (!session.results!.settings.only && outDir === resolve(ROOT, 'results') && session.results?.complete) {
      await publishReport(resolve(ROOT, 'results/latest'));
      log('README.md and screenshots/ updated from results/latest/results.json');
    }
    return code;
  } catch (e) {
    log(`error: ${(e as Error).message}`);
    savePartial((e as Error).message);
    return 1;
  } finally {
    await stopAll(session);
  }
}

process.exit(await main());
