import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { TOP_FLAGS } from "./eval.ts";
import { EV } from "./types.ts";
import { type CallNode, K_CALL, K_EVAL, type Program, unwrapped } from "./compile.ts";
import { parseText } from "./parse.ts";
import { stripMarkup } from "./markup.ts";

/**
 * One parsed text run again and again as `executor`, as a cached attribute's program is (its
 * u() calls keep what they keep on their nodes), and the first call's node.
 */
function kept(t: ReturnType<typeof testSoftcode>, text: string) {
  const p = t.sc.compile(text, TOP_FLAGS);
  const run = (executor = t.wiz) => {
    const ev = t.sc.begin({ executor });
    try {
      return stripMarkup(ev.run(ev.topFrame(), p));
    } finally {
      t.sc.end(ev);
    }
  };
  const call = (p.nodes.find((n) => n.k === K_CALL) ?? null) as CallNode | null;
  return { run, call, p };
}

Deno.test("attr site: a u() call's kept reference and program follow the world", () => {
  const t = testSoftcode();
  const bob = t.world.add("Bob", "player", { location: t.room });
  const lib = t.world.add("Lib", "thing", { location: t.room, owner: t.wiz });
  t.world.set(lib, "F", "one:%0", ["visual"]);
  const { run, call } = kept(t, `[u(#${lib}/f,x)]`);
  assert.equal(run(bob), "one:x");
  // The call keeps its resolved reference and the text it ran (the path under test).
  assert.equal(call?.site?.name, "F");
  assert.equal(call?.site?.text, "one:%0");
  assert.equal(run(bob), "one:x");
  // The attribute written: its new text is run, not the program kept for the old one.
  t.world.set(lib, "F", "two:[add(%0,1)]", ["visual"]);
  assert.equal(run(bob), "two:1");
  t.world.set(lib, "F", "three:%0", ["visual"]);
  assert.equal(run(bob), "three:x");
  // Its permission changed: no longer visual to Bob, still the wizard's to read.
  t.world.set(lib, "F", "three:%0");
  assert.equal(run(bob), "#-1 PERMISSION DENIED");
  assert.equal(run(), "three:x");
  // Cleared, then inherited from a parent, then the object destroyed.
  t.world.attrs.get(lib)!.delete("F");
  assert.equal(run(), "");
  const parent = t.world.add("Parent", "thing", { owner: t.wiz });
  t.world.set(parent, "F", "parent:%0", ["visual"]);
  t.world.objects.get(lib)!.data.parent = parent;
  t.world.touch();
  assert.equal(run(bob), "parent:x");
  t.world.set(lib, "F", "four:%0", ["visual"]);
  assert.equal(run(bob), "four:x");
  t.world.objects.delete(lib);
  assert.equal(run(), "");
});

Deno.test("attr site: a kept program is parsed again when the functions or the parse depth change", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "F", "[zork()]-[[[[add(1,2)]]]]");
  const { run } = kept(t, "[u(#1/f)]");
  const missing = "#-1 FUNCTION (ZORK) NOT FOUND";
  assert.equal(run(), `${missing}-3`);
  assert.equal(run(), `${missing}-3`);
  // A function defined since: the program kept would still call an unknown one.
  t.functions.add({
    ...t.functions.get("TIME")!,
    name: "ZORK",
    minArgs: 0,
    maxArgs: 0,
    impl: () => "zorked",
  });
  assert.equal(run(), "zorked-3");
  // A smaller parse depth since: the attribute's nesting is now past it.
  t.sc.setLimits({ parseDepth: 3 });
  assert.equal(run(), "zorked-");
  // A smaller output limit than the attribute's text: cut first, as eval() cuts it.
  t.sc.setLimits({ parseDepth: 100 });
  t.world.set(t.wiz, "G", "x".repeat(18) + "[add(1,2)]");
  const g = kept(t, "[u(#1/g)]");
  assert.equal(g.run(), "x".repeat(18) + "3");
  t.sc.limits = { ...t.sc.limits, outputLength: 21 };
  assert.equal(g.run(), "x".repeat(18) + "[a");
});

