/**
 * System scripts over telnet, under the supervisor, from the game directory: the engine runs in
 * the repository, so system/scripts/ (the shipped examples) is its scripts folder.
 */
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

Deno.test("scripts over telnet: the game directory's examples, @script/list, @core/", async () => {
  // The default folder, relative to the game directory (the harness gives others an empty one).
  const srv = await startSupervised({ config: { scripts: { dir: "system/scripts" } } });
  const clients: TelnetClient[] = [];
  try {
    await register(srv.base, "Teller");
    const t = await telnetLogin(srv, "Teller", "password123");
    clients.push(t);
    await t.send("+roll 2d6");
    await t.waitFor(/\[Roll\] Teller rolls 2d6: \d+ \(\d \+ \d\)/);
    await t.send("+finger/set position=Bard");
    await t.waitFor(/Finger field position set\./);
    await t.send("+finger");
    await t.waitFor(/Position\s+Bard/);
    await t.send("+who");
    await t.waitFor(/\| Player\s+\| On For/);

    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    clients.push(admin);
    await admin.send("@script/list");
    await admin.waitFor(/\+roll\s+loaded system\/scripts\/\+roll\.ts/);
    await admin.send("@core/who");
    await admin.waitFor(/Player Name/);
    await t.send("@core/who");
    await t.waitFor(/Permission denied\./);
  } finally {
    for (const c of clients) await c.close();
    await srv.stop();
  }
});
