/**
 * Black-box GMCP over raw telnet (docs/telnet.md, "GMCP"): Core.Supports filtering (a client
 * that asked only for Room gets no Comm packages, one that never asked gets them all), Core.Ping,
 * Core.Goodbye, and malformed or oversized GMCP ignored without harm; Room.Info with area,
 * environment, coords and compass exits walking three rooms, Room.WrongDir; Char.Name and
 * Char.Status at login and on change.
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

const IAC = 255, SB = 250, SE = 240, GMCP = 201;

/** Connects with GMCP on, optionally announces `supports`, logs in and waits for the room. */
async function gmcpLogin(
  port: number,
  name: string,
  password: string,
  supports?: string[],
): Promise<TelnetClient> {
  const t = await TelnetClient.connect(port, { gmcp: true });
  await t.waitFor(/connect <name>/);
  if (supports) await t.sendGmcp("Core.Supports.Set", supports);
  await t.send(`connect ${name} ${password}`);
  await t.waitFor(/Limbo/);
  return t;
}

Deno.test("telnet GMCP: Core.Supports, Core.Ping, Core.Goodbye, bad input", async (t) => {
  const srv = await startSupervised();
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
        const garden = Number((await admin.waitFor(/Room Garden\(#(\d+)\) dug/))[1]);
        await admin.send("n");
        await admin.waitFor(/Garden/);
        await admin.send("@dig Tower=Up the stairs;stairs;u,Down;d");
        const tower = Number((await admin.waitFor(/Room Tower\(#(\d+)\) dug/))[1]);
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
  }
});
