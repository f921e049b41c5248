/**
 * Black-box GMCP over raw telnet (docs/telnet.md, "GMCP"): Core.Supports filtering (a client
 * that asked only for Room gets no Comm packages, one that never asked gets them all), Core.Ping,
 * Core.Goodbye, and malformed or oversized GMCP ignored without harm; Room.Info with area,
 * environment, coords and compass exits walking three rooms, Room.WrongDir; Char.Name and
 * Char.Status at login and on change; Comm.Channel List, Players (hidden channels, unfindable
 * players), Start and End; External.Discord Info and Status with the bridge configured.
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { DiscordStandIn } from "./discord_standin.ts";

const IAC = 255, SB = 250, SE = 240, GMCP = 201;

/** Connects with GMCP on, optionally announces `supports`, logs in and waits for the room. */
async function gmcpLogin(
  port: number,
  name: string,
  password: string,
  supports?: string[],
  room = /Limbo/,
): Promise<TelnetClient> {
  const t = await TelnetClient.connect(port, { gmcp: true });
  await t.waitFor(/connect <name>/);
  if (supports) await t.sendGmcp("Core.Supports.Set", supports);
  await t.send(`connect ${name} ${password}`);
  await t.waitFor(room);
  return t;
}

Deno.test("telnet GMCP: Core.Supports, Core.Ping, Core.Goodbye, bad input", async (t) => {
  const discord = new DiscordStandIn("bot-token.abcdefghijklmnopqrstuvwxyz.0123456789");
  const srv = await startSupervised({
    config: {
      game: { name: "Gmcp Test Game" },
      plugins: {
        discord: {
          token: discord.token,
          apiBase: discord.apiBase,
          invite: "https://discord.gg/abcXYZ",
          applicationId: "123456789012345678",
        },
      },
    },
  });
  const open: TelnetClient[] = [];
  try {
    await register(srv.base, "Roomy", "roomy-password");
    await register(srv.base, "Allie", "allie-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    open.push(admin);
    await admin.send("@chancreate Gossip");
    await admin.waitFor(/Gossip/);

    const roomy = await gmcpLogin(srv.telnet, "Roomy", "roomy-password", ["Room 1"]);
    open.push(roomy);
    const allie = await gmcpLogin(srv.telnet, "Allie", "allie-password");
    open.push(allie);

    await t.step("Core.Supports.Set [Room]: Room.Info, no Char, no Comm", async () => {
      await roomy.until(() => roomy.gmcp.some((g) => g.package === "Room.Info"), "Room.Info");
      await roomy.send("+chan/join Gossip=gos");
      await allie.send("+chan/join Gossip=gos");
      await roomy.waitFor(/Gossip/);
      await allie.waitFor(/Gossip/);
      await allie.send("gos Hello channel");
      await roomy.waitFor(/Hello channel/);
      await allie.until(
        () => allie.gmcp.some((g) => g.package === "Comm.Channel.Text"),
        "Comm.Channel.Text for the client that never announced",
      );
      const packages = roomy.gmcp.map((g) => g.package);
      assert(!packages.some((p) => p.startsWith("Comm.")), packages.join(","));
      assert(!packages.some((p) => p.startsWith("Char.")), packages.join(","));
      assert(allie.gmcp.some((g) => g.package === "Char.Name"), "everything without Supports");
    });

    await t.step("Core.Supports.Add brings a package, Remove takes it away", async () => {
      await roomy.sendGmcp("Core.Supports.Add", ["Comm.Channel 1"]);
      await roomy.sendGmcp("Core.Supports.Remove", ["Room 1"]);
      const rooms = roomy.gmcp.filter((g) => g.package === "Room.Info").length;
      await allie.send("gos Second line");
      await roomy.until(
        () => roomy.gmcp.some((g) => g.package === "Comm.Channel.Text"),
        "Comm.Channel.Text after Add",
      );
      await roomy.send("look");
      await roomy.send("think done");
      await roomy.waitFor(/^done$/m);
      assertEquals(roomy.gmcp.filter((g) => g.package === "Room.Info").length, rooms);
    });

    await t.step("Core.Ping is answered with Core.Ping", async () => {
      await allie.sendGmcp("Core.Ping", 42);
      await allie.until(() => allie.gmcp.some((g) => g.package === "Core.Ping"), "Core.Ping");
    });

    await t.step("malformed, unknown and huge GMCP is ignored; the game goes on", async () => {
      const bytes = (s: string) => [...new TextEncoder().encode(s)];
      await allie.write(
        Uint8Array.from([IAC, SB, GMCP, ...bytes("Core.Supports.Set [{"), IAC, SE]),
      );
      await allie.write(Uint8Array.from([IAC, SB, GMCP, IAC, SE]));
      await allie.write(Uint8Array.from([IAC, SB, GMCP, ...bytes("!!! {}"), IAC, SE]));
      await allie.sendGmcp("Nobody.Knows.This", { a: 1 });
      // Not a list: ignored (Allie still gets everything, as before it).
      await allie.sendGmcp("Core.Supports.Set", "Room 1");
      await roomy.send("gos Not a list");
      await allie.until(
        () => allie.gmcp.some((g) => /Not a list/.test(JSON.stringify(g.data))),
        "Comm.Channel.Text after a malformed Set",
      );
      // About 7 KiB: under the subnegotiation cap, far over the 64 modules kept.
      await allie.sendGmcp("Core.Supports.Add", Array.from({ length: 900 }, (_, i) => `P${i} 1`));
      await allie.send("think still here");
      await allie.waitFor(/still here/);
      // 900 announced, 64 kept: Comm (not among them) no longer goes to a client that asked.
      const before = allie.gmcp.length;
      await roomy.send("gos Third line");
      await allie.waitFor(/Third line/);
      await allie.send("think after");
      await allie.waitFor(/^after$/m);
      assert(
        !allie.gmcp.slice(before).some((g) => g.package === "Comm.Channel.Text"),
        "a client that announced modules gets only those",
      );
    });

    let walker = allie;
    await t.step(
      "Room.Info walking three rooms: num, area, environment, coords, exits",
      async () => {
        await admin.send("@dig Garden=North;n,South;s");
        const garden = Number((await admin.waitFor(/Garden created as room #(\d+)/))[1]);
        await admin.send("n");
        await admin.waitFor(/Garden/);
        await admin.send("@dig Tower=Up the stairs;stairs;u,Down;d");
        const tower = Number((await admin.waitFor(/Tower created as room #(\d+)/))[1]);
        await admin.send(`&AREA #${garden}=Old Town`);
        await admin.send(`&ENVIRONMENT #${garden}=%chGarden%cn`);
        await admin.send(`&COORDS #${garden}=3, -1`);
        await admin.send("think set");
        await admin.waitFor(/^set$/m);
        walker = await gmcpLogin(srv.telnet, "Allie", "allie-password", ["Room 1", "Char 1"]);
        open.push(walker);
        const rooms = () =>
          walker.gmcp.filter((g) => g.package === "Room.Info").map((g) =>
            g.data as Record<string, unknown>
          );
        await walker.until(() => rooms().length > 0, "Room.Info at login");
        assertEquals(rooms()[0], {
          num: 1,
          name: "Limbo",
          area: "Unknown",
          environment: "Unknown",
          exits: { n: garden },
        });
        await walker.send("n");
        await walker.until(() => rooms().length > 1, "Room.Info in the Garden");
        assertEquals(rooms()[1], {
          num: garden,
          name: "Garden",
          area: "Old Town",
          environment: "Garden",
          coords: { x: 3, y: -1, z: 0 },
          exits: { s: 1, u: tower },
        });
        await walker.send("stairs");
        await walker.until(() => rooms().length > 2, "Room.Info in the Tower");
        assertEquals(rooms()[2], {
          num: tower,
          name: "Tower",
          area: "Unknown",
          environment: "Unknown",
          exits: { d: garden },
        });
        assert(!walker.gmcp.some((g) => g.package.startsWith("Comm.")), "only Room and Char");
      },
    );

    await t.step("Room.WrongDir when a move goes nowhere", async () => {
      await walker.send("west");
      await walker.until(
        () => walker.gmcp.some((g) => g.package === "Room.WrongDir"),
        "Room.WrongDir",
      );
      assertEquals(walker.gmcp.find((g) => g.package === "Room.WrongDir")!.data, "west");
      await admin.send("u");
      await admin.waitFor(/Tower/);
      await admin.send("@lock Down=#1");
      await admin.waitFor(/Locked/i);
      await walker.send("d");
      await walker.waitFor(/can't go that way/);
      await walker.until(
        () => walker.gmcp.filter((g) => g.package === "Room.WrongDir").length === 2,
        "Room.WrongDir for a locked exit",
      );
      assertEquals(walker.gmcp.filter((g) => g.package === "Room.WrongDir")[1].data, "d");
      // An unknown word that is no direction is only a Huh.
      await walker.send("xyzzy");
      await walker.waitFor(/Huh\?/);
      await walker.send("think ok");
      await walker.waitFor(/^ok$/m);
      assertEquals(walker.gmcp.filter((g) => g.package === "Room.WrongDir").length, 2);
    });

    await t.step(
      "Char.Name and Char.Status at login and when the moniker changes",
      async () => {
        const status = () => walker.gmcp.filter((g) => g.package === "Char.Status");
        assertEquals(status()[0].data, { name: "Allie", fullname: "Allie", level: "player" });
        assertEquals(
          walker.gmcp.find((g) => g.package === "Char.Name")!.data,
          { name: "Allie", fullname: "Allie" },
        );
        await admin.send("@moniker Allie=%crAl%cblie");
        await walker.until(() => status().length > 1, "Char.Status after @moniker");
        assertEquals(status()[1].data, { name: "Allie", fullname: "Allie", level: "player" });
      },
    );

    await t.step(
      "Comm.Channel: List, Players, Start and End; hidden and unfindable honoured",
      async () => {
        // Allie announced Room and Char only: this one asks for Comm.
        const chat = await gmcpLogin(
          srv.telnet,
          "Allie",
          "allie-password",
          ["Comm.Channel 1"],
          /Tower/,
        );
        open.push(chat);
        const last = (pkg: string) => chat.gmcp.filter((g) => g.package === pkg).at(-1)?.data;
        await chat.until(() => last("Comm.Channel.Players") !== undefined, "Players at login");
        const list = last("Comm.Channel.List") as { name: string; command: string }[];
        assert(list.some((c) => c.name === "Gossip" && c.command === "gos"), JSON.stringify(list));
        const players = last("Comm.Channel.Players") as { name: string; channels: string[] }[];
        const shared = players.find((p) => p.name === "Roomy")?.channels ?? [];
        assert(shared.includes("Gossip") && shared.includes("Public"), JSON.stringify(players));
        assert(!chat.gmcp.some((g) => g.package.startsWith("Room.")), "Room was not asked for");

        // A hidden channel: its members see it listed; Roomy, not on it, is never told of it.
        await admin.send("@chancreate Secret");
        await admin.waitFor(/Secret/);
        await admin.send("@chanset Secret/hidden=yes");
        await admin.send("think hidden");
        await admin.waitFor(/^hidden$/m);
        const starts = () => chat.gmcp.filter((g) => g.package === "Comm.Channel.Start").length;
        await chat.send("+chan/join Secret=sec");
        await chat.until(() => starts() === 1, "Comm.Channel.Start");
        assertEquals(chat.gmcp.filter((g) => g.package === "Comm.Channel.Start")[0].data, "Secret");
        await chat.until(
          () => (last("Comm.Channel.List") as { name: string }[]).some((c) => c.name === "Secret"),
          "the new list",
        );
        assert(
          !roomy.gmcp.some((g) => JSON.stringify(g.data ?? "").includes("Secret")),
          "nobody else hears of a hidden channel",
        );

        // An unfindable player is left out of Players.
        await admin.send("@set Roomy=unfindable");
        await admin.send("think set2");
        await admin.waitFor(/^set2$/m);
        const ends = () => chat.gmcp.filter((g) => g.package === "Comm.Channel.End").length;
        await chat.send("+chan/leave Secret");
        await chat.until(() => ends() === 1, "Comm.Channel.End");
        assertEquals(chat.gmcp.filter((g) => g.package === "Comm.Channel.End")[0].data, "Secret");
        await chat.until(
          () => !(last("Comm.Channel.List") as { name: string }[]).some((c) => c.name === "Secret"),
          "the list without it",
        );
        const after = last("Comm.Channel.Players") as { name: string }[];
        assert(!after.some((p) => p.name === "Roomy"), JSON.stringify(after));
      },
    );

    await t.step("External.Discord: Info with the invite, Status with the game's name", () => {
      const info = allie.gmcp.find((g) => g.package === "External.Discord.Info");
      assertEquals(info?.data, {
        inviteurl: "https://discord.gg/abcXYZ",
        applicationid: "123456789012345678",
      });
      const status = allie.gmcp.find((g) => g.package === "External.Discord.Status")
        ?.data as Record<string, unknown>;
      assertEquals(status.game, "Gmcp Test Game");
      assert(typeof status.starttime === "number");
      assert(
        !roomy.gmcp.some((g) => g.package.startsWith("External.")),
        "not to a client that asked for Room only",
      );
    });

    await t.step("Core.Goodbye at quit", async () => {
      await allie.send("quit");
      await allie.until(() => allie.closed, "closed");
      const bye = allie.gmcp.find((g) => g.package === "Core.Goodbye");
      assert(bye, "Core.Goodbye before the close");
      assertEquals(bye.data, "Goodbye!");
    });
  } finally {
    for (const c of open) await c.close();
    await srv.stop();
    await discord.close();
  }
});
