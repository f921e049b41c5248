/** The error a command throws to tell the actor something; its message is shown as is. */

/** A refusal or problem the actor should read (no stack, nothing logged). */
export class CommandError extends Error {
  override name = "CommandError";
}

/** `value` trimmed, or a `Usage: <usage>` refusal when it is missing or blank. */
export function required(value: string | null | undefined, usage: string): string {
  if (value === null || value === undefined || !value.trim()) {
    throw new CommandError(`Usage: ${usage}`);
  }
  return value.trim();
}

/**
 * A move that went nowhere: no exit that way, or one whose lock refuses. `dir` is what the
 * player typed, for clients that track moves (GMCP `Room.WrongDir`).
 */
export class WrongWayError extends CommandError {
  override name = "WrongWayError";
  constructor(message: string, readonly dir: string) {
    super(message);
  }
}
