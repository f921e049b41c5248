/** The error a command throws to tell the actor something; its message is shown as is. */

/** A refusal or problem the actor should read (no stack, nothing logged). */
export class CommandError extends Error {
  override name = "CommandError";
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
