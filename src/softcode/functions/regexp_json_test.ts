/** Regular expressions, registers and JSON, from their help texts (later MUX's and PennMUSH's). */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";

Deno.test("softcode regexp: regrab and regraball", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[regrab(apple banana cherry,^b)] [regraball(apple banana bob,^b)]"),
    "banana banana bob",
  );
  assert.equal(
    run("[regraballi(APPLE BANANA Bob,^b)] [regraball(a|bb|cb,b$,|,-)]"),
    "BANANA Bob bb-cb",
  );
});

Deno.test("softcode regexp: regedit and its kin", () => {
  const { run } = testSoftcode();
  assert.equal(run("[regedit(This is a test,(.)est,$1rash)]"), "This is a trash");
  assert.equal(run("[regeditall(This test is the best,(.)est,$1rash)]"), "This trash is the brash");
  assert.equal(
    run("[regediti(Hello WORLD,hello,goodbye)] [regeditall(aaa,a,bb)]"),
    "goodbye WORLD bbbbbb",
  );
  assert.equal(run("[regedit(foo bar baz,foo,FOO,bar,BAR)]"), "FOO BAR baz");
  assert.equal(
    run(
      "[regedit(The quick brown fox,(?P<first>\\\\w+)\\\\s+(?P<second>\\\\w+),$<second> $<first>)]",
    ),
    "quick The brown fox",
  );
  assert.equal(
    run("[regeditall(abc,x*,-)] [regeditalli(aAa,a,b)] [regedit(abc,$,!)]"),
    "-a-b-c- bbb abc!",
  );
  assert.match(run("[regedit(abc,\\(,x)]"), /^#-1 REGEXP ERROR/);
  // Linear time: a pattern that backtracks exponentially in PCRE answers at once here.
  assert.equal(run(`[regeditall(${"a".repeat(5000)}b,^(a+)+$,x)]`).length, 5001);
});

Deno.test("softcode regexp: regrep searches attribute values", () => {
  const t = testSoftcode();
  t.world.set(t.wiz, "GREET", "Hello there");
  t.world.set(t.wiz, "BYE", "hello and goodbye");
  assert.equal(
    t.run("[regrep(me,*,^Hello)] [regrepi(me,*,^hello)] [regrep(me,B*,^hello)]"),
    "GREET BYE GREET BYE",
  );
});

Deno.test("softcode registers: letq, listq, unsetq", () => {
  const { run } = testSoftcode();
  assert.equal(run("[letq(a,hello,%qa)]"), "hello");
  assert.equal(run("[setq(b,OUTER)][letq(b,INNER,%qb)] %qb"), "INNER OUTER");
  assert.equal(
    run("[letq(x,5,y,3,add(%qx,%qy))] [letq(color,red,size,large,%q<color> %q<size>)]"),
    "8 red large",
  );
  assert.equal(run("[setq(1,a)][setq(b,c)][setq(name,d)][listq()]"), "1 B NAME");
  assert.equal(run("[setq(1,a)][setq(2,b)][unsetq(1)][listq()] [unsetq()][listq()]"), "2 ");
  assert.equal(run("[letq(a,1,b,2)]"), "#-1 FUNCTION (LETQ) EXPECTS AN ODD NUMBER OF ARGUMENTS");
});

Deno.test("softcode registers: at most 100 named ones at once, besides 0-9 and a-z", () => {
  const { run } = testSoftcode();
  const full = "[null(iter(lnum(1,200),setq(n##,##)))]";
  // The recorded cases of mux212_s58regs.json that differ on purpose (2.12 has no named ones).
  assert.equal(
    run(`${full}[r(n1)]|[r(n100)]|[r(n101)]|[setq(n200,x)]|[setq(n1,again)][r(n1)]`),
    "1|100||#-1 TOO MANY REGISTERS|again",
  );
  assert.equal(run(`${full}[setq(n1,)][setq(n150,in)][r(n150)]`), "in");
  assert.equal(run(`${full}[setq(z,last)][r(z)]|[setr(n101,x)]`), "last|#-1 TOO MANY REGISTERS");
  assert.equal(
    run(`${full}[letq(n150,in,%q<n150>)]|[words(listq())]`),
    "#-1 TOO MANY REGISTERS|100",
  );
  assert.equal(run(`${full}[letq(n5,in,%q<n5>)]-%q<n5>`), "in-5");
});

Deno.test("softcode json: json(), isjson(), json_query() as PennMUSH has them", () => {
  const t = testSoftcode();
  const run = t.run;
  assert.equal(
    run('[json(null)] [json(string,Look\\, it\'s "JSON"!)]'),
    'null "Look, it\'s \\"JSON\\"!"',
  );
  assert.equal(
    run("[json(array,json(number,3.5),json(string,Pie),json(boolean,true))]"),
    '[3.5, "Pie", true]',
  );
  assert.equal(
    run("[json(object,name,json(string,One),n,json(number,1))]"),
    '{"name": "One", "n": 1}',
  );
  assert.equal(
    run("[json(nope,1)] [json(number,abc)] [json(boolean,maybe)] [json(object,a)]"),
    "#-1 INVALID TYPE #-1 INVALID VALUE #-1 INVALID VALUE #-1 WRONG NUMBER OF ARGUMENTS",
  );
  assert.equal(run('[isjson(1)] [isjson(true)] [isjson(unquoted)] [isjson("quoted")]'), "1 1 0 1");
  t.world.set(t.wiz, "JSON", '["abc", "def", "gh\\"i"]');
  t.world.set(t.wiz, "OBJ", '{"a": {"b": [1, 2]}}');
  assert.equal(
    run("[json_query(true)] [json_query(v(json))] [json_query(v(json),size)]"),
    "boolean array 3",
  );
  assert.equal(run("[json_query(v(json),get,0)] [json_query(v(json),exists,5)]"), '"abc" 0');
  assert.equal(
    run("[json_query(v(json),extract,$\\[2\\])] [json_query(json_query(v(json),get,2),unescape)]"),
    'gh"i gh"i',
  );
  assert.equal(
    run("[json_query(v(obj),extract,$.a.b\\[1\\])] [json_query(v(obj),keys)] [json_query(nope)]"),
    "2 a #-1 INVALID JSON",
  );
});

Deno.test("softcode regexp: regraball() reads the clock every 16 short items or 256 characters, and stops at the deadline", () => {
  const count = (words: string[], evaluationMs: number) => {
    let clock = 0;
    const t = testSoftcode({ evaluationMs, actorMs: 1e9, gameMs: 1e9 }, () => clock++);
    t.world.set(t.wiz, "LIST", words.join(" "));
    const before = clock;
    const out = t.run("[regraball(v(LIST),^a)]|[add(1,1)]");
    return { out, reads: clock - before };
  };
  // 1,000 short words: a reading of the clock for 16 of them (and tick()'s own, as often
  // under this clock), not one each.
  const short = Array.from({ length: 1000 }, (_, i) => "ab" + i);
  const quick = count(short, 1e9);
  assert.equal(quick.out, short.join(" ") + "|2");
  assert.ok(quick.reads < 200, `read ${quick.reads} times`);
  assert.ok(quick.reads > 1000 / 16, `read ${quick.reads} times`);
  // Long words: the clock before each.
  const long = Array.from({ length: 20 }, () => "a".repeat(300));
  const slow = count(long, 1e9);
  assert.equal(slow.out, long.join(" ") + "|2");
  assert.ok(slow.reads >= 20, `read ${slow.reads} times`);
  // The deadline (50 readings of this clock) ends the list, and the evaluation with it.
  const cut = count(Array.from({ length: 5000 }, () => "ab"), 50);
  assert.ok(!cut.out.endsWith("2"), cut.out.slice(-20));
  assert.ok(cut.reads < 100, `read ${cut.reads} times`);
});
