import assert from "node:assert/strict";
import { LiveWorld } from "./live_world.ts";
import { EngineLockWorld } from "./lock_world.ts";
import { checkLock, LOCK_TOO_DEEP, lockVerdict, type LockWorld } from "./locks.ts";
import type { DbObject } from "./types.ts";
import type { Attribute } from "./attributes/types.ts";

function obj(id: string, over: Partial<DbObject> = {}): DbObject {
  return {
    id,
    name: `O${id}`,
    flags: ["thing"],
    location: "1",
    owner: "5",
    data: {},
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}

function worldOf(objs: DbObject[]): LiveWorld {
  const w = new LiveWorld();
  for (const o of objs) w.put(o, "00000000000000010000");
  return w;
}

const actor = { id: "#5", flags: ["player"], connected: true };

Deno.test("lock world: attribute keys read through parents; a parent loop ends the search", () => {
  const w = worldOf([
    obj("5", { flags: ["player"], owner: "" }),
    obj("6", { location: "5", data: { parent: "7" } }),
    obj("7", { data: { parent: "6" } }),
    obj("8", { data: { parent: "9" } }),
    obj("9"),
  ]);
  const attrs: Record<string, Attribute> = {
    "9/COLOR": { name: "COLOR", value: "red", owner: "5", flags: ["visual"] },
  };
  const locks = new EngineLockWorld({
    world: () => w,
    peek: (id, name) => attrs[`${id}/${name}`] ?? null,
    evaluate: () => "",
  });
  assert.equal(locks.attr("8", "color")?.value, "red");
  // #6 and #7 are each other's parent: the search stops where it repeats.
  assert.equal(locks.attr("6", "COLOR"), null);
  assert.equal(checkLock("+COLOR:*", actor, { world: locks, on: "9" }), false);
});

Deno.test("lock world: evaluation keys whose code checks locks again stop at the limit", () => {
  const w = worldOf([obj("5", { flags: ["player"], owner: "" }), obj("9")]);
  let runs = 0;
  const locks: EngineLockWorld = new EngineLockWorld({
    world: () => w,
    peek: (id, name) =>
      id === "9" && name === "CHECK" ? { name, value: "elock", owner: "5", flags: [] } : null,
    // As elock() in the code would: the same lock, checked again from inside its evaluation.
    evaluate: () => {
      runs++;
      const v = lockVerdict("CHECK/1", actor, { world: locks, on: "9" });
      return v.pass ? "1" : v.problem ? "broken" : "0";
    },
  });
  const v = lockVerdict("CHECK/1", actor, { world: locks, on: "9" });
  assert.equal(v.pass, false);
  assert.ok(runs <= 21, `ran ${runs} times`);
  // The check refused at the limit says why.
  const refused: LockWorld = {
    object: (id) => locks.object(id),
    contents: (id) => locks.contents(id),
    attr: (id, name) => locks.attr(id, name),
    canSeeAttr: (v, o, a) => locks.canSeeAttr(v, o, a),
    evaluate: () => null,
  };
  assert.equal(lockVerdict("CHECK/1", actor, { world: refused, on: "9" }).problem, LOCK_TOO_DEEP);
});
