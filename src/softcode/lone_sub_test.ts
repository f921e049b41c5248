import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";

// An argument that is one substitution is read without run() (Evaluation.arg, callNum): each
// kind of call that takes one gives what the substitution gives in text.

Deno.test("lone substitution: %0-%9 as a leaf's, an arithmetic's and a general call's argument", () => {
  const t = testSoftcode();
  const lib = t.world.add("Lib", "thing", { location: t.room, owner: t.wiz });
  t.world.set(
    lib,
    "F",
    "[strlen(%0)]|[add(%1,%2)]|[cat(%3,x)]|[strlen(%9)]|[add(%9,1)]|[words(%3 %0)]|[mul(%2,%2,%2)]",
  );
  assert.equal(t.run(`[u(#${lib}/F,abc,2,3,word)]`), "3|5|word x|0|1|2|27");
  // The same attribute through a program already run: nothing kept from the first arguments.
  assert.equal(t.run(`[u(#${lib}/F,abcd,-2,4.5,two words)]`), "4|2.5|two words x|0|1|3|91.125");
  // Ten arguments: %9 is the last.
  t.world.set(lib, "G", "[strlen(%9)]:[add(%9,%8)]");
  assert.equal(t.run(`[u(#${lib}/G,0,1,2,3,4,5,6,7,80,900)]`), "3:980");
});

Deno.test("lone substitution: other substitutions and an upper-cased one as before", () => {
  const t = testSoftcode();
  const lib = t.world.add("Lib", "thing", { location: t.room, owner: t.wiz });
  t.world.set(lib, "F", "[strlen(%#)]|[cat(%q0,y)]|[add(%q1,1)]|[cat(%N,z)]|[strlen(%+)]");
  assert.equal(
    t.run(`[setq(0,reg)][setq(1,41)][u(#${lib}/F,a,b)]`),
    `${`#${t.wiz}`.length}|reg y|42|Wizard z|1`,
  );
});

Deno.test("lone substitution: a long %0 is cut to the output limit, as run() cuts it", () => {
  const t = testSoftcode();
  t.sc.limits = { ...t.sc.limits, outputLength: 21 };
  const long = "a".repeat(50);
  const run = (text: string) => t.sc.evaluate(text, { executor: t.wiz, args: [long, "7"] });
  // The limit keeps 20 characters (one for MUX's terminator).
  assert.equal(run("[strlen(%0)]"), "20");
  assert.equal(run("[strlen(%0 )]"), "20");
  assert.equal(run("[add(strlen(%0),%1)]"), "27");
});
