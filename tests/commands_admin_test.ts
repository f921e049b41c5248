/** Black-box tests of the admin commands: every permission rule and its security-log entry. */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { isType, type LogLine, startWorld } from "./commands_world.ts";
import { api } from "./harness.ts";
import { connectWs } from "./ws_client.ts";

const DENIED = /^Permission denied\.$/;
const QUIET_MS = 300;

Deno.test("commands: admin commands, their permission rules and security log", async (t) => {
  const w = await startWorld(["Ada", "Wiz", "Pat", "Sam", "Toady"]);
  const id = w.seed.players;
  const logged = (event: string, pred: (l: LogLine) => boolean = () => true) =>
    w.securityLog((ls) => ls.some((l) => l.event === event && pred(l)))
      .then((ls) => ls.find((l) => l.event === event && pred(l)));
  try {
    const root = await w.login("Root");
    const pat = await w.login("Pat");
    const ada = await w.login("Ada");
    const wiz = await w.login("Wiz");

    await t.step("@set: only the superuser makes admins and wizards", async () => {
      await pat.cmd("@set Ada=admin", /^Only the superuser may set admin\.$/);
      await root.cmd("@set Ada=admin", /^Set\.$/);
      await ada.ws.expect(/gave you the admin flag/);
      await ada.cmd("@set Wiz=wizard", /^Only the superuser may set wizard\.$/);
      await root.cmd("@set Wiz=wizard", /^Set\.$/);
      await ada.cmd(
        "@set Root=!superuser",
        /^The superuser flag cannot be set or cleared in-game\.$/,
      );
      await root.cmd("@set Pat=superuser", /cannot be set or cleared in-game/);
      const set = await logged(
        "ADMIN_SET_FLAG",
        (l) => l.target === id.Ada && l.detail === "admin",
      );
      assertEquals(set?.actor, id.Root);
      assertEquals(set?.ip, "127.0.0.1");
      await logged("ADMIN_SET_FLAG", (l) => l.actor === id.Pat && l.detail === "refused admin");
    });

    await t.step("@set: storyteller and builder by admins only", async () => {
      await pat.cmd("@set Sam=builder", /^Only an admin may set builder\.$/);
      await ada.cmd("@set Sam=builder", /^Set\.$/);
      await wiz.cmd("@set Sam=storyteller", /^Set\.$/);
      await ada.cmd("@set Sam=!builder", /^Cleared\.$/);
      await ada.cmd("@set Wiz=builder", /staff of your rank or higher/);
      const r = await api(
        w.srv.base,
        "GET",
        `/api/v1/dbobj/${id.Sam}`,
        undefined,
        await token("Ada"),
      );
      assertEquals(r.body.flags.sort(), ["player", "storyteller"]);
      await logged("ADMIN_SET_FLAG", (l) => l.actor === id.Ada && l.detail === "!builder");
    });

    await t.step("@boot: staff only; the player's connection closes", async () => {
      const sam = await w.login("Sam");
      await pat.cmd("@boot Sam", DENIED);
      assert(sam.ws.isOpen);
      await ada.cmd("@boot Sam", /^You booted Sam\.$/);
      await sam.ws.closed;
      await ada.cmd("@boot Sam", /^Sam is not connected\.$/);
      await ada.cmd("@boot Root", /staff of your rank or higher/);
      const e = await logged("ADMIN_BOOT", (l) => l.target === id.Sam);
      assertEquals([e?.actor, e?.ip], [id.Ada, "127.0.0.1"]);
    });

    await t.step("@newpassword: staff only, password rules, never echoed", async () => {
      await pat.cmd("@newpassword Sam=pwned-by-pat", DENIED);
      const short = await ada.cmd("@newpassword Sam=short", /won't do/);
      assert(!short.msg.includes("short:") && !/\bshort\b.*\bshort\b/.test(short.msg));
      await ada.cmd("@newpassword Sam=brand-new-pass", /^Password for Sam changed\.$/);
      const ok = await api(w.srv.base, "POST", "/api/v1/auth/login", {
        name: "Sam",
        password: "brand-new-pass",
      });
      assertEquals(ok.status, 200);
      const old = await api(w.srv.base, "POST", "/api/v1/auth/login", {
        name: "Sam",
        password: "password123",
      });
      assertEquals(old.status, 401);
      await ada.cmd("@newpassword Root=take-over-root", /staff of your rank or higher/);
      assertEquals((await logged("ADMIN_NEWPASSWORD", (l) => l.target === id.Sam))?.actor, id.Ada);
    });

    await t.step("@resettoken: admin or wizard; printed to the actor only", async () => {
      await pat.cmd("@resettoken Sam", DENIED);
      const msg = await wiz.cmd("@resettoken Sam", /^Reset token for Sam/);
      const token = msg.data.token as string;
      assertMatch(token, /^[0-9a-f-]{36}$/);
      assert(!(await pat.ws.sees((m) => m.msg.includes(token), QUIET_MS)), "nobody else sees it");
      const reset = await api(w.srv.base, "POST", "/api/v1/auth/reset-password", {
        token,
        newPassword: "reset-password-1",
      });
      assertEquals(reset.status, 200);
      const e = await logged("ADMIN_RESETTOKEN", (l) => l.target === id.Sam);
      assertEquals([e?.actor, e?.ip], [id.Wiz, "127.0.0.1"]);
      const raw = await Deno.readTextFile(`${w.srv.dir}/logs/security.log`);
      assert(!raw.includes(token), "the token is not logged");
      assert(!raw.includes("brand-new-pass"), "passwords are not logged");
    });

    await t.step("@chown: staff only", async () => {
      await pat.cmd(`@chown #${w.seed.lantern}=Pat`, DENIED);
      await ada.cmd("@chown lantern=Pat", /^Lantern\(#\d+\) now belongs to Pat\.$/);
      const r = await api(
        w.srv.base,
        "GET",
        `/api/v1/dbobj/${w.seed.lantern}`,
        undefined,
        await token("Pat"),
      );
      assertEquals(r.body.owner, id.Pat);
      await ada.cmd("@chown Pat=Ada", /^Players always own themselves\.$/);
      assertEquals(
        (await logged("ADMIN_CHOWN", (l) => l.target === w.seed.lantern))?.actor,
        id.Ada,
      );
    });

    await t.step("@moniker: admin or wizard; others see it when the player speaks", async () => {
      await pat.cmd("@moniker Pat=%crPat", DENIED);
      await wiz.cmd("@moniker Pat=%crP%cya%cgt", /^Moniker for Pat set to/);
      await ada.cmd("@moniker Pat=%crImpostor", /must spell the name 'Pat'/);
      await pat.send('"Colourful.');
      await ada.ws.expect((m) => m.msg.startsWith('%crP%cya%cgt says, "Colourful.'));
      assertEquals((await logged("ADMIN_MONIKER", (l) => l.target === id.Pat))?.actor, id.Wiz);
    });

    await t.step("@site: only the site keys; others refused and logged", async () => {
      await pat.cmd("@site", DENIED);
      const list = await wiz.cmd("@site", isType("site"));
      assertMatch(list.msg, /game\.welcomeMessage/);
      await wiz.cmd(
        "@site game.description=A test game.",
        /^Site setting game\.description is now: A test game\.$/,
      );
      await ada.cmd("@site game.maxPlayers=40", /is now: 40$/);
      await ada.cmd("@site server.name=Moonhaven", /is now: Moonhaven$/);
      const cfg = await api(w.srv.base, "GET", "/api/v1/config");
      assertEquals(cfg.body.server.name, "Moonhaven", "site names reach web clients");
      await ada.cmd("@site server.db=/tmp/elsewhere.db", /cannot be changed with @site/);
      await ada.cmd("@site jwt.secret=hunter2", /cannot be changed with @site/);
      const set = await logged("ADMIN_SITE_SET", (l) => l.detail === "game.maxPlayers=40");
      assertEquals([set?.actor, set?.ip], [id.Ada, "127.0.0.1"]);
      const blocked = await logged("ADMIN_SITE_BLOCKED", (l) => l.detail === "jwt.secret");
      assertEquals(blocked?.actor, id.Ada);
      const raw = await Deno.readTextFile(`${w.srv.dir}/logs/security.log`);
      assert(!raw.includes("hunter2"), "a refused value is not logged");
      const health = await api(w.srv.base, "GET", "/health");
      assertEquals(health.status, 200, "the database was not moved");
      // The banner is shown to everyone at the connect screen.
      await ada.cmd("@site server.banner=%chDown for maintenance at 22:00.", /is now:/);
      const guest = await connectWs(w.srv, { client: "web" });
      try {
        const screen = await guest.expect(isType("connect"));
        assertMatch(screen.msg, /connect <name> <password>[\s\S]*maintenance at 22:00\.$/);
      } finally {
        await guest.close();
      }
    });

    await t.step(
      "@admin: MUX's queue limits as installers send them; others explained",
      async () => {
        await pat.cmd("@admin player_queue_limit=5", DENIED);
        await ada.cmd(
          "@admin player_queue_limit=250",
          /^Site setting queue\.playerLimit is now: 250$/,
        );
        await ada.cmd("@admin PLAYER_QUEUE_LIMIT", /^player_queue_limit = 250$/);
        await ada.cmd("@site queue.playerLimit", /^queue\.playerLimit = 250$/);
        await ada.cmd("@admin player_queue_limit=lots", /needs a number/);
        await ada.cmd(
          "@admin money_name_plural=Coins",
          /'money_name_plural' is a MUX parameter this game does not have; nothing changed/,
        );
      },
    );

    await t.step("@toad: staff only, never the superuser; the toad cannot log in", async () => {
      const toady = await w.login("Toady");
      await pat.cmd("@toad Toady", DENIED);
      await ada.cmd("@toad Root", /^The superuser cannot be toaded\.$/);
      await wiz.cmd("@toad Ada", /staff of your rank or higher/);
      await ada.cmd("@toad Toady", /^You turned Toady into a toad\.$/);
      await toady.ws.closed;
      const login = await api(w.srv.base, "POST", "/api/v1/auth/login", {
        name: "Toady",
        password: "password123",
      });
      assertEquals(login.status, 401);
      const r = await api(
        w.srv.base,
        "GET",
        `/api/v1/dbobj/${id.Toady}`,
        undefined,
        await token("Ada"),
      );
      assert(r.body.flags.includes("thing") && !r.body.flags.includes("player"));
      const e = await logged("ADMIN_TOAD", (l) => l.target === id.Toady);
      assertEquals([e?.actor, e?.ip], [id.Ada, "127.0.0.1"]);
    });
  } finally {
    await w.stop();
  }

  async function token(name: string): Promise<string> {
    const password = name === "Root" ? "rootpassword1" : "password123";
    const r = await api(w.srv.base, "POST", "/api/v1/auth/login", { name, password });
    return r.body.token;
  }
});
