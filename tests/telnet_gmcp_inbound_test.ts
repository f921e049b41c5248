/**
 * Black-box GMCP from the client to plugins (docs/telnet.md, "GMCP from the client"), over raw
 * telnet, through both carriers: the engine holding the sockets (with an `@reboot` in between,
 * the sockets handed to the next engine) and the sidecar serving them over its link. `Comm.Channel.Players` and `Comm.Channel.List` answered on request;
 * Players kept fresh when another member joins, leaves, connects or disconnects; a client that
 * did not ask for Comm gets none of it; oversized, malformed and unknown requests change nothing.
 * And Room.Info only for the player's own room (not `look` at a room from afar).
 */
import { assert, assertEquals } from "./assert.ts";
import { register, type TestServer } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

const IAC = 255, SB = 250, SE = 240, GMCP = 201;

/** Connects with GMCP on, announces `supports`, logs in and waits for the room. */
async function gmcpLogin(
  port: number,
  name: string,
  password: string,
  supports: string[],
): Promise<TelnetClient> {
  const t = await TelnetClient.connect(port, { gmcp: true });
  await t.waitFor(/connect <name>/);
  await t.sendGmcp("Core.Supports.Set", supports);
  await t.send(`connect ${name} ${password}`);
  await t.waitFor(/Limbo/);
  return t;
}

type Players = { name: string; channels: string[] }[];

/** How many of `pkg` the client has had, and the last one's data. */
function got(c: TelnetClient, pkg: string): { n: number; last: unknown } {
  const all = c.gmcp.filter((g) => g.package === pkg);
  return { n: all.length, last: all.at(-1)?.data };
}

/** Waits until everything the client sent before has been run (its GMCP included). */
async function settle(c: TelnetClient, word: string): Promise<void> {
  await c.send(`think ${word}`);
  await c.waitFor(new RegExp(`^${word}$`, "m"));
}

async function requestsAndFreshness(srv: TestServer, open: TelnetClient[], t: Deno.TestContext) {
  await register(srv.base, "Mudder", "mudder-password");
  await register(srv.base, "Other", "other-password");
  await register(srv.base, "Plain", "plain-password");
  const mudder = await gmcpLogin(srv.telnet, "Mudder", "mudder-password", ["Comm.Channel 1"]);
  open.push(mudder);
  const plain = await gmcpLogin(srv.telnet, "Plain", "plain-password", ["Room 1"]);
  open.push(plain);
  await mudder.until(() => got(mudder, "Comm.Channel.Players").n > 0, "Players at login");

  await t.step("Comm.Channel.Players and List answered on request", async () => {
    const players = got(mudder, "Comm.Channel.Players").n;
    const lists = got(mudder, "Comm.Channel.List").n;
    await mudder.sendGmcp("Comm.Channel.Players", "");
    await mudder.sendGmcp("comm.channel.list");
    await mudder.until(() => got(mudder, "Comm.Channel.Players").n > players, "Players answer");
    await mudder.until(() => got(mudder, "Comm.Channel.List").n > lists, "List answer");
    const list = got(mudder, "Comm.Channel.List").last as { name: string }[];
    assert(list.some((c) => c.name === "Public"), JSON.stringify(list));
  });

  await t.step("another member connects, joins, leaves: Players updated", async () => {
    const before = got(mudder, "Comm.Channel.Players").n;
    const other = await gmcpLogin(srv.telnet, "Other", "other-password", ["Room 1"]);
    open.push(other);
    const has = (name: string, channel: string) =>
      (got(mudder, "Comm.Channel.Players").last as Players).some((p) =>
        p.name === name && p.channels.includes(channel)
      );
    await mudder.until(
      () => got(mudder, "Comm.Channel.Players").n > before && has("Other", "Public"),
      "Players naming Other after its login",
    );
    await other.send("+chan/join OOC=oc");
    await other.waitFor(/OOC/);
    await mudder.until(() => has("Other", "OOC") || false, "Players with Other on OOC");
    await other.send("+chan/leave OOC");
    await mudder.until(() => !has("Other", "OOC") && has("Other", "Public"), "Other off OOC");
    await other.send("quit");
    await other.until(() => other.closed, "Other gone");
    await mudder.until(
      () => !(got(mudder, "Comm.Channel.Players").last as Players).some((p) => p.name === "Other"),
      "Players without Other after its logout",
    );
  });

  await t.step("a client that did not ask for Comm gets none, even on request", async () => {
    await plain.sendGmcp("Comm.Channel.Players", "");
    await plain.sendGmcp("Comm.Channel.List", "");
    await settle(plain, "plain-done");
    assert(!plain.gmcp.some((g) => g.package.startsWith("Comm.")), "no Comm to a Room client");
  });

  await t.step(
    "hostile requests: oversized, bad JSON, unknown package change nothing",
    async () => {
      const bytes = (s: string) => [...new TextEncoder().encode(s)];
      const n = got(mudder, "Comm.Channel.Players").n;
      // Over the 8 KiB subnegotiation cap: dropped by the telnet codec.
      await mudder.sendGmcp("Comm.Channel.Players", "x".repeat(10_000));
      await mudder.write(
        Uint8Array.from([IAC, SB, GMCP, ...bytes("Comm.Channel.Players {not json"), IAC, SE]),
      );
      await mudder.sendGmcp("Nobody.Handles.This", { a: [1, 2, 3] });
      await mudder.sendGmcp("Core.Nonsense", { a: 1 });
      // A flood of requests is cut at the command rate, and the game goes on.
      for (let i = 0; i < 40; i++) await mudder.sendGmcp("Comm.Channel.Players", "");
      await mudder.until(() => got(mudder, "Comm.Channel.Players").n > n, "a flood answered");
      // The flood used the player's command budget: the next line waits for it to refill.
      await new Promise((r) => setTimeout(r, 1_500));
      await settle(mudder, "still-here");
      const answered = got(mudder, "Comm.Channel.Players").n - n;
      assert(answered <= 25, `${answered} answers to a flood of 40`);
    },
  );
}

