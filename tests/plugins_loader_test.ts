/**
 * Black-box tests of the plugin loader: broken plugins next to good ones never stop
 * the engine, and `@reload/plugin` swaps a plugin's code in place with nothing stale.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, ROOT } from "./harness.ts";
import { isType, startPluginWorld } from "./plugins_world.ts";

/** The plugin SDK as an absolute URL, for plugins written outside the repository. */
const SDK = pathToFileURL(join(ROOT, "src/plugins/mod.ts")).href;

const manifest = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name,
    version: "1.0.0",
    description: `${name} test plugin`,
    ursamu: ">=1.0.0",
    ...extra,
  });

async function plugin(dir: string, folder: string, files: Record<string, string>) {
  await Deno.mkdir(join(dir, folder), { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    await Deno.writeTextFile(join(dir, folder, f), text);
  }
}

/** A plugin whose routes.ts decides the route prefix, reply and command. */
function greeterRoutes(prefix: string, reply: string, command: string) {
  return `

export const PREFIX = "${prefix}";
export const REPLY = "${reply}";
export const COMMAND = "${command}";
export const handler = () => Response.json({ reply: REPLY });
`;
}
const GREETER_MOD = `
import type { PluginContext } from "${SDK}";
import { COMMAND, handler, PREFIX, REPLY } from "./routes.ts";
export default {
  name: "greeter",
  version: "1.0.0",
  init(ctx: PluginContext) {
    ctx.http(PREFIX).get("/", handler);
    ctx.commands.add({ name: COMMAND, help: "greets", exec(u) { u.send("greeting " + REPLY); } });
    ctx.help.add({ name: "greeter-topic", content: "Greeter " + REPLY });
    ctx.hooks.bus("gameHooks").on("scene:clear", () => {});
    return true;
  },
  remove() {},
};
`;

Deno.test("plugin loader: broken plugins are reported and skipped; good ones work", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-plugins-" });
  for (const real of ["notes", "help", "channels"]) {
    await Deno.symlink(join(ROOT, "plugins", real), join(dir, real));
  }
  await plugin(dir, "syntaxerr", {
    "ursamu.plugin.json": manifest("syntaxerr"),
    "mod.ts": "export default { name: 'syntaxerr', init( {",
  });
  await plugin(dir, "throwinit", {
    "ursamu.plugin.json": manifest("throwinit"),
    "mod.ts": `export default { name: "throwinit", init(ctx) {
      ctx.routes.add("throwinit", () => new Response("stale"));
      ctx.commands.add({ name: "+throwinit", exec(u) { u.send("stale"); } });
      throw new Error("init exploded");
    } };`,
  });
  await plugin(dir, "falseinit", {
    "ursamu.plugin.json": manifest("falseinit"),
    "mod.ts": `export default { name: "falseinit", init() { return false; } };`,
  });
  await plugin(dir, "badmanifest", { "ursamu.plugin.json": "{ not json", "mod.ts": "" });
  await plugin(dir, "nomain", { "ursamu.plugin.json": manifest("nomain", { main: "missing.ts" }) });
  await plugin(dir, "future", {
    "ursamu.plugin.json": manifest("future", { ursamu: ">=99.0.0" }),
    "mod.ts": `export default { name: "future", init() { return true; } };`,
  });
  await plugin(dir, "sleepy", {
    "ursamu.plugin.json": manifest("sleepy"),
    "mod.ts": `export default { name: "sleepy", init(ctx) {
      ctx.routes.add("sleepy", () => new Response("awake"));
      return true;
    } };`,
  });
  // Loads fine, then fails where nobody awaits it: a stray rejection and a throwing timer.
  await plugin(dir, "stray", {
    "ursamu.plugin.json": manifest("stray"),
    "mod.ts": `export default { name: "stray", init(ctx) {
      ctx.routes.add("stray", (req) => {
        const path = new URL(req.url).pathname;
        if (path.endsWith("/none")) return undefined;
        if (path.endsWith("/bug")) return null.nope;
        setTimeout(() => { Promise.reject(new Error("stray rejection")); }, 0);
        setTimeout(() => { throw new Error("stray throw"); }, 0);
        return new Response("ok");
      });
      return true;
    } };`,
  });
  const w = await startPluginWorld(["Alice"], {
    env: { URSAMU_SERVER_PLUGINSDIR: dir, URSAMU_PLUGINS_SLEEPY_ENABLED: "false" },
  });
  try {
    const base = w.srv.base;
    const out = w.srv.output();
    assertMatch(out, /plugins: notes: loaded/);
    assertMatch(out, /plugins: syntaxerr: not loaded/);
    assertMatch(out, /plugins: throwinit: not loaded: init\(\) failed: init exploded/);
    assertMatch(out, /plugins: falseinit: not loaded: init\(\) returned false/);
    assertMatch(out, /plugins: badmanifest: not loaded: .*not valid JSON/);
    assertMatch(out, /plugins: nomain: not loaded: entry module 'missing.ts' not found/);
    assertMatch(out, /plugins: future: not loaded: needs engine >=99.0.0/);
    assertMatch(out, /plugins: sleepy: disabled in configuration/);

    // A plugin's stray failures are logged; the engine keeps serving.
    assertEquals((await api(base, "GET", "/api/v1/stray")).status, 200);
    await w.srv.waitFor(/unhandled promise rejection \(kept running\):.*stray rejection/);
    await w.srv.waitFor(/uncaught exception \(kept running\):.*stray throw/);
    assertEquals((await api(base, "GET", "/health")).status, 200);
    // A handler that throws or returns no Response: a plain 500, logged under the plugin's name.
    for (const sub of ["bug", "none"]) {
      const r = await api(base, "GET", `/api/v1/stray/${sub}`);
      assertEquals([r.status, r.body], [500, { error: "Internal server error" }], sub);
    }
    await w.srv.waitFor(/plugin stray: GET \/api\/v1\/stray\/bug failed/);
    await w.srv.waitFor(
      /plugin stray: GET \/api\/v1\/stray\/none failed: Error: the handler returned no Response/,
    );

    // The good plugins serve; the broken ones left nothing behind.
    assertEquals(
      (await api(base, "POST", "/api/v1/notes", { text: "still here" }, w.tokens.Alice)).status,
      201,
    );
    assertEquals((await api(base, "GET", "/api/v1/channels")).status, 200);
    assertEquals((await api(base, "GET", "/api/v1/throwinit")).status, 404);
    assertEquals((await api(base, "GET", "/api/v1/sleepy")).status, 404);
    const alice = await w.login("Alice");
    await alice.cmd("+throwinit", /Huh\?/);

    // @reload/plugin with no name lists every plugin with its status.
    const root = await w.login("Root");
    const listed = await root.cmd("@reload/plugin", isType("plugins"));
    const by = Object.fromEntries(
      listed.data.plugins.map((
        p: { folder: string; ok: boolean; loaded: boolean },
      ) => [p.folder, p]),
    );
    for (const good of ["notes", "help", "channels"]) {
      assertEquals([by[good].ok, by[good].loaded], [true, true]);
    }
    for (const bad of ["syntaxerr", "throwinit", "falseinit", "badmanifest", "nomain", "future"]) {
      assertEquals([by[bad].ok, by[bad].loaded], [false, false], bad);
    }
    assertEquals([by.sleepy.enabled, by.sleepy.loaded], [false, false]);

    // Reloading a real (symlinked) plugin works and leaves no staging copy behind.
    const r = await root.cmd("@reload/plugin NOTES", isType("reload"));
    assertEquals(r.data.results[0].status, "ok", r.msg);
    assertEquals(
      (await api(base, "GET", "/api/v1/notes", undefined, w.tokens.Alice)).body.length,
      1,
    );
    const leftovers = [...Deno.readDirSync(join(ROOT, "plugins"))].filter((e) =>
      e.name.includes(".reload-")
    );
    assertEquals(leftovers.filter((e) => e.name.includes(`-${w.srv.child.pid}-`)), []);

    // Fixing a broken plugin and reloading it by name brings it up.
    await plugin(dir, "falseinit", {
      "mod.ts": `export default { name: "falseinit", init(ctx) {
        ctx.routes.add("falseinit", () => Response.json({ fixed: true }));
        return true;
      } };`,
    });
    const fixed = await root.cmd("@reload/plugin falseinit", isType("reload"));
    assertEquals(fixed.data.results[0].status, "ok", fixed.msg);
    assertEquals((await api(base, "GET", "/api/v1/falseinit")).body, { fixed: true });

    // Everything at once: partial, because some are still broken; the engine runs on.
    const all = await root.cmd("@reload/plugins", isType("reload"));
    assertEquals(all.data.results[0].status, "partial", all.msg);
    assertEquals((await api(base, "GET", "/health")).status, 200);
    await alice.cmd("+notes", /Your notes/);
  } finally {
    await w.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("plugin loader: @reload/plugin swaps a changed route and command, none of the old survive", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-plugins-" });
  await plugin(dir, "greeter", {
    "ursamu.plugin.json": manifest("greeter"),
    "mod.ts": GREETER_MOD,
    "routes.ts": greeterRoutes("/api/v1/greeter", "one", "+hello"),
  });
  await Deno.symlink(join(ROOT, "plugins", "help"), join(dir, "help"));
  const w = await startPluginWorld(["Alice"], { env: { URSAMU_SERVER_PLUGINSDIR: dir } });
  try {
    const base = w.srv.base;
    assertEquals((await api(base, "GET", "/api/v1/greeter")).body, { reply: "one" });
    const alice = await w.login("Alice");
    await alice.cmd("+hello", /greeting one/);
    const root = await w.login("Root");
    await alice.cmd("@reload/plugin greeter", /Permission denied/);

    // Change the helper module (not only the entry) and reload by name, any case.
    await Deno.writeTextFile(
      join(dir, "greeter", "routes.ts"),
      greeterRoutes("/api/v1/greeter2", "two", "+hi"),
    );
    const r = await root.cmd("@reload/plugin GREETER", isType("reload"));
    assertEquals(r.data.results[0].status, "ok", r.msg);
    assertEquals((await api(base, "GET", "/api/v1/greeter")).status, 404);
    assertEquals((await api(base, "GET", "/api/v1/greeter2")).body, { reply: "two" });
    await alice.cmd("+hi", /greeting two/);
    await alice.cmd("+hello", /Huh\?/);
    const topic = await api(base, "GET", "/api/v1/help/greeter-topic");
    assertEquals(topic.body.content, "Greeter two");

    // New code with a syntax error: the running version stays.
    await Deno.writeTextFile(join(dir, "greeter", "routes.ts"), "export const PREFIX = ;");
    const broken = await root.cmd("@reload/plugin greeter", isType("reload"));
    assertEquals(broken.data.results[0].status, "failed");
    assertMatch(broken.msg, /previous version is still running/);
    assertEquals((await api(base, "GET", "/api/v1/greeter2")).body, { reply: "two" });
    await alice.cmd("+hi", /greeting two/);

    // Unknown names are reported, not fatal.
    const unknown = await root.cmd("@reload/plugin nosuch", isType("reload"));
    assertMatch(unknown.msg, /no plugin named 'nosuch'/);
    assert((await api(base, "GET", "/health")).status === 200);
  } finally {
    await w.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
