/** Lines the telnet layer itself shows its players (the game starting, restarting, back). */
import { TOO_FAST } from "../../rate/too_fast.ts";

/** Notices the telnet layer itself shows; colour codes are rendered like hub text. */
export const NOTICES = {
  starting: "%ch%cy[The game server is starting. Please wait; you stay connected.]%cn",
  restarting: "%ch%cy[The game server is restarting. Please wait; you stay connected " +
    "and what you type is kept.]%cn",
  back: "%ch%cg[The game server is back.]%cn",
  resumed: "%ch%cg[The game server is back. Your session continues.]%cn",
  resumeFailed: "%ch%cr[Your session could not be resumed; please log in again.]%cn",
  bufferFull: "%ch%cr[Input not kept: too much typed while the server restarts.]%cn",
  tooFast: `%ch%cr[${TOO_FAST}]%cn`,
  lineTooLong: "%ch%cr[That line is too long and was ignored.]%cn",
  shutdown: "%ch%cr[The server is shutting down. Goodbye.]%cn",
  tooManyErrors: "Too much malformed telnet input; closing the connection.",
} as const;
