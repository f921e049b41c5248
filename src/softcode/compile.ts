/**
 * Softcode text to a program: the pieces TinyMUX 2.12's evaluator (`mux_exec`) would walk
 * through, decided once per text and flags and then cached, so running the same attribute
 * again does no parsing at all.
 *
 * The rules, as MUX has them: runs of mundane characters are copied; spaces are compressed
 * (leading ones dropped, a run kept as one, a trailing one dropped); `\x` is `x`; `%x` is a
 * substitution; `[...]` is evaluated as a function call (an unknown name is an error there);
 * `{...}` is evaluated without its function check (and its braces dropped under STRIP_CURLY);
 * and with FCHECK, whatever precedes the first `(` is looked up as a function name: when it
 * is one, the call's result replaces it, when not, the text stays. What a substitution or a
 * call will give is only known when it runs; where the text before `(` holds one, the name is
 * found at run time (`Dyn`).
 *
 * Nesting goes through `[`, `{` and function arguments; past `maxDepth` levels the deeper
 * part gives nothing (MUX's stack limit), so no input can exhaust the JavaScript stack.
 */
import { scanTo } from "./scan.ts";
import {
  EV,
  type FunctionDef,
  type FunctionTable,
  MAX_ARGS,
  MAX_FUNCTION_NAME,
  type NumArg,
} from "./types.ts";
import { letterMarker, parseRgb, rgbMarker } from "./markup.ts";

/** Node kinds. */
export const K_LIT = 0;
export const K_SUB = 1;
export const K_EVAL = 2;
export const K_CALL = 3;
export const K_NOTFOUND = 4;
export const K_DYN = 5;
export const K_DEEP = 6;
export const K_ITEM = 7;

/** Literal text. */
export interface LitNode {
  k: 0;
  s: string;
}

/** A `%` substitution resolved at run time. */
export interface SubNode {
  k: 1;
  /** The substitution's letter, lower-cased (`0`-`9`, `q`, `#`, `!`, `@`, `n`, `s`, ...). */
  c: string;
  /** Upper-case the first letter of the result (`%N`, `%S`, `%Q0`). */
  up: boolean;
  /** The register, `%v` letter, `%i` digit or `%=<name>` text. */
  arg: string;
}

/** A nested evaluation (`[...]`, or a brace group's content). */
export interface EvalNode {
  k: 2;
  p: Program;
}

/** A function call whose name is known when parsing. */
export interface CallNode {
  k: 3;
  fn: FunctionDef;
  /** Eager functions: each argument's program. Lazy ones: each argument's raw text. */
  args: (Program | string)[];
  /**
   * An arithmetic call whose arguments are all literal or such calls: its result, kept at its
   * first run (Evaluation.callNum), and how many calls it stands for (0: none kept).
   */
  fold: number | string | null;
  folds: number;
  /**
   * The argument array a leaf function's call (texts only: Evaluation.call, FunctionDef.reads) or
   * an arithmetic call of up to three arguments (Evaluation.callNum) keeps for its next call.
   */
  buf: NumArg[] | null;
  /** A lazy function's raw arguments as Evaluation.evalLazy last read them, by position. */
  lazy: (LazyArg | undefined)[] | null;
  /**
   * What a u()-like call (or a `@function`'s) keeps of the attribute it runs (AttrSite), made at its
   * first call.
   */
  site: AttrSite | null;
}

/**
 * What a call that runs an attribute (u(), ulocal()) keeps on its node: its reference as resolved
 * once when the reference is a literal that means the same whoever reads it (functions/control.ts),
 * the program of the text it ran last (Evaluation.evalAttrAt), the verdict its last reader got
 * (the attribute's holder and text, or what to give instead) while the world's change count is
 * the one it was found under, and its arguments' texts when each is a literal or a lone
 * substitution (Evaluation.call makes the arguments from them, without their programs).
 */
