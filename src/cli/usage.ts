/** Usage errors of the command line and the help text. */

/** Exit code of a misuse (an unknown command, a missing or extra argument). */
export const EXIT_USAGE = 2;

/** A misuse of the command line; printed as one line, exit EXIT_USAGE. */
export class UsageError extends Error {
  override name = "UsageError";
}

/** The help text; `prog` is how the operator runs the command line. */
export function helpText(prog: string): string {
  return `Usage: ${prog} <command> [arguments]

Commands:
  start                 start the game (supervisor, telnet sidecar and engine); the default
  setup                 create the superuser (only while the game has none)
  backup [file]         write a consistent snapshot of the database and the wiki to one
                        compressed file (default backups/ursamu-<time>.tar.gz); the game
                        may be running
  restore <file>        restore a backup into an empty database; --force replaces a
                        non-empty one (the game must be stopped)
  check-config          print every configuration problem with its key; exit 1 if any
  version               print the engine's version and the database layout version
  passwd <player>       set a player's password from the shell (asked twice, or one line
                        on standard input)
  help                  this text (also --help, -h)

Exit codes: 0 done, 1 failed (the line says why), 2 misuse, 78 the configuration stops it.
The game directory is the working directory (config/config.json, data/, logs/, backups/).
See docs/cli.md.`;
}
