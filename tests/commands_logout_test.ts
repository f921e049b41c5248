/**
 * MUX's LOGOUT over telnet (the engine holding the socket, and the sidecar serving it) and over
 * WebSocket: the character disconnects as if the connection had closed (the room, @adisconnect,
 * `lwho()`, a channel's who list), the connection stays at the connect screen, and anyone may
 * log in on it; a restart after it resumes nobody.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register, type TestServer } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin, telnetReply } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";
import { connectWs } from "./ws_client.ts";

/** Logs in on a telnet connection that shows the connect screen, and waits for the room. */
async function connectOn(t: TelnetClient, name: string): Promise<void> {
  const from = t.mark();
  await t.send(`connect ${name} password123`);
  await t.waitFor(/Limbo/, 10_000, from);
}

/** Who a telnet connection plays now (other output around the answer, an @aconnect's, is skipped). */
async function playing(t: TelnetClient): Promise<string> {
  const from = t.mark();
  await t.send("think playing:[name(me)]");
  return (await t.waitFor(/playing:(\w+)/, 10_000, from))[1];
}

async function logoutOverTelnet(srv: TestServer): Promise<void> {
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Bob");
    const carolToken = await register(srv.base, "Carol");
    await register(srv.base, "Dan");
    const bob = await telnetLogin(srv, "Bob", "password123");
    closers.push(() => bob.close());
    const bobId = await telnetReply(bob, "think [num(me)]");
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await carol.expect((m) => m.data.type === "session");
    await telnetReply(bob, "@adisconnect me=@emit adisconnect-ran");
    await telnetReply(bob, "@aconnect me=@emit aconnect-ran");
    await telnetReply(bob, "OUTPUTPREFIX <bob-prefix>");
    carol.send("think [lwho()]");
    assertMatch((await carol.expect(/^#\d+/)).msg, new RegExp(`${bobId}\\b`));
    carol.send("+chan/who Public");
    assertMatch((await carol.expect(/^On Public/)).msg, /Bob/);

    // LOGOUT: the room hears Bob go and his @adisconnect runs; he is at the connect screen.
    const from = bob.mark();
    carol.clear();
    await bob.send("LOGOUT");
    await bob.waitFor(/connect <name>/, 10_000, from);
    await carol.expect(/^Bob has disconnected\.$/);
    await carol.expect(/^adisconnect-ran$/);
    assert(!bob.closed, "the connection stays open");
    carol.send("think [lwho()]");
    assert(!(await carol.expect(/^#\d+/)).msg.includes(bobId), "Bob is not in lwho()");
    carol.send("+chan/who Public");
    const who = (await carol.expect(/^On Public/)).msg;
    assert(!/Bob/.test(who), `nor on the channel's who list: ${who}`);
    // A line that is no login command gets the prompt, as on a new connection.
    const prompt = bob.mark();
    await bob.send("think still-bob?");
    await bob.waitFor(/Please log in/, 10_000, prompt);
    assert(!/still-bob\?\r\n/.test(bob.plain.slice(prompt)), "nothing runs as Bob");

    // Anyone may log in on it: Dan, with nothing of Bob's connection left (no OUTPUTPREFIX).
    await connectOn(bob, "Dan");
    await carol.expect(/^Dan has connected\.$/);
    const asDan = bob.mark();
    assertEquals(await playing(bob), "Dan");
    assert(!/bob-prefix/.test(bob.plain.slice(asDan)), "OUTPUTPREFIX went with the logout");

    // Dan logs out too, and a restart then resumes nobody: the connect screen comes back.
    await bob.send("logout");
    await carol.expect(/^Dan has disconnected\.$/);
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const reboot = bob.mark();
    await admin.send("@reboot");
    await bob.waitFor(/The game server is back\./, 60_000, reboot);
    await bob.waitFor(/connect <name>/, 15_000, reboot);
    assert(!/Your session continues/.test(bob.plain.slice(reboot)), "no session resumed");
    await connectOn(bob, "Bob");
    assertEquals(await playing(bob), "Bob");
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
}

Deno.test("LOGOUT over telnet, the engine holding the socket: a real disconnect, the connection stays", async () => {
  await logoutOverTelnet(await startSupervised({}));
});

Deno.test("LOGOUT over telnet through the sidecar: a real disconnect, the connection stays", async () => {
  await logoutOverTelnet(await startSupervised({ env: { URSAMU_TELNET_HANDOFF: "0" } }));
});

Deno.test("LOGOUT over WebSocket: a web client is told to drop its token; a plain one gets the connect screen", async () => {
  const srv = await startSupervised({});
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const carolToken = await register(srv.base, "Carol");
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect((m) => m.data.type === "session");
    const carol = await connectWs(srv.ws, { token: carolToken });
    closers.push(() => carol.close());
    await carol.expect(/Limbo/);

    bob.send("help logout");
    await bob.expect(/without closing the connection/);
    bob.send("logout");
    await bob.expect((m) => m.data.type === "logout");
    await bob.expect((m) => m.data.type === "connect");
    await carol.expect(/^Bob has disconnected\.$/);
    bob.send("think hello");
    await bob.expect((m) => m.data.type === "prompt");
    bob.send("connect Carol password123");
    const s = await bob.expect((m) => m.data.type === "session");
    assertEquals(s.data.player.name, "Carol");

    // A plain client has no token to drop: only the connect screen.
    carol.clear();
    carol.send("LOGOUT");
    const screen = await carol.expect(/connect <name>|connect/);
    assert(!carol.all.some((m) => /"logout"/.test(String(m.raw))), "no logout frame");
    assertMatch(screen.msg, /connect/i);
    carol.send("connect Bob password123");
    await carol.expect(/Limbo/);
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});
