/**
 * Free ports for a server that will close and open them again (the engine's, across restarts).
 * A port the kernel picks (port 0) comes from the range it also gives outgoing connections as
 * their local ports; a server that lets go of such a port for a restart may find it taken by a
 * connection to somewhere else, for as long as that connection lasts. So these come from below
 * that range (Linux: `/proc/sys/net/ipv4/ip_local_port_range`, 32768-60999 by default), where
 * only a program that asks for the port by number can take it.
 */

/** The lowest port handed out; below it are the well-known and commonly configured ones. */
const LOWEST = 10_000;
/** Random picks tried per port wanted before the kernel is asked instead. */
const PICKS_PER_PORT = 50;

/**
 * `n` different ports free on `hostname` now: all held open until the last is found, since a port
 * just closed can be handed out again at once. Below the outgoing range where it is known (Linux)
 * and has room, else picked by the kernel.
 */
export function freeListenPorts(
  n: number,
  hostname = "127.0.0.1",
  random: () => number = Math.random,
): number[] {
  const high = outgoingRangeStart();
  const held: Deno.Listener[] = [];
  try {
    for (let picks = 0; high !== null && held.length < n && picks < n * PICKS_PER_PORT; picks++) {
      const port = LOWEST + Math.floor(random() * (high - LOWEST));
      try {
        held.push(Deno.listen({ hostname, port }));
      } catch { /* taken (or refused): pick another */ }
    }
    while (held.length < n) held.push(Deno.listen({ hostname, port: 0 }));
    return held.map((l) => (l.addr as Deno.NetAddr).port);
  } finally {
    for (const l of held) l.close();
  }
}

/** Where the kernel's range for outgoing local ports starts, or null (unknown, or no room below). */
function outgoingRangeStart(): number | null {
  try {
    const low = Number(
      Deno.readTextFileSync("/proc/sys/net/ipv4/ip_local_port_range").trim().split(/\s+/)[0],
    );
    return Number.isInteger(low) && low > LOWEST + 1_000 ? low : null;
  } catch {
    return null;
  }
}
