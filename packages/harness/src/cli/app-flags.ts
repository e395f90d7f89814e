// --app "COMMAND": a user's own app, started by the harness as it starts a contender and measured beside the ones
// --only names (run/own-app.ts makes it a contender). Its flags: --app-name, --cwd, --path and --body.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type OwnApp, OWN_APP_NAMES } from '../model/contenders';
import type { OwnAppSpec } from '../run/options';
import type { FlagValues } from './select';
import { workloadNamed } from '../workloads';

export interface AppFlags {
  /** One app, or two (your two versions); none: no --app. */
  ownApps: OwnAppSpec[];
}

/** A command line split into its words as a POSIX shell would, without running one: quotes and backslashes only. */
export function splitCommand(line: string): string[] | string {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (ch === '\\' && i + 1 < line.length && (quote === null || '"\\$`'.includes(line[i + 1]!))) {
      word = (word ?? '') + line[++i];
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === '$' || ch === '`') return needsShell(line, ch);
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else if ('|&;<>()$`*?[]{}~'.includes(ch)) {
      return needsShell(line, ch);
    } else word = (word ?? '') + ch;
  }
  if (quote) return `--app "${line}": an unclosed ${quote}; close the quote`;
  if (word !== null) words.push(word);
  if (!words.length) return '--app "": give the command that starts the app, e.g. --app "node server.js"';
  // NAME=value first sets a variable in a shell; run without one, it would be taken for the program.
  if (ASSIGNMENT.test(words[0]!)) return `--app "${line}": a variable is set with env: --app "env ${line}"`;
  return words;
}

/** A shell's NAME=value word (env takes them before the program). */
const ASSIGNMENT = /^[A-Za-z_]\w*=/;

const needsShell = (line: string, ch: string) =>
  `--app "${line}": "${ch}" needs a shell; put the command in a script and give --app "sh run.sh"`;

/** The program of a command: on PATH, or a file (a path with a slash, from --cwd); a string: the one-line error. */
function programOf(command: string, argv: string[], cwd: string): string | null {
  const at = argv[0] === 'env' ? argv.findIndex((w, i) => i > 0 && !ASSIGNMENT.test(w)) : 0;
  const cmd = at < 0 ? undefined : argv[at];
  // env's own options (-u NAME, -C DIR, -S ...) take arguments of their own: the program is not told apart, unchecked.
  if (cmd === undefined || cmd.startsWith('-')) return null;
  const found = cmd.includes('/') ? existsSync(resolve(cwd, cmd)) : Bun.which(cmd, { cwd }) !== null;
  const where = cmd.includes('/') ? `a file in ${cwd}` : 'on PATH';
  return found ? null : `--app "${command}": ${cmd} is not ${where}; install it or check the command`;
}

/** --body for --app: a FILE, 'first' (its first response) or 'any' (the status only, any non-empty body). */
function appBody(raw: string | undefined): OwnApp['body'] | string {
  if (raw === undefined || raw === 'first') return { from: 'first' };
  if (raw === 'any') return { from: 'any' };
  if (!existsSync(raw) || !statSync(raw).isFile())
    return `--body ${raw}: no such file; give the file that holds the app's exact body, --body first or --body any`;
  return { from: 'file', path: resolve(raw) };
}

/** The names of the apps: --app-name's list, one per --app, or your-app (and your-app-2). */
function appNames(raw: string | undefined, n: number): string[] | string {
  const names = raw === undefined ? OWN_APP_NAMES.slice(0, n) : raw.split(',');
  if (names.length !== n) return `--app-name ${raw}: give one name per --app (${n}), separated by commas`;
  const bad = names.find((x) => !/^[\w.-]{1,60}$/.test(x));
  if (bad !== undefined) return `--app-name "${bad}" must be 1-60 letters, digits, '.', '_' or '-'`;
  if (new Set(names).size < n) return `--app-name ${raw}: each app needs a name of its own`;
  return names;
}

/** The --app flags, checked; a string is the one-line error to show instead. */
export function appFlags(v: FlagValues): AppFlags | string {
  const commands = ([] as string[]).concat((v.app as string[] | string | undefined) ?? []);
  const own = ['app-name', 'cwd', 'path'].find((k) => v[k] !== undefined);
  if (!commands.length)
    return own ? `--${own} goes with --app: add --app "the command that starts your app"` : { ownApps: [] };
  if (v.target !== undefined)
    return '--app does not go with --target: --app starts your app here, --target measures one running elsewhere';
  if (v.topology === 'cluster')
    return '--app does not go with --topology cluster: your app opens its own client on REDIS_URL, one node of it';
  const noApp = workloadNamed(v.workload)?.noApp;
  if (noApp) return noApp;
  if (commands.length > 2) return '--app at most twice (your two versions); measure more in several runs';
  if (v.publish) return '--app measures your own app, which is never published: drop --publish';
  if (v.against !== undefined && commands.length > 1)
    return '--against pairs one --app with its version at a git ref: give --app once, or two --app and no --against';
  if (v.against !== undefined && v.only !== undefined)
    return '--app with --against measures your app against its other version only: drop --only (or --against)';
  if (commands.length > 1 && v.only !== undefined)
    return (
      '--app twice measures your second version against your first only: drop --only, and measure one --app ' +
      'beside the stacks in a run of its own'
    );
  const argvs = commands.map(splitCommand);
  const refused = argvs.find((a) => typeof a === 'string');
  if (refused !== undefined) return refused as string;
  const names = appNames(v['app-name'] as string | undefined, commands.length);
  if (typeof names === 'string') return names;
  const cwd = resolve((v.cwd as string | undefined) ?? '.');
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) return `--cwd ${cwd}: no such folder; give the app's folder`;
  const missing = commands.map((c, i) => programOf(c, argvs[i] as string[], cwd)).find((e) => e !== null);
  if (missing) return missing;
  const path = (v.path as string | undefined) ?? '/';
  if (!path.startsWith('/')) return `--path "${path}" must start with /, e.g. --path /colors`;
  const body = appBody(v.body as string | undefined);
  if (typeof body === 'string') return body;
  return {
    ownApps: commands.map((command, i) => ({ name: names[i]!, command, argv: argvs[i] as string[], cwd, path, body })),
  };
}
