/**
 * A feature whole in its plugin (issue 37), end to end with the fixtures
 * `tests/fixtures/plugins/guestbook` (its own bus, described routes and portal section) and
 * `crier` (a listener on that bus in another plugin): the routes check what the API document
 * says they take, the bus carries a signature to the other plugin, and the portal page, served
 * from the plugin's folder and reached from the menu, signs in Chromium with the plugin's limit.
 */
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { join } from "node:path";
import { ROOT } from "./harness.ts";
import { startTestGame, type TestGame } from "../src/plugins/testing.ts";
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

// deno-lint-ignore no-explicit-any
type Doc = any;

const FIXTURES = join(ROOT, "tests", "fixtures", "plugins");
const PLUGINS = [join(FIXTURES, "guestbook"), join(FIXTURES, "crier")];
/** The guestbook's limit (its routes.ts), which the document and the page must both show. */
const MAX_TEXT = 140;

async function game(): Promise<TestGame> {
  return await startTestGame({ plugins: PLUGINS });
}

Deno.test("feature plugin: described routes check what the document says; the bus reaches another plugin", async () => {
  const g = await game();
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    await g.connect(bob);
    // The described routes check the body with the schema the document shows.
    const refusals: [unknown, string][] = [
      [{}, "text is required"],
      [{ text: 5 }, "text must be a string"],
      [{ text: "x".repeat(MAX_TEXT + 1) }, `text must be ${MAX_TEXT} characters or fewer`],
      [{ text: "hi", mood: "grim" }, "mood must be one of glad, wistful, rowdy"],
    ];
    for (const [body, error] of refusals) {
      const r = await g.request("POST", "/api/v1/guestbook", { as: ann, body });
      assertEquals([r.status, r.body], [400, { error }], JSON.stringify(body));
    }
    assertEquals(
      (await g.request("POST", "/api/v1/guestbook", { body: { text: "hi" } })).status,
      401,
    );
    const made = await g.request("POST", "/api/v1/guestbook", {
      as: ann,
      body: { text: " Fair\nwinds ", mood: " ROWDY " },
    });
    assertEquals(made.status, 201, JSON.stringify(made.body));
    assertEquals([made.body.text, made.body.mood, made.body.name], ["Fair winds", "rowdy", "Ann"]);
    // The other plugin heard it on the guestbook's bus, and told everyone.
    assertMatch((await g.received()).text("Bob"), /\[Crier\] Ann signed the guestbook: Fair winds/);
    const list = await g.request("GET", "/api/v1/guestbook?limit=1");
    assertEquals(list.body.map((e: { text: string }) => e.text), ["Fair winds"]);
    assertEquals((await g.request("GET", "/api/v1/guestbook?limit=x")).status, 400);

    // The API document is built from the same descriptions.
    const doc: Doc = (await g.request("GET", "/api/v1/openapi.json")).body;
    assertEquals(doc["x-unmatched-docs"], undefined);
    const sign = doc.paths["/api/v1/guestbook"].post;
    assertEquals(sign["x-owner"], "guestbook");
    assertEquals(sign["x-undocumented"], undefined);
    const body = sign.requestBody.content["application/json"].schema;
    assertEquals(body.properties.text.maxLength, MAX_TEXT);
    assertEquals(body.properties.mood.enum, ["glad", "wistful", "rowdy"]);
    assertEquals(body.required, ["text"]);
    const listed = doc.paths["/api/v1/guestbook"].get;
    assertEquals(listed.parameters.map((p: { name: string }) => p.name), ["limit", "offset"]);
    assertEquals(listed.responses["200"].content["application/json"].schema.type, "array");

    // The bus is the guestbook's: declared by it, heard by the crier (loaded first).
    const buses = g.engine.plugins.buses();
    assertEquals(buses.find((b) => b.name === "guestbookHooks"), {
      name: "guestbookHooks",
      owner: "guestbook",
      events: ["guestbook:signed"],
    });

    // Its portal section, with the plugin's limit, is in the menu and answers deep links.
    const portal = (await g.request("GET", "/api/v1/portal")).body;
    assertEquals(portal.sections, [{
      owner: "guestbook",
      order: 70,
      module: "/plugins/guestbook/guestbook.js",
      styles: "/plugins/guestbook/guestbook.css",
      settings: { maxText: MAX_TEXT, moods: ["glad", "wistful", "rowdy"] },
      path: "guestbook",
      label: "Guestbook",
      visitors: false,
      unread: null,
    }]);
    const deep = await fetch(`${g.base}/guestbook`, { headers: { accept: "text/html" } });
    assertEquals(deep.status, 200);
    await deep.body?.cancel();

    // Unloaded, its routes, page, section and bus claim go; reloaded, they come back.
    await g.engine.plugins.unload("guestbook");
    assertEquals((await g.request("GET", "/api/v1/guestbook")).status, 404);
    assertEquals((await g.request("GET", "/api/v1/portal")).body.sections, []);
    const gone = await fetch(`${g.base}/guestbook`, { headers: { accept: "text/html" } });
    assertEquals(gone.status, 404);
    await gone.body?.cancel();
    assertEquals(g.engine.plugins.buses().find((b) => b.name === "guestbookHooks")?.owner, null);
    assert((await g.engine.plugins.reload("guestbook")).ok);
    await g.request("POST", "/api/v1/guestbook", { as: ann, body: { text: "back again" } });
    assertMatch((await g.received()).text("Bob"), /Ann signed the guestbook: back again/);
  } finally {
    await g.close();
  }
});

