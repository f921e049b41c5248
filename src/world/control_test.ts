import assert from "node:assert/strict";
import { LiveWorld } from "./live_world.ts";
import { EngineLockWorld } from "./lock_world.ts";
import { controls, examines } from "./control.ts";
import { ZONE_CONTROL_DEPTH } from "./zones.ts";
import type { DbObject } from "./types.ts";

function obj(id: string, over: Partial<DbObject> = {}): DbObject {
  return {
    id,
    name: `O${id}`,
    flags: ["thing"],
    location: "1",
    owner: "2",
    data: {},
    createdAt: 0,
    updatedAt: 0,
    ...over,
  };
}

/** A lock world over `objs` in memory (no attributes, no evaluator needed by these keys). */
function worldOf(objs: DbObject[]): { w: LiveWorld; locks: EngineLockWorld } {
  const w = new LiveWorld();
  for (const o of objs) w.put(o, "00000000000000010000");
  const locks = new EngineLockWorld({ world: () => w, peek: () => null, evaluate: () => "" });
  return { w, locks };
}

const alice = obj("3", { flags: ["player"], owner: "" });
const bob = obj("4", { flags: ["player"], owner: "" });

Deno.test("control: ownership, inherit, staff ranks; staff see what they do not control", () => {
  const wiz = obj("5", { flags: ["player", "wizard"], owner: "" });
  const wiz2 = obj("6", { flags: ["player", "wizard"], owner: "" });
  const root = obj("7", { flags: ["player", "superuser"], owner: "" });
  const box = obj("10", { owner: "3" });
  const heir = obj("11", { owner: "3", flags: ["thing", "inherit"] });
  const wizThing = obj("12", { owner: "5", flags: ["thing", "inherit"] });
  const { locks } = worldOf([alice, bob, wiz, wiz2, root, box, heir, wizThing]);
  assert.ok(controls(alice, box, locks));
  assert.ok(!controls(bob, box, locks));
  assert.ok(controls(box, box, locks));
  assert.ok(!controls(box, alice, locks), "a plain object does not control its owner");
  assert.ok(controls(heir, alice, locks), "an inherit object does");
  assert.ok(!controls(box, heir, locks));
  assert.ok(controls(wiz, box, locks));
  assert.ok(!controls(wiz, wiz2, locks), "not staff of one's own rank");
  assert.ok(examines(wiz, wiz2, locks), "but staff see them");
  assert.ok(controls(root, wiz, locks));
  assert.ok(!controls(wiz, root, locks));
  // A staff member's inherit object acts with its owner's powers, with the world at hand.
  assert.ok(controls(wizThing, box, locks));
  assert.ok(!controls(wizThing, box, null));
});

Deno.test("control: a zone master's enter lock, along the zone chain, bounded", () => {
  // Zone masters 20..(20+n): each zoned to the next; only the last one's lock names Alice.
  const n = ZONE_CONTROL_DEPTH + 1;
  const chain: DbObject[] = [];
  for (let i = 0; i < n; i++) {
    chain.push(obj(String(20 + i), {
      data: {
        ...(i + 1 < n ? { zone: String(21 + i) } : {}),
        locks: { enter: i + 1 < n ? "#4" : "#3" },
      },
    }));
  }
  const near = obj("50", { data: { zone: String(20 + n - ZONE_CONTROL_DEPTH) } });
  const far = obj("51", { data: { zone: "20" } });
  const loopA = obj("60", { data: { zone: "61", locks: { enter: "#4" } } });
  const loopB = obj("61", { data: { zone: "60", locks: { enter: "#4" } } });
  const inLoop = obj("62", { data: { zone: "60" } });
  const unlocked = obj("63");
  const open = obj("64", { data: { zone: "63" } });
  const { locks } = worldOf([
    alice,
    bob,
    ...chain,
    near,
    far,
    loopA,
    loopB,
    inLoop,
    unlocked,
    open,
  ]);
  assert.ok(controls(bob, far, locks), "the first zone master's lock");
  assert.ok(controls(alice, near, locks), "the last one within the depth");
  assert.ok(!controls(alice, far, locks), "one past the depth");
  assert.ok(!controls(alice, inLoop, locks), "zone masters zoned to each other end");
  assert.ok(controls(bob, inLoop, locks));
  assert.ok(!controls(alice, open, locks), "no enter lock: no control");
  assert.ok(!controls(bob, open, null), "no world: no zone");
  // Never a player, an inherit object or staff.
  const zonedPlayer = obj("70", { flags: ["player"], owner: "", data: { zone: "20" } });
  const zonedHeir = obj("71", { flags: ["thing", "inherit"], data: { zone: "20" } });
  const zonedWiz = obj("72", { flags: ["thing", "wizard"], data: { zone: "20" } });
  const more = worldOf([alice, bob, ...chain, zonedPlayer, zonedHeir, zonedWiz]).locks;
  for (const o of [zonedPlayer, zonedHeir, zonedWiz]) assert.ok(!controls(bob, o, more), o.id);
});
