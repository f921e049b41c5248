/**
 * What visitors read without a login (issue 39, item 1), over HTTP on a real engine with the
 * shipped plugins: `/api/v1/public/` (the front page's data, who is online, characters and
 * their pages, the wiki, events; shared scenes are in plugins_scenes_share_test.ts), avatar
 * uploads, and the owner's `web.public.*` switches applied by `@reload/config`. Every rule of
 * what players see holds: dark players never show, unfindable ones never with their room,
 * guests have no page, hidden attributes stay hidden, cancelled events and RSVP lists never
 * show; the spec's own endpoints keep their authentication; bad input is `{ error }` and
 * changes nothing.
 */
import { join } from "node:path";
import { assert, assertEquals } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsClient } from "./ws_client.ts";

const ADMIN = { name: "Admin", password: "admin-password-1" };
const CONFIG = {
  game: { guestEnabled: true },
  // The shipped scripts (the harness gives others none): the profile's fields are +finger's.
  scripts: { dir: "system/scripts" },
  web: {
    banner: "/api/v1/wiki/banner.png",
    profileFields: ["Full Name", "Played By"],
    public: { characters: true },
  },
};

/** A tiny PNG, GIF and WebP (headers are what is checked; the rest is filler). */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2]);
const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00\x00\x00\x00;");
const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>',
);

async function raw(
  srv: TestServer,
  method: string,
  path: string,
  body?: Uint8Array,
  token?: string,
  type = "image/png",
) {
  const headers: Record<string, string> = { "content-type": type };
  if (token) headers.authorization = `Bearer ${token}`;
  const r = await fetch(srv.base + path, { method, headers, body: body as BodyInit | undefined });
  const text = await r.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch { /* a picture */ }
  return { status: r.status, headers: r.headers, body: json as Record<string, unknown>, text };
}

