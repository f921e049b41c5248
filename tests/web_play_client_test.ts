/**
 * The play client in Chromium (issue 39, item 8), against the whole stack under the supervisor
 * with a telnet player beside it: the width the client reports is the width it shows (at phone
 * and desktop sizes), a reload and a second tab resume the session without the room hearing of
 * it and without the message of the day, the channels pane's Join and Leave and poses (also in
 * `+chan/history`), the who pane following moves and hiding an unfindable player's room, search
 * of the scrollback, times beside lines, and an alert when one's name is said. axe-core at both
 * sizes; screenshots under the temporary directory's ursamu-screenshots/ (for review).
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
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
import type { Page } from "playwright-core";

// Names inside functions that run in the page (Playwright sends their source to the browser).
// deno-lint-ignore no-explicit-any
declare const document: any;
// deno-lint-ignore no-explicit-any
declare function getComputedStyle(e: unknown, pseudo?: string): any;
// deno-lint-ignore no-explicit-any
declare const globalThis: any;

/** Logs in through the form on `page` and waits for the game's output. */
async function login(page: Page, base: string, name: string, password: string) {
  await page.goto(base + "/login");
  await page.waitForSelector("#f-name");
  await page.fill("#f-name", name);
  await page.fill("#f-password", password);
  await page.press("#f-password", "Enter");
  await page.waitForSelector("#output .msg");
  return page;
}

async function output(page: Page): Promise<string> {
  return await page.textContent("#output") ?? "";
}

async function waitOutput(page: Page, re: RegExp, ms = 10_000): Promise<string> {
  const end = Date.now() + ms;
  for (;;) {
    const t = await output(page);
    if (re.test(t)) return t;
    if (Date.now() > end) throw new Error(`output never matched ${re}:\n${t.slice(-2000)}`);
    await page.waitForTimeout(50);
  }
}

async function command(page: Page, line: string) {
  await page.fill("#command", line);
  await page.press("#command", "Enter");
}

/** The widths the page told the engine (`window` frames), newest last. */
function widths(page: Page): number[] {
  const seen: number[] = [];
  page.on("websocket", (ws) => {
    ws.on("framesent", (f) => {
      try {
        const j = JSON.parse(String(f.payload));
        if (j.type === "window") seen.push(j.width);
      } catch { /* a command line */ }
    });
  });
  return seen;
}

async function assertAxe(page: Page, what: string) {
  assertEquals(await axeSerious(page), [], `axe on ${what}`);
}

