/** The list families, from their help texts: delimiters, output separators, appliers. */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";

function world() {
  const t = testSoftcode();
  const set = (name: string, value: string) => t.world.set(t.wiz, name, value);
  set("ADD", "[add(%0,%1)]");
  set("ODD", "[mod(%0,2)]");
  set("CAT", "%0-%1");
  set("SUM3", "[add(%0,%1,%2)]");
  set("BOOL", "%0");
  set("SORT", "[sort(%0)]");
  set("NE3", "[neq(%0,3)]");
  set("SHOW", "<%0>");
  return t;
}

Deno.test("softcode lists: picking and editing with delimiters", () => {
  const { run } = world();
  assert.equal(
    run("[ldelete(a b c d,1 3)] [ldelete(a|b|c,2,|,-)] [replace(a b c,-1,x)]"),
    "b d a-c a b x",
  );
  assert.equal(
    run("[insert(a b c,4,x)] [insert(a|b,2,x,|,-)] [splice(a b c,x y z,b)]"),
    "a b c x a-x-b a y c",
  );
  assert.equal(
    run("[matchall(apple banana bob,b*)] [matchall(a b,x)] [revwords(a|b|c,|,-)]"),
    "2 3 0 c-b-a",
  );
  assert.equal(
    run("[lnum(1,10,,2)] [lnum(10,1,,3)] [itemize(a|b|c,|,or,;)]"),
    "1 3 5 7 9 10 7 4 1 a; b; or c",
  );
  assert.equal(
    run("[unique(a b a c b d)] [unique(a A b a,i)] [unique(1 2 2.0 3,f)] [unique(3 1 2 1 3,n,,|)]"),
    "a b c d a b 1 2 3 3|1|2",
  );
  assert.equal(
    run("[lreplace(a b c,1,X)] [linsert(red blue green,1,yellow)] [linsert(a|b|c,5,z,|)]"),
    "a X c red yellow blue green a|b|c|z",
  );
});

