// --app "COMMAND": a user's own app, started by the harness as it starts a contender and measured beside the ones
// --only names (run/own-app.ts makes it a contender). Its flags: --app-name, --cwd, --path and --body.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OwnApp } from '../model/contenders';
import type { OwnAppSpec } from '../run/options';

export interface AppFlags {
  /** null: no --app. */
  ownApp: OwnAppSpec | null;
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
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      word ??= '';
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else if ('|&;<>()$`*?[]{}~'.includes(ch)) {
      return `--app "${line}": "${ch}" needs a shell; put the command in a script and give --app "sh run.sh"`;
    } else word = (word ?? '') + ch;
  }
  if (quote) return `--app "${line}": an unclosed ${quote}; close the quote`;
  if (word !== null) words.push(word);
  return words.length ? words : '--app "": give the command that starts the app, e.g. --app "node server.js"';
}

/** --body for --app: a FILE, 'first' (its first response) or 'any' (status and length only). */
function appBody(raw: string | undefined): OwnApp['body'] | string {
  if (raw === undefined || raw === 'first') return { from: 'first' };
  if (raw === 'any') return { from: 'any' };
  if (!existsSync(raw) || !statSync(raw).isFile())
    return `--body ${raw}: no such file; give the file that holds the app's exact body, --body first or --body any`;
  return { from: 'file', path: resolve(raw) };
}

/** The --app flags, checked; a string is the one-line error to show instead. */
export function appFlags(v: Record<string, string | boolean | undefined>): AppFlags | string {
  const command = v.app as string | undefined;
  const own = ['app-name', 'cwd', 'path'].find((k) => v[k] !== undefined);
  if (command === undefined)
    return own ? `--${own} goes with --app: add --app "the command that starts your app"` : { ownApp: null };
  if (v.target !== undefined)
    return '--app does not go with --target: --app starts your app here, --target measures one running elsewhere';
  const argv = splitCommand(command);
  if (typeof argv === 'string') return argv;
  const name = (v['app-name'] as string | undefined) ?? 'your-app';
  if (!/^[\w.-]{1,60}$/.test(name)) return `--app-name "${name}" must be 1-60 letters, digits, '.', '_' or '-'`;
  const cwd = resolve((v.cwd as string | undefined) ?? '.');
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) return `--cwd ${cwd}: no such folder; give the app's folder`;
  const path = (v.path as string | undefined) ?? '/';
  if (!path.startsWith('/')) return `--path "${path}" must start with /, e.g. --path /colors`;
  const body = appBody(v.body as string | undefined);
  if (typeof body === 'string') return body;
  return { ownApp: { name, command, argv, cwd, path, body } };
}
