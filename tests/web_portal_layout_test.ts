/**
 * The portal's layout and staff tools in Chromium (issue 39, items 6 and 7): the menu's unread
 * numbers for mail and boards, every menu entry in view on a phone, no focus ring on a page's
 * heading opened by its address, pages in two columns at desktop width, the events calendar,
 * staff creating and editing events, and staff assigning, prioritising, setting the status of
 * and writing staff notes on jobs. axe-core on every page at phone and desktop sizes;
 * screenshots under the temporary directory's ursamu-screenshots/ (for review).
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, register } from "./harness.ts";
import { ADMIN, startSupervised } from "./supervised.ts";
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
import type { Browser, Page } from "playwright-core";

// Names inside functions that run in the page (Playwright sends their source to the browser).
// deno-lint-ignore no-explicit-any
declare const document: any;
declare const innerWidth: number;
// deno-lint-ignore no-explicit-any
declare function getComputedStyle(e: unknown): any;

/** A page logged in as `name` with its token (the login form has its own test). */
async function as(
  browser: Browser,
  base: string,
  name: string,
  password: string,
  size = DESKTOP,
): Promise<Page> {
  const r = await api(base, "POST", "/api/v1/auth/login", { name, password });
  assertEquals(r.status, 200, JSON.stringify(r.body));
  const ctx = await browser.newContext({ viewport: size });
  await ctx.addInitScript(
    ([token, player]) => localStorage.setItem("ursamu.session", JSON.stringify({ token, player })),
    [r.body.token, { id: String(r.body.id ?? ""), name }],
  );
  return await ctx.newPage();
}

async function heading(page: Page, re: RegExp) {
  await page.waitForFunction(
    (src) => new RegExp(src).test(document.querySelector("#page h1")?.textContent ?? ""),
    re.source,
  );
}

async function assertAxe(page: Page, what: string) {
  assertEquals(await axeSerious(page), [], `axe on ${what}`);
}

/** axe and a screenshot at desktop and phone size, and nothing wider than a phone. */
async function checkPage(page: Page, name: string) {
  await page.setViewportSize(DESKTOP);
  await assertAxe(page, name);
  await screenshot(page, `${name}-desktop`);
  await page.setViewportSize(PHONE);
  await assertAxe(page, `${name} on a phone`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert(overflow <= 1, `${name} fits a phone (overflow ${overflow}px)`);
  await screenshot(page, `${name}-phone`);
  await page.setViewportSize(DESKTOP);
}

Deno.test({
  name: `web portal layout in Chromium: menu counts, phone menu, headings, columns${SKIP_NOTE}`,
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const srv = await startSupervised();
    const browser = await launch();
    try {
      const b = srv.base;
      await register(b, "Alice", "alice-password");
      const bob = await register(b, "Bob", "bob-password");
      const page = await as(browser, b, "Alice", "alice-password");
      const errors = watchErrors(page);

      await t.step("the menu shows unread mail and board posts, and follows reading", async () => {
        for (const subject of ["Docks tonight", "The ship"]) {
          const sent = await api(b, "POST", "/api/v1/mail", {
            to: "Alice",
            subject,
            body: "Meet at nine.",
          }, bob);
          assertEquals(sent.status, 201);
        }
        const boards = (await api(b, "GET", "/api/v1/boards", undefined, bob)).body;
        const general = boards.find((x: { slug: string }) => x.slug === "general") ?? boards[0];
        await api(b, "POST", `/api/v1/boards/${general.id}/posts`, {
          subject: "Hello",
          body: "Say hello here.",
        }, bob);
        await page.goto(b + "/mail");
        await heading(page, /Mail/);
        await page.waitForSelector('#nav a[href="/mail"] .badge:text-is("2")');
        await page.waitForSelector('#nav a[href="/boards"] .badge:text-is("1")');
        // The count is part of the link's name for screen readers.
        assertMatch(
          await page.locator('#nav a[href="/mail"]').textContent() ?? "",
          /Mail\s*2 unread/,
        );
        await checkPage(page, "layout-mail");
        // Reading one message lowers the count; the inbox stands beside the message.
        await page.click("#page a:text-is('The ship')");
        await heading(page, /The ship/);
        await page.waitForSelector('#nav a[href="/mail"] .badge:text-is("1")');
        assert(await page.isVisible(".col-side nav[aria-label=Inbox]"), "the inbox beside it");
        const [main, side] = await page.evaluate(() =>
          [".col-main", ".col-side"].map((s) => document.querySelector(s).getBoundingClientRect())
            .map((r: { left: number }) => r.left)
        );
        assert(side > main + 300, `two columns at desktop width (${main}, ${side})`);
        await checkPage(page, "layout-mail-read");
        await page.goto(b + `/boards/${general.id}`);
        await heading(page, /General/);
        await page.click("button:has-text('Mark all read')");
        await page.waitForFunction(() => !document.querySelector('#nav a[href="/boards"] .badge'));
      });

      await t.step("on a phone every menu entry is in view, none cut off", async () => {
        await page.setViewportSize(PHONE);
        await page.goto(b + "/boards");
        await heading(page, /Boards/);
        const links = await page.evaluate(() =>
          [...document.querySelectorAll("#nav a")].map((a) => {
            const r = a.getBoundingClientRect();
            return { text: a.textContent, left: r.left, right: r.right };
          })
        );
        assert(links.length >= 9, `every entry: ${links.map((l) => l.text)}`);
        for (const l of links) {
          assert(l.left >= 0 && l.right <= PHONE.width, `${l.text} in view (${l.left}-${l.right})`);
        }
        await screenshot(page, "layout-menu-phone");
        await page.setViewportSize(DESKTOP);
      });

      await t.step("a page opened by its address: its heading has focus but no ring", async () => {
        await page.goto(b + "/events");
        await heading(page, /Events/);
        const h1 = await page.evaluate(() => {
          const el = document.querySelector("#page h1");
          const style = getComputedStyle(el);
          return {
            focused: document.activeElement === el,
            outline: style.outlineStyle,
          };
        });
        assertEquals(h1, { focused: true, outline: "none" });
        // A control still shows its ring when the keyboard reaches it.
        await page.keyboard.press("Tab");
        const ring = await page.evaluate(() =>
          getComputedStyle(document.activeElement).outlineStyle
        );
        assertEquals(ring, "solid");
      });
      assertEquals(errors, []);
    } finally {
      await browser.close().catch(() => {});
      await srv.stop();
    }
  },
});