Deno.test("attr site: a reference that depends on its reader, or is evaluated, is looked up each call", () => {
  const t = testSoftcode();
  const a = t.world.add("A", "thing", { location: t.room, owner: t.wiz });
  const b = t.world.add("B", "thing", { location: t.room, owner: t.wiz });
  t.world.set(a, "WHO", "a:%q0");
  t.world.set(b, "WHO", "b:%q0");
  const me = kept(t, "[setq(0,1)][u(me/who)]");
  assert.equal(me.run(a), "a:1");
  assert.equal(me.run(b), "b:1");
  const bare = kept(t, "[setq(0,2)][u(who)]");
  assert.equal(bare.run(a), "a:2");
  assert.equal(bare.run(b), "b:2");
  // An evaluated reference: each call's own text, the program kept only for the same text.
  t.world.set(t.wiz, "PICK", `#${a}`);
  const dyn = kept(t, "[setq(0,3)][u([v(pick)]/who)]");
  assert.equal(dyn.run(), "a:3");
  t.world.set(t.wiz, "PICK", `#${b}`);
  assert.equal(dyn.run(), "b:3");
  // ulocal() keeps the same, and still gives the registers back.
  const local = kept(t, `[setq(0,4)][ulocal(#${a}/set)]%q0`);
  t.world.set(a, "SET", "[setq(0,5)]%q0");
  assert.equal(local.run(), "54");
  assert.equal(local.run(), "54");
});

Deno.test("attr site: an attribute run from an iter() body keeps its own `##`", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "F", "<##:%0>");
  const { run } = kept(t, "[iter(a b,u(#1/f,##))]");
  assert.equal(run(), "<##:a> <##:b>");
  assert.equal(run(), "<##:a> <##:b>");
});

Deno.test("attr site: a text that is one [...] runs as the part inside", () => {
  const t = testSoftcode();
  const opts = t.sc.compileOptions;
  for (const text of ["[add(1,2)]", "[[add(1,2)]]", "[abc]", "[add(1,2)]x", "{[add(1,2)]}", ""]) {
    const p: Program = parseText(text, TOP_FLAGS, opts);
    const q = unwrapped(p);
    const ev = t.sc.begin({ executor: t.wiz });
    try {
      assert.equal(ev.run(ev.topFrame(), q), ev.run(ev.topFrame(), p), text);
    } finally {
      t.sc.end(ev);
    }
  }
  // The cached program of `[u(...)]` is the call itself, one level less to walk.
  assert.equal(t.sc.compile("[add(1,%0)]", TOP_FLAGS).nodes[0].k, K_CALL);
});

Deno.test("attr site: u()'s arguments are the call's own, without the reference, at every call", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "F", "%+:%0%1%9");
  for (
    const [text, want] of [
      ["[u(#1/f)]", "0:"],
      ["[u(#1/f,a)]", "1:a"],
      ["[u(#1/f,a,[u(#1/f,b,c)])]", "2:a2:bc"],
      ["[u(#1/f,0,1,2,3,4,5,6,7,8,9)]", "10:019"],
      ["[ulocal(#1/f,x,y)]", "2:xy"],
    ]
  ) {
    const { run } = kept(t, text);
    assert.equal(run(), want, text);
    assert.equal(run(), want, text);
  }
});