export interface AttrSite {
  /** The literal reference's text, or null when the call's reference is evaluated. */
  readonly ref: string | null;
  /** The object a `#123/` names (null: the reader's own), when `name` is not null. */
  readonly id: string | null;
  /** The attribute's name, valid and upper-case; null when the reference needs the matcher. */
  readonly name: string | null;
  /**
   * For an evaluated reference: the `/<name>` a plain `#123/<name>` from here last ended with, as
   * written, and its name valid and upper-case (both "" until one came); a row's `u(##/sex)` then
   * reads its next `#123` in place (see functions/control.ts, `tailRef`).
   */
  tail: string;
  tailName: string;
  /** The text last run from here, and its program (null: the text is plain, itself its value). */
  text: string;
  p: Program | null;
  /**
   * The program's one node when it is a function call (most attributes, `[u(...)]` unwrapped):
   * run as the call, without the program and its node array.
   */
  call: CallNode | null;
  /** The function table's generation, the engine's parse epoch and the output limit of `p`. */
  generation: number;
  epoch: number;
  lbuf: number;
  /**
   * The verdict for a literal reference (`name` not null): the world's change count it was
   * found under (-1: none), the executor it was found for, the object whose attribute runs and
   * its text, or (`out` not null) what the call gives instead ("" or a permission error).
   */
  seen: number;
  viewer: string;
  holder: string;
  value: string;
  out: string | null;
  /**
   * The arguments after the reference when each is a literal (its text), `%0`-`%9` (the digit,
   * a number) or another lone substitution (its node); null when any is something else.
   */
  argv: (string | number | SubNode)[] | null;
}

/**
 * A new AttrSite keeping no program and no verdict yet: `ref`, `id` and `name` as the call's
 * literal reference resolved once (all null when it is evaluated at each call, or when the call
 * names no reference: a `@function`'s), `argv` its arguments' texts (AttrSite.argv) or null.
 */
export function newAttrSite(
  ref: string | null,
  id: string | null,
  name: string | null,
  argv: (string | number | SubNode)[] | null = null,
): AttrSite {
  return {
    ref,
    id,
    name,
    tail: "",
    tailName: "",
    text: "",
    p: null,
    call: null,
    generation: -1,
    epoch: -1,
    lbuf: -1,
    seen: -1,
    viewer: "",
    holder: "",
    value: "",
    out: null,
    argv,
  };
}

/**
 * A lazy call's raw argument read for evaluation (Evaluation.evalLazy): what eval() would find
 * out about its text at every call (stand-ins, plain text, its parse), found once.
 */
export interface LazyArg {
  /** The function table's generation, the engine's parse epoch and the flags it was read under. */
  readonly generation: number;
  readonly epoch: number;
  readonly flags: number;
  /** The text holds a template's stand-ins (evaluated by eval() each time). */
  readonly standIn: boolean;
  /**
   * When it holds stand-ins: its parse with them as the item (Softcode.bound), or null when the
   * item must be put in its text; and how many stand-ins it holds.
   */
  readonly bound: Program | null;
  readonly tokens: number;
  /** The text holds `#$` (switch() puts its value there first: evaluated by eval()). */
  readonly dollar: boolean;
  /** Its parse, or null when the text is plain (itself its value). */
  readonly p: Program | null;
}

/** An unknown function inside `[...]`: MUX's error replaces everything before it. */
export interface NotFoundNode {
  k: 4;
  name: string;
}

/** Text before the first `(` that holds a substitution: the name is found when it runs. */
export interface DynNode {
  k: 5;
  /** What precedes `(`. */
  prefix: Program;
  /** The whole source text and where the `(` is. */
  src: string;
  open: number;
  /** Where this evaluation's region ends. */
  end: number;
  flags: number;
  depth: number;
  /** Runs of the rest, by function name, parsed on first use. */
  cache: Map<string, DynRest>;
}

/** What follows a dynamic name: the call (null when the name is no function) and the rest. */
export interface DynRest {
  call: CallNode | null;
  /** The call's arguments were not closed: `(` and the rest are text. */
  open: boolean;
  rest: Program;
}

/** A part nested deeper than allowed: gives nothing. */
export interface DeepNode {
  k: 6;
}

/** iter()'s item (with `pos`, its position) in a body parsed once (src/softcode/template.ts). */
export interface ItemNode {
  k: 7;
  pos: boolean;
}

/** One piece of a program. */
export type Node =
  | LitNode
  | SubNode
  | EvalNode
  | CallNode
  | NotFoundNode
  | DynNode
  | DeepNode
  | ItemNode;

