/** Helpers shared by the telnet client and handoff tests. */
import type { ClientState } from "./telnet_client.ts";

/** A logged-in player's state as another process carried it (Alice, token `tok`). */
export function carriedState(
  over: Partial<ClientState["telnet"]> = {},
  colour = false,
): ClientState {
  return {
    ip: "203.0.113.1",
    connectedAt: 1,
    lastInput: 2,
    token: "tok",
    player: { id: "7", name: "Alice" },
    colourMode: colour ? "auto" : "off",
    colour,
    gmcpClient: null,
    gmcpSupports: null,
    errors: 0,
    telnet: {
      options: [],
      width: null,
      height: null,
      ttypes: [],
      ttypeRequests: 0,
      ttypeReplies: 0,
      mtts: null,
      charset: null,
      charsetRequested: false,
      charsetPending: false,
      compressing: false,
      pending: "",
      ...over,
    },
    lines: [],
    password: null,
  };
}