Deno.test({
  name: `web portal staff tools in Chromium: the events calendar, events and jobs${SKIP_NOTE}`,
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async (t) => {
    const srv = await startSupervised();
    const browser = await launch();
    try {
      const b = srv.base;
      const alice = await register(b, "Alice", "alice-password");
      const admin =
        (await api(b, "POST", "/api/v1/auth/login", { name: ADMIN.name, password: ADMIN.password }))
          .body.token;
      const staff = await as(browser, b, ADMIN.name, ADMIN.password);
      const errors = watchErrors(staff);

      await t.step("staff create an event from the calendar; it shows on its day", async () => {
        await staff.goto(b + "/events");
        await heading(staff, /Events/);
        assert(await staff.isVisible("table.calendar"), "a month's calendar");
        // The 20th of next month at 19:30, typed in the browser's own time.
        const when = await staff.evaluate(() => {
          const d = new Date();
          const t = new Date(d.getFullYear(), d.getMonth() + 1, 20, 19, 30);
          const p = (n: number) => String(n).padStart(2, "0");
          return {
            input: `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}T19:30`,
            ms: t.getTime(),
            month: `${t.getFullYear()}-${p(t.getMonth() + 1)}`,
          };
        });
        await staff.fill("#ev-new-title", "Harbour festival");
        await staff.fill("#ev-new-start", when.input);
        await staff.fill("#ev-new-location", "The docks");
        await staff.fill("#ev-new-description", "Lanterns on the water.");
        await staff.click("button:has-text('Create event')");
        await heading(staff, /Harbour festival/);
        const list = (await api(b, "GET", "/api/v1/events", undefined, alice)).body;
        assertEquals(
          list.map((e: { title: string; startTime: number; location: string }) => [
            e.title,
            e.startTime,
            e.location,
          ]),
          [["Harbour festival", when.ms, "The docks"]],
        );
        await checkPage(staff, "events-staff-event");
        await staff.click("a:has-text('The calendar')");
        await heading(staff, /Events/);
        assertEquals(new URL(staff.url()).search, `?month=${when.month}`);
        await staff.waitForSelector("table.calendar td:has(.day:text-is('20')) a.cal-event");
        await checkPage(staff, "events-calendar");
        // A bad form: the plugin's own message, nothing written.
        await staff.fill("#ev-new-title", "Too early");
        await staff.fill("#ev-new-start", when.input);
        await staff.fill("#ev-new-end", "2000-01-01T10:00");
        await staff.click("button:has-text('Create event')");
        await staff.waitForSelector("[role=alert]:has-text('end')");
        assertEquals((await api(b, "GET", "/api/v1/events", undefined, admin)).body.length, 1);
      });

      await t.step("staff edit and cancel an event; players no longer see it", async () => {
        const ev = (await api(b, "GET", "/api/v1/events", undefined, admin)).body[0];
        await staff.goto(b + `/events/${ev.id}`);
        await heading(staff, /Harbour festival/);
        await staff.fill("#ev-edit-title", "Harbour lantern festival");
        await staff.fill("#ev-edit-max", "12");
        await staff.click("button:has-text('Save changes')");
        await heading(staff, /Harbour lantern festival/);
        const after = (await api(b, "GET", `/api/v1/events/${ev.id}`, undefined, admin)).body;
        assertEquals([after.title, after.maxAttendees, after.startTime], [
          "Harbour lantern festival",
          12,
          ev.startTime,
        ]);
        await staff.click("button:has-text('Save changes')");
        await staff.waitForSelector("[role=status]:has-text('Nothing changed.')");
        await staff.selectOption("#ev-edit-status", "cancelled");
        await staff.click("button:has-text('Save changes')");
        await staff.waitForSelector("p.muted:has-text('cancelled')");
        assertEquals(
          (await api(b, "GET", `/api/v1/events/${ev.id}`, undefined, alice)).status,
          404,
        );
      });

      await t.step("a player sees no staff forms on the calendar or an event", async () => {
        const player = await as(browser, b, "Alice", "alice-password");
        await player.goto(b + "/events");
        await heading(player, /Events/);
        assertEquals(await player.locator("#ev-new-title").count(), 0);
        await checkPage(player, "events-player");
        await player.context().close();
      });

      await t.step(
        "jobs: staff assign, set priority and status, and write a staff note",
        async () => {
          const job = await api(b, "POST", "/api/v1/jobs", {
            title: "My exit is broken",
            description: "The north exit leads nowhere.",
          }, alice);
          assertEquals(job.status, 201);
          await staff.goto(b + `/jobs/${job.body.number}`);
          await heading(staff, /My exit is broken/);
          await staff.selectOption("#job-set-status", "open");
          await staff.selectOption("#job-set-priority", "high");
          await staff.fill("#job-set-assignee", ADMIN.name);
          await staff.click("button:has-text('Save changes')");
          await staff.waitForSelector(".facts dd:text-is('high')");
          const j = (await api(b, "GET", `/api/v1/jobs/${job.body.number}`, undefined, admin)).body;
          assertEquals([j.status, j.priority, j.assigneeName], ["open", "high", ADMIN.name]);
          // A player who is not staff cannot hold a job: the plugin's message, nothing changed.
          await staff.fill("#job-set-assignee", "Alice");
          await staff.click("button:has-text('Save changes')");
          await staff.waitForSelector("[role=alert]");
          assertEquals(
            (await api(b, "GET", `/api/v1/jobs/${job.body.number}`, undefined, admin)).body
              .assigneeName,
            ADMIN.name,
          );
          await staff.reload();
          await heading(staff, /My exit is broken/);
          await staff.fill("#job-comment", "Builder to check the exit's link.");
          await staff.check("#job-staff-only");
          await staff.click("button:has-text('Comment')");
          await staff.waitForSelector("li.staff-note:has-text('Builder to check')");
          await staff.fill("#job-comment", "We are looking at it.");
          await staff.click("button:has-text('Comment')");
          await staff.waitForSelector("li:has-text('We are looking at it.')");
          await checkPage(staff, "job-staff");
          // The submitter sees the public comment only, and no staff form.
          const player = await as(browser, b, "Alice", "alice-password");
          await player.goto(b + `/jobs/${job.body.number}`);
          await heading(player, /My exit is broken/);
          await player.waitForSelector("li:has-text('We are looking at it.')");
          assertEquals(await player.locator("text=Builder to check").count(), 0);
          assertEquals(await player.locator("#job-set-status, #job-staff-only").count(), 0);
          await checkPage(player, "job-player");
          await player.context().close();
        },
      );
      assertEquals(errors.filter((e) => !/Failed to load resource/.test(e)), []);
    } finally {
      await browser.close().catch(() => {});
      await srv.stop();
    }
  },
});
