/**
 * Colour over telnet: the terminal type a client announces (TTYPE, MTTS) decides whether it
 * gets ANSI escapes, and the player's `@colour` setting wins over it, on every connection.
 */
import { assert, assertEquals } from "./assert.ts";
import { api, register } from "./harness.ts";
import { startSupervised } from "./supervised.ts";
import { TelnetClient, type TelnetClientOptions } from "./telnet_client.ts";
import { connectWs } from "./ws_client.ts";

const ESC = "\x1b[";

/** Logs in over telnet; returns the client and where its text after the login starts. */
async function login(port: number, name: string, opts: TelnetClientOptions) {
  const t = await TelnetClient.connect(port, opts);
  await t.waitFor(/connect <name>/);
  await t.send(`connect ${name} password123`);
  await t.waitFor(/Limbo/);
  return { t, from: t.text.indexOf("Limbo") };
}

/** Sends a `think` and returns the raw text (escapes kept) of the line it shows. */
async function think(t: TelnetClient, word: string): Promise<string> {
  const from = t.text.length;
  await t.send(`think %ch%cr${word}%cn plain`);
  await t.waitFor(new RegExp(`${word} plain`), 10_000, t.mark() - (t.text.length - from));
  const raw = t.text.slice(from);
  const end = raw.indexOf("plain");
  return raw.slice(0, end + 5);
}

Deno.test("telnet colour follows TTYPE/MTTS and the player's @colour setting", async () => {
  const srv = await startSupervised();
  const clients: TelnetClient[] = [];
  try {
    for (const n of ["Dumb", "Mudlet", "Nocol", "Plainer", "Rgb"]) await register(srv.base, n);

    // A terminal announced as DUMB gets no escape at all after login.
    const dumb = await login(srv.telnet, "Dumb", { ttype: "DUMB" });
    clients.push(dumb.t);
    assertEquals(await think(dumb.t, "alpha"), "alpha plain");
    assert(!dumb.t.text.slice(dumb.from).includes("\x1b"), "no escapes for DUMB");

    // MTTS with the ANSI bit (1) keeps colour; MTTS without it (UTF-8 only) turns it off.
    const mudlet = await login(srv.telnet, "Mudlet", {
      ttype: ["MUDLET", "ANSI-TRUECOLOR", "MTTS 2825"],
    });
    clients.push(mudlet.t);
    assert((await think(mudlet.t, "beta")).includes(`${ESC}31m`), "MTTS ANSI gets colour");
    // An MTTS that says 24-bit colour gets RGB codes exact (another player: the hub takes at
    // most 10 commands a second from one, and Mudlet's are counted below).
    const rgb = await login(srv.telnet, "Rgb", {
      ttype: ["MUDLET", "ANSI-TRUECOLOR", "MTTS 2825"],
    });
    clients.push(rgb.t);
    const rgbFrom = rgb.t.text.length;
    await rgb.t.send("think %x<#ff8040>rgb%xn done");
    await rgb.t.waitFor(/rgb done/);
    assert(rgb.t.text.slice(rgbFrom).includes(`${ESC}38;2;255;128;64mrgb`), "24-bit for MTTS");
    const nocol = await login(srv.telnet, "Nocol", { ttype: ["SOMECLIENT", "XTERM", "MTTS 4"] });
    clients.push(nocol.t);
    assertEquals(await think(nocol.t, "gamma"), "gamma plain");

    // The player's setting wins: off on a colour client, on for a DUMB one, auto back again.
    await mudlet.t.send("@colour off");
    await mudlet.t.waitFor(/Colour is off/);
    assertEquals(await think(mudlet.t, "delta"), "delta plain");
    await mudlet.t.send("@colour");
    await mudlet.t.waitFor(/Your colour setting: off/);
    await dumb.t.send("@colour on");
    await dumb.t.waitFor(/Colour is on/);
    assert((await think(dumb.t, "epsilon")).includes(`${ESC}31m`), "@colour on forces colour");
    await dumb.t.send("@colour auto");
    await dumb.t.waitFor(/Colour follows your client/);
    assertEquals(await think(dumb.t, "zeta"), "zeta plain");
    await mudlet.t.send("@colour bogus");
    await mudlet.t.waitFor(/Usage: @colour on\|off\|auto/);

    // The setting is stored on the player: a new connection has it at once, and a plain
    // WebSocket client renders without colour; a web client keeps the codes, told the setting.
    const again = await login(srv.telnet, "Mudlet", { ttype: ["MUDLET", "XTERM", "MTTS 2825"] });
    clients.push(again.t);
    assertEquals(await think(again.t, "eta"), "eta plain");
    const token = (await api(srv.base, "POST", "/api/v1/auth/login", {
      name: "Mudlet",
      password: "password123",
    })).body.token;
    const web = await connectWs(srv, { token, client: "web" });
    const plain = await connectWs(srv, { token, client: "plain" });
    try {
      const session = await web.expect((m) => m.data.type === "session");
      assertEquals(session.data.colour, "off");
      await plain.expect(/Limbo/);
      plain.send("think %crtheta%cn");
      const got = await plain.expect(/theta/);
      assert(typeof got.raw === "string" && !got.raw.includes("\x1b"), "plain: no escapes");
      web.send("think %criota%cn");
      assertEquals((await web.expect(/iota/)).msg, "%criota%cn");
      // Switching back on reaches every connection at once (web clients get a colour frame).
      plain.send("@colour on");
      assertEquals((await web.expect((m) => m.data.type === "colour")).data.mode, "on");
      await plain.expect(/Colour is on/);
      plain.send("think %crkappa%cn");
      const lit = await plain.expect(/kappa/);
      assert(typeof lit.raw === "string" && lit.raw.includes(`${ESC}31m`), "plain: colour");
      // (After a pause: the hub takes at most 10 commands a second from one player.)
      await new Promise((r) => setTimeout(r, 1100));
      assert((await think(again.t, "lambda")).includes(`${ESC}31m`), "telnet: colour");
    } finally {
      await web.close();
      await plain.close();
    }
  } finally {
    for (const c of clients) await c.close();
    await srv.stop();
  }
});

