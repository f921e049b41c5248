/**
 * The one-pass parse (src/softcode/parse.ts) gives compile.ts's program: on generated texts
 * (mostly the characters the parser reads), on unbalanced and deep texts, and on the softcode
 * of the packages when their installers are present locally (never committed).
 */
import assert from "node:assert/strict";
import {
  type CompileOptions,
  compileRegion,
  K_LIT,
  nameOf,
  type Program,
  upperAscii,
} from "./compile.ts";
import { isPlain, onePass, parseText } from "./parse.ts";
import { builtinFunctions } from "./functions/mod.ts";
import { EV, EVAL_ARG } from "./types.ts";
import { TOP_FLAGS } from "./eval.ts";

const opts: CompileOptions = { functions: builtinFunctions(), maxDepth: 100, namedRegisters: true };

const FLAGS = [
  TOP_FLAGS,
  EVAL_ARG,
  EV.EVAL | EV.FCHECK | EV.FMAND,
  EV.EVAL | EV.NOFCHECK | EV.NO_LOCATION | EV.NO_COMPRESS,
  EV.STRIP_CURLY | EV.NOFCHECK,
  0,
];

/** Both parses of a text under flags; fails with the text when they differ. */
function same(text: string, flags: number, o = opts): boolean {
  const want: Program = compileRegion(text, 0, text.length, flags, o, 0);
  assert.deepStrictEqual(
    parseText(text, flags, o),
    want,
    `flags ${flags}: ${JSON.stringify(text)}`,
  );
  // A text found plain is its own program's text.
  if (isPlain(text, flags)) assert.equal(want.text, text, `plain: ${JSON.stringify(text)}`);
  return onePass(text, flags, o) !== null;
}

