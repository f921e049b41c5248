import assert from "node:assert/strict";
import { loadFolder } from "./load.ts";
import { loadFixture, manifest, moduleText, writePlugin } from "./_load_fixture.ts";

Deno.test("load: a good folder starts once, at generation 0, and says so", async () => {
  const t = await loadFixture();
  try {
    await writePlugin(t.dir, "notes", {
      "ursamu.plugin.json": manifest("Notes"),
      "mod.ts": moduleText("notes", "v1"),
    });
    const s = await loadFolder(t.folder("notes"), t.deps);
    assert.equal(s.ok, true);
    assert.equal(s.loaded, true);
    assert.equal(s.message, "loaded 1.0.0");
    assert.equal(s.description, "Notes plugin");
    assert.deepEqual(t.life.calls, ["start Notes 1.0.0 gen 0 api v1"]);
    assert.equal(t.records.get("notes")?.folder.folder, "notes");
    assert.deepEqual(t.logs, ["plugins: Notes: loaded 1.0.0"]);
  } finally {
    await t.close();
  }
});

Deno.test("load: manifest problems are recorded under the folder; nothing starts", async () => {
  const t = await loadFixture();
  try {
    await writePlugin(t.dir, "empty", {});
    await writePlugin(t.dir, "core", { "ursamu.plugin.json": manifest("Core") });
    await writePlugin(t.dir, "a", {
      "ursamu.plugin.json": manifest("same"),
      "mod.ts": moduleText("same", "a"),
    });
    await writePlugin(t.dir, "b", {
      "ursamu.plugin.json": manifest("Same"),
      "mod.ts": moduleText("same", "b"),
    });
    const empty = await loadFolder(t.folder("empty"), t.deps);
    assert.equal(empty.name, "empty");
    assert.match(empty.message, /^not loaded: .*ursamu\.plugin\.json/);
    const core = await loadFolder(t.folder("core"), t.deps);
    assert.equal(core.message, "not loaded: the name 'core' is reserved");
    assert.equal((await loadFolder(t.folder("a"), t.deps)).ok, true);
    const b = await loadFolder(t.folder("b"), t.deps);
    assert.equal(b.message, "not loaded: plugin name 'Same' is already used by folder a");
    assert.equal(b.ok, false);
    assert.ok(t.records.get("folder:b"));
    assert.ok(t.records.get("folder:empty"));
    assert.deepEqual(t.life.calls, ["start same 1.0.0 gen 0 api a"]);
  } finally {
    await t.close();
  }
});

Deno.test("load: disabled, wrong engine range, broken entry, failing init", async () => {
  const t = await loadFixture({ disabled: ["off"] });
  try {
    await writePlugin(t.dir, "off", {
      "ursamu.plugin.json": manifest("off"),
      "mod.ts": moduleText("off", "x"),
    });
    await writePlugin(t.dir, "future", {
      "ursamu.plugin.json": manifest("future", { ursamu: ">=9.0.0" }),
      "mod.ts": moduleText("future", "x"),
    });
    await writePlugin(t.dir, "syntax", {
      "ursamu.plugin.json": manifest("syntax"),
      "mod.ts": "export default {",
    });
    await writePlugin(t.dir, "fails", {
      "ursamu.plugin.json": manifest("fails"),
      "mod.ts": moduleText("fails", "x"),
    });
    const off = await loadFolder(t.folder("off"), t.deps);
    assert.deepEqual([off.ok, off.enabled, off.loaded, off.message], [
      true,
      false,
      false,
      "disabled in configuration",
    ]);
    const future = await loadFolder(t.folder("future"), t.deps);
    assert.equal(future.ok, false);
    assert.match(future.message, /^not loaded: .*9\.0\.0/);
    const syntax = await loadFolder(t.folder("syntax"), t.deps);
    assert.equal(syntax.ok, false);
    assert.match(
      syntax.message,
      /^not loaded: .*\(at syntax\/mod\.ts:\d+:\d+\)|^not loaded: .*syntax\/mod\.ts/,
    );
    t.life.answers.push("init() failed: boom");
    const fails = await loadFolder(t.folder("fails"), t.deps);
    assert.deepEqual([fails.ok, fails.loaded, fails.message], [
      false,
      false,
      "not loaded: init() failed: boom",
    ]);
    assert.deepEqual(t.life.calls, ["start fails 1.0.0 gen 0 api x"]);
  } finally {
    await t.close();
  }
});
