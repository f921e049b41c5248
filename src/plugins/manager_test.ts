import assert from "node:assert/strict";
import { hostParts } from "./_test_host.ts";
import { join } from "node:path";
import { createEngine } from "../engine.ts";
import { PluginApps } from "../http/plugin_apps.ts";
import { dispatchToPlugin } from "./http.ts";
import type { CommandSpec } from "../commands/types.ts";
import { createHooks } from "./hooks.ts";
import { HelpRegistry } from "./help_registry.ts";
import { PlayerRates } from "./rates.ts";
import { PluginManager } from "./manager.ts";
import { Scheduler } from "../timers/scheduler.ts";
import { GmcpMap } from "../hub/gmcp_map.ts";

/** A stand-in command registry: names are unique, owners can be released. */
class FakeCommands {
  readonly map = new Map<string, { spec: CommandSpec; owner: string }>();
  add(spec: CommandSpec, owner: string) {
    if (this.map.has(spec.name)) throw new Error(`command ${spec.name} exists`);
    this.map.set(spec.name, { spec, owner });
  }
  removeOwner(owner: string) {
    for (const [k, v] of this.map) if (v.owner === owner) this.map.delete(k);
  }
  replaceOwner(owner: string, specs: readonly { spec: CommandSpec }[]) {
    this.removeOwner(owner);
    for (const { spec } of specs) this.add(spec, owner);
  }
}

const MANIFEST = (name: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    name,
    version: "1.0.0",
    description: `${name} plugin`,
    ursamu: ">=1.0.0",
    ...extra,
  });

/** A plugin whose route answers with the text exported by its own routes.ts. */
function goodModule(name: string) {
  return `
import { reply } from "./routes.ts";
export default {
  name: "${name}",
  version: "1.0.0",
  async init(ctx) {
    ctx.routes.add("${name}", () => new Response(reply));
    ctx.commands.add({ name: "+${name}", exec() {} });
    ctx.help.add({ name: "${name}-topic", content: "hi" });
    ctx.hooks.bus("kitchen").on("kettle:off", (p) => { globalThis.__seen?.push("${name}:" + p.status); });
    ctx.provide({ hello: () => "${name} says " + reply });
    return true;
  },
  remove() {},
};`;
}

async function writePlugin(dir: string, folder: string, files: Record<string, string>) {
  await Deno.mkdir(join(dir, folder), { recursive: true });
  for (const [f, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, folder, f, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, folder, f), text);
  }
}