/**
 * Nodes are made here, each with every field (its kind's hold its values, the others blanks), so
 * they share one hidden class: with a shape per kind, Evaluation.run's read of `k` met five or
 * more shapes in a listing and went through V8's megamorphic lookup at every node. K_DYN nodes,
 * rare, keep their own shape (two shapes stay a fast lookup).
 */
function node(
  k: number,
  s: string,
  c: string,
  up: boolean,
  arg: string,
  p: Program | null,
  fn: FunctionDef | null,
  args: (Program | string)[] | null,
  pos: boolean,
  name: string,
): Node {
  return {
    k,
    s,
    c,
    up,
    arg,
    p,
    fn,
    args,
    pos,
    name,
    fold: null,
    folds: 0,
    buf: null,
    lazy: null,
    site: null,
  } as unknown as Node;
}

/** A literal's node. */
export function litNode(s: string): LitNode {
  return node(K_LIT, s, "", false, "", null, null, null, false, "") as LitNode;
}

/** A `%` substitution's node. */
export function subNode(c: string, up: boolean, arg: string): SubNode {
  return node(K_SUB, "", c, up, arg, null, null, null, false, "") as SubNode;
}

/** A nested evaluation's node. */
export function evalNode(p: Program): EvalNode {
  return node(K_EVAL, "", "", false, "", p, null, null, false, "") as EvalNode;
}

/** A call's node (its arguments' array is filled in by the caller). */
export function callNode(fn: FunctionDef, args: (Program | string)[]): CallNode {
  return node(K_CALL, "", "", false, "", null, fn, args, false, "") as CallNode;
}

/** An unknown function's node. */
export function notFoundNode(name: string): NotFoundNode {
  return node(K_NOTFOUND, "", "", false, "", null, null, null, false, name) as NotFoundNode;
}

/** A part too deeply nested. */
export function deepNode(): DeepNode {
  return node(K_DEEP, "", "", false, "", null, null, null, false, "") as DeepNode;
}

/** iter()'s item (or its position) in a template. */
export function itemNode(pos: boolean): ItemNode {
  return node(K_ITEM, "", "", false, "", null, null, null, pos, "") as ItemNode;
}

/** A parsed text: its pieces in order. */
export interface Program {
  nodes: Node[];
  /** When the program is one literal, that text (the fast path). */
  text: string | null;
}

/** Parse settings. */
export interface CompileOptions {
  functions: FunctionTable;
  /** Deepest nesting of `[`, `{` and arguments parsed (deeper parts give nothing). */
  maxDepth: number;
  /** Allow `%q<name>` named registers (newer MUX and PennMUSH; 2.12 has only 0-9, a-z). */
  namedRegisters: boolean;
  /**
   * The function names indexed for the one-pass parse (src/softcode/parse.ts keeps it here, and
   * makes it again when the table's generation changes).
   */
  names?: { readonly generation: number };
}

const SPACE = 0x20, PERCENT = 0x25, LPAREN = 0x28, RPAREN = 0x29, COMMA = 0x2c;
const LBRACKET = 0x5b, RBRACKET = 0x5d, BACKSLASH = 0x5c, LBRACE = 0x7b, RBRACE = 0x7d;

/** Characters that end a run of mundane text (all but `(` and `[`, which depend on flags). */
function special(c: number, fcheck: boolean, brackets: boolean, compress: boolean): boolean {
  return c === PERCENT || c === BACKSLASH || c === LBRACE || (compress && c === SPACE) ||
    (fcheck && c === LPAREN) || (brackets && c === LBRACKET);
}

/** Builds a program from pieces, merging adjacent literals. */
export class Builder {
  nodes: Node[] = [];
  lit(s: string): void {
    if (!s) return;
    const last = this.nodes[this.nodes.length - 1];
    if (last && last.k === K_LIT) last.s += s;
    else this.nodes.push(litNode(s));
  }
  push(n: Node): void {
    this.nodes.push(n);
  }
  /** Drops the last character output (the trailing space of a compressed run). */
  dropLastChar(): void {
    const last = this.nodes[this.nodes.length - 1];
    if (last && last.k === K_LIT) {
      last.s = last.s.slice(0, -1);
      if (!last.s) this.nodes.pop();
    }
  }
  program(): Program {
    const only = this.nodes.length === 0
      ? ""
      : this.nodes.length === 1 && this.nodes[0].k === K_LIT
      ? (this.nodes[0] as LitNode).s
      : null;
    return { nodes: this.nodes, text: only };
  }
}