/** A small deterministic random stream. */
function stream(seed: number): () => number {
  return () => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const PIECES = [
  "a",
  "a b",
  "é ",
  "b",
  " ",
  "  ",
  "(",
  ")",
  "[",
  "]",
  "{",
  "}",
  ",",
  "%",
  "\\",
  "%0",
  "%q0",
  "%q<ab>",
  "%q<a,b>",
  "%qa",
  "%q(",
  "%v(",
  "%va",
  "%i0",
  "%i(",
  "%xr",
  "%x<#ff0000>",
  "%x<(>",
  "%=<x>",
  "%#",
  "%n",
  "%r",
  "%b",
  "%%",
  "%[",
  "%)",
  "\\,",
  "\\)",
  "\\[",
  "add(",
  "mul(",
  "switch(",
  "iter(",
  "u(",
  "if(",
  "ljust(",
  "lnum(",
  "search(",
  "nosuch(",
  "s(",
  "##",
  "é",
  "<",
  ">",
  "1",
  "x",
];

Deno.test("parse: generated texts give compile.ts's program under every flag set", () => {
  const rnd = stream(36);
  let regular = 0;
  for (let n = 0; n < 20_000; n++) {
    let text = "";
    const len = 1 + Math.floor(rnd() * 24);
    for (let k = 0; k < len; k++) text += PIECES[Math.floor(rnd() * PIECES.length)];
    for (const f of FLAGS) if (same(text, f)) regular++;
  }
  // Most random texts are regular enough for the one pass, so it is what is compared.
  assert.ok(regular > 20_000 * FLAGS.length / 3, `${regular} parsed in one pass`);
});

Deno.test("parse: well-formed nested calls give compile.ts's program", () => {
  const rnd = stream(7);
  const names = ["add", "mul", "switch", "iter", "u", "if", "strcat", "nosuch", "lit"];
  const gen = (d: number): string => {
    const r = rnd();
    if (d > 6 || r < 0.3) {
      return ["a", "1", "%0", "%q0", "b c", "##", " x ", "%r"][Math.floor(rnd() * 8)];
    }
    if (r < 0.45) return `[${gen(d + 1)}]`;
    if (r < 0.55) return `{${gen(d + 1)}}`;
    const args: string[] = [];
    for (let k = Math.floor(rnd() * 4); k >= 0; k--) args.push(gen(d + 1));
    return `${names[Math.floor(rnd() * names.length)]}(${args.join(",")})${
      rnd() < 0.3 ? gen(d + 1) : ""
    }`;
  };
  for (let n = 0; n < 5_000; n++) {
    const text = gen(0);
    for (const f of FLAGS) assert.ok(same(text, f), `not in one pass: ${text}`);
  }
  // The same with a stray character or two where the scans can disagree.
  const stray = [")", "]", "}", "{", "[", "(", ",", "%", "\\", "%q", "%q<"];
  let regular = 0;
  for (let n = 0; n < 12_000; n++) {
    let text = gen(0);
    for (let k = rnd() < 0.5 ? 1 : 2; k > 0; k--) {
      const at = Math.floor(rnd() * (text.length + 1));
      text = text.slice(0, at) + stray[Math.floor(rnd() * stray.length)] + text.slice(at);
    }
    for (const f of FLAGS) if (same(text, f)) regular++;
  }
  assert.ok(regular > 12_000 * FLAGS.length / 4, `${regular} parsed in one pass`);
});

Deno.test("parse: unbalanced, escaped and region-end cases", () => {
  const texts = [
    "",
    " ",
    "   a   b   ",
    "add(1,2",
    "add(1,2))",
    "[add(1,2)",
    "[add(1,2)]]",
    "add(1,[2)]",
    "[add(1,2])",
    "{a[}]}",
    "{a(}b)}",
    "[{a}b]",
    "add({1,2},3)",
    "add(1,{2)",
    "add(1,2%)",
    "add(1,2\\)",
    "add(1,%q<a,b>)",
    "add(%q<a>,1)",
    "[add(1,2)%",
    "[add(1,2)\\",
    "%",
    "\\",
    "%q",
    "%x<",
    "a%x<b,c)>d",
    "[%q0(1)]",
    "[nosuch(1,2)]rest",
    "[ nosuch (1)]",
    "[%0(1,2)] x",
    "switch(a,{b,c},d)",
    "iter(a b,[add(##,1)],%b)",
    ":) [add(1,2)] (:",
    "[lit(:)]",
    "]]]][[[[",
    "}}}{{{",
    "(".repeat(40) + "[add(1,2)]" + ")".repeat(40),
    "[".repeat(40) + "add(1,2)" + "]".repeat(40),
    "add(".repeat(40) + "1" + ")".repeat(40),
    "{".repeat(40) + "a" + "}".repeat(40),
  ];
  for (const t of texts) for (const f of FLAGS) same(t, f);
});

Deno.test("parse: nesting past the depth limit gives nothing, as compile.ts's", () => {
  const shallow = { ...opts, maxDepth: 5 };
  for (
    const t of ["add(".repeat(12) + "1" + ")".repeat(12), "[".repeat(12) + "x" + "]".repeat(12)]
  ) {
    for (const f of FLAGS) same(t, f, shallow);
  }
});

Deno.test("parse: a huge text is parsed in bounded work", () => {
  // 200,000 characters of nested calls: a parse that rescans each level would read
  // some characters hundreds of times; this one finishes (the suite would time out otherwise).
  const unit = "add(1,mul(2,sub(3,[div(4,2)])))";
  const text = `[strcat(${Array.from({ length: 6_000 }, () => unit).join(",")})]`;
  const p = onePass(text, TOP_FLAGS, opts);
  assert.equal(p?.nodes.length, 1);
  same(text.slice(0, 5_000) + ")]", TOP_FLAGS);
});

Deno.test("parse: the packages' softcode gives compile.ts's program (when present locally)", () => {
  const dir = new URL("../../tests/fixtures/softcode-packages/", import.meta.url);
  let files: string[];
  try {
    files = [...Deno.readDirSync(dir)].filter((e) => e.name.endsWith(".txt")).map((e) => e.name);
  } catch {
    console.log("  (no local package installers: skipped)");
    return;
  }
  for (const f of files) {
    for (const line of Deno.readTextFileSync(new URL(f, dir)).split(/\r?\n/)) {
      const at = line.indexOf("=");
      if (at < 0) continue;
      const value = line.slice(at + 1);
      const action = value.replace(/^\$[^:]*:/, "");
      for (const fl of [TOP_FLAGS, EVAL_ARG, EV.EVAL | EV.FCHECK]) {
        // Real code is regular: none of it takes compile.ts's way.
        assert.ok(same(value, fl) && same(action, fl), `not in one pass: ${value}`);
      }
    }
  }
});

Deno.test("parse: function names are upper-cased and trimmed as the regular expressions did", () => {
  const oldUpper = (s: string) =>
    /[a-z]/.test(s) ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s;
  const chars = ["a", "Z", "q", " ", "\t", "\u00a0", "\u3000", "é", "ß", "1", "_", "\n", "\u2028"];
  const rnd = stream(11);
  for (let n = 0; n < 5_000; n++) {
    let s = "";
    for (let k = Math.floor(rnd() * 8); k > 0; k--) s += chars[Math.floor(rnd() * chars.length)];
    assert.equal(upperAscii(s), oldUpper(s), JSON.stringify(s));
    for (const flags of [EV.FMAND, EV.FMAND | EV.NO_COMPRESS, 0]) {
      const trim = (flags & EV.FMAND) && !(flags & EV.NO_COMPRESS) ? s.replace(/\s+$/, "") : s;
      const nodes = s ? [{ k: K_LIT, s } as const] : [];
      assert.equal(nameOf(nodes, flags), oldUpper(trim), JSON.stringify(s));
    }
  }
});
