/**
 * Guests end to end (docs/guests.md): `connect guest` over telnet through the sidecar and over a
 * WebSocket, what guests may and may not do in game and over REST, the caps, an `@reboot` the
 * guest plays through, removal at disconnect, the web client's guest login, and no guest record
 * left after an engine killed while guests were on.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { TelnetClient } from "./telnet_client.ts";
import { connectWs, type WsClient } from "./ws_client.ts";
import { PASSWORD } from "./plugins_world.ts";

const GUESTS = { game: { guestEnabled: true, maxGuests: 3, maxGuestsPerIp: 2 } };
const DENIED = /Guests can't do that\. To play, make a character: QUIT, then create/;

/** Whether the object still exists, asked as the superuser. */
async function exists(srv: TestServer, token: string, id: string): Promise<boolean> {
  const r = await api(srv.base, "GET", `/api/v1/dbobj/${id}`, undefined, token);
  if (r.status !== 200 && r.status !== 404) throw new Error(`dbobj ${id}: ${r.status}`);
  return r.status === 200;
}

/** Names of the players online, as anyone sees them. */
async function online(srv: TestServer): Promise<string[]> {
  return (await api(srv.base, "GET", "/api/v1/players/online")).body
    .map((p: { name: string }) => p.name).sort();
}