/**
 * A program that is one `[...]` as the part inside: run() gives the same from either (a part's
 * result is already cut to the output limit), and an attribute written `[u(...)]`, as most are,
 * is then three objects and one run() less to walk at each call (Softcode.compile).
 */
export function unwrapped(p: Program): Program {
  let q = p;
  // Bounded by the parse depth: each step goes one `[` in.
  while (q.text === null && q.nodes.length === 1 && q.nodes[0].k === K_EVAL) {
    q = (q.nodes[0] as EvalNode).p;
  }
  return q;
}

/** The program of an empty region. */
export const EMPTY: Program = { nodes: [], text: "" };

/** The letters `%x<letter>` turns into colour (MUX's ColorTable). */
const COLOUR_LETTERS = "BCGMRWXYbcfghimnruwxy";

/**
 * Parses `src[start, end)` under `flags`. Nested scans (brackets, arguments) may look past
 * `end` to the end of `src`, as MUX's do.
 */
export function compileRegion(
  src: string,
  start: number,
  end: number,
  flags: number,
  opts: CompileOptions,
  depth: number,
  startAtSpace = true,
): Program {
  if (start >= end) return EMPTY;
  if (depth > opts.maxDepth) return { nodes: [deepNode()], text: null };
  const b = new Builder();
  const compress = (flags & EV.NO_COMPRESS) === 0;
  const brackets = (flags & EV.NOFCHECK) === 0;
  const evaluate = (flags & EV.EVAL) !== 0;
  let fcheck = (flags & EV.FCHECK) !== 0;
  // Everything output before the first `(` is the function name candidate; it is static
  // while only literals were output.
  let staticName = true;
  let atSpace = startAtSpace;
  let i = start;
  while (i < end) {
    const c = src.charCodeAt(i);
    if (!special(c, fcheck, brackets, compress)) {
      let j = i + 1;
      while (j < end && !special(src.charCodeAt(j), fcheck, brackets, compress)) j++;
      b.lit(src.slice(i, j));
      atSpace = false;
      i = j;
      continue;
    }
    if (c === SPACE) {
      if (!atSpace) {
        b.lit(" ");
        atSpace = true;
      }
      i++;
      continue;
    }
    if (c === LPAREN) {
      // Only reached while checking for a function (fcheck).
      atSpace = false;
      fcheck = false;
      if (!staticName) {
        const prefix = b.program();
        return {
          nodes: [{
            k: K_DYN,
            prefix,
            src,
            open: i,
            end,
            flags,
            depth,
            cache: new Map(),
          }],
          text: null,
        };
      }
      const name = nameOf(b.nodes, flags);
      const fn = name.length > 0 && name.length <= MAX_FUNCTION_NAME
        ? opts.functions.get(name)
        : undefined;
      if (!fn) {
        if (flags & EV.FMAND) {
          return { nodes: [notFoundNode(name)], text: null };
        }
        b.lit("(");
        i++;
        continue;
      }
      const call = compileCall(src, i + 1, fn, flags, opts, depth + 1);
      if (!call) {
        b.lit("(");
        i++;
        continue;
      }
      b.nodes = [call.node];
      i = call.next;
      continue;
    }
    if (c === PERCENT) {
      atSpace = false;
      i = percent(src, i, flags, evaluate, b, opts);
      if (b.nodes.length && b.nodes[b.nodes.length - 1].k !== K_LIT) staticName = false;
      continue;
    }
    if (c === LBRACKET) {
      const hit = scanTo(src, i + 1, RBRACKET, -1);
      atSpace = false;
      if (!hit) {
        b.lit("[");
        i++;
        continue;
      }
      const inner = compileRegion(
        src,
        i + 1,
        Math.min(hit.end, end),
        (flags | EV.FCHECK | EV.FMAND) & ~EV.TOP,
        opts,
        depth + 1,
      );
      if (inner.text !== null) b.lit(inner.text);
      else {
        b.push(evalNode(inner));
        staticName = false;
      }
      i = hit.end + 1;
      continue;
    }
    if (c === LBRACE) {
      const hit = scanTo(src, i + 1, RBRACE, -1);
      atSpace = false;
      if (!hit) {
        b.lit("{");
        i++;
        continue;
      }
      const strip = (flags & EV.STRIP_CURLY) !== 0;
      if (!strip) b.lit("{");
      let from = i + 1;
      const to = Math.min(hit.end, end);
      let inner: Program;
      if (evaluate) {
        // MUX keeps one leading space inside braces (Felan's rule).
        if (src.charCodeAt(from) === SPACE && from < to) {
          b.lit(" ");
          from++;
        }
        inner = compileRegion(
          src,
          from,
          to,
          flags & ~(EV.STRIP_CURLY | EV.FCHECK | EV.FMAND | EV.TOP),
          opts,
          depth + 1,
        );
      } else {
        inner = compileRegion(src, from, to, flags & ~(EV.TOP | EV.FMAND), opts, depth + 1);
      }
      if (inner.text !== null) b.lit(inner.text);
      else {
        b.push(evalNode(inner));
        staticName = false;
      }
      if (!strip) b.lit("}");
      i = hit.end + 1;
      continue;
    }
    // Backslash: the next character as it is.
    atSpace = false;
    if (i + 1 < src.length) {
      b.lit(src[i + 1]);
      i += 2;
    } else {
      i++;
    }
  }
  if (compress && atSpace && b.nodes.length) b.dropLastChar();
  return b.program();
}