Deno.test("public API: visitors read what the owner opened, and nothing private", async (t) => {
  const srv = await startServer({
    config: CONFIG,
    env: { URSAMU_SUPERUSER_NAME: ADMIN.name, URSAMU_SUPERUSER_PASSWORD: ADMIN.password },
  });
  const b = srv.base;
  const open: WsClient[] = [];
  const get = (path: string) => api(b, "GET", `/api/v1/public${path}`);
  try {
    const adminToken = (await api(b, "POST", "/api/v1/auth/login", ADMIN)).body.token as string;
    const admin = await connectWs(srv, { client: "web", token: adminToken });
    open.push(admin);
    await admin.expect((m) => m.data.type === "session", 15_000);
    const say = async (ws: WsClient, line: string, answer: RegExp) => {
      ws.send(line);
      await ws.expect(answer, 15_000);
    };
    const players: Record<string, { token: string; ws: WsClient; id: string }> = {};
    for (const name of ["Ann", "Dee", "Una", "Zed"]) {
      const token = await register(b, name);
      const ws = await connectWs(srv, { client: "web", token });
      open.push(ws);
      const s = await ws.expect((m) => m.data.type === "session", 15_000);
      players[name] = { token, ws, id: String((s.data.player as { id: string }).id) };
    }
    await say(admin, "@set Dee=dark", /Set|set/);
    await say(admin, "@set Una=unfindable", /Set|set/);
    await say(players.Ann.ws, "&FINGER.FULLNAME me=Ann Smith", /^Set\.$/);
    await say(players.Ann.ws, "&FINGER.PLAYEDBY me=Someone Famous", /^Set\.$/);
    await say(players.Zed.ws, "&FINGER.FULLNAME me=Secret Name", /^Set\.$/);
    await say(admin, "@set Zed/FINGER.FULLNAME=hidden", /Set|set/);
    await say(players.Dee.ws, "&FINGER.FULLNAME me=Dee Dark", /^Set\.$/);
    const guest = await api(b, "POST", "/api/v1/auth/guest");
    assertEquals(guest.status, 200);

    await t.step("the front page's data", async () => {
      const r = await get("/game");
      assertEquals(r.status, 200);
      assertEquals(r.body.banner, "/api/v1/wiki/banner.png");
      assertEquals(r.body.connect.telnet, srv.telnet);
      assertEquals(r.body.connect.host, "127.0.0.1");
      assertEquals(r.body.connect.web, "/play");
      assertEquals(r.body.public, {
        front: true,
        online: true,
        characters: true,
        wiki: true,
        scenes: true,
        events: true,
      });
      assertEquals(r.body.online, 4, "Admin, Ann, Una and Zed; the dark one is not counted");
      const cfg = await api(b, "GET", "/api/v1/config");
      assertEquals(cfg.body.web.profileFields, [
        { label: "Full Name", attr: "FINGER.FULLNAME" },
        { label: "Played By", attr: "FINGER.PLAYEDBY" },
      ]);
    });

    await t.step("who is online: no dark player, no unfindable one's room", async () => {
      const r = await get("/online");
      assertEquals(r.status, 200);
      const names = r.body.map((p: { name: string }) => p.name);
      assert(!names.includes("Dee"), "the dark player is hidden");
      const una = r.body.find((p: { name: string }) => p.name === "Una");
      assertEquals(una.location, "", "an unfindable player's room is not shown");
      const ann = r.body.find((p: { name: string }) => p.name === "Ann");
      assert(ann.location.length > 0);
      assertEquals((await get("/online?limit=x")).status, 400);
    });

    await t.step("characters: the gallery, search and pages", async () => {
      const r = await get("/characters");
      assertEquals(r.status, 200);
      const names = r.body.map((p: { name: string }) => p.name);
      assertEquals(names, ["Admin", "Ann", "Una", "Zed"], "no dark player, no guest");
      const ann = r.body.find((p: { name: string }) => p.name === "Ann");
      assertEquals(ann.fields, [
        { label: "Full Name", attr: "FINGER.FULLNAME", value: "Ann Smith" },
        { label: "Played By", attr: "FINGER.PLAYEDBY", value: "Someone Famous" },
      ]);
      assertEquals(ann.online, true);
      const zed = await get(`/characters/${players.Zed.id}`);
      assertEquals(zed.body.fields[0].value, "", "a hidden attribute stays hidden");
      assertEquals((await get("/characters?q=AN")).body.map((p: { name: string }) => p.name), [
        "Ann",
      ]);
      assertEquals((await get(`/characters?q=${"x".repeat(65)}`)).status, 400);
      assertEquals((await get("/characters?limit=-1")).status, 400);
      const page = await get(`/characters/%23${players.Ann.id}`);
      assertEquals([page.status, page.body.name, page.body.description], [200, "Ann", ""]);
      for (const id of [players.Dee.id, "1", "0", "nope", guest.body.player.id]) {
        const miss = await get(`/characters/${id}`);
        assertEquals([miss.status, miss.body.error], [404, "No such character."], id);
      }
    });

    await t.step("avatars: pictures told by content, 2 MB at most, stored and served", async () => {
      const ann = players.Ann.token;
      assertEquals((await raw(srv, "PUT", "/api/v1/me/avatar", PNG)).status, 401);
      const up = await raw(srv, "PUT", "/api/v1/me/avatar", PNG, ann);
      assertEquals(up.status, 200);
      const first = up.body.avatar as string;
      assert(/^\/api\/v1\/avatars\/\d+-[0-9a-f]{16}\.png$/.test(first), first);
      const served = await raw(srv, "GET", first);
      assertEquals(served.status, 200);
      assertEquals(served.headers.get("content-type"), "image/png");
      assert(served.headers.get("cache-control")!.includes("immutable"));
      for (
        const [body, type, error] of [
          [SVG, "image/svg+xml", /PNG, JPEG, WebP or GIF/],
          [SVG, "image/png", /PNG, JPEG, WebP or GIF/],
          [new TextEncoder().encode("hello"), "image/jpeg", /PNG, JPEG, WebP or GIF/],
          [new Uint8Array(0), "image/png", /PNG, JPEG, WebP or GIF/],
          [new Uint8Array(2 * 1024 * 1024 + 1).fill(0x89), "image/png", /at most 2 MB/],
        ] as const
      ) {
        const r = await raw(srv, "PUT", "/api/v1/me/avatar", body, ann, type);
        assertEquals(r.status, 400, String(error));
        assert(error.test(String(r.body.error)), String(r.body.error));
      }
      const page = await get(`/characters/${players.Ann.id}`);
      assertEquals(page.body.avatar, first, "the refusals changed nothing");
      const second = await raw(srv, "PUT", "/api/v1/me/avatar", GIF, ann, "image/gif");
      assertEquals(second.status, 200);
      assert(String(second.body.avatar).endsWith(".gif"));
      assertEquals((await raw(srv, "GET", first)).status, 404, "the old picture went");
      const g = await raw(srv, "PUT", "/api/v1/me/avatar", PNG, guest.body.token as string);
      assertEquals(g.status, 403, "guests change nothing");
      for (const bad of ["../config.json", "x.png", `${players.Ann.id}-zz.png`]) {
        assertEquals(
          (await raw(srv, "GET", `/api/v1/avatars/${encodeURIComponent(bad)}`)).status,
          404,
        );
      }
      // Ten stored pictures an hour (the refused ones did not count).
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++) {
        statuses.push((await raw(srv, "PUT", "/api/v1/me/avatar", i % 2 ? PNG : GIF, ann)).status);
      }
      assertEquals(statuses, [200, 200, 200, 200, 200, 200, 200, 200, 429]);
      const limited = await raw(srv, "PUT", "/api/v1/me/avatar", PNG, ann);
      assertEquals([limited.status, limited.body.error], [
        429,
        "You changed your picture 10 times this hour; try again later.",
      ]);
      const del = await raw(srv, "DELETE", "/api/v1/me/avatar", undefined, ann);
      assertEquals([del.status, del.body.deleted], [200, true]);
      assertEquals(
        (await api(b, "GET", `/api/v1/public/characters/${players.Ann.id}`)).body.avatar,
        "",
      );
      assertEquals((await get(`/characters/${players.Ann.id}`)).body.avatar, "");
    });

    await t.step("wiki: search, the newest pages, pages and folders; nothing written", async () => {
      for (const [path, date] of [["lore/harbour", "2026-01-02"], ["lore/guilds", "2026-03-04"]]) {
        const made = await api(b, "POST", "/api/v1/wiki", {
          path,
          title: path.split("/")[1],
          date,
          body: `About the ${path}.`,
        }, adminToken);
        assertEquals(made.status, 201);
      }
      assertEquals((await get("/wiki?q=harbour")).body.map((p: { path: string }) => p.path), [
        "lore/harbour",
      ]);
      const recent = await get("/wiki/recent?limit=2");
      assertEquals(recent.body.map((p: { path: string }) => p.path), [
        "lore/guilds",
        "lore/harbour",
      ]);
      assertEquals((await get("/wiki/recent?limit=0")).status, 400);
      assertEquals((await get("/wiki/recent?limit=21")).status, 400);
      assertEquals((await get("/wiki/lore/harbour")).body.body, "About the lore/harbour.");
      assertEquals((await get("/wiki/lore")).body.type, "directory");
      assertEquals((await get("/wiki/lore/nothing")).status, 404);
      assertEquals((await get("/wiki/lore/x.png")).status, 400);
      assertEquals((await get("/wiki/lore/.hidden")).status, 400);
      assertEquals((await get(`/wiki?q=${"q".repeat(201)}`)).status, 400);
      const write = await api(b, "POST", "/api/v1/public/wiki", { path: "x", body: "y" });
      assertEquals(write.status, 404, "nothing under /public writes");
    });

    await t.step(
      "events: upcoming ones with counts; cancelled ones and RSVP lists never",
      async () => {
        const soon = Date.now() + 86_400_000;
        const mk = async (title: string) =>
          (await api(b, "POST", "/api/v1/events", { title, startTime: soon }, adminToken)).body;
        const party = await mk("Harbour Party");
        const off = await mk("Called Off");
        await api(b, "PATCH", `/api/v1/events/${off.id}`, { status: "cancelled" }, adminToken);
        await api(
          b,
          "POST",
          `/api/v1/events/${party.id}/rsvp`,
          { status: "attending" },
          players.Dee.token,
        );
        const list = await get("/events");
        assertEquals(list.body.map((e: { title: string }) => e.title), ["Harbour Party"]);
        assertEquals(list.body[0].createdBy, undefined);
        assertEquals(list.body[0].rsvps, undefined);
        assertEquals(list.body[0].rsvpCounts.attending, 1);
        const one = await get(`/events/${party.id}`);
        assertEquals([one.status, one.body.rsvps], [200, undefined]);
        assertEquals((await get(`/events/${off.id}`)).status, 404);
        assertEquals((await get("/events/nope")).status, 404);
        assertEquals((await get("/events?offset=x")).status, 400);
      },
    );

    await t.step(
      "PATCH /me/profile: the page's fields are +finger's, visual to softcode",
      async () => {
        const una = players.Una.token;
        const p = (body: unknown, token: string | undefined = una) =>
          api(b, "PATCH", "/api/v1/me/profile", body, token);
        assertEquals(
          (await api(b, "PATCH", "/api/v1/me/profile", { description: "x" })).status,
          401,
        );
        for (
          const [body, error] of [
            [{}, /Nothing to change/],
            [{ name: "Evil" }, /Unknown field\(s\): name/],
            [{ fields: { "FINGER.AGE": "9" } }, /not a profile field/],
            [{ fields: { "FINGER.FULLNAME": 5 } }, /one line of at most 400/],
            [{ fields: { "FINGER.FULLNAME": "a\nb" } }, /one line/],
            [{ fields: { "FINGER.FULLNAME": "x".repeat(401) } }, /at most 400/],
            [{ fields: [] }, /fields must be an object/],
            [{ description: 7 }, /description must be a string/],
            [{ description: "ok", fields: { "FINGER.NOPE": "x" } }, /not a profile field/],
          ] as const
        ) {
          const r = await p(body);
          assertEquals(r.status, 400, JSON.stringify(body));
          assert(error.test(r.body.error), `${JSON.stringify(body)}: ${r.body.error}`);
        }
        const before = await get(`/characters/${players.Una.id}`);
        assertEquals(before.body.description, "", "the refusals changed nothing");
        const ok = await p({
          description: "Una of the Grotto.",
          fields: { "finger.fullname": "Una Moss", "FINGER.PLAYEDBY": "" },
        });
        assertEquals([ok.status, ok.body], [200, { saved: true }]);
        const after = await get(`/characters/${players.Una.id}`);
        assertEquals(after.body.description, "Una of the Grotto.");
        assertEquals(after.body.fields[0].value, "Una Moss");
        // Anyone's softcode reads it (visual), and the shipped +finger shows it.
        players.Ann.ws.send("think [get(*Una/FINGER.FULLNAME)]");
        await players.Ann.ws.expect(/^Una Moss$/, 15_000);
        players.Ann.ws.send("+finger Una");
        const f = await players.Ann.ws.expect(/Fullname/, 15_000);
        assert(f.msg.includes("Una Moss"), f.msg);
        const guestPatch = await p({ description: "hi" }, guest.body.token as string);
        assertEquals(guestPatch.status, 403);
      },
    );

    await t.step("the spec's endpoints keep their authentication", async () => {
      for (
        const p of [
          "/api/v1/scenes",
          "/api/v1/events",
          "/api/v1/wiki/lore/harbour",
          "/api/v1/me",
          "/api/v1/boards",
        ]
      ) {
        assertEquals((await api(b, "GET", p)).status, 401, p);
      }
    });

    await t.step("@reload/config applies the switches; each closed part answers 403", async () => {
      const file = join(srv.dir, "config.json");
      const cfg = JSON.parse(await Deno.readTextFile(file));
      cfg.web.public = {
        front: false,
        online: false,
        characters: false,
        wiki: false,
        scenes: false,
        events: false,
      };
      cfg.web.banner = "https://elsewhere.example/banner.png";
      await Deno.writeTextFile(file, JSON.stringify(cfg));
      admin.send("@reload/config");
      await admin.expect((m) => m.data.type === "reload", 15_000);
      for (
        const p of [
          "/game",
          "/online",
          "/characters",
          `/characters/${players.Ann.id}`,
          "/wiki",
          "/wiki/recent",
          "/wiki/lore/harbour",
          "/scenes",
          "/scenes/active",
          "/events",
        ]
      ) {
        const r = await get(p);
        assertEquals(r.status, 403, p);
        assert(/^This game does not show .+ to visitors\.$/.test(r.body.error), r.body.error);
      }
      const c = await api(b, "GET", "/api/v1/config");
      assertEquals(c.body.web.banner, "", "another site's picture is refused; the default is used");
      assertEquals(c.body.web.public.characters, false);
    });
  } finally {
    for (const ws of open) await ws.close();
    await srv.stop();
  }
});
