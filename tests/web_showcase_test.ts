/**
 * The portal that sells the game (issue 39, items 1-5), in Chromium at phone and desktop sizes,
 * as a visitor and as a player, with axe-core on every page: the front page (banner, how to
 * connect, who is online, the plugins' cards), the character gallery and pages (profile fields
 * as attributes, an uploaded avatar), shared scenes, public events and wiki, a player editing
 * their page, sharing a scene from its page and changing their password on the settings page;
 * and a visitor who sees nothing private (an unshared or private scene, dark and unfindable
 * players, a read-locked board, a staff note, a cancelled event, the players-only sections).
 * Screenshots go to ursamu-screenshots/ in the system's temporary directory, for review.
 */
import type { Browser, Page } from "playwright-core";
import { Buffer } from "node:buffer";
import { assert, assertEquals } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsClient } from "./ws_client.ts";
import {
  axeSerious,
  DESKTOP,
  HAS_CHROMIUM,
  launch,
  PHONE,
  screenshot,
  SKIP_NOTE,
  watchErrors,
} from "./web_browser.ts";
import { gradientPng } from "./png_fixture.ts";

// The page's globals, inside `page.evaluate` and `waitForFunction` (they run in the browser).
// deno-lint-ignore no-explicit-any
declare const document: any;
declare const innerWidth: number;

const ADMIN = { name: "Admin", password: "admin-password-1" };
const CONFIG = {
  game: {
    name: "Harbour Lights",
    description: "A port town of smugglers, lamplighters and tides. %chEveryone%cn has a secret.",
    guestEnabled: true,
  },
  web: {
    banner: "/api/v1/wiki/art/banner.png",
    profileFields: ["Full Name", "Age", "Position", "Played By"],
    public: { characters: true },
  },
};
/** What no visitor may ever read. */
const SECRETS = [
  "SECRET-PRIVATE-POSE",
  "UNSHARED-LOG-POSE",
  "Dee",
  "Hidden Grotto",
  "CANCELLED-EVENT",
  "BOARD-SECRET",
  "STAFF-NOTE",
];

async function assertAxe(page: Page, what: string) {
  const found = await axeSerious(page);
  assertEquals(found, [], `axe on ${what}: ${JSON.stringify(found, null, 1)}`);
}

/** Goes to `path` and waits for its heading. */
async function visit(page: Page, base: string, path: string, heading: RegExp) {
  await page.goto(base + path);
  await page.waitForFunction(
    (re) => new RegExp(re).test(document.querySelector("#page h1")?.textContent ?? ""),
    heading.source,
    { timeout: 15_000 },
  );
  // The cards and lists load with the page; the title follows.
  await page.waitForFunction(() => !document.querySelector("#page .loading"));
}

