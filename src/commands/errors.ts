/** The error a command throws to tell the actor something; its message is shown as is. */

/** A refusal or problem the actor should read (no stack, nothing logged). */
export class CommandError extends Error {
  override name = "CommandError";
}