Deno.test({
  name: `feature plugin in Chromium: its menu entry, its page, signing with its limit${SKIP_NOTE}`,
  ignore: !HAS_CHROMIUM,
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const g = await game();
    const browser = await launch();
    try {
      const ann = await g.player("Ann"), bob = await g.player("Bob");
      await g.connect(bob);
      const page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
      const errors = watchErrors(page);
      await page.goto(`${g.base}/login`);
      await page.fill("#f-name", ann.name);
      await page.fill("#f-password", "test-kit-password");
      await page.click("#page button[type=submit]");
      await page.waitForSelector("#output .msg");
      // The menu entry comes from the plugin's declaration, after the core's Play.
      await page.click('#nav a[href="/guestbook"]');
      await page.waitForSelector("#page h1:text-is('Guestbook')");
      assertEquals(
        await page.$$eval("#nav a", (as) => as.map((a) => a.textContent)),
        ["Play", "Guestbook", "Characters", "Profile", "Settings"],
      );
      assertEquals(await page.getAttribute("#gb-text", "maxlength"), String(MAX_TEXT));
      assertEquals(await page.title(), "Guestbook · UrsaMU");
      await page.fill("#gb-text", "Signed <b>in</b> the browser");
      await page.selectOption("#gb-mood", "wistful");
      await page.click("#page button:has-text('Sign')");
      await page.waitForSelector(".guestbook-entry:has-text('the browser')");
      assertEquals(await page.locator("#page b").count(), 0, "an entry is text, never markup");
      // The page's own style sheet was loaded from the plugin's folder.
      assertEquals(
        await page.$$eval(
          "link[rel=stylesheet]",
          (ls) => ls.map((l) => l.getAttribute("href")).filter((h) => h?.includes("guestbook")),
        ),
        ["/plugins/guestbook/guestbook.css"],
      );
      assertMatch((await g.received()).text("Bob"), /Ann signed the guestbook: Signed <b>in<\/b>/);
      const stored = (await g.request("GET", "/api/v1/guestbook")).body;
      assertEquals(stored.at(-1).mood, "wistful");
      assertEquals(await axeSerious(page), [], "axe on the plugin's page");
      await screenshot(page, "guestbook-desktop");
      await page.setViewportSize(PHONE);
      assertEquals(await axeSerious(page), [], "axe on the plugin's page, phone size");
      await screenshot(page, "guestbook-phone");
      // A deep link to the section loads the page directly.
      await page.goto(`${g.base}/guestbook`);
      await page.waitForSelector(".guestbook-entry");
      assertEquals(errors, [], "no page errors, no CSP refusals");
    } finally {
      await browser.close().catch(() => {});
      await g.close();
    }
  },
});
