import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { ERR_CPU, ERR_INVOCATION, ERR_RECURSION, TOP_FLAGS } from "./eval.ts";
import { NORMAL, paletteMarker, stripMarkup, toWire } from "./markup.ts";
import { EV } from "./types.ts";

Deno.test("softcode: substitutions name the enactor, executor and caller", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "SEX", "female");
  assert.equal(
    t.run("%# %! %@ %n %N %l"),
    `#${t.wiz} #${t.wiz} #${t.wiz} Wizard Wizard #${t.room}`,
  );
  assert.equal(t.run("%s %o %p %a %S"), "she her her hers She");
  t.world.set(t.wiz, "SEX", "plural");
  assert.equal(t.run("%s/%o/%p/%a"), "they/them/their/theirs");
  t.world.set(t.wiz, "SEX", "");
  assert.equal(t.run("%s"), "it");
  t.world.set(t.wiz, "VA", "alpha");
  assert.equal(t.run("[%va]-%VA"), "alpha-Alpha");
});

Deno.test("softcode: %0-%9 and %+ come from the u() arguments", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "SHOW", "%0|%1|%9|%+");
  assert.equal(t.run("[u(me/SHOW,a,b)]"), "a|b||2");
});

Deno.test("softcode: v() reads an argument, a substitution or an attribute, as MUX's does", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "SEX", "female");
  t.world.set(t.wiz, "N", "an attribute named N");
  t.world.set(t.wiz, "AB", "attribute AB");
  t.world.set(t.wiz, "_A", "attribute _A");
  // Recorded on TinyMUX 2.12: digits (as atol() reads them) are arguments, one letter (or #)
  // is its %-substitution, two or more characters starting as a name are an attribute.
  t.world.set(
    t.wiz,
    "SHOW",
    "[v(0)]|[v(1)]|[v(01)]|[v(1abc)]|[v(+1)]|[v(-1)]|[v(10)]|[v(!)]|[v(=)]|[v(#)]|[v(n)]|[v(s)]" +
      "|[v(ab)]|[v(_a)]|[v(nosuch)]",
  );
  assert.equal(
    t.run("[u(me/SHOW,a0,a1,a2,a3,a4,a5,a6,a7,a8,a9,a10)]"),
    `a0|a1|a1|a1|a1||a10|a0|a0|#${t.wiz}|Wizard|she|attribute AB|attribute _A|`,
  );
});

Deno.test("softcode: named registers work as in newer MUX and PennMUSH", () => {
  const t = testSoftcode();
  assert.equal(t.run("[setq(total,42)]%q<total> [r(total)]"), "42 42");
  assert.equal(t.run("[setq(bad name,1)]"), "#-1 INVALID GLOBAL REGISTER");
});

Deno.test("softcode: registers are each evaluation's own, and a request's registers go in and out", () => {
  const t = testSoftcode();
  // Read before any is set, set, then gone in the next evaluation (each makes its own).
  assert.equal(t.run("[r(0)]%q0-[setq(0,a)][setq(x,b)]%q0%qx"), "-ab");
  assert.equal(t.run("[r(0)]%q0%qx-[localize(setq(0,c)%q0)]%q0"), "-c");
  assert.equal(t.run("%q0"), "");
  // A request's registers (a queued entry's) are read, and what it leaves is copied back.
  const regs = new Map([["0", "in"]]);
  t.sc.evaluate("%q0[setq(1,out)]", { executor: t.wiz, regs });
  assert.deepEqual([...regs], [["0", "in"], ["1", "out"]]);
  const none = new Map<string, string>();
  assert.equal(t.sc.evaluate("%q0", { executor: t.wiz, regs: none }), "");
  assert.equal(none.size, 0);
});

Deno.test("softcode: iter sets ##, #@, %i0 and itext() in nested loops", () => {
  const t = testSoftcode();
  assert.equal(t.run("[iter(a b,[iter(1 2,%i1%i0)])]"), "a1 a2 b1 b2");
  assert.equal(t.run("[iter(x y,[itext(0)][inum(0)])]"), "x1 y2");
});

Deno.test("softcode: control functions evaluate only the branch taken", () => {
  const t = testSoftcode();
  assert.equal(t.run("[ifelse(1,[setq(0,yes)],[setq(0,no)])]%q0"), "yes");
  assert.equal(t.run("[switch(b,a,[setq(1,A)],b,[setq(1,B)])]%q1"), "B");
  assert.equal(t.run("[cand(0,[setq(2,ran)])]%q2"), "0");
});