Deno.test({
  name:
    `web play client in Chromium: width, silent reload, channels, who, search, times, alerts${SKIP_NOTE}`,
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const srv = await startSupervised();
    const browser = await launch();
    try {
      const b = srv.base;
      await register(b, "Alice", "alice-password");
      await register(b, "Bob", "bob-password");
      const bob = await telnetLogin(srv, "Bob", "bob-password");
      const ctx = await browser.newContext({ viewport: PHONE });
      const alice = await ctx.newPage();
      const told = widths(alice);
      const errors = watchErrors(alice);
      await login(alice, b, "Alice", "alice-password");
      await bob.waitFor(/Alice has connected\./);

      await t.step("the width told is the width shown, on a phone and a desktop", async () => {
        await command(
          alice,
          "@describe me=" + "The quick brown fox jumps over the lazy dog. ".repeat(8),
        );
        await waitOutput(alice, /Set\./);
        for (const [size, name] of [[PHONE, "phone"], [DESKTOP, "desktop"]] as const) {
          await alice.setViewportSize(size);
          await alice.waitForTimeout(600); // the client tells a new width 300 ms after a resize
          const width = told.at(-1);
          assert(typeof width === "number", `a width was told (${told})`);
          // `width` characters fit on one line of the output, and one more does not.
          const fit = await alice.evaluate((n: number) => {
            const out = document.getElementById("output");
            const probe = (s: string) => {
              const d = document.createElement("div");
              d.className = "msg";
              const l = document.createElement("div");
              l.className = "line";
              l.textContent = s;
              d.append(l);
              out.append(d);
              const hgt = l.getBoundingClientRect().height;
              d.remove();
              return hgt;
            };
            return [probe("0"), probe("0".repeat(n)), probe("0".repeat(n + 1))];
          }, width!);
          assertEquals(fit[1], fit[0], `${width} characters on one line (${name})`);
          assert(fit[2] > fit[0], `one more wraps, so the width is not under-told (${name})`);
          // What the engine wrapped at that width is not wrapped again by the browser, and a
          // rule (help's closing line) stays one line.
          const before = await alice.locator("#output .msg").count();
          await command(alice, "look me");
          await command(alice, "help");
          await alice.waitForFunction(
            (n: number) => document.querySelectorAll("#output .msg").length >= n + 4,
            before,
          );
          await waitOutput(alice, /use\.\s*-+\s*$/);
          const lines = await alice.evaluate(() => {
            // One row: the height of a line of one character in the output.
            const out = document.getElementById("output");
            const ref = document.createElement("div");
            ref.className = "msg";
            ref.textContent = "0";
            out.append(ref);
            const one = ref.getBoundingClientRect().height;
            ref.remove();
            return [...document.querySelectorAll("#output .msg:nth-last-child(-n+4) .line")]
              .map((l: { textContent: string; getBoundingClientRect(): { height: number } }) => ({
                text: l.textContent,
                rows: Math.round(l.getBoundingClientRect().height / one),
              }));
          });
          const desc = lines.filter((l: { text: string }) => /fox|lazy/.test(l.text));
          assert(desc.length > 1, `the engine wrapped the description (${name})`);
          for (const l of lines) {
            assert(l.text.length <= width!, `${JSON.stringify(l.text)} within ${width}`);
            assertEquals(l.rows, 1, `${JSON.stringify(l.text)} is one row (${name})`);
          }
          await assertAxe(alice, `the play view (${name})`);
          await screenshot(alice, `play-width-${name}`);
        }
        await alice.setViewportSize(PHONE);
      });

      await t.step("a reload and a second tab: no motd again, the room hears nothing", async () => {
        const from = bob.mark();
        await alice.reload();
        await alice.waitForSelector("#output .msg");
        const after = await waitOutput(alice, /Limbo/);
        assert(!/Message of the day/.test(after), `no motd after a reload:\n${after}`);
        assertMatch(await alice.textContent("#conn-status") ?? "", /Connected as Alice/);
        const second = await ctx.newPage();
        await second.goto(b + "/");
        await second.waitForSelector("#output .msg");
        const tab = await waitOutput(second, /Limbo/);
        assert(!/Message of the day/.test(tab), `no motd in a second tab:\n${tab}`);
        await second.close();
        // Past the engine's grace for a page that went away (5 s), Bob has heard nothing.
        await alice.waitForTimeout(6000);
        await bob.send("think marker-1");
        await bob.waitFor(/marker-1/, 10_000, from);
        const heard = bob.plain.slice(from);
        assert(!/Alice has (dis)?connected/.test(heard), `the room heard nothing:\n${heard}`);
      });

      await t.step(
        "channels: Join becomes Leave; poses read as poses, also in history",
        async () => {
          await alice.setViewportSize(DESKTOP);
          await alice.selectOption("#chan-select", "Public");
          // A new player may be on Public already: Leave first, then Join again.
          if ((await alice.textContent("#chan-toggle")) === "Leave") {
            await alice.click("#chan-toggle");
            await alice.waitForSelector("#chan-toggle:text-is('Join')");
          }
          await alice.click("#chan-toggle");
          await alice.waitForSelector("#chan-toggle:text-is('Leave')");
          await bob.send("+chan/join Public");
          await bob.waitFor(/join|Public/i);
          await bob.send("+public :waves to the harbour.");
          await alice.waitForSelector(".chan-line.pose:has-text('Bob waves to the harbour.')");
          await bob.send("+public Hello there.");
          await alice.waitForSelector(".chan-line.say:has-text('Bob: Hello there.')");
          // Read back from the history: the pose is still a pose.
          await alice.selectOption("#chan-select", "OOC");
          await alice.selectOption("#chan-select", "Public");
          await alice.waitForSelector(".chan-line.pose:has-text('Bob waves to the harbour.')");
          await command(alice, "+chan/history Public");
          const history = await waitOutput(
            alice,
            /Recent messages on Public:.*\] Bob waves to the harbour\..*\] Bob: Hello there\./,
          );
          assert(!/Bob: :waves|Bob: waves/.test(history), "the pose is not a say");
          await assertAxe(alice, "the channels pane");
          await alice.click("#chan-toggle");
          await alice.waitForSelector("#chan-toggle:text-is('Join')");
        },
      );

      await t.step(
        "who: rooms follow moves; an unfindable player's room is not shown",
        async () => {
          const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
          try {
            await alice.waitForSelector(".who li:has-text('Admin')");
            await admin.send("@dig Lighthouse");
            const dug = await admin.waitFor(/Lighthouse.*?(#\d+)/);
            await admin.send(`@teleport me=${dug[1]}`);
            await alice.waitForSelector(".who li:has-text('Admin') .where:has-text('Lighthouse')", {
              timeout: 10_000,
            });
            await admin.send("@set me=unfindable");
            await alice.waitForFunction(
              () => {
                const li = [...document.querySelectorAll(".who li")].find((
                  l: { textContent: string },
                ) => l.textContent.includes("Admin"));
                return li && !li.textContent.includes("Lighthouse");
              },
              undefined,
              { timeout: 10_000 },
            );
          } finally {
            await admin.close();
          }
        },
      );

      await t.step("find in the output, times beside lines", async () => {
        await alice.fill("#out-search", "harbour");
        await alice.waitForSelector("#out-search-status:has-text('with “harbour”')");
        const shown = await alice.evaluate(() =>
          [...document.querySelectorAll("#output .msg")]
            .filter((m: { classList: { contains(c: string): boolean } }) =>
              !m.classList.contains("search-miss")
            )
            .map((m: { textContent: string }) => m.textContent)
        );
        assert(shown.length >= 1, "a message matches");
        for (const m of shown) assertMatch(m, /harbour/i);
        // A line that arrives while searching is hidden when it does not match.
        await bob.send("say Nothing to see.");
        await alice.waitForSelector("#output .msg.search-miss:has-text('Nothing to see.')", {
          state: "attached",
        });
        await screenshot(alice, "play-search-desktop");
        await alice.press("#out-search", "Escape");
        await alice.waitForSelector("#output .msg:has-text('Nothing to see.')");
        assertEquals(await alice.locator("#output .search-miss").count(), 0);
        await alice.check("#out-times");
        const time = await alice.evaluate(() =>
          getComputedStyle(document.querySelector("#output .msg:last-child"), "::before").content
        );
        assertMatch(time, /\d{1,2}:\d{2}/);
        await alice.reload();
        await alice.waitForSelector("#output .msg");
        assert(await alice.isChecked("#out-times"), "kept over a reload");
        await assertAxe(alice, "the play view with times");
        await screenshot(alice, "play-times-desktop");
        await alice.setViewportSize(PHONE);
        await assertAxe(alice, "the play view with times on a phone");
        await screenshot(alice, "play-times-phone");
        await alice.setViewportSize(DESKTOP);
        await alice.uncheck("#out-times");
      });

      await t.step("one's name said: the line is marked; away, a notification", async () => {
        await ctx.grantPermissions(["notifications"], { origin: b });
        // Stands in for the player looking elsewhere, and records what the page shows them.
        await alice.evaluate(() => {
          globalThis.__notes = [];
          globalThis.Notification = class {
            static permission = "granted";
            onclick = null;
            constructor(title: string, o: { body: string }) {
              globalThis.__notes.push([title, o.body]);
            }
            close() {}
          };
          document.hasFocus = () => false;
        });
        await alice.check("#out-mentions");
        await bob.send("say Alice, the tide is turning.");
        await alice.waitForSelector("#output .msg.mention:has-text('the tide is turning')");
        const notes = await alice.evaluate(() => globalThis.__notes);
        assertEquals(notes.length, 1, JSON.stringify(notes));
        assertMatch(notes[0][1], /Alice, the tide is turning/);
        assertMatch(await alice.title(), /^\(1\) /);
        // A word that only holds the name is no call; nor is one's own look or who.
        await bob.send("say Alicebeth is late.");
        await waitOutput(alice, /Alicebeth is late/);
        await command(alice, "who");
        await waitOutput(alice, /players? connected/);
        assertEquals((await alice.evaluate(() => globalThis.__notes)).length, 1);
        assertEquals(await alice.locator("#output .msg.mention").count(), 1);
        await assertAxe(alice, "a marked line");
      });

      await t.step("the last page closed: the room hears it after the grace", async () => {
        const from = bob.mark();
        await ctx.close();
        await bob.waitFor(/Alice has disconnected\./, 15_000, from);
      });
      assertEquals(
        errors.filter((e) => !/Failed to load resource|WebSocket/.test(e)),
        [],
      );
      await bob.close();
    } finally {
      await browser.close().catch(() => {});
      await srv.stop();
    }
  },
});
