/**
 * Delivery, GMCP and world events for plugins, end to end with the fixture plugin
 * `tests/fixtures/plugins/herald`: `ctx.deliver` to a player, a list, a room and everyone (each
 * recipient once); a `ctx.gmcp` mapping that reaches a telnet client with GMCP on (and no other
 * kind of client); `room:speech`, `player:connected` and `player:disconnected` on worldHooks.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, ROOT, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsClient, type WsMessage } from "./ws_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

const HERALD = join(ROOT, "tests/fixtures/plugins/herald");
const isType = (type: string) => (m: WsMessage) => m.data.type === type;

/** A temp plugins folder holding only the herald fixture. */
async function pluginsDir(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-herald-" });
  await Deno.symlink(HERALD, join(dir, "herald"));
  return dir;
}

type Recorded = { event: string; payload: Record<string, unknown> };

async function events(srv: TestServer): Promise<Recorded[]> {
  return (await api(srv.base, "GET", "/api/v1/herald/events")).body;
}

/** Waits until the recorded events satisfy `want`. */
async function eventsUntil(srv: TestServer, want: (e: Recorded[]) => boolean): Promise<Recorded[]> {
  const end = Date.now() + 5000;
  for (;;) {
    const seen = await events(srv);
    if (want(seen)) return seen;
    if (Date.now() > end) throw new Error(`events never matched: ${JSON.stringify(seen)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let syncs = 0;
/** Sends a sync and waits for its answer: everything sent before it has run. */
async function settled(c: WsClient): Promise<void> {
  const id = `s${++syncs}`;
  c.sendJson({ type: "sync", id });
  await c.expect((m) => m.data.type === "sync" && m.data.id === id);
}

const heralds = (c: WsClient) => c.all.filter(isType("herald")).map((m) => m.msg);

Deno.test("plugins: ctx.deliver reaches a player, a list, a room and everyone, once each", async () => {
  const plugins = await pluginsDir();
  const srv = await startServer({ env: { URSAMU_SERVER_PLUGINSDIR: plugins } });
  const open: WsClient[] = [];
  try {
    const login = async (name: string) => {
      const ws = await connectWs(srv, { token: await register(srv.base, name), client: "web" });
      open.push(ws);
      const session = await ws.expect(isType("session"));
      await ws.expect(isType("room"));
      return { ws, id: session.data.player.id as string };
    };
    const alice = await login("Alice");
    const bob = await login("Bob");
    const carol = await login("Carol");
    const everyone = [alice, bob, carol];

    alice.ws.send("+herald/me just me");
    alice.ws.send("+herald/room the room");
    alice.ws.send(`+herald/to ${bob.id} #${bob.id} ${carol.id} 9999=the list`);
    alice.ws.send("+herald/all everyone");
    await settled(alice.ws);
    for (const p of everyone) await settled(p.ws);

    assertEquals(heralds(alice.ws), ["just me", "everyone"]);
    assertEquals(heralds(bob.ws), ["the room", "the list", "everyone"]);
    assertEquals(heralds(carol.ws), ["the room", "the list", "everyone"]);
    // Web clients get the message as it was; the GMCP form goes to telnet clients only.
    const frame = bob.ws.all.find(isType("herald"))!;
    assert(!String(frame.raw).includes("gmcp"), String(frame.raw));
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
    await Deno.remove(plugins, { recursive: true });
  }
});

Deno.test("plugins: worldHooks carry speech and connects, from every path", async () => {
  const plugins = await pluginsDir();
  const srv = await startServer({ env: { URSAMU_SERVER_PLUGINSDIR: plugins } });
  const open: WsClient[] = [];
  try {
    const token = await register(srv.base, "Alice");
    const first = await connectWs(srv, { token, client: "web" });
    open.push(first);
    const id = (await first.expect(isType("session"))).data.player.id as string;
    await settled(first);
    const connected = (await events(srv)).filter((e) => e.event === "player:connected");
    assertEquals(connected, [{
      event: "player:connected",
      payload: { id, name: "Alice", first: true, resumed: false },
    }]);

    first.send("say Hello there");
    first.send("pose waves.");
    first.send(";'s hat tilts.");
    first.send("@emit The wind %chhowls%cn.");
    first.send("think not speech");
    await settled(first);
    const speech = (await events(srv)).filter((e) => e.event === "room:speech");
    const base = { actorId: id, actorName: "Alice", roomId: "1" };
    assertEquals(speech.map((e) => e.payload), [
      { ...base, kind: "say", text: "Hello there", msg: 'Alice says, "Hello there%cn"' },
      { ...base, kind: "pose", text: "waves.", msg: "Alice waves." },
      { ...base, kind: "semipose", text: "'s hat tilts.", msg: "Alice's hat tilts." },
      {
        ...base,
        kind: "emit",
        text: "The wind %chhowls%cn.",
        msg: "The wind %chhowls%cn.",
      },
    ]);

    // A second connection, a resume, and the closes: whether others remain is said each time.
    const second = await connectWs(srv, { token, client: "web" });
    open.push(second);
    await second.expect(isType("session"));
    await settled(second);
    const resumed = await connectWs(srv, { token, client: "web", query: { resume: "1" } });
    open.push(resumed);
    await resumed.expect(isType("session"));
    await settled(resumed);
    await resumed.close();
    await second.close();
    await first.close();
    const seen = await eventsUntil(
      srv,
      (e) => e.filter((x) => x.event === "player:disconnected").length === 3,
    );
    const conns = seen.filter((e) => e.event !== "room:speech").map((e) => [
      e.event,
      e.payload.first ?? e.payload.stillConnected,
      e.payload.resumed,
    ]);
    assertEquals(conns, [
      ["player:connected", true, false],
      ["player:connected", false, false],
      ["player:connected", false, true],
      ["player:disconnected", true, undefined],
      ["player:disconnected", true, undefined],
      ["player:disconnected", false, undefined],
    ]);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
    await Deno.remove(plugins, { recursive: true });
  }
});

Deno.test("plugins: a ctx.gmcp mapping reaches a raw telnet client with GMCP on", async () => {
  const plugins = await pluginsDir();
  const srv = await startSupervised({ env: { URSAMU_SERVER_PLUGINSDIR: plugins } });
  const open: TelnetClient[] = [];
  try {
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password, { gmcp: true });
    open.push(admin);
    const plain = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(plain);
    await admin.send("+herald/all %chHear%cn ye");
    const note = () => admin.gmcp.find((g) => g.package === "Herald.Note");
    await admin.until(() => note() !== undefined, "Herald.Note");
    const data = note()!.data as { text: string; from: string };
    assertEquals(data.from, ADMIN.name);
    // Colour codes in the payload are rendered for the client, like the text beside it.
    assert(!data.text.includes("%ch"), data.text);
    // deno-lint-ignore no-control-regex
    assertEquals(data.text.replace(/\x1b\[[0-9;]*m/g, ""), "Hear ye");
    await plain.waitFor(/Hear ye/);
    assertEquals(plain.gmcp, [], "a client without GMCP gets none");
    assertMatch(admin.plain, /Hear ye/);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
    await Deno.remove(plugins, { recursive: true });
  }
});
