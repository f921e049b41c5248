/**
 * The telnet part of `deno task bench` at a tiny size, end to end through the supervisor, the
 * sidecar and the engine: every figure it reports is there and sane, so the bench cannot rot.
 */
import { assert, assertEquals } from "./assert.ts";
import { runTelnetBench, telnetRows } from "../bench/telnet.ts";

/** Paths of the leaves of `v` that are not finite numbers, booleans or non-empty objects. */
function holes(v: unknown, path = "result"): string[] {
  if (typeof v === "number") return Number.isFinite(v) ? [] : [path];
  if (typeof v === "boolean") return [];
  if (v === null || typeof v !== "object") return [path];
  const entries = Object.entries(v);
  if (entries.length === 0 && !path.endsWith(".extra")) return [path];
  return entries.flatMap(([k, x]) => holes(x, `${path}.${k}`));
}

Deno.test({
  name: "bench: the telnet part runs at a tiny size and reports every figure",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const r = await runTelnetBench({
      players: 20,
      samples: 50,
      poses: 3,
      storm: 4,
      reboots: 1,
      hold: 30,
      settleMs: 200,
      rebootGapMs: 0,
      log: () => {},
    });
    assertEquals(holes(r), []);
    assertEquals(r.roundTripMs.quiet.n, 50);
    assertEquals(r.roundTripMs.loaded.connections, 20);
    assert(r.roundTripMs.duringLoginStorm!.n > 0, "round trips ran during the storm");
    // Read, not grown: 20 players are about 400 KiB (20-40 KiB each), less than a collection
    // may give back between the readings; in a loaded suite run the second was not the larger.
    for (const m of [r.memory.baseline, r.memory.withPlayers]) {
      assert(Object.values(m.byPid).every((kib) => kib > 0), "memory read from the processes");
      assert(Object.keys(m.byPid).length >= 3, "supervisor, sidecar and engine");
    }
    assertEquals(r.fanout.delivery.n, 3 * 20, "every pose reached every player");
    assertEquals(r.fanout.lost, 0);
    assertEquals(r.logins!.ok, 4);
    assertEquals(r.reboot!.preservedShare, 1);
    assertEquals(r.reboot!.resumesFailed, 0);
    assertEquals(r.hold!.connected, 30);
    assertEquals(r.hold!.reboot.sessions, 30);
    assertEquals(r.hold!.reboot.preservedShare, 1);
    const printed = telnetRows(r).map((row) => row.join(" ")).join("\n");
    assert(!/NaN|undefined/.test(printed), printed);
  },
});
