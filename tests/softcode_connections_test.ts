/**
 * Softcode's connection functions on the whole stack (src/softcode/functions/connections.ts):
 * what a telnet client negotiated (NAWS, TTYPE, MTTS) and a web client are, seen through height(),
 * terminfo(), colordepth(), host(), ports(), lports() and cmds(); a player's statistics written
 * when its connection ends and kept through `@reboot` (connnum(), connleft(), connrecord()); and
 * poll() following `@doing/header`.
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { connectWs } from "./ws_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

Deno.test("connection functions: telnet and web clients, statistics through a reboot", async () => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password, {
      naws: { width: 100, height: 40 },
      // MTTS 265: ANSI, 256 colours and truecolor, more than the names say.
      ttype: ["TestTerm", "XTERM-256COLOR", "MTTS 265"],
    });
    closers.push(() => admin.close());
    const think = async (expr: string, want: RegExp) => {
      const from = admin.mark();
      await admin.send(`think ${expr}`);
      return (await admin.waitFor(want, 10_000, from))[0];
    };
    await think("height(me)", /^40$/m);
    await think("terminfo(me)", /^TestTerm telnet unicode$/m);
    await think("colordepth(me)", /^24$/m);
    await think("host(me)", /^127\.0\.0\.1$/m);
    const port = (await think("ports(me)", /^\d+$/m)).trim();
    await think(`height(${port})`, /^40$/m);
    await think("cmds(me)", /^\d+$/m);
    await think("connnum(me)", /^1$/m);

    const token = await register(srv.base, "Alice");
    const alice = await connectWs(srv.ws, { token, client: "web" });
    closers.push(() => alice.close());
    await alice.expect(/Limbo/);
    alice.send("think [terminfo(me)] [colordepth(me)] [host(me)] [lports()]");
    await alice.expect(/^web unicode 24 #-1 PERMISSION DENIED #-1 PERMISSION DENIED$/);
    const lports = await think("lports()", /^#\d+:\d+ #\d+:\d+$/m);
    assert(lports.includes(`:${port}`), lports);
    await think("connrecord()", /^2$/m);

    // Alice's connection ends: her statistics are written on her record.
    await alice.close();
    await think("connnum(*Alice)", /^1$/m);
    const left = Number((await think("connleft(*Alice)", /^\d+$/m)).trim());
    assert(Math.abs(left - Date.now() / 1000) < 120, `connleft ${left}`);

    // poll() follows @poll (@doing/header).
    await admin.send("@poll Plans tonight?");
    await admin.waitFor(/Poll set/);
    await think("poll()", /^Plans tonight\?$/m);

    // Kept across a restart; the admin's session goes on, so it is no new connection.
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues/, 30_000);
    await think("[connnum(*Alice)] [connrecord()] [connnum(me)]", /^1 2 1$/m);
    await think("poll()", /^Plans tonight\?$/m);
    assertEquals((await think("connleft(*Alice)", /^\d+$/m)).trim(), String(left));
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
