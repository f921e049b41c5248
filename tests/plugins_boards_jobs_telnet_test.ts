/**
 * Boards and jobs over the whole stack (supervisor, telnet sidecar, engine, the repository's
 * plugins): telnet players post and read, file and answer requests, and hear the notices.
 */
import { assertMatch } from "./assert.ts";
import { api } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

Deno.test("boards and jobs over telnet: posts, notices, requests and answers", async () => {
  // Without the default boards, so the board made here is number 1.
  const srv = await startSupervised({ config: { plugins: { boards: { defaultBoards: [] } } } });
  const open: TelnetClient[] = [];
  try {
    const reg = await api(srv.base, "POST", "/api/v1/auth/register", {
      name: "Tilly",
      password: "tilly-password",
    });
    assertMatch(String(reg.status), /^20[01]$/);
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(admin);
    const tilly = await telnetLogin(srv, "Tilly", "tilly-password");
    open.push(tilly);

    let a = admin.mark(), t = tilly.mark();
    await admin.send("+bbcreate Town Square=News of the town");
    await admin.waitFor(/Board 1 'Town Square' created\./, 10_000, a);
    await admin.send("+bbpost town square/Fair=The fair opens at dusk.");
    await admin.waitFor(/You post message 1\/1 to Town Square: Fair/, 10_000, a);
    await tilly.waitFor(
      /\(New BB message \(1\/1\) posted to 'Town Square' by Admin: Fair\)/,
      10_000,
      t,
    );
    t = tilly.mark();
    await tilly.send("+bbread");
    await tilly.waitFor(/1 {2}Town Square +1 +1 {2}News of the town/, 10_000, t);
    t = tilly.mark();
    await tilly.send("+bbread 1/1");
    await tilly.waitFor(/The fair opens at dusk\./, 10_000, t);
    t = tilly.mark();
    await tilly.send("+bbnext");
    await tilly.waitFor(/You have no unread posts\./, 10_000, t);

    a = admin.mark(), t = tilly.mark();
    await tilly.send("+request Lost key=I dropped it in the square.");
    await tilly.waitFor(/Your request #1 \(request\) is filed: Lost key\./, 10_000, t);
    await admin.waitFor(/\[Jobs\] New job #1 \(request\) from Tilly: Lost key/, 10_000, a);
    t = tilly.mark();
    await admin.send("+job/staffnote 1=Check the well first.");
    await admin.send("+job/complete 1=Found it in the well.");
    await tilly.waitFor(
      /Your request #1 \(Lost key\) is now resolved\. Resolution: Found it in the well\./,
      10_000,
      t,
    );
    t = tilly.mark();
    await tilly.send("+request 1");
    const seen = await tilly.waitFor(/Job #1: Lost key[\s\S]*Comment with/, 10_000, t);
    if (/Check the well/.test(seen[0])) throw new Error("a staff note reached the player");
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});
