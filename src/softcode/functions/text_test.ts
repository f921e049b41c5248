/** The string families, from their help texts: UTF-8 and colour aware. */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";
import { stripMarkup } from "../markup.ts";

Deno.test("softcode strings: lengths and slices count characters, not bytes or colour", () => {
  const { run, raw } = testSoftcode();
  assert.equal(run("[strlen(héllo)] [strlen(日本語)] [strlen(ansi(r,abc))]"), "5 3 3");
  assert.equal(
    run("[left(héllo,2)] [right(日本語,2)] [mid(héllo,1,2)] [reverse(héllo)]"),
    "hé 本語 él olléh",
  );
  assert.equal(stripMarkup(raw("[mid(a[ansi(r,bcd)]e,2,2)]")), "cd");
  assert.equal(run("[strmem(é)] [strmem(This is a test)]"), "2 14");
});

Deno.test("softcode strings: searching and cutting", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[before(abc def,c)] [after(a-b-c,-)] [pos(ö,wörld)] [pos(,abc)]"),
    "ab b-c 2 #-1",
  );
  assert.equal(
    run("[lpos(a-b-c,-)] [wordpos(This is a test, 5)] [wordpos(This is a test, 20)]"),
    "1 3 2 #-1",
  );
  assert.equal(run("[squish(  a   b  c  )] [squish(aXXbXXXc,XX)]"), "a b c aXbXc");
});

Deno.test("softcode strings: lpos() finds every overlapping match, as a check at each position does", () => {
  const { run } = testSoftcode();
  // The naive search lpos() did before its one-pass search: the reference on generated texts.
  const naive = (text: string, find: string) => {
    const out: number[] = [];
    for (let i = 0; i + find.length <= text.length; i++) {
      if (text.startsWith(find, i)) out.push(i);
    }
    return out.join(" ");
  };
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) >>> 8;
  const make = (n: number, alphabet: string) =>
    Array.from({ length: n }, () => alphabet[next() % alphabet.length]).join("");
  for (let i = 0; i < 3000; i++) {
    const alphabet = i % 3 === 0 ? "a" : i % 3 === 1 ? "ab" : "abc";
    const text = make(next() % 40, alphabet);
    const find = make(1 + (next() % 6), alphabet);
    assert.equal(run(`[lpos(${text},${find})]`), naive(text, find), `lpos(${text},${find})`);
  }
  assert.equal(run("[lpos(aaaa,aa)] [lpos(abababa,aba)] [lpos(abc,abcd)]"), "0 1 2 0 2 4 ");
});

Deno.test("softcode strings: characters", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[chr(233)] [chr(9731)] [ord(é)] [ord(ab)]"),
    "é ☃ 233 #-1 FUNCTION EXPECTS ONE CHARACTER",
  );
  // Noncharacters print nothing, and U+FDD0-U+FDEF are the engine's markers (colour, iter()'s
  // stand-ins): a made one would be read as one.
  assert.equal(
    run("[chr(64976)] [chr(64992)] [chr(65007)] [chr(65535)] [chr(65008)]"),
    "#-1 UNPRINTABLE CHARACTER #-1 UNPRINTABLE CHARACTER #-1 UNPRINTABLE CHARACTER " +
      "#-1 UNPRINTABLE CHARACTER \ufdf0",
  );
  assert.equal(run("iter(a b,switch(##,a,[s(chr(64992))],##))"), "#-1 UNPRINTABLE CHARACTER b");
  assert.equal(run("[ucstr(abc Déf)] [lcstr(ÉÀ)] [ucstr(ß)] [capstr(éa)]"), "ABC DÉF éà ß Éa");
  assert.equal(run("[escape(a\\[b\\]c)] [secure(a\\[b\\]c)]"), "\\a\\[b\\]c a b c");
});

