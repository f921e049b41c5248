import assert from "node:assert/strict";
import type { ContextImpl } from "./context.ts";
import { newStatus, type PluginRecord, PluginRecords, unknownStatus } from "./records.ts";

function record(key: string, folder: string, name = folder): PluginRecord {
  return {
    key,
    folder: { folder, dir: `/p/${folder}` },
    generation: 0,
    status: newStatus(name, folder),
  };
}

Deno.test("records: found by plugin or folder name in any case; listed sorted, as copies", () => {
  const logs: string[] = [];
  const rs = new PluginRecords({
    info: (m) => logs.push(`info ${m}`),
    error: (m) => logs.push(`err ${m}`),
  });
  const notes = record("notes", "Notes-Folder", "Notes");
  const broken = record("folder:broken", "broken");
  rs.add(notes);
  rs.add(broken);
  assert.equal(rs.find("notes"), notes);
  assert.equal(rs.find("notes-folder"), notes);
  assert.equal(rs.find("broken"), broken);
  assert.equal(rs.find("nope"), undefined);
  assert.equal(rs.ofFolder("Notes-Folder"), notes);
  assert.equal(rs.ofFolder("notes-folder"), undefined, "folders match exactly");
  assert.deepEqual(rs.list().map((s) => s.name), ["broken", "Notes"]);
  rs.list()[1].message = "changed";
  assert.equal(notes.status.message, "");
  rs.delete(broken);
  assert.deepEqual(rs.all(), [notes]);
  assert.deepEqual(logs, []);
});

Deno.test("records: setStatus patches, logs by outcome and returns a copy", () => {
  const logs: string[] = [];
  const rs = new PluginRecords({
    info: (m) => logs.push(`info ${m}`),
    error: (m) => logs.push(`err ${m}`),
  });
  const r = record("notes", "notes");
  rs.add(r);
  const s = rs.setStatus(r, { message: "loaded 1.0.0", loaded: true });
  assert.equal(s.loaded, true);
  s.loaded = false;
  assert.equal(r.status.loaded, true);
  rs.setStatus(r, { ok: false, message: "reload failed: x" });
  assert.deepEqual(logs, [
    "info plugins: notes: loaded 1.0.0",
    "err plugins: notes: reload failed: x",
  ]);
});

Deno.test("records: api and isLoaded only for a running plugin; provide() wins over module api", () => {
  const rs = new PluginRecords({ info() {}, error() {} });
  const r = record("notes", "notes");
  rs.add(r);
  assert.equal(rs.isLoaded("NOTES"), false);
  assert.equal(rs.api("notes"), undefined);
  const module = { name: "notes", init() {}, api: "module api" };
  const manifest = {
    name: "notes",
    version: "1.0.0",
    description: "",
    ursamu: "*",
    author: "",
    license: "",
    main: "mod.ts",
  };
  // Only `provided` of the context is read here.
  const ctx = { provided: undefined } as unknown as ContextImpl;
  r.loaded = { module, ctx, manifest, generation: 0 };
  assert.equal(rs.isLoaded("Notes"), true);
  assert.equal(rs.api("Notes"), "module api");
  ctx.provided = { hello: 1 };
  assert.deepEqual(rs.api("notes"), { hello: 1 });
});

Deno.test("records: the status of an unknown name", () => {
  assert.deepEqual(unknownStatus("zap"), {
    name: "zap",
    ok: false,
    message: "no plugin named 'zap'",
    loaded: false,
    enabled: false,
    version: "",
    description: "",
    folder: "",
  });
});
