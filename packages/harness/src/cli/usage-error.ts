// A bad flag or flag value: its message names the cause and the fix, and the CLI exits 2.
export class UsageError extends Error {}
