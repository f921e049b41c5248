/**
 * The sidecar link under TLS: the engine's public ports speak TLS with the game's certificate,
 * which names the game's host, not 127.0.0.1, so the telnet sidecar could not verify it on
 * loopback. The supervisor picks a free loopback port and hands it to both children; the engine
 * serves its hub and API there in plain text (loopback only), and the sidecar dials it.
 */

import { freeListenPorts } from "../net/free_ports.ts";

/**
 * A free port on 127.0.0.1 (the supervisor's pick for the link), outside the range outgoing
 * connections take theirs from: each restarted engine opens it again.
 */
export function freeLoopbackPort(): number {
  return freeListenPorts(1)[0];
}