Deno.test("softcode lists: appliers", () => {
  const { run } = world();
  assert.equal(
    run("[map(ADD,1 2 3,,,5)] [filter(ODD,1 2 3 4 5)] [filterbool(BOOL,1 0 abc #-1 2)]"),
    "6 7 8 1 3 5 1 abc 2",
  );
  assert.equal(run("[fold(ADD,1 2 3 4)] [fold(ADD,1 2 3,10)] [fold(ADD,)]"), "10 16 0");
  assert.equal(run("[step(SUM3,1 2 3 4 5 6,3)] [step(CAT,a|b|c|d,2,|,-)]"), "6 15 a-b-c-d");
  assert.equal(
    run("[mix(CAT,a b c,1 2 3)] [mix(SUM3,1 2,3 4,5 6,)] [munge(SORT,c a b,1 2 3)]"),
    "a-1 b-2 c-3 9 12 2 3 1",
  );
  assert.equal(
    run("[while(SHOW,NE3,1 2 3 4 5,0)] [while(SHOW,NE3,1|2|3|4,0,|,-)]"),
    "<1> <2> <3> <1>-<2>-<3>",
  );
  assert.equal(run("[until(SHOW,BOOL,a b c d,^c$)]"), "<a> <b> <c>");
  assert.match(run("[until(SHOW,BOOL,a b,\\()]"), /^#-1 REGEXP ERROR/);
});

Deno.test("softcode lists: step() tells the executor of a bad step size", () => {
  const t = world();
  assert.equal(t.run("[step(CAT,a b,0)]"), "");
  assert.deepEqual(t.world.sent.map((s) => s.msg), ["Illegal step size."]);
});

Deno.test("softcode lists: random picks keep every item once", () => {
  const { run } = world();
  assert.equal(
    run("[words(shuffle(a b c d))] [sort(shuffle(c a b))] [sort(shuffle(c|a|b,|),,|)]"),
    "4 a b c a|b|c",
  );
  assert.equal(
    run("[pickrand()] [pickrand(a)] [pickrand(a|a,|)] [words(pickrand(a b c))]"),
    " a a 1",
  );
});

Deno.test("softcode lists: list() tells the enactor each result on its own line", () => {
  const t = world();
  assert.equal(t.run("[list(a b c,<##:#@>)]"), "");
  assert.deepEqual(t.world.sent.map((s) => s.msg), ["<a:1>", "<b:2>", "<c:3>"]);
  t.world.sent.length = 0;
  t.run("[list(x|y,[ansi(r,##)]%%,|)]");
  assert.deepEqual(t.world.sent.map((s) => s.msg), ["%crx%cn%%", "%cry%cn%%"]);
});

Deno.test("softcode lists: table() fits as many fields as TinyMUX 2.12 does, or is out of range", () => {
  const t = testSoftcode();
  // Recorded on TinyMUX 2.12: fields a line holds are its length over their width.
  assert.equal(
    t.run("[table(a b c d e f,10,30)]"),
    "a          b          c         \r\nd          e          f         ",
  );
  assert.equal(t.run("[table(a b c d e,3,10)]"), "a   b   c  \r\nd   e  ");
  assert.equal(t.run("[table(a b c d,5,20,,-)]"), "a    -b    -c    -d    ");
  assert.equal(t.run("[table(a b c)]"), "a          b          c         ");
  for (const args of ["30,20", "0,20", "5,0", "-5,20", "10,8000", ",", "5,", ",12"]) {
    assert.equal(t.run(`[table(a b c,${args})]`), "#-1 OUT OF RANGE", args);
  }
  assert.equal(t.run("[table(a b,10,7999)]"), "a          b         ");
});

Deno.test("softcode lists: columns() pads every field but the last of a full row", () => {
  const t = testSoftcode();
  // Recorded on TinyMUX 2.12.
  assert.equal(
    t.run("[columns(a b c d e f g h,10,,5)]|"),
    "     a         b         c         d         e         f         g\r\n     h         \r\n|",
  );
  assert.equal(t.run("[columns(a b c,10,,2)]|"), "  a         b         c         \r\n|");
});

Deno.test("softcode lists: sort() by numbers keeps equal keys in their order", () => {
  const { run } = world();
  assert.equal(run("[sort(3 01 1 2 03)]|[sort(3 01 1 2 03,n)]"), "01 1 2 3 03|01 1 2 3 03");
  assert.equal(
    run("[sort(1.5 1 -2 +1 1.50)]|[sort(2.0 10 9.5,f,,-)]"),
    "-2 1 +1 1.5 1.50|2.0-9.5-10",
  );
  assert.equal(
    run("[sort(#10 #2 #-1 #2)]|[sort(10 9 100)]|[sort(b 10 a)]"),
    "#-1 #2 #2 #10|9 10 100|10 a b",
  );
  assert.equal(run("[sort( 7  -3 )]|[sort(,n)]|[sort(x|3|1,n,|)]"), "-3 7||x|1|3");
});

Deno.test("softcode lists: sortby() makes MUX's comparisons (a binary insertion sort), in its order", () => {
  const t = world();
  t.world.set(t.wiz, "BYLEN", "[sub(strlen(%0),strlen(%1))]");
  // Records each comparison in %q9 and always answers 1, as SGP's +who counts its players.
  t.world.set(t.wiz, "LOG", "[setq(9,%q9 %0/%1)]1");
  t.world.set(t.wiz, "REV", "[comp(%1,%0)]");
  assert.equal(t.run("[sortby(bylen,ccc a bb dddd e)]"), "a e bb ccc dddd");
  assert.equal(t.run("[sortby(rev,b d a e c,,|)]"), "e|d|c|b|a");
  assert.equal(
    t.run("[sortby(log,a b c d e)]%q9"),
    "a b c d e b/a c/b d/b d/c e/c e/d",
  );
});

Deno.test("softcode lists: sortby() of a long list iter() kept split leaves the kept split as it was", () => {
  const t = world();
  t.world.set(t.wiz, "REV", "[comp(%1,%0)]");
  // Longer than the shortest list the engine keeps split (split_lists.ts), in %q0 for all three.
  const words = Array.from({ length: 40 }, (_, i) => `w${String(i).padStart(2, "0")}`);
  const list = words.join(" ");
  const rev = [...words].reverse().join(" ");
  const got = t.run(
    `[setq(0,${list})][iter(%q0,#@)]|[sortby(rev,%q0)]|[sortby(rev,%q0)]|[iter(%q0,##)]|` +
      `[first(sortby(rev,%q0))]|[words(sortby(rev,%q0,,|),|)]`,
  );
  const pos = words.map((_, i) => i + 1).join(" ");
  assert.equal(got, `${pos}|${rev}|${rev}|${list}|w39|40`);
});