Deno.test("guests over telnet and WebSocket: what they may do, caps, @reboot, gone at QUIT", async () => {
  const srv = await startSupervised({ config: GUESTS });
  const open: (TelnetClient | WsClient)[] = [];
  try {
    const adminToken = (await api(srv.base, "POST", "/api/v1/auth/login", ADMIN)).body.token;
    await register(srv.base, "Alice", "alice-password");
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    open.push(alice);

    // The connect screen says how; `connect guest` asks for no password.
    const guest = await TelnetClient.connect(srv.telnet);
    open.push(guest);
    await guest.waitFor(/connect guest +to look around as a guest/);
    await guest.send("connect guest");
    await guest.waitFor(/Welcome, guest!/);
    await guest.waitFor(/Limbo/);
    assert(!/Password:/i.test(guest.plain), "no password prompt");
    await alice.waitFor(/Guest1 has connected\./);
    const me = await api(srv.base, "GET", "/api/v1/players/online");
    const guestId = me.body.find((p: { name: string }) => p.name === "Guest1").id as string;

    // Talk, channels and pages work; building, mail, jobs, emits and object changes do not.
    let from = guest.mark();
    await guest.send("say Hello, is this the game?");
    await alice.waitFor(/Guest1 says, "Hello, is this the game\?"/);
    // A guest joins the default channels its lock lets it, as a new player does.
    await alice.waitFor(/\[Public\] Guest1 has joined this channel\./);
    await guest.send("pub Anyone here?");
    await alice.waitFor(/\[Public\] Guest1 says, "Anyone here\?"/);
    await guest.send("page Alice=Psst.");
    await alice.waitFor(/Guest1 pages: Psst\./);
    await guest.send("whisper Alice=Hi.");
    await alice.waitFor(/Guest1 whispers "Hi\."/);
    for (
      const line of [
        "@mail Alice=Hi/there",
        "+request Help=me",
        "@describe me=A visitor.",
        "@emit Boo!",
        "+bbpost 2/Hi=there",
        "+event/rsvp 1",
      ]
    ) {
      const at = guest.mark();
      await guest.send(line);
      await guest.waitFor(DENIED, 10_000, at);
    }
    await guest.send("@dig Hut");
    await guest.waitFor(/Permission denied\./, 10_000, from);
    from = guest.mark();
    await guest.send("help guests");
    await guest.waitFor(/What guests may do/, 10_000, from);

    // A second guest over a plain WebSocket is Guest2; a third from this address is refused.
    const ws2 = await connectWs(srv);
    open.push(ws2);
    ws2.send("connect guest");
    const session2 = await ws2.expect(/Welcome, guest!/);
    assert(session2);
    await alice.waitFor(/Guest2 has connected\./);
    const ws3 = await connectWs(srv, { client: "web" });
    open.push(ws3);
    ws3.send("connect guest");
    await ws3.expect(/Too many guests from your address\./);

    // Over REST a guest reads but never writes.
    const web = await connectWs(srv, { client: "web" });
    open.push(web);
    await ws2.close();
    await waitGone(srv, adminToken, "Guest2");
    web.send("connect guest");
    const token = (await web.expect((m) => m.data.type === "session")).data.token as string;
    assertEquals((await api(srv.base, "GET", "/api/v1/me", undefined, token)).status, 200);
    const mail = await api(srv.base, "POST", "/api/v1/mail", {
      to: "Alice",
      subject: "x",
      body: "y",
    }, token);
    assertEquals(mail.status, 403);
    assertMatch(mail.body.error, /^Guests can look around but not change anything/);
    const patch = await api(srv.base, "PATCH", `/api/v1/dbobj/${guestId}`, {
      description: "x",
    }, token);
    assertEquals(patch.status, 403);

    // An @reboot: the telnet guest's session goes on, as anyone's does.
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(admin);
    await admin.send("@reboot");
    await guest.waitFor(/Your session continues/, 30_000);
    from = alice.mark();
    await guest.send("say Still here.");
    await alice.waitFor(/Guest1 says, "Still here\."/, 15_000, from);
    assert(await exists(srv, adminToken, guestId));

    // What the guest carries goes home when it goes, as MUX's nuked guest's things do.
    let at = admin.mark();
    await admin.send("@dig Attic");
    const attic = (await admin.waitFor(/Attic created as room #(\d+)\./, 10_000, at))[1];
    at = admin.mark();
    await admin.send(`think create(Lantern,10)`);
    const lantern = (await admin.waitFor(/^#(\d+)\r?$/m, 10_000, at))[1];
    at = admin.mark();
    await admin.send(`@link #${lantern}=#${attic}`);
    await admin.waitFor(/Home set|home/i, 10_000, at);
    at = admin.mark();
    await admin.send(`@tel #${lantern}=#${guestId}`);
    await admin.waitFor(/Teleported|Lantern/, 10_000, at);
    from = guest.mark();
    await guest.send("inventory");
    await guest.waitFor(/Lantern/, 10_000, from);

    // QUIT: the guest and its name go at once.
    from = alice.mark();
    await guest.send("QUIT");
    await alice.waitFor(/Guest1 has disconnected\./, 15_000, from);
    await waitGone(srv, adminToken, "Guest1");
    assertEquals(await exists(srv, adminToken, guestId), false);
    assert(!(await online(srv)).includes("Guest1"));
    at = admin.mark();
    await admin.send(`think loc(#${lantern})`);
    await admin.waitFor(new RegExp(`^#${attic}\\r?$`, "m"), 10_000, at);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

/** Waits until no player by that name exists (the guest was removed). */
async function waitGone(srv: TestServer, token: string, name: string, ms = 15_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const r = await api(srv.base, "GET", `/api/v1/dbos?flags=guest`, undefined, token);
    if (!r.body.some((o: { name: string }) => o.name === name)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} was not removed within ${ms} ms`);
}

Deno.test("guests: the web client's REST login, the cap at once, and closed when off", async () => {
  const srv = await startServer({
    config: { game: { guestEnabled: true, maxGuests: 1, maxGuestsPerIp: 0 } },
    env: { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: PASSWORD },
  });
  try {
    assertEquals((await api(srv.base, "GET", "/api/v1/config")).body.game.guests, true);
    const made = await api(srv.base, "POST", "/api/v1/auth/guest");
    assertEquals(made.status, 200, JSON.stringify(made.body));
    assertEquals(made.body.player.name, "Guest1");
    const full = await api(srv.base, "POST", "/api/v1/auth/guest");
    assertEquals(full.status, 429);
    assertMatch(full.body.error, /All the guest characters are in use/);
    // The play view connects with the token, as after a login; closing it removes the guest.
    const ws = await connectWs(srv, { client: "web" });
    ws.sendJson({ type: "auth", token: made.body.token });
    assertEquals((await ws.expect((m) => m.data.type === "session")).data.player.name, "Guest1");
    await ws.close();
    const root = (await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Root",
      password: PASSWORD,
    })).body.token;
    await waitGone(srv, root, "Guest1");
    assertEquals((await api(srv.base, "POST", "/api/v1/auth/guest")).status, 200, "a place again");
  } finally {
    await srv.stop();
  }
  const off = await startServer();
  try {
    assertEquals((await api(off.base, "GET", "/api/v1/config")).body.game.guests, false);
    const r = await api(off.base, "POST", "/api/v1/auth/guest");
    assertEquals([r.status, r.body.error], [400, "Guest logins are not open on this game."]);
    const ws = await connectWs(off);
    ws.send("connect guest");
    await ws.expect(/Guest logins are not open on this game\./);
    await ws.close();
  } finally {
    await off.stop();
  }
});

Deno.test("guests: a guest left behind by a killed engine is removed after the restart", async () => {
  const env = { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: PASSWORD };
  // A grace of 10 s (a minute by default): the same rule, checked without waiting the minute.
  const config = { game: { ...GUESTS.game, guestGrace: 10 } };
  const first = await startServer({ config, env });
  const dir = first.dir;
  let id: string;
  try {
    const ws = await connectWs(first);
    ws.send("connect guest");
    await ws.expect(/Welcome, guest!/);
    id = (await api(first.base, "GET", "/api/v1/players/online")).body[0].id;
    first.child.kill("SIGKILL");
    await first.status;
    await ws.close();
  } finally {
    await first.stop({ keepDir: true });
  }
  const again = await startServer({ config, env, dir });
  try {
    const root = (await api(again.base, "POST", "/api/v1/auth/login", {
      name: "Root",
      password: PASSWORD,
    })).body.token;
    // Kept for the grace, for a client that comes back; then removed, name and all.
    assert(await exists(again, root, id), "kept while its client may still resume");
    await waitGone(again, root, "Guest1", 60_000);
    assertEquals(await exists(again, root, id), false);
  } finally {
    await again.stop();
  }
});