/** The upper-cased function name the literal output so far spells (in `[...]`, spaces trimmed). */
export function nameOf(nodes: Node[], flags: number): string {
  const s = nodes.length ? (nodes[0] as LitNode).s : "";
  let end = s.length;
  if ((flags & EV.FMAND) && (flags & EV.NO_COMPRESS) === 0) {
    while (end > 0 && isSpace(s.charCodeAt(end - 1))) end--;
    // Other blanks at the end take the general rule (`\s` knows more of them).
    if (end > 0 && s.charCodeAt(end - 1) > 0x7f) return upperAscii(s.replace(/\s+$/, ""));
  }
  return upperAscii(end === s.length ? s : s.slice(0, end));
}

/** ASCII white space (`\s`'s share of it). */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/** ASCII upper case (MUX's function names are ASCII). */
export function upperAscii(s: string): string {
  let lower = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // Other letters keep their case (toUpperCase would change é and ß).
    if (c > 0x7f) return s.replace(/[a-z]+/g, (m) => m.toUpperCase());
    if (c >= 0x61 && c <= 0x7a) lower = true;
  }
  return lower ? s.toUpperCase() : s;
}

/**
 * Parses a call's arguments from just after its `(`: the call node and where the text
 * continues, or null when the arguments are never closed.
 */
export function compileCall(
  src: string,
  pos: number,
  fn: FunctionDef,
  flags: number,
  opts: CompileOptions,
  depth: number,
): { node: CallNode; next: number } | null {
  const lazy = fn.lazy;
  const feval = lazy
    ? flags & ~(EV.EVAL | EV.TOP | EV.FMAND | EV.STRIP_CURLY)
    : flags & ~(EV.TOP | EV.FMAND);
  const peval = feval & EV.EVAL ? feval | EV.FCHECK : (feval & ~EV.FCHECK) | EV.NOFCHECK;
  const want = Math.min(fn.parseArgs, MAX_ARGS);
  const args: (Program | string)[] = [];
  let cur = pos;
  for (;;) {
    const last = args.length >= want - 1;
    const hit = scanTo(src, cur, last ? -1 : COMMA, RPAREN);
    if (!hit) return null;
    if (hit.which === 2 && args.length === 0 && hit.end === cur) {
      return { node: callNode(fn, args), next: hit.end + 1 };
    }
    const p = hit.end > cur ? compileRegion(src, cur, hit.end, peval, opts, depth) : EMPTY;
    if (lazy) args.push(p.text ?? flatten(p));
    else args.push(p);
    cur = hit.end + 1;
    if (hit.which === 2) return { node: callNode(fn, args), next: cur };
  }
}

/**
 * A program parsed without evaluation holds only literals (and, past the depth limit,
 * nothing): its text.
 */
export function flatten(p: Program): string {
  let s = "";
  for (const n of p.nodes) if (n.k === K_LIT) s += n.s;
  return s;
}

