import assert from "node:assert/strict";
import { LiveWorld } from "./live_world.ts";
import { withInheritedRank } from "./inherited_rank.ts";
import type { DbObject } from "./types.ts";

function obj(id: string, flags: string[], extra: Partial<DbObject> = {}): DbObject {
  return {
    id,
    name: `O${id}`,
    flags,
    location: "1",
    owner: "",
    data: {},
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

const V = (n: number) => String(n).padStart(20, "0");

Deno.test("inherited rank: the ranked copy is kept while it stands, and made again when the object or its owner changes", () => {
  const w = new LiveWorld();
  let v = 0;
  w.put(obj("2", ["player", "wizard"]), V(++v));
  w.put(obj("5", ["thing", "inherit"], { owner: "2" }), V(++v));
  const me = () => w.object("5")!;
  const first = withInheritedRank(w, me());
  assert.deepEqual(first.flags, ["thing", "inherit", "wizard"]);
  assert.ok(Object.isFrozen(first));
  assert.equal(withInheritedRank(w, me()), first, "kept: nothing changed");
  // Another object written: the copy still stands (neither record was replaced).
  w.put(obj("9", ["thing"]), V(++v));
  assert.equal(withInheritedRank(w, me()), first, "kept after an unrelated write");
  // The owner loses its rank: no longer ranked.
  w.put(obj("2", ["player"]), V(++v));
  assert.equal(withInheritedRank(w, me()), me());
  // The owner becomes an admin: ranked as one.
  w.put(obj("2", ["player", "admin"]), V(++v));
  assert.deepEqual(withInheritedRank(w, me()).flags, ["thing", "inherit", "admin"]);
  // Shown before its commit (softcode's writes in memory): the shown owner counts.
  w.show(obj("2", ["player", "wizard"]));
  assert.deepEqual(withInheritedRank(w, me()).flags, ["thing", "inherit", "wizard"]);
  w.settle("2");
  assert.deepEqual(withInheritedRank(w, me()).flags, ["thing", "inherit", "admin"]);
  // The object loses inherit, or is given to a player without rank.
  w.put(obj("5", ["thing"], { owner: "2" }), V(++v));
  assert.equal(withInheritedRank(w, me()), me());
  w.put(obj("5", ["thing", "inherit"], { owner: "2" }), V(++v));
  assert.deepEqual(withInheritedRank(w, me()).flags, ["thing", "inherit", "admin"]);
  w.put(obj("3", ["player"]), V(++v));
  w.put(obj("5", ["thing", "inherit"], { owner: "3" }), V(++v));
  assert.equal(withInheritedRank(w, me()), me());
  // The owner destroyed: no rank.
  w.put(obj("5", ["thing", "inherit"], { owner: "2" }), V(++v));
  assert.notEqual(withInheritedRank(w, me()), me());
  w.remove("2", V(++v));
  assert.equal(withInheritedRank(w, me()), me());
  // A record that is not the world's (a caller's own copy) is ranked without the memo's copy.
  w.put(obj("2", ["player", "wizard"]), V(++v));
  const own = obj("5", ["thing", "inherit"], { owner: "2" });
  assert.deepEqual(withInheritedRank(w, own).flags, ["thing", "inherit", "wizard"]);
  assert.equal(withInheritedRank(w, own).id, "5");
});