Deno.test("softcode: colour codes become markers and reach delivery as codes", () => {
  const t = testSoftcode();
  const out = t.raw("%xrred%xn [ansi(h,bold)]");
  assert.equal(stripMarkup(out), "red bold");
  assert.ok(out.startsWith(paletteMarker(1, false)));
  assert.equal(toWire(out), "%crred%cn %chbold%cn");
  assert.equal(toWire(t.raw("100%% %%r")), "100%% %%r");
  assert.equal(toWire(t.raw("a%rb")), "a\nb");
  assert.ok(t.raw("[ansi(r,x)]").endsWith(NORMAL));
});

Deno.test("softcode: unbalanced brackets and parentheses stay as text", () => {
  const t = testSoftcode();
  assert.equal(t.run("[add(1,2"), "[add(1,2");
  assert.equal(t.run("add(1,2"), "add(1,2");
  assert.equal(t.run("]]) )"), "]]) )");
  assert.equal(t.run("{{{"), "{{{");
});

Deno.test("softcode: a very long function name gives MUX's error, within the limits", () => {
  const t = testSoftcode();
  const out = t.run(`[${"x".repeat(7_000)}(1)]`);
  assert.ok(out.startsWith("#-1 FUNCTION (XXXX"));
  assert.ok(out.endsWith("XXX) NOT FOUND"));
  // 10,000 characters is longer than any text MUX evaluates (an LBUF): it is cut to 7,999
  // first, so the bracket never closes and the text stays text, as on MUX.
  const long = t.run(`[${"x".repeat(10_000)}(1)]`);
  assert.equal(long.length, 7_999);
  assert.ok(long.startsWith("[xxx"));
});

Deno.test("softcode: 100,000 nested brackets parse without exhausting the stack", () => {
  const t = testSoftcode();
  const deep = "[".repeat(100_000) + "add(1,2)" + "]".repeat(100_000);
  const out = t.run(deep);
  assert.equal(typeof out, "string");
  const parens = "add(".repeat(50_000) + "1" + ")".repeat(50_000);
  assert.equal(typeof t.run(`[${parens}]`), "string");
  const braces = "{".repeat(100_000) + "x" + "}".repeat(100_000);
  assert.equal(typeof t.run(`[lit(${braces})]`), "string");
});

Deno.test("softcode: repeat(x,1000000000) is cut to the output limit", () => {
  const t = testSoftcode();
  assert.equal(t.run("[strlen(repeat(x,1000000000))]"), "7999");
  assert.equal(t.run("[repeat(ab,1000000000)]"), "#-1 STRING TOO LONG");
  assert.equal(t.run("[strlen(lnum(1,100000000))]").length > 0, true);
  assert.ok(Number(t.run("[strlen(lnum(1,100000000))]")) <= 7999);
});

Deno.test("softcode: endless u() recursion stops with the recursion error", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "LOOP", "[u(me/LOOP)]");
  assert.equal(t.run("[u(me/LOOP)]"), ERR_RECURSION);
  t.world.set(t.wiz, "WIDE", "[u(me/WIDE)][u(me/WIDE)]");
  const out = t.run("[u(me/WIDE)]");
  assert.ok(out.includes(ERR_RECURSION) || out.includes(ERR_INVOCATION) || out.includes(ERR_CPU));
});

Deno.test("softcode: the invocation limit stops a runaway evaluation", () => {
  const t = testSoftcode({ functionInvocations: 500 });
  const out = t.run("[iter(lnum(10000),add(##,1))]");
  assert.ok(out.includes(ERR_INVOCATION) || out.split(" ").length < 600);
});

Deno.test("softcode: the time budget stops an evaluation, and the actor's budget refuses more", () => {
  let clock = 0;
  const t = testSoftcode({ evaluationMs: 50, actorMs: 100, actorWindowMs: 10_000 });
  // Each read of the clock moves it 1 ms, so a long loop runs out of time.
  (t.sc as unknown as { monotonic: () => number }).monotonic = () => clock++;
  const out = t.run("[iter(lnum(5000),add(##,1))]");
  assert.ok(out.length < 5000 * 4, "stopped early");
  // The actor has now used its budget in this window: the next evaluation is refused.
  t.run("[iter(lnum(5000),add(##,1))]");
  assert.equal(t.run("[add(1,1)]"), ERR_CPU);
});

Deno.test("softcode: no function throws past the evaluator", () => {
  const t = testSoftcode();
  const hostile = ["", "-1", "99999999999999999999", "abc", "#-1", "%", "\\", "[", "é😀", ","];
  const names = t.sc.functions as unknown as { names(): string[] };
  for (const name of names.names()) {
    if (["PEMIT", "REMIT", "OEMIT", "CREATE", "SET", "TEL"].includes(name)) continue;
    for (const a of hostile) {
      for (const n of [0, 1, 2, 3, 5]) {
        const args = Array.from({ length: n }, () => a).join(",");
        const out = t.run(`[${name}(${args})]`);
        assert.equal(typeof out, "string", `${name}(${args})`);
        assert.ok(out.length <= 7999, `${name}(${args}) too long`);
      }
    }
  }
});

