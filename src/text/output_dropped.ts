import { counted } from "./plural.ts";
/**
 * What a player is told once its client catches up after output to it was dropped, the same
 * from the hub (web and WebSocket clients) and the telnet layer: output a client has not taken
 * past its bound is dropped, as MUX's output_limit flushes it, rather than the client closed.
 */
export function droppedNotice(n: number): string {
  return `%ch%cr[${counted(n, "line")} of output ${n === 1 ? "was" : "were"} dropped: ` +
    `${n === 1 ? "it" : "they"} came faster than your client took them.]%cn`;
}

/**
 * `msg` cut so that `fits` holds for it, at a line break where one is near, with a last line
 * saying how much was cut; `msg` itself when it fits. A client's output bound is about unsent
 * bytes, so one reply bigger than the bound (an `examine` or `@edit` of an object with thousands
 * of attributes) is cut rather than the client closed as too slow. Tries at most ten lengths.
 */
export function cutToFit(msg: string, fits: (text: string) => boolean): string {
  if (fits(msg)) return msg;
  let keep = msg.length;
  for (let i = 0; i < 10 && keep > 0; i++) {
    keep = Math.floor(keep / 2);
    const nl = msg.lastIndexOf("\n", keep);
    const at = nl > keep / 2 ? nl : keep;
    const text = at > 0
      ? `${msg.slice(0, at)}\n${cutNotice(msg.length - at)}`
      : cutNotice(msg.length);
    if (fits(text)) return text;
  }
  return cutNotice(msg.length);
}

/** The line that ends a reply cut to fit a client's output bound. */
function cutNotice(n: number): string {
  return `%ch%cr[${counted(n, "more character")} of this output ${n === 1 ? "was" : "were"} ` +
    `cut: too much to send at once.]%cn`;
}
