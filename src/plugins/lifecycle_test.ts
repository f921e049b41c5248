import { PlayerRates } from "./rates.ts";
import assert from "node:assert/strict";
import { hostParts } from "./_test_host.ts";
import { join } from "node:path";
import { createEngine } from "../engine.ts";
import { GmcpMap } from "../hub/gmcp_map.ts";
import { PluginApps } from "../http/plugin_apps.ts";
import type { PluginContext } from "./context.ts";
import { HelpRegistry } from "./help_registry.ts";
import { PluginLifecycle } from "./lifecycle.ts";
import type { PluginModule } from "./loader.ts";
import type { PluginManifest } from "./manifest.ts";
import { newStatus, type PluginRecord } from "./records.ts";

const MANIFEST: PluginManifest = {
  name: "Demo",
  version: "1.0.0",
  description: "demo plugin",
  ursamu: "*",
  author: "",
  license: "",
  main: "mod.ts",
};

/** A lifecycle on a real engine's services, with registries of its own to look into. */
async function setup(timeoutMs = 2000) {
  const root = await Deno.makeTempDir({ prefix: "ursamu-lifecycle-" });
  const engine = await createEngine({
    root,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "unit-test-secret" },
    overrides: { plugins: {} },
  });
  const apps = new PluginApps();
  const help = new HelpRegistry();
  const lifecycle = new PluginLifecycle({
    host: {
      ...hostParts(engine, help),
      apps,
      commands: engine.commands,
      hooks: engine.services.hooks,
      help,
      timers: engine.timers,
      gmcp: new GmcpMap(),
      rates: new PlayerRates(),
      api: () => undefined,
      secrets: { addSecrets() {} },
    },
    timeoutMs,
    pluginsDir: root,
  });
  const dir = join(root, "demo");
  await Deno.mkdir(dir);
  const record: PluginRecord = {
    key: "demo",
    folder: { folder: "demo", dir },
    generation: 0,
    status: newStatus("Demo", "demo"),
  };
  return {
    lifecycle,
    apps,
    help,
    record,
    dir,
    async close() {
      await engine.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** A module whose init registers a route and a help topic, then does `then`. */
function demo(then: () => unknown, remove?: () => void): PluginModule & { removed: number } {
  const m = {
    name: "demo",
    removed: 0,
    init(ctx: PluginContext) {
      ctx.http("/api/v1/demo").get("/", (c) => c.json({ ok: true }));
      ctx.help.add({ name: "demo", content: "hi" });
      return then() as boolean | void | Promise<boolean | void>;
    },
    remove() {
      m.removed++;
      remove?.();
    },
  };
  return m;
}

Deno.test("lifecycle: start runs init in a fresh context, with the help folder; stop releases", async () => {
  const t = await setup();
  try {
    await Deno.mkdir(join(t.dir, "help"));
    const m = demo(() => true);
    assert.equal(await t.lifecycle.start(t.record, m, MANIFEST, 3), null);
    assert.equal(t.record.loaded?.generation, 3);
    assert.equal(t.record.loaded?.module, m);
    assert.deepEqual(
      [t.record.status.loaded, t.record.status.version, t.record.status.description],
      [true, "1.0.0", "demo plugin"],
    );
    assert.equal(t.apps.list().length, 1);
    assert.deepEqual(t.help.dirs().map((d) => d.dir), [join(t.dir, "help")]);
    assert.equal(t.help.topics().length, 1);
    assert.equal(await t.lifecycle.stop(t.record), null);
    assert.equal(m.removed, 1);
    assert.equal(t.record.loaded, undefined);
    assert.equal(t.record.status.loaded, false);
    assert.deepEqual([t.apps.list().length, t.help.dirs().length, t.help.topics().length], [
      0,
      0,
      0,
    ]);
    assert.equal(await t.lifecycle.stop(t.record), null, "stopping twice is harmless");
  } finally {
    await t.close();
  }
});

Deno.test("lifecycle: a failing or refusing init is cleaned up and named", async () => {
  const t = await setup();
  try {
    const throws = demo(() => {
      throw new Error("no database");
    });
    assert.equal(
      await t.lifecycle.start(t.record, throws, MANIFEST, 0),
      "init() failed: no database",
    );
    assert.equal(throws.removed, 1);
    const refuses = demo(() => false);
    assert.equal(await t.lifecycle.start(t.record, refuses, MANIFEST, 0), "init() returned false");
    assert.equal(refuses.removed, 1);
    assert.equal(t.record.loaded, undefined);
    assert.equal(t.apps.list().length, 0);
    assert.equal(t.help.topics().length, 0);
  } finally {
    await t.close();
  }
});

Deno.test("lifecycle: a hanging init times out; a throwing remove still releases", async () => {
  const t = await setup(50);
  try {
    const hangs = demo(() => new Promise(() => {}));
    assert.equal(
      await t.lifecycle.start(t.record, hangs, MANIFEST, 0),
      "init() failed: init() of Demo took longer than 50 ms",
    );
    assert.equal(t.apps.list().length, 0);
    const m = demo(() => true, () => {
      throw new Error("oops");
    });
    assert.equal(await t.lifecycle.start(t.record, m, MANIFEST, 0), null);
    assert.equal(await t.lifecycle.stop(t.record), "remove() failed: oops");
    assert.equal(t.apps.list().length, 0);
    assert.equal(t.record.status.loaded, false);
  } finally {
    await t.close();
  }
});
