/**
 * A restart whose new engine cannot bind its port does not end the game: another process holds the
 * engine's HTTP port through a `@reboot` (longer than the engine's own retry), the players stay
 * connected with the telnet sidecar, and once the port is free the game comes back and they resume.
 */
import { assert } from "./assert.ts";
import { register } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

/**
 * Takes `port` on 127.0.0.1 the moment it is free (the old engine released it) and keeps it;
 * resolves with the listener, or throws when it stays taken for `ms`.
 */
async function takeWhenFree(port: number, ms = 20_000): Promise<Deno.Listener> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      return Deno.listen({ hostname: "127.0.0.1", port });
    } catch (e) {
      if (!(e instanceof Deno.errors.AddrInUse) || Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
}

Deno.test("@reboot while another process holds the HTTP port: players stay, the game comes back", async () => {
  const srv = await startSupervised({ args: ["--max-delay", "1000"] });
  const open: TelnetClient[] = [];
  let holder: Deno.Listener | null = null;
  try {
    await register(srv.base, "Alice", "alice-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    open.push(admin, alice);
    const taking = takeWhenFree(srv.http);
    await admin.send("@reboot");
    holder = await taking;
    await alice.waitFor(/game server is restarting/);
    // Typed while no engine can start: kept, and run once the game is back.
    await alice.send("say typed while the port was taken");
    // Held past the new engine's own retry (10 s), until the supervisor has started another.
    await srv.waitFor(/\(server\.http\) is in use; trying again for up to 10 s/, 60_000);
    // Worded for a restart that gave up, not as a first start's port in use.
    await srv.waitFor(
      /\(server\.http\) is still in use after 10 s of trying at this restart .*the telnet sidecar keeps the players and the supervisor starts the engine again/,
      30_000,
    );
    await srv.waitFor(/engine could not start after a restart \(exit 78;/, 30_000);
    await srv.waitFor(/(engine started[\s\S]*){3}/); // the first, the failed, the next
    assert(!alice.closed && !admin.closed, "players stay connected while the port is taken");
    holder.close();
    holder = null;
    await alice.waitFor(/Your session continues/, 30_000);
    await admin.waitFor(/Your session continues/, 30_000);
    await alice.waitFor(/You say, "typed while the port was taken"/, 15_000);
    const from = admin.mark();
    await alice.send("say back again");
    await admin.waitFor(/Alice says, "back again"/, 10_000, from);
    const out = srv.output();
    assert(!/telnet sidecar stopped/.test(out), "the sidecar was never stopped");
    assert(!/is already in use; choose another port/.test(out), "not the first start's words");
    assert(!/shutting down/i.test(alice.plain), alice.plain);
  } finally {
    holder?.close();
    for (const c of open) await c.close();
    await srv.stop();
  }
});
