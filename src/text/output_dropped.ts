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