Deno.test("softcode: parsed texts are cached by text and flags, from their second time", () => {
  const t = testSoftcode();
  const size = t.sc.cacheSize;
  t.run("[add(1,2)]");
  assert.equal(t.sc.cacheSize, size, "a text seen once is not kept");
  t.run("[add(1,2)]");
  assert.equal(t.sc.cacheSize, size + 1);
  t.run("[add(1,2)]");
  assert.equal(t.sc.cacheSize, size + 1);
  const curly = EV.EVAL | EV.FCHECK | EV.STRIP_CURLY;
  t.sc.evaluate("[add(1,2)]", { executor: t.wiz, flags: curly });
  t.sc.evaluate("[add(1,2)]", { executor: t.wiz, flags: curly });
  assert.equal(t.sc.cacheSize, size + 2);
});

Deno.test("softcode: long typed lines that differ in one character are each seen once", () => {
  const t = testSoftcode();
  const size = t.sc.cacheSize;
  const body = "[add(1,2)]".repeat(40);
  // A counter in a marker, as typed lines carry: every position of the digits is tried.
  for (let i = 0; i < 200; i++) assert.equal(t.run(`m${i}x${body}`).length, 40 + `m${i}x`.length);
  assert.equal(t.sc.cacheSize, size);
});

Deno.test("softcode: a typed line is parsed without the cache, with the same result", () => {
  const t = testSoftcode();
  const size = t.sc.cacheSize;
  const line = "[add(1,2)] [iter(a b,[ucstr(##)])] [switch(x,x,yes,no)] %#";
  const want = t.run(line);
  for (let i = 0; i < 3; i++) {
    assert.equal(t.sc.evaluate(line, { executor: t.wiz, typed: true }), want);
  }
  // Seen four times, but kept only when evaluated untyped again.
  assert.equal(t.sc.cacheSize, size);
  t.run(line);
  assert.equal(t.sc.cacheSize, size + 1);
});

Deno.test("softcode: a text that is one literal is parsed again rather than kept", () => {
  const t = testSoftcode();
  const size = t.sc.cacheSize;
  for (let i = 0; i < 100; i++) {
    assert.equal(t.run(`plain words ${i}`), `plain words ${i}`);
    assert.equal(t.run(`plain words ${i}`), `plain words ${i}`);
  }
  assert.equal(t.sc.cacheSize, size);
});

Deno.test("softcode: the parsed-text cache is bounded, and a text in use stays in it", () => {
  // 50,000 evaluations in one turn of the event loop share one evaluation's time (docs/softcode.md,
  // "One turn, one evaluation's time"): the cache is under test, not the limits.
  const t = testSoftcode({ evaluationMs: 1e9, actorMs: 1e9, gameMs: 1e9 });
  t.run("[add(1,2)]");
  // Twice each: a text is kept from its second time.
  for (let i = 0; i < 25_000; i++) {
    t.run(`[add(${i},1)]`);
    t.run(`[add(${i},1)]`);
  }
  // Two generations of at most 10,000 each; the oldest went without any walk over them.
  assert.ok(t.sc.cacheSize <= 20_000, `${t.sc.cacheSize} held`);
  const held = t.sc.cacheSize;
  t.run("[add(24999,1)]");
  assert.equal(t.sc.cacheSize, held);
  assert.equal(t.run("[add(1,2)]"), "3");
});

Deno.test("softcode: a catastrophic regular expression runs in linear time", () => {
  const t = testSoftcode();
  const text = "a".repeat(7_000) + "b";
  assert.equal(t.run(`[regmatch(${text},^(a+)+$)]`), "0");
  assert.equal(t.run(`[regmatch(${text},(a|aa)*c)]`), "0");
  assert.ok(t.run("[regmatch(abc,\\[)]").startsWith("#-1 REGEXP ERROR"));
  assert.ok(t.run(`[regmatch(a,${"a".repeat(1_001)})]`).startsWith("#-1 REGEXP ERROR"));
  assert.equal(t.run("[regmatch(abab,(ab)\\\\1)]").startsWith("#-1 REGEXP ERROR"), true);
});

Deno.test("softcode: players cannot type a colour marker (input drops noncharacters)", async () => {
  const { sanitizeLine } = await import("../commands/parser.ts");
  const typed = sanitizeLine("think \uFDD1\u0101red? \uFDD0h", 8192);
  assert.equal(typed, "think \u0101red? h");
  const t = testSoftcode();
  assert.equal(toWire(t.raw(typed.slice(6))), "\u0101red? h");
});

