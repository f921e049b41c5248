/**
 * Softcode's `mail()` over the mail plugin's store (plugins/mail/function.ts), on the whole stack
 * over WebSocket and telnet: MUX 2.12's four forms, who may read whose mail, the count following
 * reads, and the function surviving `@reload/plugin mail` (it is the plugin's, registered through
 * `ctx.functions` and released with it).
 */
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

Deno.test("mail(): MUX's forms over the mail plugin's store, through a reload", async () => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    const bob = await connectWs(srv.ws, { token: await register(srv.base, "Bob"), client: "web" });
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, {
      token: await register(srv.base, "Carol"),
      client: "web",
    });
    closers.push(() => carol.close());
    await bob.expect(/Limbo/);
    await carol.expect(/Limbo/);
    const think = async (who: typeof bob, expr: string, want: RegExp) => {
      // Paced under the hub's 10 lines a second, which drops what comes faster.
      await new Promise((r) => setTimeout(r, 120));
      who.send(`think ${expr}`);
      await who.expect(want);
    };
    await think(bob, "mail()", /^0$/);
    carol.send("@mail Bob=Hello/The first message.");
    await carol.expect(/Mail sent to Bob: Hello/);
    await bob.expect(/\[Mail\]/);
    await think(bob, "mail()", /^1$/);
    await think(bob, "mail(1)", /^The first message\.$/);
    await think(bob, "mail(me)", /^0 1 0$/);
    await think(bob, "mail(2)", /^#-1 NO SUCH MESSAGE$/);
    await think(bob, "mail(*Carol)", /^#-1 PERMISSION DENIED$/);
    await think(bob, "mail(*Carol,1)", /^#-1 PERMISSION DENIED$/);
    await think(bob, "mail(*Nobody)", /^#-1 NO SUCH PLAYER$/);
    await think(bob, "mailfrom(1)", /^#\d+$/);
    await think(bob, "name(mailfrom(1))", /^Carol$/);
    await think(bob, "mailsubj(1)", /^Hello$/);
    await think(bob, "mailsize(me)", /^20$/);
    await think(bob, "mailsubj(*Carol,1)", /^#-1 PERMISSION DENIED$/);
    await new Promise((r) => setTimeout(r, 120));
    bob.send("@mail 1");
    await bob.expect(/The first message\./);
    await think(bob, "mail(me)", /^1 0 0$/);

    // The superuser counts and reads anyone's.
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const run = async (line: string, want: RegExp) => {
      const from = admin.mark();
      await admin.send(line);
      await admin.waitFor(want, 10_000, from);
    };
    await run("think mail(*Bob)", /^1 0 0$/m);
    await run("think mail(*Bob,1)", /^The first message\.$/m);
    await run("think mailsubj(*Bob,1)", /^Hello$/m);
    // The plugin reloaded: its function is released and registered again, the store re-read.
    await run("@reload/plugin mail", /plugin\s+ok/);
    await think(bob, "mail()", /^1$/);
    bob.send("@mail/delete 1");
    await bob.expect(/Message 1 deleted\./);
    await think(bob, "mail()", /^0$/);
    bob.send("help mail()");
    await bob.expect(/read, unread and cleared counts/);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});