Deno.test("attr site: arguments of literals and lone substitutions are made from their texts, as run() gives them", () => {
  const t = testSoftcode();
  const bob = t.world.add("Bob", "player", { location: t.room });
  const lib = t.world.add("Lib", "thing", { location: t.room, owner: t.wiz });
  t.world.set(lib, "F", "%+:<%0|%1|%2|%3>", ["visual"]);
  // An outer attribute gives the substitutions something to read: its own %0-%9 and registers.
  t.world.set(
    lib,
    "OUTER",
    `[setq(0,%1)][u(#${lib}/f,lit,%0,%q0,%n)]-[u(#${lib}/f,%9,%N)]-[u(#${lib}/f, sp ,%1)]`,
    ["visual"],
  );
  const { run, p: top } = kept(t, `[u(#${lib}/outer,a,b)][u(#${lib}/outer,c,%#)]`);
  const want = (x: string, y: string, who: string) =>
    `4:<lit|${x}|${y}|${who}>-2:<|${who}||>-2:<sp|${y}||>`;
  const ATTR = EV.EVAL | EV.FCHECK;
  for (const [who, name] of [[t.wiz, "Wizard"], [bob, "Bob"], [t.wiz, "Wizard"]]) {
    assert.equal(run(who), want("a", "b", name) + want("c", "#" + who, name), who);
  }
  // Each call's arguments kept as texts (the calls inside `[...]`, in order).
  const calls = (p: Program): CallNode[] =>
    p.nodes.flatMap((n) => n.k === K_CALL ? [n] : n.k === K_EVAL ? calls(n.p) : []);
  assert.deepEqual(calls(top).map((n) => n.site?.argv?.length), [2, 2]);
  const outer = t.sc.compile(t.world.attrs.get(lib)!.get("OUTER")!.value, ATTR);
  assert.deepEqual(calls(outer).map((n) => n.site?.argv?.length), [undefined, 4, 2, 2]);
  // An argument that is more than a lone substitution is run as before.
  const mixed = kept(t, `[u(#${lib}/f,x%0,[add(1,2)])]`);
  assert.equal(mixed.run(), "2:<x|3||>");
  assert.equal(mixed.run(), "2:<x|3||>");
  assert.equal(mixed.call?.site?.argv, null);
  // A substitution longer than the output limit reads as run() gives it.
  t.world.set(lib, "LEN", "[strlen(%0)]", ["visual"]);
  t.sc.setLimits({ outputLength: 31 });
  const p = t.sc.compile(`[u(#${lib}/len,%0)]`, TOP_FLAGS);
  const ev = t.sc.begin({ executor: t.wiz, args: ["y".repeat(50)] });
  try {
    for (let i = 0; i < 3; i++) assert.equal(ev.run(ev.topFrame(), p), "30");
  } finally {
    t.sc.end(ev);
  }
});

Deno.test("attr site: sortby() keeps its comparison's program and frame, and follows the world", () => {
  const t = testSoftcode();
  const lib = t.world.add("Lib", "thing", { location: t.room, owner: t.wiz });
  t.world.set(lib, "CMP", "[sub(%0,%1)]");
  const { run, call } = kept(t, `[sortby(#${lib}/cmp,3 1 2)]`);
  assert.equal(run(), "1 2 3");
  assert.equal(call?.site?.text, "[sub(%0,%1)]", "the program kept on the call");
  assert.equal(run(), "1 2 3");
  // The attribute written: its new text is run, not the program kept for the old one.
  t.world.set(lib, "CMP", "[sub(%1,%0)]");
  assert.equal(run(), "3 2 1");
  // A function defined since: the program kept would still call an unknown one.
  t.world.set(lib, "CMP", "[zork(%0,%1)]");
  assert.equal(run(), "3 1 2");
  t.functions.add({
    ...t.functions.get("TIME")!,
    name: "ZORK",
    minArgs: 2,
    maxArgs: 2,
    impl: (_ev, _f, args) => String(Number(args[0]) - Number(args[1])),
  });
  assert.equal(run(), "1 2 3");
  // Each comparison's %0 and %1 are its own two items, also when a comparison runs a sort on the
  // same call as the one under way (REC's own sortby(), two deep: the frame is the sort's).
  t.world.set(lib, "LOG", "[setq(9,%q9 %0/%1)][sub(%0,%1)]");
  assert.equal(stripMarkup(t.run(`[sortby(#${lib}/log,3 1 2)]%q9`)), "1 2 3 1/3 2/3 2/1");
  t.world.set(
    lib,
    "REC",
    `[null(switch(strlen(%q7),<2,[setq(7,%q7x)][setq(6,%q6 [sortby(#${lib}/rec,6 5 4)])]))]` +
      "[sub(%0,%1)]",
  );
  assert.equal(stripMarkup(t.run(`[sortby(#${lib}/rec,3 1 2)]|%q6`)), "1 2 3| 4 5 6");
  // The object destroyed: nothing to sort by.
  t.world.objects.delete(lib);
  assert.equal(run(), "");
});