async function setup(overrides: Record<string, unknown> = {}, timeoutMs = 2000) {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-plugins-" });
  // A real engine's services (its own plugin folder is empty); the manager under test gets
  // its own registries so the test sees exactly what plugins registered.
  const engine = await createEngine({
    root: dir,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "unit-test-secret" },
    overrides: { plugins: {}, ...overrides },
  });
  const { services } = engine;
  const kv = services.kv;
  const routes = new PluginApps();
  const commands = new FakeCommands();
  const hooks = createHooks(() => {});
  const help = new HelpRegistry();
  const logs: string[] = [];
  const timers = new Scheduler(kv);
  const gmcp = new GmcpMap();
  const manager = new PluginManager(
    {
      ...hostParts(engine, help),
      apps: routes,
      commands,
      hooks,
      help,
      timers,
      gmcp,
      secrets: { addSecrets() {} },
      rates: new PlayerRates(),
    },
    {
      dir,
      engineVersion: "1.0.0",
      timeoutMs,
      log: { info: (m) => logs.push(m), error: (m) => logs.push(m) },
    },
  );
  const call = async (path: string) => {
    const e = routes.match(path);
    if (!e) return null;
    const res = await dispatchToPlugin(e.app, new Request("http://x" + path), {
      player: null,
      ip: "127.0.0.1",
    });
    return await res.text();
  };
  return {
    dir,
    manager,
    routes,
    commands,
    hooks,
    help,
    logs,
    call,
    async close() {
      await manager.closeAll();
      await engine.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("manager: good plugins load, broken ones are reported and skipped", async () => {
  const t = await setup({ "plugins.off": { enabled: false } });
  try {
    await writePlugin(t.dir, "good", {
      "ursamu.plugin.json": MANIFEST("good"),
      "mod.ts": goodModule("good"),
      "routes.ts": `export const reply = "v1";`,
      "help/good-file.md": "# file help",
    });
    await writePlugin(t.dir, "badjson", { "ursamu.plugin.json": "{ nope", "mod.ts": "" });
    await writePlugin(t.dir, "nomanifest", { "mod.ts": goodModule("nomanifest") });
    await writePlugin(t.dir, "nomain", { "ursamu.plugin.json": MANIFEST("nomain") });
    await writePlugin(t.dir, "syntax", {
      "ursamu.plugin.json": MANIFEST("syntax"),
      "mod.ts": "export default { name: 'syntax', init( {",
    });
    await writePlugin(t.dir, "throws", {
      "ursamu.plugin.json": MANIFEST("throws"),
      "mod.ts": `export default { name: "throws", init(ctx) {
        ctx.routes.add("throws", () => new Response("stale"));
        throw new Error("kaboom");
      } };`,
    });
    await writePlugin(t.dir, "falsy", {
      "ursamu.plugin.json": MANIFEST("falsy"),
      "mod.ts": `export default { name: "falsy", init(ctx) {
        ctx.commands.add({ name: "+falsy", exec() {} });
        return false;
      } };`,
    });
    await writePlugin(t.dir, "future", {
      "ursamu.plugin.json": MANIFEST("future", { ursamu: ">=2.0.0" }),
      "mod.ts": goodModule("future"),
      "routes.ts": `export const reply = "x";`,
    });
    await writePlugin(t.dir, "off", {
      "ursamu.plugin.json": MANIFEST("off"),
      "mod.ts": goodModule("off"),
      "routes.ts": `export const reply = "x";`,
    });
    await writePlugin(t.dir, "misnamed", {
      "ursamu.plugin.json": MANIFEST("misnamed"),
      "mod.ts": `export default { name: "other", init() { return true; } };`,
    });
    await writePlugin(t.dir, "versioned", {
      "ursamu.plugin.json": MANIFEST("versioned"),
      "mod.ts": `export default { name: "versioned", version: "0.9.0", init() { return true; } };`,
    });
    await writePlugin(t.dir, "core", {
      "ursamu.plugin.json": MANIFEST("core"),
      "mod.ts": `export default { name: "core", init() { return true; } };`,
    });
    await Deno.mkdir(join(t.dir, ".hidden"));

    const list = await t.manager.loadAll();
    const by = Object.fromEntries(list.map((s) => [s.folder, s]));
    assert.equal(by.good.ok, true);
    assert.equal(by.good.loaded, true);
    assert.match(by.badjson.message, /not valid JSON/);
    assert.match(by.nomanifest.message, /no ursamu.plugin.json/);
    assert.match(by.nomain.message, /entry module 'mod.ts' not found/);
    assert.equal(by.syntax.ok, false);
    // A syntax error says where it is, relative to the plugins folder.
    assert.match(by.syntax.message, /\(at syntax\/mod\.ts:1:\d+\)/);
    assert.match(by.throws.message, /init\(\) failed: kaboom/);
    assert.match(by.falsy.message, /init\(\) returned false/);
    assert.match(by.future.message, /needs engine >=2.0.0/);
    assert.equal(by.off.enabled, false);
    assert.equal(by.off.loaded, false);
    assert.match(by.misnamed.message, /named 'other'/);
    assert.match(by.versioned.message, /version '0.9.0' differs from the manifest's '1.0.0'/);
    assert.match(by.core.message, /reserved/);
    assert.equal(by[".hidden"], undefined);
    for (const s of list) if (s.folder !== "good") assert.equal(s.loaded, false, s.folder);

    // Only the good plugin's registrations exist; the failed ones were released.
    assert.equal(await t.call("/api/v1/good"), "v1");
    assert.equal(t.routes.match("/api/v1/throws"), undefined);
    assert.deepEqual([...t.commands.map.keys()], ["+good"]);
    assert.deepEqual(t.help.topics().map((x) => x.name), ["good-topic"]);
    assert.equal(t.help.dirs().length, 1);
    assert.equal(t.hooks.buses.bus("kitchen").count("kettle:off"), 1);
    assert.equal(
      (t.manager.api("GOOD") as { hello(): string }).hello(),
      "good says v1",
    );
  } finally {
    await t.close();
  }
});

Deno.test("manager: reload swaps code in place and leaves nothing stale", async () => {
  const t = await setup();
  try {
    await writePlugin(t.dir, "swap", {
      "ursamu.plugin.json": MANIFEST("swap"),
      "mod.ts": goodModule("swap"),
      "routes.ts": `export const reply = "old";`,
    });
    await t.manager.loadAll();
    assert.equal(await t.call("/api/v1/swap"), "old");

    // A changed helper module (not just the entry) must be picked up.
    await Deno.writeTextFile(join(t.dir, "swap", "routes.ts"), `export const reply = "new";`);
    const s = await t.manager.reload("SWAP");
    assert.equal(s.ok, true, s.message);
    assert.match(s.message, /reloaded/);
    assert.equal(await t.call("/api/v1/swap"), "new");
    assert.equal(t.routes.list().length, 1);
    assert.equal(t.commands.map.size, 1);
    assert.equal(t.help.topics().length, 1);
    assert.equal(t.hooks.buses.bus("kitchen").count("kettle:off"), 1);

    // The staged copy is gone.
    const left = [...Deno.readDirSync(t.dir)].map((e) => e.name);
    assert.deepEqual(left, ["swap"]);

    // A syntax error in the new code leaves the running version alone.
    await Deno.writeTextFile(join(t.dir, "swap", "routes.ts"), `export const reply = ;`);
    const bad = await t.manager.reload("swap");
    assert.equal(bad.ok, false);
    assert.match(bad.message, /previous version is still running/);
    // The location names the real file, not the reload's staging copy.
    assert.match(bad.message, /\(at swap\/routes\.ts:1:\d+\)/);
    assert.doesNotMatch(bad.message, /reload-/);
    assert.equal(await t.call("/api/v1/swap"), "new");

    // An init that fails brings the previous version back.
    await Deno.writeTextFile(
      join(t.dir, "swap", "mod.ts"),
      `export default { name: "swap", init(ctx) { ctx.routes.add("swap", () => new Response("half")); throw new Error("nope"); } };`,
    );
    const failed = await t.manager.reload("swap");
    assert.equal(failed.ok, false);
    assert.match(failed.message, /init\(\) failed: nope; previous version 1.0.0 restored/);
    assert.equal(await t.call("/api/v1/swap"), "new");
    assert.equal(t.routes.list().length, 1);
    assert.equal(t.manager.list()[0].loaded, true);

    assert.match((await t.manager.reload("nothere")).message, /no plugin named 'nothere'/);
  } finally {
    await t.close();
  }
});

Deno.test("manager: unload releases everything even when remove() throws", async () => {
  const t = await setup();
  try {
    await writePlugin(t.dir, "leaky", {
      "ursamu.plugin.json": MANIFEST("leaky"),
      "mod.ts": `let n = 0; export default { name: "leaky",
        init(ctx) {
          ctx.routes.add("/api/v1/leaky", () => new Response("x"));
          ctx.commands.add({ name: "+leaky", exec() {} });
          ctx.help.add({ name: "leaky", content: "x" });
          const own = ctx.hooks.declare("leaks", { "leak:found": "a leak is found" });
          own.on("leak:found", () => {});
          globalThis.__leakyBus = own;
          ctx.hooks.bus("kitchen").on("kettle:on", () => {});
          ctx.hooks.worldHooks.on("player:removed", () => {});
          // World events are the engine's to emit.
          if ("emit" in ctx.hooks.worldHooks) throw new Error("plugins must not emit world events");
          ctx.onRemove(() => { globalThis.__leakyCleaned = ++n; });
          return true;
        },
        remove() { throw new Error("forgot everything"); } };`,
    });
    await t.manager.loadAll();
    let heard = 0;
    t.hooks.buses.bus("leaks").on("leak:found", () => void heard++);
    const late = (globalThis as { __leakyBus?: { emit(e: string, p: object): Promise<void> } })
      .__leakyBus!;
    await late.emit("leak:found", {});
    assert.equal(heard, 1);
    const s = await t.manager.unload("Leaky");
    await late.emit("leak:found", {});
    assert.equal(heard, 1, "an unloaded plugin's late emit reaches nobody");
    assert.equal(s.loaded, false);
    assert.match(
      s.message,
      /remove\(\) failed: forgot everything; its registrations were released/,
    );
    assert.equal(t.routes.list().length, 0);
    assert.equal(t.commands.map.size, 0);
    assert.equal(t.help.topics().length, 0);
    assert.equal(t.hooks.buses.bus("leaks").count("leak:found"), 1, "only the test's own handler");
    assert.equal(t.hooks.buses.bus("kitchen").count("kettle:on"), 0);
    assert.deepEqual(t.hooks.buses.list().find((b) => b.name === "leaks")?.owner, null);
    assert.equal(t.hooks.worldHooks.count("player:removed"), 0);
    assert.equal((globalThis as { __leakyCleaned?: number }).__leakyCleaned, 1);
    // Reload of an unloaded plugin loads it again.
    const again = await t.manager.reload("leaky");
    assert.equal(again.loaded, true, again.message);
    assert.equal(t.routes.list().length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("manager: a hanging init times out and late registrations are refused", async () => {
  const t = await setup({}, 200);
  try {
    await writePlugin(t.dir, "slow", {
      "ursamu.plugin.json": MANIFEST("slow"),
      "mod.ts": `export default { name: "slow", async init(ctx) {
        await new Promise((r) => setTimeout(r, 400));
        try { ctx.routes.add("slow", () => new Response("late")); } catch (e) { globalThis.__slowRefused = e.message; }
        return true;
      } };`,
    });
    const [s] = await t.manager.loadAll();
    assert.equal(s.ok, false);
    assert.match(s.message, /took longer than 200 ms/);
    await new Promise((r) => setTimeout(r, 350));
    assert.equal(t.routes.list().length, 0);
    assert.match(String((globalThis as { __slowRefused?: string }).__slowRefused), /unloaded/);
  } finally {
    await t.close();
  }
});

Deno.test("manager: reloadAll picks up new folders and drops removed ones", async () => {
  const t = await setup();
  try {
    await writePlugin(t.dir, "one", {
      "ursamu.plugin.json": MANIFEST("one"),
      "mod.ts": goodModule("one"),
      "routes.ts": `export const reply = "1";`,
    });
    await t.manager.loadAll();
    await writePlugin(t.dir, "two", {
      "ursamu.plugin.json": MANIFEST("two"),
      "mod.ts": goodModule("two"),
      "routes.ts": `export const reply = "2";`,
    });
    let list = await t.manager.reloadAll();
    assert.deepEqual(list.map((s) => [s.name, s.loaded]), [["one", true], ["two", true]]);
    await Deno.remove(join(t.dir, "one"), { recursive: true });
    list = await t.manager.reloadAll();
    assert.deepEqual(list.map((s) => s.name), ["two"]);
    assert.equal(t.routes.match("/api/v1/one"), undefined);
    assert.equal(await t.call("/api/v1/two"), "2");
  } finally {
    await t.close();
  }
});