async function roomInfoOnlyHere(srv: TestServer, open: TelnetClient[], t: Deno.TestContext) {
  await t.step("look at a room from afar sends no Room.Info; look here does", async () => {
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password, { gmcp: true });
    open.push(admin);
    await admin.send("@dig Far Room");
    await admin.waitFor(/Far Room/);
    await settle(admin, "dug");
    const rooms = () => admin.gmcp.filter((g) => g.package === "Room.Info");
    const before = rooms().length;
    await admin.send("look Far Room");
    await admin.send("look #0");
    await settle(admin, "looked");
    assertEquals(rooms().length, before, "nothing for a remote look");
    await admin.send("look");
    await admin.until(() => rooms().length === before + 1, "Room.Info for look here");
  });
}

Deno.test("GMCP requests to plugins: the sidecar serving telnet over its link", async (t) => {
  const srv = await startSupervised({ env: { URSAMU_TELNET_HANDOFF: "0" } });
  assert(!/sockets handed to the engine/.test(srv.output()), "the sidecar serves its players");
  const open: TelnetClient[] = [];
  try {
    await requestsAndFreshness(srv, open, t);
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("GMCP requests to plugins: the engine holding the sockets, and after @reboot", async (t) => {
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  try {
    await requestsAndFreshness(srv, open, t);
    await roomInfoOnlyHere(srv, open, t);
    await t.step("after @reboot the hub knows the client's packages again", async () => {
      const [mudder, plain] = open;
      const admin = open.at(-1)!;
      await admin.send("@reboot");
      await mudder.waitFor(/Your session continues/, 30_000);
      await plain.waitFor(/Your session continues/, 30_000);
      const n = got(mudder, "Comm.Channel.Players").n;
      await mudder.sendGmcp("Comm.Channel.Players", "");
      await mudder.until(() => got(mudder, "Comm.Channel.Players").n > n, "answered again");
      await plain.sendGmcp("Comm.Channel.Players", "");
      await settle(plain, "plain-after");
      assert(!plain.gmcp.some((g) => g.package.startsWith("Comm.")), "still nothing for Plain");
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});