Deno.test("attr site: an evaluated `#123/<name>` ending as the call's last one is read in place, as fetchAttr reads it", () => {
  const t = testSoftcode();
  const a = t.world.add("A", "thing", { location: t.room, owner: t.wiz });
  const b = t.world.add("B", "thing", { location: t.room, owner: t.wiz });
  t.world.set(a, "SEX", "a:%0");
  t.world.set(b, "SEX", "b:%0");
  t.world.set(b, "ALIAS", "bb");
  t.world.set(t.wiz, "LIST", `#${a} #${b} #${a}x #0${a} #${b}/#${a} #-1 #${b}`);
  // name(##) first, as a +who row does (objectAt's text then answers the id), and without it.
  const row = kept(t, "[iter(v(list),[name(##)]=[u(##/sex,#@)],,|)]");
  const bare = kept(t, "[iter(v(list),u(## /sex,#@)[u(##/ sex ,#@)],,|)]");
  // What fetchAttr answers for each (`#012` and `## /sex` through the matcher).
  const want = "A=a:1|B=b:2|#-1 NOT FOUND=|A=a:4|#-1 NOT FOUND=|#-1 NOT FOUND=|B=b:7";
  for (let i = 0; i < 2; i++) {
    assert.equal(row.run(), want);
    assert.equal(bare.run(), "a:1a:1|b:2b:2||a:4a:4|||b:7b:7");
  }
  // Another name on the same call is learned; the object's attribute is read at every call.
  const which = kept(t, "[iter(sex alias sex,u(#" + b + "/##))]");
  assert.equal(which.run(), "b: bb b:");
  t.world.set(b, "SEX", "B!");
  assert.equal(row.run(), want.replace("b:2", "B!").replace("b:7", "B!"));
  t.world.objects.delete(b);
  assert.equal(
    row.run(),
    "A=a:1|#-1 NOT FOUND=|#-1 NOT FOUND=|A=a:4|#-1 NOT FOUND=|#-1 NOT FOUND=|#-1 NOT FOUND=",
  );
});

Deno.test("attr site: a kept lone call runs as the program would, under any limit", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "ONE", "[repeat(ab,20)]");
  t.world.set(t.wiz, "TWO", "[repeat(ab,20)]x");
  const one = kept(t, "[u(#1/one)]");
  const two = kept(t, "[u(#1/two)]");
  assert.equal(one.run(), "ab".repeat(20));
  // The one call is kept as itself; a program of more than one node is run as a program.
  assert.equal(one.call?.site?.call?.fn.name, "REPEAT");
  assert.equal(two.run(), "ab".repeat(20) + "x");
  assert.equal(two.call?.site?.call, null);
  // A smaller output limit since: the call's result cut to it, as run() cuts it.
  t.sc.limits = { ...t.sc.limits, outputLength: 25 };
  assert.equal(one.run(), kept(t, "[repeat(ab,20)]").run());
  assert.equal(two.run(), kept(t, "[repeat(ab,20)]x").run());
  assert.equal(one.run().length, 24);
  t.sc.limits = { ...t.sc.limits, outputLength: 8000 };
  // The attribute rewritten to another lone call, then to plain text and back.
  t.world.set(t.wiz, "ONE", "[add(1,2)]");
  assert.equal(one.run(), "3");
  assert.equal(one.call?.site?.call?.fn.name, "ADD");
  t.world.set(t.wiz, "ONE", "plain");
  assert.equal(one.run(), "plain");
  assert.equal(one.call?.site?.call, null);
  t.world.set(t.wiz, "ONE", "");
  assert.equal(one.run(), "");
  t.world.set(t.wiz, "ONE", "[add(2,2)]");
  assert.equal(one.run(), "4");
});
