/**
 * iter()'s bodies parsed once (src/softcode/template.ts) give what MUX's text-by-text way gives:
 * every body here, with every item, both ways, and the cases that must take the text way.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { EVAL_ARG } from "./types.ts";
import { inertItem } from "./template.ts";
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
      assert.equal(ev.runItem(frame, tmpl, item, String(n + 1)), want, `${body} with ${item}`);
    }
  }
  t.sc.end(ev);
  assert.ok(templated > 100, `only ${templated} cases ran from a template`);
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
      "switch(##,a,b)",
      "no tokens",
    ]
  ) {
    assert.equal(t.sc.template(body, EVAL_ARG), null, body);
  }
  for (const item of ["", "a b", "a,b", "[x]", "f(x)", "%r", "a\\b", "{a}", "a;b"]) {
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
