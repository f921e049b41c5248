import assert from "node:assert/strict";
import type { DbObject } from "./types.ts";
import type { Attribute } from "./attributes/types.ts";
import type { AttrFlag } from "./attributes/flags.ts";
import { MAX_PARENT_DEPTH, parentChain, parentProblem, readChain } from "./parents.ts";
import { inheritedAttr } from "./attributes/inherit.ts";

function obj(id: string, parent?: string): DbObject {
  return {
    id,
    name: `O${id}`,
    flags: ["thing"],
    location: "1",
    owner: "1",
    data: parent ? { parent } : {},
    createdAt: 0,
    updatedAt: 0,
  };
}

/** A world of objects and their own attributes. */
function world(objs: DbObject[], attrs: Record<string, Record<string, AttrFlag[] | string>> = {}) {
  const byId = new Map(objs.map((o) => [o.id, o]));
  return {
    object: (id: string) => byId.get(id) ?? null,
    ownAttr: (id: string, name: string): Attribute | null => {
      const v = attrs[id]?.[name];
      if (v === undefined) return null;
      const flags = Array.isArray(v) ? v : [];
      return { name, value: Array.isArray(v) ? `${name}@${id}` : v, owner: "1", flags };
    },
  };
}

Deno.test("parentChain: nearest first, ends at a missing parent, a loop or the limit", () => {
  const w = world([obj("2", "3"), obj("3", "4"), obj("4", "9")]);
  assert.deepEqual(parentChain(w, "2"), ["2", "3", "4"]);
  assert.deepEqual(parentChain(w, "9"), []);
  const loop = world([obj("2", "3"), obj("3", "2")]);
  assert.deepEqual(parentChain(loop, "2"), ["2", "3"]);
  // A chain of 30: the object and MAX_PARENT_DEPTH parents.
  const long = world(Array.from({ length: 30 }, (_, i) => obj(String(i + 2), String(i + 3))));
  assert.equal(parentChain(long, "2").length, MAX_PARENT_DEPTH + 1);
});

Deno.test("parentProblem: no own parent, no loop; deep chains are allowed as in MUX", () => {
  const w = world([obj("2", "3"), obj("3", "4"), obj("4"), obj("5")]);
  assert.match(parentProblem(w, "2", "2")!, /own parent/);
  assert.match(parentProblem(w, "4", "2")!, /loop/);
  assert.equal(parentProblem(w, "5", "2"), null);
  assert.equal(parentProblem(w, "2", "5"), null);
});

Deno.test("readChain: reads ahead through an async store", async () => {
  const w = world([obj("2", "3"), obj("3", "2")]);
  const reads: string[] = [];
  const l = await readChain((id) => {
    reads.push(id);
    return Promise.resolve(w.object(id));
  }, "2");
  assert.deepEqual(reads, ["2", "3"]);
  assert.match(parentProblem(l, "3", "2")!, /loop/);
});

Deno.test("inheritedAttr: own first, then the nearest ancestor; no_inherit stays with its holder", () => {
  const w = world([obj("2", "3"), obj("3", "4"), obj("4")], {
    "2": { OWN: [] },
    "3": { PRIV: ["no_inherit"], OWN: [] },
    "4": { PRIV: [], DEEP: [] },
  });
  assert.deepEqual(inheritedAttr(w, "2", "OWN")?.holder, "2");
  assert.deepEqual(inheritedAttr(w, "2", "DEEP")?.holder, "4");
  // 3's PRIV is skipped for 2, and the search goes on to 4 (MUX's atr_pget).
  assert.deepEqual(inheritedAttr(w, "2", "PRIV")?.holder, "4");
  // The holder itself sees its own no_inherit attribute.
  assert.deepEqual(inheritedAttr(w, "3", "PRIV")?.holder, "3");
  assert.equal(inheritedAttr(w, "2", "NONE"), null);
});

Deno.test("inheritedAttr: a parent loop or a chain past the limit ends the search", () => {
  const loop = world([obj("2", "3"), obj("3", "2")], {});
  assert.equal(inheritedAttr(loop, "2", "X"), null);
  const objs = Array.from({ length: 15 }, (_, i) => obj(String(i + 2), String(i + 3)));
  const deep = world(objs, {
    [String(2 + MAX_PARENT_DEPTH)]: { EDGE: [] },
    [String(3 + MAX_PARENT_DEPTH)]: { PAST: [] },
  });
  assert.equal(inheritedAttr(deep, "2", "EDGE")?.holder, String(2 + MAX_PARENT_DEPTH));
  assert.equal(inheritedAttr(deep, "2", "PAST"), null);
});
