/**
 * iter()'s bodies parsed once (src/softcode/template.ts) give what MUX's text-by-text way gives:
 * every body here, with every item, both ways, and the cases that must take the text way.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { EVAL_ARG } from "./types.ts";
import { inertItem, splitInert } from "./template.ts";
import { splitList } from "./list.ts";
import { replaceTokens } from "./functions/control.ts";

const BODIES = [
  "##",
  "#@",
  "strlen(##)",
  "[strlen(##)]",
  "##:#@",
  "  ## - #@  ",
  "add(#@,1)",
  "[add(#@,##)]",
  "ljust(##,6,.)[rjust(#@,3)]",
  "cat(##,##,#@)",
  "[setq(0,##)]%q0",
  "{##}",
  "before(##,a)",
  "first(## #@)",
  "ucstr(##)x##y",
  "[u(me/FN,##)]",
  "## ##",
  "iter(1 2,##)",
  "if(##,yes,no)",
  "##(1)",
  "## (1)",
  "x##(1)",
  "%q##",
  "\\##",
  "[##]",
  "lit(##)",
  "edit(##,a,b)",
  "switch(##,a*,A,B)",
  "mul(##,2)",
  "switch(1,1,[name(##)]-#@,no)",
  "switch(##,#1,one #$,other ##)",
  "switch(x,x,###$)",
  "switch(x,x,#$##)",
  "switch(##,#$,iter(a b,## %b #@))",
  "ifelse(##,[u(me/FN,##)],#@)",
  "if(strlen(##),{[ucstr(##)]},none)",
  "switch(1,1,[switch(##,a*,x#$y,z)])",
  "cand(##,#@)",
  "cor(0,##)",
  "switch(1,1,lit(##))",
  "switch(1,1,##(1))",
  "switch(%%,%%,#$##)",
  "switch(1,1,%x<##>)",
  "localize(setq(0,##)%q0)",
  "switch(and(hasflag(##,dark),not(0)),1,,%r[ljust(##,6,.)] [switch(1,##,yes)])",
  "[switch(##,a,{[iter(x y,[switch(1,1,##)])]},b)]",
  // One leaf call of literals and tokens: run as a call (Template.call).
  "ljust(##,6,.)",
  "mid(##,0,#@)",
  "repeat(#@,2)",
  "pos(a,##)",
  "strlen()",
  "center(##,#@,-)",
  "strtrunc(##,2)",
  "ucstr(#@)",
  "edit(##,##,#@)",
  "comp(##,b)",
  "strlen(## )",
  "strlen(x##)",
  // Leaf calls of literals and tokens with text between: run as pieces (Template.parts).
  "[ljust(##,4)]",
  "x[strlen(##)]y[strlen(#@)]z",
  "ljust(##,3,-)[rjust(#@,3)][center(##,5,*)]",
  "[mid(##,0,#@)][abc]",
  "ljust(##,3)x",
  "ljust(##,2,%xr.)[rjust(#@,2)]",
  "strlen(##)[add(#@,1)]",
  "[strlen(##)][strlen(##)]%b",
  "[strlen(##)]strlen(#@)",
];
const ITEMS = [
  "a",
  "abc",
  "12",
  "-3.5",
  "#1",
  "add",
  "strlen",
  "x=y",
  "a*b",
  "é",
  "a.b",
  "#@",
  "##",
  "0",
  "5#",
  "a##b",
  "a#@b",
  "a#b",
];

Deno.test("iter(): a body parsed once gives what the text-by-text way gives", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "FN", "<%0>");
  const ev = t.sc.begin({ executor: t.wiz });
  const frame = ev.topFrame();
  let templated = 0;
  for (const body of BODIES) {
    const tmpl = t.sc.template(body, EVAL_ARG);
    for (const [n, item] of ITEMS.entries()) {
      const want = ev.eval(frame, replaceTokens(body, item, String(n + 1), null), EVAL_ARG);
      if (!tmpl || !inertItem(item)) continue;
      templated++;
      assert.equal(ev.runItem(frame, tmpl, item, n + 1), want, `${body} with ${item}`);
    }
  }
  t.sc.end(ev);
  assert.ok(templated > 100, `only ${templated} cases ran from a template`);
});

Deno.test("iter(): a body that is one leaf call of literals and tokens is run as that call", () => {
  const t = testSoftcode();
  const call = (body: string) => t.sc.template(body, EVAL_ARG)?.call?.fn.name ?? null;
  assert.equal(call("strlen(##)"), "STRLEN");
  assert.equal(call("ljust(##,12,.)"), "LJUST");
  assert.equal(call("mid(##,0,#@)"), "MID");
  // Anything more is run through the program: a bracket, text beside the call, an argument
  // that is more than a literal or a token, a function that is not a leaf, four arguments.
  for (
    const body of [
      "[strlen(##)]",
      "strlen(##)x",
      "strlen(x##)",
      "strlen(add(##,1))",
      "first(##)",
      "add(##,1)",
      "edit(##,a,b,c)",
      "switch(##,a,b)",
    ]
  ) {
    assert.equal(call(body), null, body);
  }
  // The call counts as one invocation, as it did through the program, and stops at the limit.
  const limited = testSoftcode({ functionInvocations: 10 });
  const out = limited.run("[iter(a b c d e f g h i j k l,strlen(##),,|)]").split("|");
  assert.ok(out.length < 12, out.join("|"));
  assert.deepEqual(out.slice(0, 8), Array(8).fill("1"));
  // Coloured results end back at normal, as through the program.
  assert.equal(t.raw("iter(a b,ljust(##,2,%xr.))"), t.raw("iter(a b,[ljust(##,2,%xr.)])"));
  // A body that is the call with nothing to put in (no token) takes the text way, unchanged.
  assert.equal(t.run("iter(a b,strlen(xyz))"), "3 3");
});

Deno.test("iter(): a body of leaf calls and text is run as its pieces, as its program runs", () => {
  const t = testSoftcode();
  const parts = (body: string) =>
    t.sc.template(body, EVAL_ARG)?.parts?.map((p) => p.call?.fn.name ?? `'${p.text}'`).join(" ") ??
      null;
  assert.equal(parts("ljust(##,12,.)[rjust(#@,4)]"), "LJUST RJUST");
  assert.equal(parts("[strlen(##)]"), "STRLEN");
  assert.equal(parts("x[strlen(##)]y[abc]"), "'x' STRLEN 'yabc'");
  // One call alone is Template.call; anything else is run through the program: a call that is
  // not a leaf, an argument more than a literal or a token, a substitution, a bracket of more
  // than one call, a call after the start outside brackets (text, as the parser reads it).
  for (
    const body of [
      "strlen(##)",
      "strlen(##)[add(#@,1)]",
      "[strlen(x##)]y",
      "[strlen(##)]%q0",
      "<[ljust(##,3,.)]>[rjust(#@,2)]|%q9",
      "[strlen(##)strlen(#@)]",
      "[strlen(##)][first(##)]",
    ]
  ) {
    assert.equal(parts(body), null, body);
  }
  // Under every invocation limit from 1 to 40, the pieces give what the program gives (the
  // same body with an unset register, which adds nothing, takes the program): calls stop
  // alike, and the text around them is kept.
  for (let limit = 1; limit <= 40; limit++) {
    const w = testSoftcode({ functionInvocations: limit });
    const list = "a bb ccc dddd e ff ggg hhhh i jj";
    const pieces = w.run(`[iter(${list},<[ljust(##,3,.)]>[rjust(#@,2)]|)]`);
    const program = w.run(`[iter(${list},<[ljust(##,3,.)]>[rjust(#@,2)]|%q9)]`);
    assert.equal(pieces, program, `limit ${limit}`);
  }
  // And when the time budget runs out at any point (each read of the clock moves it 1 ms).
  let halted = 0;
  for (let ms = 1; ms <= 60; ms++) {
    const run = (body: string) => {
      let clock = 0;
      const w = testSoftcode({ evaluationMs: ms, actorMs: 1e9, gameMs: 1e9 }, () => clock++);
      return w.run(`[iter(lnum(300),${body})]`);
    };
    const pieces = run("<[ljust(##,3,.)]>[rjust(#@,2)]|");
    assert.equal(pieces, run("<[ljust(##,3,.)]>[rjust(#@,2)]|%q9"), `${ms} ms`);
    if (pieces.split(" ").length < 300) halted++;
  }
  assert.ok(halted > 10, `${halted} halted`);
});

Deno.test("iter(): bodies whose tokens could be read take the text way", () => {
  const t = testSoftcode();
  for (
    const body of [
      "##(1)",
      "## (1)",
      "x##(1)",
      "%q##",
      "\\##",
      "lit(##)",
      "iter(a b,##)",
      "switch(##,a,%q##)",
      "no tokens",
    ]
  ) {
    assert.equal(t.sc.template(body, EVAL_ARG), null, body);
  }
  for (
    const item of ["", "a b", "a,b", "[x]", "f(x)", "%r", "a\\b", "{a}", "a;b", "5#", "a##b", "#@"]
  ) {
    assert.equal(inertItem(item), false, item);
  }
  // Through iter() itself, both ways.
  assert.equal(t.run("iter(add strlen,##(1))"), "1 1");
  assert.equal(t.run("iter(a|b c|d,strlen(##),|)"), "1 3 1");
  assert.equal(t.run("iter(a b c,##:#@)"), "a:1 b:2 c:3");
  // The outer iter() puts its item in the inner one's text first, as MUX does.
  assert.equal(t.run("iter(x y,iter(1 2,##-#@))"), "x-1 x-1 y-2 y-2");
  assert.equal(t.run("iter(x y,[iter(1 2,itext(1)[itext(0)])])"), "x1 x2 y1 y2");
});

Deno.test("iter(): a switch() in a body parsed once reads the item where MUX's text has it", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "FN", "<%0>");
  t.world.set(t.wiz, "INNER", "iter(p q,##)");
  // The branch is run from the body's parse, the item read in place.
  assert.ok(t.sc.template("switch(1,1,[ucstr(##)]-#@)", EVAL_ARG));
  assert.equal(t.run("iter(a b,switch(1,1,[ucstr(##)]-#@))"), "A-1 B-2");
  assert.equal(t.run("iter(a b,switch(##,a,[u(me/FN,##)],no #$))"), "<a> no b");
  // A nested iter() sees the outer item in its text; a u()'s own iter() its own items.
  assert.equal(t.run("iter(x y,switch(1,1,iter(1 2,##-#@)))"), "x-1 x-1 y-2 y-2");
  assert.equal(t.run("iter(x y,switch(1,1,##:[u(me/INNER)]:##))"), "x:p q:x y:p q:y");
  // #$ after the item joins nothing with it; a `%` put before the item by #$ reads it, as in
  // MUX's text (the item's first letter is a substitution there).
  assert.equal(t.run("iter(a b,switch(z,z,##%b#$))"), "a z b z");
  assert.equal(t.run("iter(n,switch(%%,%%,#$##))"), t.run("switch(%%,%%,#$n)"));
  // An item that ends in `#` would make a `#$` of MUX's text: that one goes the text way.
  assert.equal(t.run("iter(5#,switch(z,z,##$))"), "5z");
});

Deno.test("iter(): an attribute a body calls runs outside the body's template", () => {
  const t = testSoftcode();
  // MUX puts the item in the body's text only: an attribute's own text, whatever it holds (here
  // the stand-ins' characters, stored as they are), is never read as the loop's item.
  t.world.set(t.wiz, "ODD", "<\uFDE0|\uFDE1>");
  t.world.set(t.wiz, "NEST", "switch(1,1,[u(me/ODD)])");
  const want = t.raw("u(me/ODD)");
  assert.equal(want, "<\uFDE0|\uFDE1>");
  assert.ok(t.sc.template("switch(1,1,[u(me/ODD)]##)", EVAL_ARG));
  assert.equal(t.raw("iter(a b,switch(1,1,[u(me/ODD)]##))"), `${want}a ${want}b`);
  assert.equal(t.raw("iter(a b,switch(1,1,[u(me/NEST)]#@))"), `${want}1 ${want}2`);
  assert.equal(t.raw("iter(a b,[u(me/ODD)]##)"), `${want}a ${want}b`);
});

Deno.test("iter(): an attribute a body evaluates with get_eval() or eval() runs outside the template too", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "ODD", "<\uFDE0|\uFDE1>");
  const want = t.raw("get_eval(me/ODD)");
  assert.equal(want, "<\uFDE0|\uFDE1>");
  assert.equal(t.raw("iter(a b,[get_eval(me/ODD)]##)"), `${want}a ${want}b`);
  assert.equal(t.raw("iter(a b,[eval(me,ODD)]#@)"), `${want}1 ${want}2`);
});

Deno.test("template: splitInert splits as splitList and says whether inertItem holds for every item", () => {
  const chars = [
    "a",
    "b",
    "#",
    " ",
    "@",
    "$",
    " ",
    "\t",
    "\r",
    "\u00a0",
    "\u2028",
    "\u3000",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "^",
    ";",
    "\\",
    "%",
    ",",
    "\uFDD0",
    "\uFDE0",
    "\uFDEF",
    "\uFDF0",
    "é",
  ];
  let seed = 38;
  // The high bits: a power-of-two modulus of this stream's low bits repeats every few draws.
  const next = (n: number) => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 12) % n;
  let inert = 0;
  for (let i = 0; i < 40_000; i++) {
    let list = "";
    for (let j = 0, n = next(12); j < n; j++) list += chars[next(j % 3 ? 4 : chars.length)];
    const split = splitInert(list);
    assert.deepEqual(split.items, splitList(list, " "), JSON.stringify(list));
    const each = split.items.every(inertItem);
    assert.equal(split.inert, each, JSON.stringify(list));
    if (each) inert++;
  }
  assert.ok(inert > 3_000, `${inert} inert lists`);
});