Deno.test("softcode strings: art, merge, strip, tr", () => {
  const { run } = testSoftcode();
  assert.equal(
    run(
      "[art(TinyMUX)] [art(umbrella)] [art(unicycle)] [art(ytterbium)] [art(one-sided)] [art(avocado)]",
    ),
    "a an a an a an",
  );
  assert.equal(
    run("[merge(AB--EF,abcdef,-)] [merge(AB[space(2)]EF,abcdef,)] [merge(abc,de,x)]"),
    "ABcdEF ABcdEF #-1 STRING LENGTHS MUST BE EQUAL",
  );
  assert.equal(
    run("[strip(This is a test,is)] [strip(abcdefgABCDEFG,azGy!7$B)]"),
    "Th  a tet bcdefgACDEF",
  );
  assert.equal(
    run(
      "[tr(hello,abcdefghijklmnopqrstuvwxyz,nopqrstuvwxyzabcdefghijklm)] [tr(uryyb, a-z, n-za-m)]",
    ),
    "uryyb hello",
  );
  assert.equal(run("[tr(This is an example, a-Z, n-za-mN-ZA-M)]"), "Guvf vf na rknzcyr");
});

Deno.test("softcode strings: accents", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[accent(Aule,xxx:)] [accent(The Nina was a ship,The Ni~a was a ship)]"),
    "Aulë The Niña was a ship",
  );
  assert.equal(
    run("[accent(Khazad ai-menu!,Khaz^d ai-m^nx!)] [accent(s?,Bu)]"),
    "Khazâd ai-mênu! ß¿",
  );
  assert.equal(
    run("[stripaccents(héllo wörld)] [stripaccents(ÀÉÎÕÜ çñ Łódź)]"),
    "hello world AEIOU cn Lodz",
  );
});

Deno.test("softcode strings: translate, scramble and the counters", () => {
  const { run } = testSoftcode();
  assert.equal(
    run("[translate(a%rb,s)] [translate(a%rb,p)] [translate(ansi(r,abc),p)]"),
    "a b a%rb %xrabc",
  );
  assert.equal(run("[strlen(scramble(abcdef))] [strlen(strip(scramble(abcdef),abcdef))]"), "6 0");
  assert.equal(run("[fdepth()] [fcount(add(1,add(2,3)))] [subeval(\\%r)]"), "1 2 \r\n");
  assert.equal(
    run("[choose(a b c,1 0 0)] [choose(a b c,0 0 5)] [choose(a|b,0|1,|)]"),
    "a c #-1 LISTS MUST BE OF EQUAL SIZE",
  );
});

Deno.test("softcode strings: a fill of several characters is laid from the line's start", () => {
  const { run } = testSoftcode();
  // Recorded on TinyMUX 2.12.
  assert.equal(
    run("[ljust(ab,9,123)]|[rjust(ab,9,123)]|[center(ab,9,123)]|[center(abcd,11,12345)]"),
    "ab3123123|1231231ab|123ab3123|123abcd3451",
  );
  assert.equal(run("[ljust(abc,6,-=)]|[center(a,6,xy)]"), "abc=-=|xyayxy");
  assert.equal(run("[ljust(%xrab%xn,7,xyz)]"), "abzxyzx");
});

Deno.test("softcode strings: plain padding with one fill character, cut and colour", () => {
  const { run, raw } = testSoftcode();
  assert.equal(
    run("[ljust(ab,5,.)]|[rjust(ab,5,0)]|[center(ab,7,*)]|[center(ab,6)]|[ljust(abcdef,3)]"),
    "ab...|000ab|**ab***|  ab  |abc",
  );
  assert.equal(
    run("[lpad(abcdef,3)]|[rjust(abc,3)]|[ljust(abc,0)]|[center(,3,-)]"),
    "abcdef|abc||---",
  );
  // Colour in the text or the fill takes the colour-aware way; it ends before the padding.
  assert.equal(run("[ljust(%xrab,4,.)]|[rjust(ab,4,%xg.)]"), "ab..|..ab");
  assert.equal(raw("[ljust(%xrab,4,.)]"), raw("[ansi(r,ab)]..").replace("..", "") + "..");
  // Characters beyond the basic plane count once.
  assert.equal(
    run("[ljust(\u{1F600}a,4,.)]|[rjust(a,3,\u{1F600})]"),
    "\u{1F600}a..|\u{1F600}\u{1F600}a",
  );
});

Deno.test("softcode control: switch() gives its branch as written unless #$ is in it", () => {
  const { run, wiz } = testSoftcode();
  assert.equal(
    run(`[switch(a,a,#${wiz} ## #@ #$)]|[switch(x,y,no,#$ #1)]`),
    `#${wiz} ## #@ a|x #1`,
  );
  assert.equal(run("[iter(p q,switch(##,p,#$-##-#@,#$))]"), "p-p-1 q");
});
