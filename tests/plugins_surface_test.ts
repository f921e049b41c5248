/**
 * The plugin HTTP surface end to end with the fixture plugin `tests/fixtures/plugins/showcase`:
 * a Hono app per plugin with the caller resolved by the engine, its middleware and helpers,
 * typed errors, HEAD, the route list, web pages, and an unloaded plugin answering nothing.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, ROOT } from "./harness.ts";
import { startPluginWorld } from "./plugins_world.ts";

const SHOWCASE = join(ROOT, "tests/fixtures/plugins/showcase");

Deno.test("plugin surface: Hono sub-apps, middleware, paging, errors, HEAD, route list, web pages", async () => {
  const plugins = await Deno.makeTempDir({ prefix: "ursamu-surface-" });
  await Deno.symlink(SHOWCASE, join(plugins, "showcase"));
  await Deno.symlink(join(ROOT, "plugins", "help"), join(plugins, "help"));
  const w = await startPluginWorld(["Alice"], {
    env: { URSAMU_SERVER_PLUGINSDIR: plugins, URSAMU_GAME_NAME: "Surface Game" },
  });
  const b = w.srv.base;
  const alice = w.tokens.Alice, root = w.tokens.Root;
  try {
    // The caller is resolved by the engine, once; none for a bad token.
    assertEquals((await api(b, "GET", "/api/v1/showcase")).body, { caller: null });
    assertEquals((await api(b, "GET", "/api/v1/showcase", undefined, alice)).body, {
      caller: "Alice",
    });
    assertEquals((await api(b, "GET", "/api/v1/showcase", undefined, "junk")).body, {
      caller: null,
    });
    // Middleware: 401 without a login, 403 without the flag.
    const anon = await api(b, "GET", "/api/v1/showcase/mine");
    assertEquals([anon.status, anon.body], [401, { error: "Unauthorized" }]);
    assertEquals((await api(b, "GET", "/api/v1/showcase/staff", undefined, alice)).status, 403);
    assertEquals((await api(b, "GET", "/api/v1/showcase/staff", undefined, root)).body, {
      ok: true,
    });
    assertEquals((await api(b, "GET", "/api/v1/showcase/builder", undefined, alice)).body, {
      error: "Builders only.",
    });
    assertEquals((await api(b, "GET", "/api/v1/showcase/builder", undefined, root)).status, 200);
    // Paging: default 50, clamped at 200, bad values 400.
    assertEquals((await api(b, "GET", "/api/v1/showcase/numbers")).body.length, 50);
    assertEquals((await api(b, "GET", "/api/v1/showcase/numbers?limit=900")).body.length, 200);
    assertEquals((await api(b, "GET", "/api/v1/showcase/numbers?offset=495")).body, [
      495,
      496,
      497,
      498,
      499,
    ]);
    for (const q of ["limit=-1", "limit=x", "offset=-3"]) {
      assertEquals((await api(b, "GET", `/api/v1/showcase/numbers?${q}`)).status, 400, q);
    }
    // JSON bodies: capped, must be objects; typed errors become { error }.
    assertEquals((await api(b, "POST", "/api/v1/showcase/echo", { text: "hi" }, alice)).body, {
      text: "hi",
    });
    assertEquals((await api(b, "POST", "/api/v1/showcase/echo", { x: 1 }, alice)).body, {
      error: "text is required",
    });
    const big = await api(b, "POST", "/api/v1/showcase/echo", { text: "x".repeat(2000) }, alice);
    assertEquals(big.status, 400);
    assertMatch(big.body.error, /larger than 1024 bytes/);
    // An untyped error is a plain 500, logged under the plugin's name; unknown paths 404.
    assertEquals(await api(b, "GET", "/api/v1/showcase/bug").then((r) => r.body), {
      error: "Internal server error",
    });
    await w.srv.waitFor(/plugin showcase: GET \/api\/v1\/showcase\/bug failed: Error: fixture bug/);
    assertEquals((await api(b, "GET", "/api/v1/showcase/nope")).body, { error: "Not Found" });
    assertEquals((await api(b, "DELETE", "/api/v1/showcase/mine", undefined, alice)).status, 404);
    // The world and the engine, read through ctx.
    assertEquals((await api(b, "GET", "/api/v1/showcase/room/1")).body, { name: "Limbo" });
    assertEquals((await api(b, "GET", "/api/v1/showcase/game")).body, { name: "Surface Game" });
    // HEAD answers like GET without a body.
    const head = await fetch(`${b}/api/v1/showcase/numbers`, { method: "HEAD" });
    assertEquals(head.status, 200);
    assertEquals(await head.text(), "");
    // The route list names every route with its method and owner.
    const routes = (await api(b, "GET", "/api/v1/routes")).body as {
      method: string;
      path: string;
      owner: string;
    }[];
    const has = (method: string, path: string, owner: string) =>
      routes.some((r) => r.method === method && r.path === path && r.owner === owner);
    assert(has("POST", "/api/v1/showcase/echo", "showcase"), JSON.stringify(routes));
    assert(has("GET", "/api/v1/help/:topic{.+}", "help"));
    assert(has("POST", "/api/v1/auth/login", "core"));
    assert(has("GET", "/plugins/showcase/*", "showcase"));
    assert(!routes.some((r) => r.path.endsWith("/*") && r.owner === "core"));
    // Web pages: the folder's index, typed assets, nothing outside or of unknown type.
    const index = await fetch(`${b}/plugins/showcase/`);
    assertEquals(index.headers.get("content-type"), "text/html; charset=utf-8");
    assertEquals(index.headers.get("x-frame-options"), "DENY");
    assertMatch(await index.text(), /Showcase portal page/);
    const redirect = await fetch(`${b}/plugins/showcase`, { redirect: "manual" });
    assertEquals(redirect.status, 301);
    await redirect.body?.cancel();
    const css = await fetch(`${b}/plugins/showcase/style.css`);
    assertEquals(css.headers.get("content-type"), "text/css; charset=utf-8");
    await css.body?.cancel();
    for (
      const path of [
        "/plugins/showcase/secret.env",
        "/plugins/showcase/..%2Fmod.ts",
        "/plugins/showcase/%2e%2e/mod.ts",
        "/plugins/showcase/img",
        "/plugins/showcase/missing.png",
        "/plugins/nobody/index.html",
        "/plugins/showcase/%E0%A4%A",
      ]
    ) {
      // A miss answers like the engine's other 404s: JSON, or HTML to a browser navigating.
      const r = await fetch(b + path);
      assertEquals([r.status, await r.json()], [404, { error: "Not Found" }], path);
      const page = await fetch(b + path, {
        headers: { accept: "text/html,application/xhtml+xml" },
      });
      assertEquals(page.status, 404, path);
      assertMatch(page.headers.get("content-type") ?? "", /^text\/html/, path);
      assertMatch(await page.text(), /Not found/, path);
    }
  } finally {
    await w.stop();
    await Deno.remove(plugins, { recursive: true });
  }
});
