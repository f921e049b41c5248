/**
 * Black-box tests of the telnet sidecar under the supervisor: login with a hidden password,
 * talking with a web player, colour, NAWS, GMCP, MSSP, MCCP2, create and quit.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register, startServer } from "./harness.ts";
import { connectWs, type WsClient } from "./ws_client.ts";
import { TelnetClient } from "./telnet_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

const ECHO_WILL = "WILL 1";
const ECHO_WONT = "WONT 1";

Deno.test("telnet sidecar: login, talk with a web player, negotiation", async (t) => {
  const srv = await startSupervised();
  const open: (TelnetClient | WsClient)[] = [];
  try {
    await register(srv.base, "Alice", "alice-password");
    const bobToken = await register(srv.base, "Bob", "bob-password");
    const bob = await connectWs(srv, { token: bobToken, client: "web" });
    open.push(bob);
    await bob.expect((m) => m.data.type === "session");

    await t.step("password prompt hides input (WILL ECHO), then shows it again", async () => {
      const alice = await TelnetClient.connect(srv.telnet, {
        naws: { width: 100, height: 40 },
        ttype: "TestTerm",
        gmcp: true,
      });
      open.push(alice);
      await alice.waitFor(/connect <name>/);
      await alice.send("connect Alice");
      await alice.waitFor(/Password: /);
      assert(alice.echoOff, "server said WILL ECHO before the password");
      assert(alice.negotiations.includes(ECHO_WILL));
      await alice.send("alice-password");
      await alice.waitFor(/Limbo/);
      await alice.until(() => !alice.echoOff, "WONT ECHO after the password");
      assert(alice.negotiations.includes(ECHO_WONT));
      assert(!alice.plain.includes("alice-password"), "the password is never echoed back");
      await bob.expect(/Alice has connected/);
    });

    const alice = open[1] as TelnetClient;

    await t.step("GMCP: Char.Name after login, Room.Info on look", async () => {
      await alice.until(() => alice.gmcp.some((g) => g.package === "Char.Name"), "Char.Name");
      const name = alice.gmcp.find((g) => g.package === "Char.Name")!;
      assertEquals((name.data as { name: string }).name, "Alice");
      await alice.until(() => alice.gmcp.some((g) => g.package === "Room.Info"), "Room.Info");
      const room = alice.gmcp.find((g) => g.package === "Room.Info")!.data as Record<
        string,
        unknown
      >;
      assertEquals(room.num, 1);
      assertEquals(room.name, "Limbo");
    });

    await t.step("telnet and web players in one room hear each other", async () => {
      await alice.send("say Hello from telnet");
      const heard = await bob.expect(/Hello from telnet/);
      assertMatch(heard.msg, /Alice says/);
      const from = alice.mark();
      bob.send("say Hi from the web, %chbold%cn!");
      await alice.waitFor(/Bob says, "Hi from the web, bold!"/, 10_000, from);
      assert(alice.text.includes("\x1b[1mbold"), "colour codes arrive as ANSI");
      assert(!alice.text.includes("%ch"), "no raw colour codes on telnet");
    });

    await t.step("GMCP: Comm.Channel.Text for channel messages", async () => {
      const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
      open.push(admin);
      await admin.send("@chancreate Gossip");
      await admin.waitFor(/Gossip/);
      await alice.send("+chan/join Gossip=gos");
      await alice.waitFor(/Gossip/);
      await alice.send("gos Hello channel");
      const said = () =>
        alice.gmcp.find((g) =>
          g.package === "Comm.Channel.Text" &&
          /Hello channel/.test((g.data as { text: string }).text)
        );
      await alice.until(() => said() !== undefined, "Comm.Channel.Text");
      const msg = said()!.data as Record<string, string>;
      assertEquals(msg.channel, "Gossip");
      assertEquals(msg.talker, "Alice");
      assertMatch(msg.text, /Hello channel/);
    });

    await t.step("GMCP: Room.Info exits name the rooms they lead to", async () => {
      const admin = open[open.length - 1] as TelnetClient;
      await admin.send("@dig Garden=North;n,South;s");
      const garden = Number((await admin.waitFor(/Garden created as room #(\d+)/))[1]);
      const rooms = () => alice.gmcp.filter((g) => g.package === "Room.Info");
      const seen = rooms().length;
      await alice.send("look");
      await alice.until(() => rooms().length > seen, "Room.Info on look");
      const place = { area: "Unknown", environment: "Unknown" };
      assertEquals(rooms().at(-1)!.data, { num: 1, name: "Limbo", ...place, exits: { n: garden } });
      await alice.send("n");
      await alice.until(() => rooms().length > seen + 1, "Room.Info on arrival");
      assertEquals(rooms().at(-1)!.data, {
        num: garden,
        name: "Garden",
        ...place,
        exits: { s: 1 },
      });
      await alice.send("s");
      await alice.until(() => rooms().length > seen + 2, "back in Limbo");
    });

    await t.step("NAWS width changes the width of `who`", async () => {
      const widest = async () => {
        const from = alice.mark();
        await alice.send("who");
        await alice.waitFor(/players? connected\./, 10_000, from);
        const block = alice.plain.slice(from);
        return Math.max(
          ...block.split(/\r?\n/).filter((l) => l.includes("Player Name")).map((l) =>
            l.trimEnd().length
          ),
        );
      };
      const wide = await widest();
      await alice.sendNaws(30, 40);
      await new Promise((r) => setTimeout(r, 200));
      const narrow = await widest();
      assert(narrow <= 30, `narrow who header is ${narrow} columns`);
      assert(wide > narrow, `wide ${wide} > narrow ${narrow}`);
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("telnet sidecar: MCCP2, MSSP, create and quit, a client that negotiates nothing", async (t) => {
  const srv = await startSupervised();
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Carol", "carol-password");

    await t.step("MCCP2: the compressed stream decompresses to the game's text", async () => {
      const c = await telnetLogin(srv, "Carol", "carol-password", { mccp: true });
      open.push(c);
      assert(c.compressed, "MCCP2 started");
      await c.send("say squeezed");
      await c.waitFor(/You say, "squeezed"/);
    });

    await t.step("MSSP: name, players and uptime", async () => {
      const c = await TelnetClient.connect(srv.telnet, { mssp: true });
      open.push(c);
      await c.until(() => c.mssp !== null, "MSSP table");
      const m = c.mssp!;
      assertEquals(m.NAME, "UrsaMU");
      assert(/^\d+$/.test(m.PLAYERS), `PLAYERS ${m.PLAYERS}`);
      assert(Math.abs(Number(m.UPTIME) - Date.now() / 1000) < 600, `UPTIME ${m.UPTIME}`);
    });

    await t.step("a client that negotiates nothing can create, play and quit", async () => {
      const c = await TelnetClient.connect(srv.telnet, {});
      open.push(c);
      await c.waitFor(/connect <name>/);
      await c.send("create Dave");
      await c.waitFor(/Password: /);
      await c.send("dave-password");
      await c.waitFor(/Limbo/);
      await c.send("quit");
      await c.waitFor(/Goodbye/);
      await c.until(() => c.closed, "socket closed after quit");
    });

    await t.step("@boot disconnects a telnet player for good (no resume)", async () => {
      const carol = await telnetLogin(srv, "Carol", "carol-password");
      const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
      open.push(carol, admin);
      await admin.send("@boot Carol");
      await carol.waitFor(/You have been booted by Admin/);
      await carol.until(() => carol.closed, "telnet closed after @boot");
      await new Promise((r) => setTimeout(r, 700));
      const online = await api(srv.base, "GET", "/api/v1/players/online");
      assert(!online.body.some((p: { name: string }) => p.name === "Carol"), "Carol stays out");
    });

    await t.step("a pasted block of 25 lines is paced, not cut off by the rate limit", async () => {
      const c = await telnetLogin(srv, "Carol", "carol-password");
      open.push(c);
      const from = c.mark();
      const lines = Array.from({ length: 25 }, (_, i) => `say paste line ${i + 1}`);
      await c.write(new TextEncoder().encode(lines.join("\r\n") + "\r\n"));
      await c.waitFor(/You say, "paste line 25"/, 15_000, from);
      const got = c.plain.slice(from).match(/You say, "paste line \d+"/g) ?? [];
      assertEquals(got.length, 25);
    });

    await t.step("a one-line connect with a wrong password is refused", async () => {
      const c = await TelnetClient.connect(srv.telnet, {});
      open.push(c);
      await c.waitFor(/connect <name>/);
      await c.send("connect Carol wrong-password");
      await c.waitFor(/Either that player does not exist, or has a different password/);
      assert(!c.closed);
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
  }
});

Deno.test("telnet sidecar: a taken port is one clear line naming the setting, and exit 78", async () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (taken.addr as Deno.NetAddr).port;
  const srv = await startServer({
    entry: "telnet.ts",
    env: { URSAMU_SERVER_TELNET: String(port) },
  });
  try {
    // 78 (EX_CONFIG): restarting cannot help, so the supervisor stops instead of retrying.
    assertEquals((await srv.status).code, 78);
    assertMatch(
      srv.output(),
      /telnet: 127\.0\.0\.1:\d+ \(server\.telnet\) is already in use; .*URSAMU_SERVER_TELNET/,
    );
    assert(!/Uncaught|at TelnetSidecar/.test(srv.output()), "no stack trace");
  } finally {
    taken.close();
    await srv.stop();
  }
});

Deno.test("hub acks what the sidecar paces by: each frame once read, none for a dropped one", async () => {
  const srv = await startServer();
  const c = await connectWs(srv, { token: await register(srv.base, "Erin"), client: "telnet" });
  try {
    await c.expect((m) => m.data.type === "session");
    // Twelve at once: the hub reads (and acks) ten, and drops two without a word.
    for (let i = 1; i <= 12; i++) c.sendJson({ msg: `think ${i}`, ack: i });
    const acks: number[] = [];
    while (acks.length < 10) acks.push((await c.expect((m) => m.data.type === "ack")).data.id);
    assertEquals(acks, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert(!(await c.sees((m) => m.data.type === "ack", 300)), "no ack for dropped frames");
  } finally {
    await c.close();
    await srv.stop();
  }
});
