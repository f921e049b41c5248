import assert from "node:assert/strict";
import { loadFolder } from "./load.ts";
import { reloadRecord } from "./reload.ts";
import { loadFixture, manifest, moduleText, writePlugin } from "./_load_fixture.ts";

/** A fixture with plugin `notes` loaded from api tag v1. */
async function withNotes(opts: { disabled?: string[] } = {}) {
  const t = await loadFixture(opts);
  await writePlugin(t.dir, "notes", {
    "ursamu.plugin.json": manifest("notes"),
    "mod.ts": moduleText("notes", "v1"),
  });
  await loadFolder(t.folder("notes"), t.deps);
  t.life.calls.length = 0;
  t.logs.length = 0;
  return { ...t, notes: t.records.get("notes")! };
}

Deno.test("reload: the new code is imported fresh and swapped in while timers are held", async () => {
  const t = await withNotes();
  try {
    await writePlugin(t.dir, "notes", {
      "ursamu.plugin.json": manifest("notes", { version: "1.1.0" }),
      "mod.ts": moduleText("notes", "v2"),
    });
    const s = await reloadRecord(t.notes, t.deps);
    assert.deepEqual([s.ok, s.loaded, s.message], [true, true, "reloaded 1.1.0"]);
    assert.deepEqual(t.life.calls, ["stop notes", "start notes 1.1.0 gen 1 api v2"]);
    assert.deepEqual(t.holds, ["hold notes", "release notes"]);
    assert.equal(t.records.api("notes"), "v2");
  } finally {
    await t.close();
  }
});

Deno.test("reload: a failing new init brings the previous version back", async () => {
  const t = await withNotes();
  try {
    await writePlugin(t.dir, "notes", {
      "ursamu.plugin.json": manifest("notes", { version: "2.0.0" }),
      "mod.ts": moduleText("notes", "v2"),
    });
    t.life.answers.push("init() failed: boom");
    const s = await reloadRecord(t.notes, t.deps);
    assert.equal(s.ok, false);
    assert.equal(s.message, "reload failed: init() failed: boom; previous version 1.0.0 restored");
    assert.deepEqual(t.life.calls, [
      "stop notes",
      "start notes 2.0.0 gen 1 api v2",
      "start notes 1.0.0 gen 0 api v1",
    ]);
    assert.equal(t.records.api("notes"), "v1");
    assert.deepEqual(t.holds, ["hold notes", "release notes"]);
  } finally {
    await t.close();
  }
});

Deno.test("reload: problems found before the swap leave the running version alone", async () => {
  const t = await withNotes();
  try {
    await writePlugin(t.dir, "notes", { "mod.ts": "export default {" });
    const syntax = await reloadRecord(t.notes, t.deps);
    assert.match(syntax.message, /^reload failed: .*; the previous version is still running$/);
    await writePlugin(t.dir, "notes", {
      "ursamu.plugin.json": manifest("notes", { ursamu: ">=9.0.0" }),
    });
    const range = await reloadRecord(t.notes, t.deps);
    assert.match(
      range.message,
      /^reload failed: .*9\.0\.0.*; the previous version is still running$/,
    );
    await Deno.remove(`${t.dir}/notes/ursamu.plugin.json`);
    const gone = await reloadRecord(t.notes, t.deps);
    assert.equal(gone.ok, false);
    assert.deepEqual(t.life.calls, []);
    assert.deepEqual(t.holds, []);
    assert.equal(t.records.api("notes"), "v1");
  } finally {
    await t.close();
  }
});

Deno.test("reload: a folder whose manifest is fixed loads under its new name", async () => {
  const t = await loadFixture();
  try {
    await writePlugin(t.dir, "memos", {
      "ursamu.plugin.json": "{",
      "mod.ts": moduleText("memos", "m"),
    });
    await loadFolder(t.folder("memos"), t.deps);
    const broken = t.records.get("folder:memos")!;
    assert.equal(broken.status.ok, false);
    await writePlugin(t.dir, "memos", { "ursamu.plugin.json": manifest("Memos") });
    const s = await reloadRecord(broken, t.deps);
    assert.deepEqual([s.name, s.ok, s.message], ["Memos", true, "loaded 1.0.0"]);
    assert.equal(t.records.get("folder:memos"), undefined);
    assert.equal(t.records.isLoaded("memos"), true);
    assert.deepEqual(t.life.calls, ["start Memos 1.0.0 gen 0 api m"]);
  } finally {
    await t.close();
  }
});

Deno.test("reload: a plugin disabled since start is stopped", async () => {
  const t = await withNotes();
  try {
    const s = await reloadRecord(t.notes, { ...t.deps, enabled: () => false });
    assert.deepEqual([s.ok, s.enabled, s.loaded, s.message], [
      true,
      false,
      false,
      "disabled in configuration",
    ]);
    assert.deepEqual(t.life.calls, ["stop notes"]);
  } finally {
    await t.close();
  }
});