/** Handles `%` at `i`; returns where to continue. */
export function percent(
  src: string,
  i: number,
  flags: number,
  evaluate: boolean,
  b: Builder,
  opts: CompileOptions,
): number {
  if (!evaluate) {
    // Copied as it is, with the character after it.
    b.lit("%" + (i + 1 < src.length ? src[i + 1] : ""));
    return i + 2;
  }
  if (i + 1 >= src.length) return i + 1;
  const ch = src[i + 1];
  const lower = ch.toLowerCase();
  const up = ch !== lower && "ANMOPQSV".includes(ch);
  switch (ch) {
    case "0":
    case "1":
    case "2":
    case "3":
    case "4":
    case "5":
    case "6":
    case "7":
    case "8":
    case "9":
      b.push(subNode("0", false, ch));
      return i + 2;
    case "q":
    case "Q": {
      const reg = src[i + 2] ?? "";
      if (/^[0-9a-zA-Z]$/.test(reg)) {
        b.push(subNode("q", up, reg.toLowerCase()));
        return i + 3;
      }
      if (reg === "<" && opts.namedRegisters) {
        const close = src.indexOf(">", i + 3);
        if (close >= 0) {
          b.push(subNode("q", up, src.slice(i + 3, close).toLowerCase()));
          return close + 1;
        }
      }
      // MUX drops `%q` and an invalid register character after it.
      return i + 2 + (reg ? 1 : 0);
    }
    case "#":
    case "!":
    case "@":
    case "+":
    case "|":
      b.push(subNode(ch, false, ""));
      return i + 2;
    case "n":
    case "N":
    case "s":
    case "S":
    case "o":
    case "O":
    case "p":
    case "P":
    case "a":
    case "A":
    case "k":
    case "K":
    case "m":
    case "M":
      b.push(subNode(lower, up, ""));
      return i + 2;
    case "l":
    case "L":
      if (!(flags & EV.NO_LOCATION)) b.push(subNode("l", false, ""));
      return i + 2;
    case "r":
    case "R":
      b.lit("\r\n");
      return i + 2;
    case "t":
    case "T":
      b.lit("\t");
      return i + 2;
    case "b":
    case "B":
      b.lit(" ");
      return i + 2;
    case "%":
      b.lit("%");
      return i + 2;
    case "v":
    case "V": {
      const letter = src[i + 2] ?? "";
      if (/^[a-zA-Z]$/.test(letter)) {
        b.push(subNode("v", up, letter.toUpperCase()));
        return i + 3;
      }
      return i + 2 + (letter ? 1 : 0);
    }
    case "i":
    case "I": {
      const d = src[i + 2] ?? "";
      if (d >= "0" && d <= "9" && d.length === 1) {
        b.push(subNode("i", false, d));
        return i + 3;
      }
      // `%i` followed by anything else gives the `i` itself.
      b.lit(d ? ch : "");
      return i + 2;
    }
    case "=": {
      if (src[i + 2] !== "<") return i + 2;
      const close = src.indexOf(">", i + 3);
      if (close < 0) return i + 2;
      b.push(subNode("=", false, src.slice(i + 3, close)));
      return close + 1;
    }
    case "x":
    case "X":
    case "c":
    case "C":
      return colour(src, i, ch === "X" || ch === "C", b);
    default:
      // Unknown letters (and `%\`, `%[`, `%,` ...) give the character itself.
      b.lit(ch);
      return i + 2;
  }
}

/** `%x` / `%c` colour codes at `i`; returns where to continue. */
function colour(src: string, i: number, bg: boolean, b: Builder): number {
  const next = src[i + 2] ?? "";
  if (next === "<") {
    const close = src.indexOf(">", i + 3);
    // No `>`: MUX drops the letter and goes on with `<` as text.
    if (close < 0) return i + 2;
    const rgb = parseRgb(src.slice(i + 3, close));
    if (rgb) b.lit(rgbMarker(rgb[0], rgb[1], rgb[2], bg));
    return close + 1;
  }
  if (next && COLOUR_LETTERS.includes(next)) {
    b.lit(letterMarker(next));
    return i + 3;
  }
  // Not a colour: the letter after `%` stays.
  if (next) b.lit(src[i + 1]);
  return i + 2;
}
