// A bad flag or flag value (system/flag-values.ts): its message names the cause and the fix, and the CLI exits 2.
export { UsageError } from '../system/flag-values';

/**
 * `--help` or `-h` among a command's arguments: its help (the usage line, then what each flag does) printed to stdout,
 * and true, so that the command exits 0 before it reads any other argument.
 */
export function printedHelp(argv: readonly string[], help: string): boolean {
  if (!argv.includes('--help') && !argv.includes('-h')) return false;
  console.log(help.trim());
  return true;
}
