/**
 * Whether this platform can hand telnet sockets from the sidecar to the engine: descriptor
 * passing (Linux, FFI; unix_fds.ts), sockets that give their descriptor (the Node layer's
 * `fdForIpc`), and descriptors the engine can adopt (adopted.ts). Both processes ask, each for
 * its own side, and fall back to the sidecar serving its players itself when the answer is no.
 */
import process from "node:process";
import { adoptionUnavailable } from "./adopted.ts";
import { fdPassingUnavailable } from "./unix_fds.ts";

/** Why sockets cannot be handed over here, or null when they can. */
export function handoffUnavailable(): string | null {
  const passing = fdPassingUnavailable();
  if (passing !== null) return passing;
  const adopting = adoptionUnavailable();
  if (adopting !== null) return adopting;
  try {
    // deno-lint-ignore no-explicit-any
    const tcp = (process as any).binding("tcp_wrap");
    if (typeof tcp?.TCP?.prototype?.fdForIpc !== "function") {
      return "the runtime's TCP sockets do not give their descriptor";
    }
  } catch (e) {
    return (e as Error).message;
  }
  return null;
}