/** Axe and a screenshot at desktop and phone size, and no sideways scrolling on the phone. */
async function checkPage(page: Page, name: string) {
  await page.evaluate(() => document.scrollingElement.scrollTo(0, 0));
  await page.setViewportSize(DESKTOP);
  await assertAxe(page, `${name} (desktop)`);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await assertAxe(page, `${name} (phone)`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert(overflow <= 1, `${name} fits a phone (overflow ${overflow}px)`);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

async function pageText(page: Page): Promise<string> {
  return await page.evaluate(() => document.body.innerText);
}

Deno.test({
  name:
    `portal showcase in Chromium: front page, characters, shared scenes, self-service, nothing private${SKIP_NOTE}`,
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const srv: TestServer = await startServer({
      config: CONFIG,
      env: { URSAMU_SUPERUSER_NAME: ADMIN.name, URSAMU_SUPERUSER_PASSWORD: ADMIN.password },
    });
    const b = srv.base;
    const sockets: WsClient[] = [];
    let browser: Browser | null = null;
    try {
      browser = await launch();
      // ---- the game: players, pictures, scenes, events, the wiki, a board, a job ----
      const adminToken = (await api(b, "POST", "/api/v1/auth/login", ADMIN)).body.token as string;
      const admin = await connectWs(srv, { client: "web", token: adminToken });
      sockets.push(admin);
      await admin.expect((m) => m.data.type === "session", 15_000);
      const run = async (ws: WsClient, line: string, answer: RegExp) => {
        ws.send(line);
        await ws.expect(answer, 15_000);
      };
      const tokens: Record<string, string> = {};
      const ids: Record<string, string> = {};
      const conns: Record<string, WsClient> = {};
      for (const name of ["Ann", "Bob", "Dee", "Una"]) {
        tokens[name] = await register(b, name, `${name.toLowerCase()}-password`);
        const ws = await connectWs(srv, { client: "web", token: tokens[name] });
        sockets.push(ws);
        const s = await ws.expect((m) => m.data.type === "session", 15_000);
        ids[name] = String((s.data.player as { id: string }).id);
        conns[name] = ws;
      }
      await run(admin, "@set Dee=dark", /set/i);
      await run(admin, "@set Una=unfindable", /set/i);
      await run(admin, "@dig Hidden Grotto", /Hidden Grotto/);
      await run(admin, "@tel Una=Hidden Grotto", /.+/);
      const fields: [string, string, string][] = [
        ["Ann", "FINGER.FULLNAME", "Annabel Quill"],
        ["Ann", "FINGER.AGE", "27"],
        ["Ann", "FINGER.POSITION", "Harbourmaster's clerk"],
        ["Ann", "FINGER.PLAYEDBY", "Someone Famous"],
        ["Bob", "FINGER.POSITION", "Lamplighter"],
      ];
      for (const [who, attr, value] of fields) {
        await run(conns[who], `&${attr} me=${value}`, /^Set\.$/);
      }
      await run(
        conns.Ann,
        "@desc me=Ink on her fingers, salt in her hair. She keeps the harbour's ledgers and everyone's secrets.",
        /.+/,
      );
      const art = async (path: string, png: Uint8Array) => {
        const r = await fetch(`${b}/api/v1/wiki/${path}`, {
          method: "PUT",
          headers: { authorization: `Bearer ${adminToken}`, "content-type": "image/png" },
          body: png as BodyInit,
        });
        assertEquals(r.status < 300, true, `asset ${path}: ${await r.text()}`);
      };
      await art("art/banner.png", await gradientPng(900, 200, [20, 40, 80], [200, 120, 40]));
      for (
        const [who, colours] of [["Ann", [[120, 40, 90], [240, 190, 120]]], ["Bob", [[20, 90, 60], [
          150,
          220,
          200,
        ]]]] as const
      ) {
        const up = await fetch(`${b}/api/v1/me/avatar`, {
          method: "PUT",
          headers: { authorization: `Bearer ${tokens[who]}`, "content-type": "image/png" },
          body: await gradientPng(120, 120, [...colours[0]], [...colours[1]]) as BodyInit,
        });
        assertEquals(up.status, 200);
      }
      const scene = async (
        owner: string,
        name: string,
        poses: string[],
        opts: { private?: boolean } = {},
      ) => {
        const s = (await api(b, "POST", "/api/v1/scenes", {
          name,
          location: "#1",
          private: opts.private === true,
        }, tokens[owner])).body;
        for (const msg of poses) {
          await api(b, "POST", `/api/v1/scenes/${s.id}/pose`, { msg }, tokens[owner]);
        }
        return s;
      };
      const shared = await scene("Ann", "Ledgers at Low Tide", [
        "sets the ledger on the counter and taps a column of figures.",
        'raises a brow. "Someone paid twice for the same crate."',
      ]);
      await api(b, "POST", `/api/v1/scenes/${shared.id}/pose`, {
        msg: "shrugs and lights another lamp.",
      }, tokens.Bob);
      await api(
        b,
        "PATCH",
        `/api/v1/scenes/${shared.id}`,
        { status: "closed", shared: true },
        tokens.Ann,
      );
      const secret = await scene("Ann", "A Quiet Word", ["SECRET-PRIVATE-POSE"], { private: true });
      await api(b, "PATCH", `/api/v1/scenes/${secret.id}`, { status: "closed" }, tokens.Ann);
      const unshared = await scene("Ann", "The Lighthouse Keeper", ["UNSHARED-LOG-POSE"]);
      await api(b, "PATCH", `/api/v1/scenes/${unshared.id}`, { status: "closed" }, tokens.Ann);
      await scene("Bob", "Evening Rounds", ["walks the quay with his pole and ladder."]);
      const day = 86_400_000;
      const ev = (await api(b, "POST", "/api/v1/events", {
        title: "The Lantern Festival",
        startTime: Date.now() + 3 * day,
        location: "The Quay",
        description: "Boats, lanterns and a race across the harbour.",
      }, adminToken)).body;
      await api(b, "POST", `/api/v1/events/${ev.id}/rsvp`, { status: "attending" }, tokens.Ann);
      const off = (await api(b, "POST", "/api/v1/events", {
        title: "CANCELLED-EVENT",
        startTime: Date.now() + 5 * day,
      }, adminToken)).body;
      await api(b, "PATCH", `/api/v1/events/${off.id}`, { status: "cancelled" }, adminToken);
      for (
        const [path, title, body] of [
          ["setting/harbour", "The Harbour", "Ships **come** and go."],
          ["setting/guilds", "The Guilds", "Lamplighters, clerks and pilots."],
          ["rules/consent", "Consent", "Play nicely."],
        ]
      ) {
        await api(b, "POST", "/api/v1/wiki", { path, title, body }, adminToken);
      }
      const board = (await api(
        b,
        "POST",
        "/api/v1/boards",
        { name: "Staff Room", readLock: "admin+" },
        adminToken,
      )).body;
      await api(b, "POST", `/api/v1/boards/${board.id}/posts`, {
        subject: "BOARD-SECRET",
        body: "BOARD-SECRET",
      }, adminToken);
      const job =
        (await api(b, "POST", "/api/v1/jobs", { title: "Help", description: "please" }, tokens.Ann))
          .body;
      await api(b, "POST", `/api/v1/jobs/${job.number ?? job.id}/comment`, {
        text: "STAFF-NOTE",
        staffOnly: true,
      }, adminToken);

      await t.step("a visitor: the front page at / and /home", async () => {
        const ctx = await browser!.newContext({ viewport: DESKTOP });
        const page = await ctx.newPage();
        const errors = watchErrors(page);
        await visit(page, b, "/", /^Harbour Lights$/);
        await page.waitForSelector("text=Recently shared scenes");
        await page.waitForSelector("text=Upcoming events");
        await page.waitForSelector("text=New on the wiki");
        const text = await pageText(page);
        for (
          const want of [
            "How to play",
            `127.0.0.1 ${srv.telnet}`,
            "Ann",
            "Ledgers at Low Tide",
            "Evening Rounds",
            "The Lantern Festival",
            "The Guilds",
            "Online now",
          ]
        ) {
          assert(text.includes(want), `the front page shows ${want}`);
        }
        assertEquals(await page.title(), "Harbour Lights");
        assert(
          await page.$eval(
            "img.banner",
            (i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0,
          ),
          "the banner loads",
        );
        await checkPage(page, "front-visitor");
        await visit(page, b, "/home", /^Harbour Lights$/);
        assertEquals(errors, []);
        await ctx.close();
      });

      await t.step(
        "a visitor: the gallery, a character page, a shared scene, events, the wiki",
        async () => {
          const ctx = await browser!.newContext({ viewport: DESKTOP });
          const page = await ctx.newPage();
          const errors = watchErrors(page);
          await visit(page, b, "/characters", /^Characters$/);
          await page.waitForSelector(".gallery");
          assertEquals(await page.$$eval(".char-name", (a) => a.map((x) => x.textContent)), [
            "Admin",
            "Ann",
            "Bob",
            "Una",
          ]);
          assertEquals(await page.title(), "Characters · Harbour Lights");
          await checkPage(page, "gallery-visitor");
          await page.fill("#char-q", "bo");
          await page.press("#char-q", "Enter");
          await page.waitForFunction(() => document.querySelectorAll(".char-name").length === 1);
          await page.click("text=Bob");
          await page.waitForFunction(() =>
            document.querySelector("#page h1")?.textContent === "Bob"
          );
          await page.goto(`${b}/profile/${ids.Ann}`);
          await page.waitForSelector("text=Shared scenes");
          const text = await pageText(page);
          for (
            const want of [
              "Annabel Quill",
              "Harbourmaster's clerk",
              "Someone Famous",
              "salt in her hair",
              "Ledgers at Low Tide",
            ]
          ) {
            assert(text.includes(want), `Ann's page shows ${want}`);
          }
          assert(
            await page.$eval(
              "img.avatar",
              (i) => (i as unknown as { naturalWidth: number }).naturalWidth > 0,
            ),
            "the avatar loads",
          );
          assertEquals(await page.title(), "Ann · Harbour Lights");
          await checkPage(page, "character-visitor");
          await page.click("text=Ledgers at Low Tide");
          await page.waitForFunction(() =>
            document.querySelector("#page h1")?.textContent === "Ledgers at Low Tide"
          );
          await page.waitForSelector("text=Someone paid twice");
          await checkPage(page, "scene-shared-visitor");
          await visit(page, b, "/scenes", /^Scenes$/);
          await checkPage(page, "scenes-visitor");
          await visit(page, b, "/events", /^Events$/);
          assert((await pageText(page)).includes("The Lantern Festival"));
          assertEquals(await page.$$("button[aria-pressed]"), [], "no RSVP for visitors");
          await checkPage(page, "events-visitor");
          await page.click("text=The Lantern Festival");
          await page.waitForSelector("text=1 attending");
          await checkPage(page, "event-visitor");
          await visit(page, b, "/wiki", /^Wiki$/);
          await page.click("text=The Harbour");
          await page.waitForFunction(() =>
            document.querySelector("#page h1")?.textContent === "The Harbour"
          );
          await checkPage(page, "wiki-visitor");
          assertEquals(errors, []);
          await ctx.close();
        },
      );

      await t.step("a visitor sees nothing private", async () => {
        const ctx = await browser!.newContext({ viewport: PHONE });
        const page = await ctx.newPage();
        const seen: string[] = [];
        const paths = [
          "/",
          "/characters",
          `/profile/${ids.Ann}`,
          `/profile/${ids.Una}`,
          "/scenes",
          `/scenes/${shared.id}`,
          "/events",
          "/wiki",
        ];
        for (const path of paths) {
          await page.goto(b + path);
          await page.waitForSelector("#page h1");
          await page.waitForTimeout(300);
          seen.push(`${path}: ${await pageText(page)}`);
        }
        // What is not theirs to read answers as missing, or asks for a login.
        for (
          const [path, want] of [
            [`/scenes/${secret.id}`, /Not found/],
            [`/scenes/${unshared.id}`, /Not found/],
            [`/profile/${ids.Dee}`, /Not found/],
            [`/events/${off.id}`, /Not found/],
            ["/boards", /Log in/],
            ["/jobs", /Log in/],
            ["/mail", /Log in/],
            ["/profile", /Log in/],
          ] as const
        ) {
          await page.goto(b + path);
          await page.waitForFunction(
            (re) => new RegExp(re).test(document.querySelector("#page h1")?.textContent ?? ""),
            want.source,
          );
          seen.push(`${path}: ${await pageText(page)}`);
        }
        await screenshot(page, "not-found-visitor-phone");
        const all = seen.join("\n");
        for (const s of SECRETS) assert(!all.includes(s), `a visitor never reads ${s}`);
        const una = seen.find((x) => x.startsWith(`/profile/${ids.Una}:`))!;
        assert(una.includes("Una") && !una.includes("Grotto"), "Una's page, without her room");
        await ctx.close();
      });

      await t.step("a player: the front page, editing their page with a picture", async () => {
        const ctx = await browser!.newContext({ viewport: DESKTOP });
        const page = await ctx.newPage();
        const errors = watchErrors(page);
        await page.goto(b + "/login");
        await page.fill("#f-name", "Bob");
        await page.fill("#f-password", "bob-password");
        await page.press("#f-password", "Enter");
        await page.waitForSelector("#output .msg");
        await page.click("#brand");
        await page.waitForSelector("text=Recently shared scenes");
        assertEquals(await page.title(), "Harbour Lights");
        await checkPage(page, "front-player");
        await page.click("#nav a[href='/profile']");
        await page.waitForSelector("#pf-finger-fullname");
        await page.fill("#pf-finger-fullname", "Robert Wick");
        await page.fill("#pf-finger-age", "41");
        await page.fill("#pf-finger-position", "");
        await page.fill("#prof-desc", "Soot on his coat and a ladder on his shoulder.");
        await page.click("button:has-text('Save your page')");
        await page.waitForSelector("[role=status]:has-text('Your page is saved.')");
        await page.setInputFiles("#avatar-file", {
          name: "me.png",
          mimeType: "image/png",
          buffer: Buffer.from(await gradientPng(160, 160, [30, 30, 120], [120, 220, 255])),
        });
        await page.click("button:has-text('Upload picture')");
        await page.waitForSelector("[role=status]:has-text('Picture saved.')");
        await checkPage(page, "profile-edit");
        // An SVG is refused, and nothing changes.
        await page.setInputFiles("#avatar-file", {
          name: "evil.svg",
          mimeType: "image/svg+xml",
          buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        });
        await page.click("button:has-text('Upload picture')");
        await page.waitForSelector("[role=alert]:has-text('PNG, JPEG, WebP or GIF')");
        const bob = (await api(b, "GET", `/api/v1/public/characters/${ids.Bob}`)).body;
        assert(bob.avatar.endsWith(".png"));
        assertEquals(bob.fields.map((f: { value: string }) => f.value), [
          "Robert Wick",
          "41",
          "",
          "",
        ]);
        assertEquals(bob.description, "Soot on his coat and a ladder on his shoulder.");
        // The same values in game, as softcode reads them.
        conns.Bob.send("think [get(me/FINGER.FULLNAME)] is [get(me/FINGER.AGE)]");
        await conns.Bob.expect(/^Robert Wick is 41$/, 15_000);
        await page.click("text=See your page as others see it");
        await page.waitForSelector("#page >> text=Robert Wick");
        await checkPage(page, "character-own");
        // The refused SVG's 400 is the browser's only complaint.
        assertEquals(errors.filter((e) => !e.includes("status of 400")), []);
        await ctx.close();
      });

      await t.step("a player shares a scene from its page; visitors can then read it", async () => {
        const ctx = await browser!.newContext({ viewport: PHONE });
        const page = await ctx.newPage();
        await page.goto(b + "/login");
        await page.fill("#f-name", "Ann");
        await page.fill("#f-password", "ann-password");
        await page.press("#f-password", "Enter");
        await page.waitForSelector("#output .msg");
        await page.goto(`${b}/scenes/${unshared.id}`);
        await page.waitForSelector("button:has-text('Share with visitors')");
        await checkPage(page, "scene-share-player");
        await page.click("button:has-text('Share with visitors')");
        await page.waitForSelector("button:has-text('Stop sharing with visitors')");
        assertEquals((await api(b, "GET", `/api/v1/public/scenes/${unshared.id}`)).status, 200);
        await page.goto(`${b}/scenes/${secret.id}`);
        await page.waitForSelector("#page h1");
        assertEquals(
          await page.$("button:has-text('Share with visitors')"),
          null,
          "no sharing of a private scene",
        );
        await ctx.close();
      });

      await t.step("a player changes their password on the settings page", async () => {
        const ctx = await browser!.newContext({ viewport: DESKTOP });
        const page = await ctx.newPage();
        const errors = watchErrors(page);
        await page.goto(b + "/login");
        await page.fill("#f-name", "Ann");
        await page.fill("#f-password", "ann-password");
        await page.press("#f-password", "Enter");
        await page.waitForSelector("#output .msg");
        await page.click("#nav a[href='/settings']");
        await page.waitForSelector("#pw-old");
        await page.fill("#pw-old", "not-my-password");
        await page.fill("#pw-new", "brand-new-pass");
        await page.fill("#pw-again", "brand-new-pass");
        await page.click("button:has-text('Change password')");
        await page.waitForSelector("[role=alert]:has-text('not your current password')");
        await page.fill("#pw-old", "ann-password");
        await page.fill("#pw-new", "brand-new-pass");
        await page.fill("#pw-again", "brand-new-pass-typo");
        await page.click("button:has-text('Change password')");
        await page.waitForSelector("[role=alert]:has-text('not the same')");
        await page.fill("#pw-again", "brand-new-pass");
        await page.click("button:has-text('Change password')");
        await page.waitForSelector("[role=status]:has-text('Password changed')");
        await checkPage(page, "settings-password");
        // Her game socket (the test's) was another session: it ended.
        await conns.Ann.expect(/Your password was changed from another session/, 15_000);
        // This browser goes on: its stored token is the new one, and the game opens with it.
        await page.click("#nav a[href='/']");
        await page.waitForSelector("#output .msg");
        await page.click("#nav a[href='/profile']");
        await page.waitForSelector("#pf-finger-fullname");
        const login = await api(b, "POST", "/api/v1/auth/login", {
          name: "Ann",
          password: "brand-new-pass",
        });
        assertEquals(login.status, 200);
        // The wrong password's 403 is the browser's only complaint.
        assertEquals(errors.filter((e) => !e.includes("status of 403")), []);
        await ctx.close();
      });

      await t.step("the owner keeps characters for players: visitors are told so", async () => {
        const file = `${srv.dir}/config.json`;
        const cfg = JSON.parse(await Deno.readTextFile(file));
        cfg.web.public.characters = false;
        cfg.web.public.scenes = false;
        await Deno.writeTextFile(file, JSON.stringify(cfg));
        admin.send("@reload/config");
        await admin.expect((m) => m.data.type === "reload", 15_000);
        const ctx = await browser!.newContext({ viewport: PHONE });
        const page = await ctx.newPage();
        await visit(page, b, "/characters", /^Characters$/);
        await page.waitForSelector("text=This game shows its characters to its players.");
        await checkPage(page, "gallery-closed-visitor");
        await page.goto(`${b}/scenes`);
        await page.waitForSelector("#f-name");
        await visit(page, b, "/", /^Harbour Lights$/);
        const text = await pageText(page);
        assert(!text.includes("Recently shared scenes"), "the scenes card is gone with the switch");
        await ctx.close();
      });
    } finally {
      await browser?.close().catch(() => {});
      for (const ws of sockets) await ws.close().catch(() => {});
      await srv.stop();
    }
  },
});
