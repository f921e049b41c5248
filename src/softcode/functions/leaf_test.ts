import assert from "node:assert/strict";
import { builtinFunctions } from "./mod.ts";
import { testSoftcode } from "../_test_world.ts";

Deno.test("leaf functions: each is eager, and its code names its evaluation unused and never reads it", () => {
  const table = builtinFunctions();
  let leaves = 0;
  for (const name of table.names()) {
    const fn = table.get(name)!;
    if (!fn.leaf) continue;
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