Deno.test("a pose to a room is rendered once per colour profile; each telnet player still gets its own", async () => {
  const srv = await startSupervised();
  const clients: TelnetClient[] = [];
  try {
    for (const n of ["Poser", "Lit", "Zipped", "Mono", "Gmcpy"]) await register(srv.base, n);
    const poser = await login(srv.telnet, "Poser", { ttype: "DUMB" });
    const lit = await login(srv.telnet, "Lit", { ttype: "XTERM" });
    const zipped = await login(srv.telnet, "Zipped", { ttype: "XTERM", mccp: true });
    const mono = await login(srv.telnet, "Mono", { ttype: "DUMB" });
    const gmcpy = await login(srv.telnet, "Gmcpy", { ttype: "DUMB", gmcp: true, mccp: true });
    clients.push(poser.t, lit.t, zipped.t, mono.t, gmcpy.t);
    assert(zipped.t.compressed && gmcpy.t.compressed, "MCCP2 on for two of them");
    const listeners = [lit, zipped, mono, gmcpy];
    const from = listeners.map((l) => l.t.text.length);
    // Twice, so the second pose is one the sidecar has already seen the like of.
    for (const word of ["omega", "sigma"]) {
      await poser.t.send(`pose waves %ch%cr${word}%cn plain`);
      for (const l of listeners) await l.t.waitFor(new RegExp(`${word}.* plain`));
    }
    for (const [i, l] of listeners.entries()) {
      const seen = l.t.text.slice(from[i]);
      const coloured = l === lit || l === zipped;
      for (const word of ["omega", "sigma"]) {
        const want = coloured
          ? `Poser waves ${ESC}1m${ESC}31m${word}${ESC}0m plain\r\n`
          : `Poser waves ${word} plain\r\n`;
        assert(seen.includes(want), `player ${i} got ${JSON.stringify(seen)}`);
      }
      if (!coloured) assert(!seen.includes("\x1b"), `player ${i}: no escapes`);
    }
  } finally {
    for (const c of clients) await c.close();
    await srv.stop();
  }
});