Deno.test("softcode: align() lays out columns as PennMUSH does", () => {
  const t = testSoftcode();
  assert.equal(t.run("[align(5 >5,ab,cd)]"), "ab       cd");
  assert.equal(t.run("[align(3 -5,one two,x)]"), "one   x  \r\ntwo      ");
  assert.equal(t.run("[align(4,abcdefgh)]"), "abcd\r\nefgh");
  assert.equal(t.run("[align(3,a,b)]").startsWith("#-1"), false);
});

Deno.test("softcode: one long wildcard match stops at the evaluation's deadline", () => {
  // Before: a match was one uninterruptible step: strmatch() and switch() of an 8,000-character
  // text ran about 200 ms each past the deadline, and a switch() of 20 such cases 1.5 s.
  const long = "[setq(t,repeat(a,7999))][setq(p,*[repeat(a,3999)]b)]";
  for (const code of ["[strmatch(%qt,%qp)]", "[switch(%qt,%qp,x,%qp,y,no)]"]) {
    // A payer's evaluations in one turn share its time: each case in an engine of its own.
    let clock = 0;
    const t = testSoftcode({ evaluationMs: 50, actorMs: 1e9, gameMs: 1e9 }, () => clock++);
    const before = clock;
    // The match ends at the deadline, and the evaluation with it.
    const out = t.sc.evaluate(`${long}${code}[add(1,1)]`, { executor: t.wiz });
    assert.ok(!out.endsWith("2"), `${code}: ${out}`);
    // The clock is read as the match goes, until the deadline, and no further.
    assert.ok(clock - before < 100, `${code}: read ${clock - before} times`);
  }
});

Deno.test("softcode: a switch() branch holding iter()'s item, kept parsed with it on its call, is parsed again when functions or the parse depth change", () => {
  const t = testSoftcode();
  // One parsed program run again and again, as a cached attribute's is.
  const p = t.sc.compile("[iter(a b,switch(1,1,[[[zork(##)]]]-##-#@))]", TOP_FLAGS);
  const run = () => {
    const ev = t.sc.begin({ executor: t.wiz });
    try {
      return ev.run(ev.topFrame(), p);
    } finally {
      t.sc.end(ev);
    }
  };
  const missing = "#-1 FUNCTION (ZORK) NOT FOUND";
  assert.equal(run(), `${missing}-a-1 ${missing}-b-2`);
  assert.equal(run(), `${missing}-a-1 ${missing}-b-2`);
  // A function defined since: the branch kept parsed would still call an unknown one.
  t.functions.add({
    ...t.functions.get("TIME")!,
    name: "ZORK",
    minArgs: 1,
    maxArgs: 1,
    impl: (_ev, _f, args) => `z${args[0]}`,
  });
  assert.equal(run(), "za-a-1 zb-b-2");
  // A smaller parse depth since: the branch's nesting is now past it.
  t.sc.setLimits({ parseDepth: 2 });
  assert.equal(run(), "-a-1 -b-2");
});

Deno.test("softcode: switch()'s arguments kept parsed on its call are parsed again when functions or the parse depth change", () => {
  const t = testSoftcode();
  // One parsed program run again and again, as a cached attribute's is.
  const p = t.sc.compile("[switch(1,1,[[[zork()]]],no)]-[switch(a,a*,#$[zork()])]", TOP_FLAGS);
  const run = () => {
    const ev = t.sc.begin({ executor: t.wiz });
    try {
      return ev.run(ev.topFrame(), p);
    } finally {
      t.sc.end(ev);
    }
  };
  const missing = "#-1 FUNCTION (ZORK) NOT FOUND";
  assert.equal(run(), `${missing}-a${missing}`);
  assert.equal(run(), `${missing}-a${missing}`);
  // A function defined since: the branch kept parsed would still call an unknown one.
  t.functions.add({
    ...t.functions.get("TIME")!,
    name: "ZORK",
    minArgs: 0,
    maxArgs: 0,
    impl: () => "zorked",
  });
  assert.equal(run(), "zorked-azorked");
  // A smaller parse depth since: the branch's nesting is now past it.
  t.sc.setLimits({ parseDepth: 2 });
  assert.equal(run(), "-azorked");
  // A smaller output limit: a branch longer than it is cut first, as eval() cuts it (here in
  // its call, which then stays text), never run from its parse kept whole.
  const q = t.sc.compile(`[switch(1,1,${"x".repeat(18)}[add(1,2)])]`, TOP_FLAGS);
  const ev = t.sc.begin({ executor: t.wiz });
  try {
    assert.equal(ev.run(ev.topFrame(), q), "x".repeat(18) + "3");
  } finally {
    t.sc.end(ev);
  }
  t.sc.limits = { ...t.sc.limits, outputLength: 21 };
  const cut = t.sc.begin({ executor: t.wiz });
  try {
    assert.equal(cut.run(cut.topFrame(), q), "x".repeat(18) + "[a");
  } finally {
    t.sc.end(cut);
  }
});
