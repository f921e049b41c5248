import assert from "node:assert/strict";
import { builtinFunctions } from "./mod.ts";
import { testSoftcode } from "../_test_world.ts";

Deno.test("leaf functions: each is eager, and its code names its evaluation unused and never reads it", () => {
  const table = builtinFunctions();
  let leaves = 0;
  for (const name of table.names()) {
    const fn = table.get(name)!;
    if (fn.reads !== "args") continue;
    leaves++;
    assert.equal(fn.lazy, false, name);
    assert.equal(fn.num, undefined, name);
    const src = fn.impl.toString();
    // `(_ev, _f, args) => ...`: the first parameter's name, and that it appears nowhere else.
    const first = /^\(\s*([A-Za-z_$][\w$]*)/.exec(src)?.[1] ?? "";
    assert.ok(first.startsWith("_"), `${name}: ${src.slice(0, 40)}`);
    assert.equal(src.split(new RegExp(`\\b${first.replace("$", "\\$")}\\b`)).length, 2, name);
  }
  assert.ok(leaves >= 20, `${leaves} leaf functions`);
});

Deno.test("leaf functions: a call of the same node inside an argument, through u(), leaves the outer call's arguments whole", () => {
  const t = testSoftcode();
  // REC(k) = left(<k>abcdefgh, REC(k-1) read as an integer); REC(0) = 3. The same parsed call
  // runs at every level once the attribute's text is kept parsed.
  t.world.set(t.wiz, "REC", "ifelse(%0,left(%0abcdefgh,u(me/REC,dec(%0))),3)");
  t.world.set(t.wiz, "REC3", "ifelse(%0,mid(%0abcdefgh,u(me/REC3,dec(%0)),2),1)");
  for (let i = 0; i < 3; i++) {
    assert.equal(t.run("u(me/REC,7)"), "7abcde");
    assert.equal(t.run("u(me/REC,1)"), "1ab");
    // REC3(k) = mid(<k>abcdefgh, REC3(k-1) as an integer, 2); REC3(0) = 1.
    assert.equal(t.run("u(me/REC3,1)"), "ab");
    assert.equal(t.run("u(me/REC3,2)"), "2a");
    assert.equal(t.run("u(me/REC3,5)"), "de");
    assert.equal(t.run("[iter(a bb ccc,strlen(##)[strlen(#@#@)])]"), "12 22 32");
  }
});

Deno.test("leaf functions: the truth functions, words() and member() called again inside their own arguments give their answers", () => {
  const table = builtinFunctions();
  for (const name of ["NOT", "T", "AND", "OR", "XOR", "LAND", "LOR", "WORDS", "MEMBER"]) {
    assert.equal(table.get(name)!.reads, "args", name);
  }
  const t = testSoftcode();
  // MEM(k) = member(a 1 0 b, MEM(k-1)) and MEM(0) = b: the same parsed member() call at each
  // level, its kept array written by the inner call before the outer reads its own.
  t.world.set(t.wiz, "MEM", "ifelse(%0,member(a 1 0 b,u(me/MEM,dec(%0))),b)");
  // LOG(k) = and(or(0,k), not(LOG(k-1)), 1) and LOG(0) = 0: 1 0 1 0 ... as k rises.
  t.world.set(t.wiz, "LOG", "ifelse(%0,and(or(0,%0),not(u(me/LOG,dec(%0))),1),0)");
  t.world.set(t.wiz, "WDS", "ifelse(%0,words(u(me/WDS,dec(%0)) x y z),a)");
  for (let i = 0; i < 3; i++) {
    assert.equal(t.run("[iter(0 1 2 3 4,u(me/MEM,##))]"), "b 4 0 3 0");
    assert.equal(t.run("[iter(0 1 2 3 4,u(me/LOG,##))]"), "0 1 0 1 0");
    assert.equal(t.run("[iter(0 1 2,u(me/WDS,##))]"), "a 4 4");
    assert.equal(t.run("[and(1,1,1,1,0)][or(0,0,0,0,1)][and()][or()]"), "0110");
    assert.equal(t.run("[iter(1 0 x,[and(##,1)][or(##,0)][not(##)])]"), "110 001 000");
  }
});

Deno.test("inert functions: each is eager, and neither its code nor the helpers it calls run softcode", () => {
  const table = builtinFunctions();
  let inert = 0;
  // What runs softcode: the evaluation's entry points, u()'s, and a lock's evaluation.
  const runs = /\.(eval|evalAttr|evalAttrAt|evalLazy|evalTop|run|invoke|call)\(|callAttr|ufun|Lock/;
  for (const name of table.names()) {
    const fn = table.get(name)!;
    if (fn.reads !== "world") continue;
    inert++;
    assert.equal(fn.lazy, false, name);
    assert.equal(fn.num, undefined, name);
    assert.ok(!runs.test(fn.impl.toString()), name);
  }
  // Nine, two of them also under a second name (connsecs(), idlesecs()).
  assert.equal(inert, 11);
  // The helpers those call (objects.ts), read the same way.
  const src = Deno.readTextFileSync(new URL("./objects.ts", import.meta.url));
  for (
    const helper of [
      "thing",
      "shownLoc",
      "hasFlagNamed",
      "letterFlag",
      "orNot",
      "visibleOnlinePlayer",
    ]
  ) {
    const at = src.search(new RegExp(`^(export )?function ${helper}\\(`, "m"));
    assert.ok(at >= 0, helper);
    const body = src.slice(at, src.indexOf("\n}\n", at));
    assert.ok(!runs.test(body), helper);
  }
});

Deno.test("inert functions: a call inside another's argument, and the same call row after row, each read their own arguments", () => {
  const t = testSoftcode();
  const box = t.world.add("Box", "thing", { location: t.room, owner: t.wiz });
  t.world.set(t.wiz, "ITEMS", `#${box} me here #-1`);
  for (let i = 0; i < 3; i++) {
    assert.equal(
      t.run(
        "[iter(v(items),[name(##)]/[type(##)]/[hasflag(##,[name(##)])]/[name(loc(loc(##)))],,|)]",
      ),
      // As without the kept arrays (the same answers, checked both ways).
      "Box/THING/0/#-1 NOT FOUND|Wizard/PLAYER/1/#-1 NOT FOUND|Limbo/ROOM/0/#-1 NOT FOUND|" +
        "#-1 NOT FOUND/#-1 NOT FOUND/#-1 NOT FOUND/#-1 NOT FOUND",
    );
  }
});
