import assert from "node:assert/strict";
import { ScriptManager } from "./manager.ts";
import { CommandRegistry } from "../commands/registry.ts";
import { defaultConfig } from "../config/defaults.ts";

/** A script whose alias names its version, so the registry shows which version is loaded. */
function version(alias: string): string {
  return `export const aliases = [${JSON.stringify(alias)}];
export default (u) => { u.send("hi"); };`;
}

/** Waits (bounded) until `ok` holds; false when it never did. */
async function eventually(ok: () => boolean): Promise<boolean> {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  return ok();
}

// The tests in tests/scripts_test.ts would pass with no watcher at all: the look at the folder
// every 2 seconds finds every edit too. Here that look is put off for an hour, so only the
// folder watcher's events can load the edited version.
Deno.test("scripts manager: the folder watcher alone loads an edited script", async () => {
  for (const watch of [true, false]) {
    const dir = await Deno.makeTempDir({ prefix: "ursamu-watch-" });
    await Deno.writeTextFile(`${dir}/+hi.ts`, version("+one"));
    const registry = new CommandRegistry();
    const scripts = new ScriptManager(
      {
        root: dir,
        presence: { onlinePlayers: () => [], playerCard: () => undefined },
        deliver: { toPlayers() {} },
        rescanMs: 3_600_000,
      },
      registry,
      { ...defaultConfig().scripts, dir, watch },
    );
    try {
      await scripts.start();
      assert.ok(await eventually(() => registry.get("+one") !== undefined), "the first version");
      await Deno.writeTextFile(`${dir}/+hi.ts`, version("+two"));
      if (watch) {
        assert.ok(await eventually(() => registry.get("+two") !== undefined), "the edit was seen");
        assert.equal(registry.get("+one"), undefined);
      } else {
        // Without the watcher nothing looks until a run or the hourly look: the test can tell.
        await new Promise((r) => setTimeout(r, 300));
        assert.ok(registry.get("+one") !== undefined && registry.get("+two") === undefined);
      }
    } finally {
      await scripts.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
});

// The look at the folder reads it and stats every script on the runtime's blocking pool; with a
// watcher running its events bring that look, so the timed one comes rarely (docs/scripts.md).
Deno.test("scripts manager: the timed look at the folder waits while the watcher runs", async () => {
  for (const watch of [true, false]) {
    const dir = await Deno.makeTempDir({ prefix: "ursamu-looks-" });
    await Deno.writeTextFile(`${dir}/+hi.ts`, version("+one"));
    let looks = 0;
    const scripts = new ScriptManager(
      {
        root: dir,
        presence: { onlinePlayers: () => [], playerCard: () => undefined },
        deliver: { toPlayers() {} },
        disabled: () => (looks++, []),
        rescanMs: 40,
      },
      new CommandRegistry(),
      { ...defaultConfig().scripts, dir, watch },
    );
    try {
      await scripts.start();
      const from = looks;
      await new Promise((r) => setTimeout(r, 400));
      if (watch) assert.equal(looks - from, 0, "no timed look while the watcher runs");
      else assert.ok(looks - from >= 4, `${looks - from} timed looks without a watcher`);
    } finally {
      await scripts.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("scripts manager: rescan applies scripts.disabled at once (@reload/config)", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-off-" });
  await Deno.writeTextFile(`${dir}/+hi.ts`, version("+one"));
  let off: string[] = [];
  const registry = new CommandRegistry();
  const scripts = new ScriptManager(
    {
      root: dir,
      presence: { onlinePlayers: () => [], playerCard: () => undefined },
      deliver: { toPlayers() {} },
      disabled: () => off,
      rescanMs: 3_600_000,
    },
    registry,
    { ...defaultConfig().scripts, dir },
  );
  try {
    await scripts.start();
    assert.ok(await eventually(() => registry.get("+one") !== undefined), "loaded");
    off = ["+HI"];
    await scripts.rescan();
    assert.ok(await eventually(() => registry.get("+one") === undefined), "turned off");
    off = [];
    await scripts.rescan();
    assert.ok(await eventually(() => registry.get("+one") !== undefined), "back on");
  } finally {
    await scripts.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scripts manager: rescan during a look that read the old scripts.disabled looks again", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-off-" });
  await Deno.writeTextFile(`${dir}/+hi.ts`, version("+one"));
  let off: string[] = [];
  // Run once, inside the next look's read of the setting: @reload/config changing it then.
  let reload: (() => void) | null = null;
  const registry = new CommandRegistry();
  const scripts: ScriptManager = new ScriptManager(
    {
      root: dir,
      presence: { onlinePlayers: () => [], playerCard: () => undefined },
      deliver: { toPlayers() {} },
      disabled: () => {
        const read = off;
        const r = reload;
        reload = null;
        r?.();
        return read;
      },
      rescanMs: 3_600_000,
    },
    registry,
    { ...defaultConfig().scripts, dir },
  );
  try {
    await scripts.start();
    assert.ok(await eventually(() => registry.get("+one") !== undefined), "loaded");
    let reloaded: Promise<void> | null = null;
    reload = () => {
      off = ["+hi"];
      reloaded = scripts.rescan();
    };
    await scripts.list();
    assert.ok(reloaded, "the reload came during the look");
    await reloaded;
    assert.ok(await eventually(() => registry.get("+one") === undefined), "turned off");
  } finally {
    await scripts.close();
    await Deno.remove(dir, { recursive: true });
  }
});
