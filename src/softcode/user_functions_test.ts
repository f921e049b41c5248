/**
 * Global user-defined functions (`@function`) in the evaluator: who the code runs as, registers,
 * recursion, and what the database keeps (tests/softcode_function_test.ts runs the command end to
 * end over telnet and WebSocket).
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import {
  kvUserFunctionStore,
  userFunctionName,
  type UserFunctionRecord,
  UserFunctions,
} from "./user_functions.ts";
import { keys } from "../storage/keys.ts";

/** A world with a user-function registry kept in an in-memory database. */
async function world() {
  const t = testSoftcode();
  const kv = await Deno.openKv(":memory:");
  const fns = new UserFunctions(t.functions, kvUserFunctionStore(kv));
  const alice = t.world.add("Alice", "player", { location: t.room });
  return { ...t, kv, fns, alice };
}

const def = (name: string, obj: string, attr: string, more: Partial<UserFunctionRecord> = {}) => ({
  name,
  obj,
  attr,
  privileged: false,
  preserve: false,
  ...more,
});

Deno.test("user functions: run as the caller or, privileged, as their object", async () => {
  const w = await world();
  try {
    w.world.set(w.wiz, "WHO", "[name(%!)]/[name(%@)]/%0");
    await w.fns.define(def("SHOWME", w.wiz, "WHO"));
    await w.fns.define(def("PWHO", w.wiz, "WHO", { privileged: true }));
    assert.equal(w.run("[showme(x)] [pwho(y)]", w.alice), "Alice/Alice/x Wizard/Alice/y");
    // The attribute is read at each call; gone, the function gives nothing.
    w.world.set(w.wiz, "WHO", "changed");
    assert.equal(w.run("showme()", w.alice), "changed");
    w.world.attrs.get(w.wiz)!.delete("WHO");
    assert.equal(w.run("[showme()]|", w.alice), "|");
  } finally {
    w.kv.close();
  }
});

Deno.test("user functions: /preserve keeps the caller's registers; recursion is bounded", async () => {
  const w = await world();
  try {
    w.world.set(w.wiz, "SET", "[setq(0,inner)]%q0");
    w.world.set(w.wiz, "LOOP", "[loop()]");
    await w.fns.define(def("KEEP", w.wiz, "SET", { preserve: true }));
    await w.fns.define(def("SPILL", w.wiz, "SET"));
    await w.fns.define(def("LOOP", w.wiz, "LOOP"));
    assert.equal(w.run("[setq(0,outer)][keep()]:%q0 [spill()]:%q0"), "inner:outer inner:inner");
    assert.match(w.run("loop()"), /^#-1 /);
  } finally {
    w.kv.close();
  }
});

Deno.test("user functions: a call kept parsed runs the attribute's text of now, under the definition of now", async () => {
  const w = await world();
  try {
    w.world.set(w.wiz, "ONE", "one:%0");
    w.world.set(w.wiz, "TWO", "[add(%0,%0)]");
    w.world.set(w.wiz, "REG", "[setq(0,in)]%q0");
    await w.fns.define(def("FN", w.wiz, "ONE"));
    await w.fns.define(def("KEEPS", w.wiz, "REG", { preserve: true }));
    // The same parsed calls run each time (the caller's attribute is kept parsed).
    w.world.set(w.wiz, "CALLER", "[iter(a b,fn(##))]|[setq(0,out)][keeps()]%q0");
    const run = () => w.run("u(me/CALLER)");
    for (let i = 0; i < 3; i++) assert.equal(run(), "one:a one:b|inout");
    // The attribute rewritten: its new text, at once.
    w.world.set(w.wiz, "ONE", "uno:%0");
    assert.equal(run(), "uno:a uno:b|inout");
    // Another attribute under the name, then a definition that preserves nothing.
    await w.fns.define(def("FN", w.wiz, "TWO"));
    w.world.set(w.wiz, "CALLER", "[iter(1 2,fn(##))]|[setq(0,out)][keeps()]%q0");
    assert.equal(run(), "2 4|inout");
    await w.fns.define(def("KEEPS", w.wiz, "REG"));
    assert.equal(run(), "2 4|inin");
    // The attribute gone: nothing, as from a call never kept.
    w.world.attrs.get(w.wiz)!.delete("TWO");
    assert.equal(run(), " |inin");
  } finally {
    w.kv.close();
  }
});

Deno.test("user functions: built-ins first; kept, listed in order, deleted", async () => {
  const w = await world();
  try {
    w.world.set(w.wiz, "TWICE", "mul(%0,2)");
    assert.equal(w.fns.isBuiltin("ADD"), true);
    await assert.rejects(w.fns.define(def("ADD", w.wiz, "TWICE")));
    await w.fns.define(def("TWICE", w.wiz, "TWICE"), 1);
    await w.fns.define(def("THRICE", w.wiz, "TWICE"), 2);
    // Redefined, it keeps its place.
    await w.fns.define(def("TWICE", w.wiz, "TWICE", { preserve: true }), 3);
    assert.deepEqual(w.fns.list().map((d) => [d.name, d.preserve]), [
      ["TWICE", true],
      ["THRICE", false],
    ]);
    assert.equal(w.fns.isBuiltin("TWICE"), false);
    assert.equal(w.run("twice(21)"), "42");

    // Another start reads them back; a damaged entry is skipped.
    await w.kv.set(keys.userFunction("BROKEN"), { name: "BROKEN" });
    const again = testSoftcode();
    again.world.set(again.wiz, "TWICE", "mul(%0,2)");
    const reloaded = new UserFunctions(again.functions, kvUserFunctionStore(w.kv));
    assert.equal(await reloaded.load(() => {}), 2);
    assert.equal(again.run("twice(4)"), "8");

    assert.equal(await w.fns.delete("TWICE"), true);
    assert.equal(await w.fns.delete("TWICE"), false);
    assert.equal(w.run("[twice(1)]"), "#-1 FUNCTION (TWICE) NOT FOUND");
    assert.deepEqual((await kvUserFunctionStore(w.kv).all()).map((r) => r.name), ["THRICE"]);
  } finally {
    w.kv.close();
  }
});

Deno.test("user functions: a kept name a built-in now has is reported and not callable", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(keys.userFunction("ADD"), {
      name: "ADD",
      obj: "1",
      attr: "X",
      privileged: false,
      preserve: false,
      at: 1,
    });
    const t = testSoftcode();
    const warned: string[] = [];
    await new UserFunctions(t.functions, kvUserFunctionStore(kv)).load((m) => warned.push(m));
    assert.equal(warned.length, 1);
    assert.equal(t.run("add(1,2)"), "3");
  } finally {
    kv.close();
  }
});

Deno.test("user functions: names", () => {
  assert.equal(userFunctionName(" my_fn.2 "), "MY_FN.2");
  for (const bad of ["", "2x", "a b", "a(b", "x".repeat(200)]) {
    assert.equal(userFunctionName(bad), null, bad);
  }
});
