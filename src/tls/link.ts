/**
 * The sidecar link under TLS: the engine's public ports speak TLS with the game's certificate,
 * which names the game's host, not 127.0.0.1, so the telnet sidecar could not verify it on
 * loopback. The supervisor picks a free loopback port and hands it to both children; the engine
 * serves its hub and API there in plain text (loopback only), and the sidecar dials it.
 */

/** A free port on 127.0.0.1 (the supervisor's pick for the link). */
export function freeLoopbackPort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}
