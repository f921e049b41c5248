/**
 * A reason the game cannot start as configured, worded for the person who runs it: one line that
 * names the configuration key and the fix. Entry points print its message (never a stack) and
 * exit with EXIT_CONFIG, which tells the supervisor that restarting cannot help.
 */

/** A start-up failure with the key to change and how to fix it. */
export class StartupError extends Error {
  override name = "StartupError";
  /** The configuration key at fault (e.g. `server.db`). */
  readonly key: string;

  constructor(key: string, problem: string, fix: string) {
    super(`${problem} (${key}); ${fix}`);
    this.key = key;
  }
}

/** The first line of an error's message: what a start-up failure prints instead of a stack. */
export function oneLine(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.split("\n")[0].trim() || (e instanceof Error ? e.name : "unknown error");
}
