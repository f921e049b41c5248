/**
 * Softcode text to a program in one pass. compile.ts follows MUX's evaluator literally: each
 * `[`, `{` and function argument is first scanned for its end (scan.ts) and then parsed, and the
 * parse of its content scans its own nested parts again, so a character nested ten levels deep
 * is read ten times. Here each region is parsed while the scan that finds its end runs: a
 * region stops at its own delimiter, found with the same rules scan.ts applies (`(` and `[` open
 * a level that `)` or `]` closes, `{...}` groups, `%` and `\` protect the next character), and
 * its parent goes on from there, so each character is read a bounded number of times however
 * deep the nesting.
 *
 * That gives compile.ts's program exactly when the text is regular: every scan MUX would make
 * (the region's own and those of the regions around it) agrees on where each part ends. Where
 * the scans could disagree (a closer that one scan would match and another not, a group never
 * closed, a `}` inside brackets inside braces, a `%` code that swallows a delimiter, more than
 * thirty levels open), the text is parsed by compile.ts instead, with MUX's overlapping
 * regions. src/softcode/parse_test.ts compares the two on generated texts.
 */
import { EV, type FunctionDef, type FunctionTable, MAX_ARGS, MAX_FUNCTION_NAME } from "./types.ts";
import {
  Builder,
  type CallNode,
  callNode,
  type CompileOptions,
  compileRegion,
  deepNode,
  EMPTY,
  evalNode,
  flatten,
  K_CALL,
  K_DYN,
  K_EVAL,
  K_LIT,
  litNode,
  nameOf,
  type Node,
  notFoundNode,
  percent,
  type Program,
} from "./compile.ts";
import { type ScanHit, scanTo, skipBraces } from "./scan.ts";
import type { KeptPart, RegionCache } from "./region_cache.ts";

/** What ends a region: nothing (the whole text), `,` or `)`, `)`, `]`, `}`. */
const T_TOP = 0, T_ARG = 1, T_LAST = 2, T_BRACKET = 3, T_BRACE = 4;

/** Most `(`/`[` open at once in a text parsed in one pass (scan.ts tracks 32 per scan). */
const MAX_OPEN = 30;

const SPACE = 0x20, PERCENT = 0x25, LPAREN = 0x28, RPAREN = 0x29, COMMA = 0x2c;
const LBRACKET = 0x5b, RBRACKET = 0x5d, BACKSLASH = 0x5c, LBRACE = 0x7b, RBRACE = 0x7d;

/** ASCII characters the parse stops at; everything else is copied in runs. */
const STOP = new Uint8Array(128);
for (const c of [SPACE, PERCENT, LPAREN, RPAREN, COMMA, LBRACKET, RBRACKET, BACKSLASH, LBRACE]) {
  STOP[c] = 1;
}
STOP[RBRACE] = 1;

/** Characters a `%` code longer than two may not swallow (a scan reads them). */
const SCANNED = /[%\\\[\](){},]/;

/** Thrown where the text is not regular: compile.ts parses it. */
const IRREGULAR = new Error("irregular softcode text");

/**
 * The function table by name, looked up straight from the text: no name string is cut, upper-
 * cased and hashed for each call parsed.
 */
class NameIndex {
  /**
   * By the low bits of the upper-case name's hash: each name (aliases too) with its function.
   * An array, not a Map: most hashes are beyond a small integer, which a Map would box.
   */
  readonly #buckets: ({ name: string; fn: FunctionDef }[] | undefined)[];
  readonly #mask: number;
  constructor(readonly generation: number, table: FunctionTable) {
    const names = table.names();
    let size = 64;
    while (size < names.length * 4) size *= 2;
    this.#mask = size - 1;
    this.#buckets = new Array(size).fill(undefined);
    for (const name of names) {
      const fn = table.get(name);
      if (!fn) continue;
      let h = 0;
      for (let k = 0; k < name.length; k++) h = step(h, name.charCodeAt(k));
      const b = this.#buckets[h & this.#mask];
      if (b) b.push({ name, fn });
      else this.#buckets[h & this.#mask] = [{ name, fn }];
    }
  }

  /**
   * The function `src[from, to)` names (ASCII letters upper-cased, as nameOf does), undefined
   * when none; null when the text holds other characters (the general rule decides).
   */
  find(src: string, from: number, to: number): FunctionDef | undefined | null {
    if (to - from > MAX_FUNCTION_NAME || to === from) return undefined;
    let h = 0;
    for (let k = from; k < to; k++) {
      const c = src.charCodeAt(k);
      if (c > 0x7e) return null;
      h = step(h, c >= 0x61 && c <= 0x7a ? c - 0x20 : c);
    }
    const b = this.#buckets[h & this.#mask];
    if (!b) return undefined;
    next: for (let j = 0; j < b.length; j++) {
      const e = b[j], name = e.name;
      if (name.length !== to - from) continue;
      for (let k = 0; k < name.length; k++) {
        const c = src.charCodeAt(from + k);
        if ((c >= 0x61 && c <= 0x7a ? c - 0x20 : c) !== name.charCodeAt(k)) continue next;
      }
      return e.fn;
    }
    return undefined;
  }
}

/** ASCII white space (what `\s` matches below 0x80). */
function isBlank(c: number): boolean {
  return c === SPACE || (c >= 0x09 && c <= 0x0d);
}

/** One step of the names' hash. */
function step(h: number, c: number): number {
  return Math.imul(h ^ c, 0x01000193);
}

/** The names' index of a parse's options, made again when the function table changed. */
function namesOf(opts: CompileOptions): NameIndex {
  const have = opts.names;
  if (have instanceof NameIndex && have.generation === opts.functions.generation) return have;
  const made = new NameIndex(opts.functions.generation, opts.functions);
  opts.names = made;
  return made;
}

/** The state of one text's parse. */
class Parser {
  readonly n: number;
  pos = 0;
  /**
   * The closers the scans wait for, for the literal `(` and `[` of the regions being parsed
   * (each region owns the top part, from its base).
   */
  readonly stack: number[] = [];
  /** Calls and brackets being parsed. */
  open = 0;
  /** Brace groups being parsed. */
  braces = 0;
  readonly names: NameIndex;
  /** The top-level `[...]` parts parsed here, offered to `regions` once the whole text parsed. */
  offers: { text: string; flags: number; p: Program }[] | null = null;
  constructor(
    readonly src: string,
    readonly opts: CompileOptions,
    readonly regions: RegionCache | null,
  ) {
    this.n = src.length;
    this.names = namesOf(opts);
  }

  /** A literal `(` or `[` of a region: its closer is awaited. */
  push(closer: number): void {
    if (this.stack.length + this.open >= MAX_OPEN) throw IRREGULAR;
    this.stack.push(closer);
  }

  /** Where `closer` is awaited in the region from `base`, or -1. */
  awaited(closer: number, base: number): number {
    const s = this.stack;
    for (let k = s.length - 1; k >= base; k--) if (s[k] === closer) return k;
    return -1;
  }
}

/**
 * Parses `src` under `flags` into the program compile.ts's `compileRegion(src, 0, src.length,
 * flags, opts, 0)` gives, in one pass where the text allows it. With `regions`, its top-level
 * `[...]` parts are taken from there when they were parsed before, and offered to it.
 */
export function parseText(
  src: string,
  flags: number,
  opts: CompileOptions,
  regions: RegionCache | null = null,
): Program {
  return onePass(src, flags, opts, regions) ?? compileRegion(src, 0, src.length, flags, opts, 0);
}

/**
 * True when `src` under `flags` parses to itself: nothing the parser reads (`%`, `\`, braces,
 * `[` while brackets count, `(` while a function name is looked for) and no run of spaces it
 * would squeeze. Lazy functions' arguments are often such texts.
 */
export function isPlain(src: string, flags: number): boolean {
  const n = src.length;
  const compress = (flags & EV.NO_COMPRESS) === 0;
  const brackets = (flags & EV.NOFCHECK) === 0;
  const fcheck = (flags & EV.FCHECK) !== 0;
  if (compress && (src.charCodeAt(0) === SPACE || src.charCodeAt(n - 1) === SPACE)) return false;
  let space = false;
  for (let i = 0; i < n; i++) {
    const c = src.charCodeAt(i);
    if (c === SPACE) {
      if (space && compress) return false;
      space = true;
      continue;
    }
    space = false;
    if (
      c === PERCENT || c === BACKSLASH || c === LBRACE || (c === LBRACKET && brackets) ||
      (c === LPAREN && fcheck)
    ) return false;
  }
  return true;
}

/** The one-pass parse of `src`, or null where the text is not regular (see above). */
export function onePass(
  src: string,
  flags: number,
  opts: CompileOptions,
  regions: RegionCache | null = null,
): Program | null {
  const ps = new Parser(src, opts, regions);
  let p: Program;
  try {
    p = region(ps, flags, 0, T_TOP, false, true);
  } catch (e) {
    if (e !== IRREGULAR) throw e;
    return null;
  }
  // Only parts of a regular text: each is then the program MUX's scans give it anywhere.
  if (regions !== null && ps.offers !== null) {
    for (const o of ps.offers) regions.offer(o.text, o.flags, o.p);
  }
  return p;
}

/**
 * A typed line that is plain text (no leading or doubled space, nothing the parse reads) and then
 * the `[...]` part `regions` found or kept last, ending the line: that part, whose program follows
 * the text before it in what parseText() gives such a line (a literal, then the part), found
 * without the parse (a Parser, a builder, region()'s walk: cold code on a paced line, about as
 * much as the part's run when its calls are kept). Null for any other line.
 */
export function keptLine(src: string, flags: number, regions: RegionCache): KeptPart | null {
  const n = src.length;
  // (Under EV.NOFCHECK `[` is text: no part is kept under such flags, so `recent` finds none.)
  if (src.charCodeAt(n - 1) !== RBRACKET) return null;
  // Where the part would begin: as region() finds it, after the first `[` of the line.
  let i = 0;
  let space = true;
  for (; i < n; i++) {
    const c = src.charCodeAt(i);
    if (c === SPACE) {
      // A leading space is dropped and a doubled one squeezed (not copied): not plain.
      if (space) return null;
      space = true;
    } else if (c < 128 && STOP[c] !== 0) break;
    else space = false;
  }
  if (src.charCodeAt(i) !== LBRACKET) return null;
  const part = regions.recent(src, i + 1, (flags | EV.FCHECK | EV.FMAND) & ~EV.TOP);
  return part !== null && i + 2 + part.text.length === n ? part : null;
}

/**
 * A top-level `[...]` part of a text parsed with a region cache: where it ends (as MUX's scan
 * finds it) and its text, or null when it is not to be cached. A part whose program could
 * depend on the text after it is not: a `<` (`%q<`, `%x<` and `%=<` look for their `>` past
 * it when it has none) or a function name found at run time (its rest is parsed then, from the
 * whole line).
 */
function topPart(ps: Parser, from: number): { hit: ScanHit; text: string } | null {
  if (ps.regions === null) return null;
  const hit = scanTo(ps.src, from, RBRACKET, -1);
  if (hit === null) return null;
  const text = ps.src.slice(from, hit.end);
  return text.includes("<") ? null : { hit, text };
}

/** True when a program holds a call whose name is found at run time. */
function hasDyn(p: Program): boolean {
  if (p.text !== null) return false;
  return p.nodes.some((n: Node) =>
    n.k === K_DYN || (n.k === K_EVAL && hasDyn(n.p)) ||
    (n.k === K_CALL && n.args.some((a) => typeof a !== "string" && hasDyn(a)))
  );
}

/**
 * Parses a region from `ps.pos` to its delimiter (left in `ps.pos`). `watched`: a scan of an
 * enclosing region reads this region's closers too.
 */
function region(
  ps: Parser,
  flags: number,
  depth: number,
  term: number,
  watched: boolean,
  startAtSpace: boolean,
): Program {
  const src = ps.src, n = ps.n;
  const start = ps.pos;
  const base = ps.stack.length;
  if (depth > ps.opts.maxDepth) {
    skipRest(ps, start, term, watched, base);
    return ps.pos > start ? { nodes: [deepNode()], text: null } : EMPTY;
  }
  // A nested region's scan: are its closers seen by this region's scan?
  const childWatched = term !== T_TOP;
  const b = new Builder();
  const compress = (flags & EV.NO_COMPRESS) === 0;
  const brackets = (flags & EV.NOFCHECK) === 0;
  const evaluate = (flags & EV.EVAL) !== 0;
  let fcheck = (flags & EV.FCHECK) !== 0;
  let staticName = true;
  let atSpace = startAtSpace;
  // Characters from `run` to `i` are output as they are, once something else comes.
  let run = start;
  let i = start;
  for (;;) {
    if (i >= n) {
      if (term !== T_TOP) throw IRREGULAR;
      break;
    }
    const c = src.charCodeAt(i);
    if (c >= 128 || STOP[c] === 0) {
      i++;
      while (i < n) {
        const d = src.charCodeAt(i);
        if (d < 128 && STOP[d] !== 0) break;
        i++;
      }
      atSpace = false;
      continue;
    }
    switch (c) {
      case SPACE:
        if (!compress) atSpace = false;
        else if (!atSpace) atSpace = true;
        else {
          if (i > run) b.lit(src.slice(run, i));
          run = i + 1;
        }
        i++;
        continue;
      case COMMA:
        if (term === T_ARG && ps.stack.length === base) break;
        atSpace = false;
        i++;
        continue;
      case RBRACE:
        if (term === T_BRACE && ps.stack.length === base) break;
        // A scan that skips an enclosing brace group would end it here.
        if (ps.braces > 0) throw IRREGULAR;
        atSpace = false;
        i++;
        continue;
      case RPAREN:
      case RBRACKET: {
        if (term !== T_TOP) {
          const at = ps.awaited(c, base);
          if (at >= 0) ps.stack.length = at;
          else if (c === RPAREN ? term === T_ARG || term === T_LAST : term === T_BRACKET) break;
          else if (watched) throw IRREGULAR;
        }
        atSpace = false;
        i++;
        continue;
      }
      case LBRACKET:
        atSpace = false;
        if (!brackets) {
          if (term !== T_TOP) ps.push(RBRACKET);
          i++;
          continue;
        } else {
          if (i > run) b.lit(src.slice(run, i));
          const innerFlags = (flags | EV.FCHECK | EV.FMAND) & ~EV.TOP;
          // A typed line's part: parsed before, in the same place (the top level, nothing
          // open), it is the same program (see topPart).
          const last = depth === 0 && ps.regions !== null
            ? ps.regions.recent(src, i + 1, innerFlags)
            : null;
          const part = depth === 0 && last === null ? topPart(ps, i + 1) : null;
          let inner = last !== null ? last.p : part && ps.regions!.get(part.text, innerFlags);
          if (inner) {
            ps.pos = last !== null ? i + 1 + last.text.length : part!.hit.end;
          } else {
            if (ps.stack.length + ++ps.open > MAX_OPEN) throw IRREGULAR;
            ps.pos = i + 1;
            inner = region(ps, innerFlags, depth + 1, T_BRACKET, childWatched, true);
            ps.open--;
            if (part && ps.pos === part.hit.end && !hasDyn(inner)) {
              (ps.offers ??= []).push({ text: part.text, flags: innerFlags, p: inner });
            }
          }
          if (inner.text !== null) b.lit(inner.text);
          else {
            b.push(evalNode(inner));
            staticName = false;
          }
          i = run = ps.pos + 1;
          continue;
        }
      case LBRACE: {
        atSpace = false;
        if (i > run) b.lit(src.slice(run, i));
        const strip = (flags & EV.STRIP_CURLY) !== 0;
        if (!strip) b.lit("{");
        let from = i + 1;
        let inner: Program;
        ps.braces++;
        if (evaluate) {
          // MUX keeps one leading space inside braces (Felan's rule).
          if (src.charCodeAt(from) === SPACE) {
            b.lit(" ");
            from++;
          }
          ps.pos = from;
          inner = region(
            ps,
            flags & ~(EV.STRIP_CURLY | EV.FCHECK | EV.FMAND | EV.TOP),
            depth + 1,
            T_BRACE,
            false,
            true,
          );
        } else {
          ps.pos = from;
          inner = region(ps, flags & ~(EV.TOP | EV.FMAND), depth + 1, T_BRACE, false, true);
        }
        ps.braces--;
        if (inner.text !== null) b.lit(inner.text);
        else {
          b.push(evalNode(inner));
          staticName = false;
        }
        if (!strip) b.lit("}");
        i = run = ps.pos + 1;
        continue;
      }
      case PERCENT: {
        atSpace = false;
        if (i > run) b.lit(src.slice(run, i));
        const next = percent(src, i, flags, evaluate, b, ps.opts);
        // A longer code (`%q0`, `%x<...>`) must not swallow what a scan reads.
        if (next > i + 2 && SCANNED.test(src.slice(i + 2, next))) throw IRREGULAR;
        if (b.nodes.length && b.nodes[b.nodes.length - 1].k !== K_LIT) staticName = false;
        i = run = next;
        continue;
      }
      case BACKSLASH:
        // The next character as it is.
        atSpace = false;
        if (i > run) b.lit(src.slice(run, i));
        run = i + 1;
        i += i + 1 < n ? 2 : 1;
        continue;
      default: {
        // LPAREN.
        atSpace = false;
        if (!fcheck) {
          if (term !== T_TOP) ps.push(RPAREN);
          i++;
          continue;
        }
        fcheck = false;
        if (!staticName) {
          if (i > run) b.lit(src.slice(run, i));
          run = i;
          const prefix = b.program();
          skipRest(ps, i, term, watched, base);
          return {
            nodes: [{
              k: K_DYN,
              prefix,
              src,
              open: i,
              end: ps.pos,
              flags,
              depth,
              cache: new Map(),
            }],
            text: null,
          };
        }
        // The name is the text output before `(`: when that is one run of the source, it is
        // looked up straight from there.
        let fn: FunctionDef | undefined | null = null;
        if (b.nodes.length === 0) {
          let to = i;
          if ((flags & EV.FMAND) && compress) {
            while (to > run && isBlank(src.charCodeAt(to - 1))) to--;
          }
          fn = ps.names.find(src, run, to);
        }
        if (fn === null) {
          if (i > run) b.lit(src.slice(run, i));
          run = i;
          const name = nameOf(b.nodes, flags);
          fn = name.length > 0 && name.length <= MAX_FUNCTION_NAME
            ? ps.opts.functions.get(name)
            : undefined;
        }
        if (!fn) {
          if (flags & EV.FMAND) {
            if (i > run) b.lit(src.slice(run, i));
            skipRest(ps, i, term, watched, base);
            return { nodes: [notFoundNode(nameOf(b.nodes, flags))], text: null };
          }
          // The `(` is text (the run goes on with it).
          if (term !== T_TOP) ps.push(RPAREN);
          i++;
          continue;
        }
        if (ps.stack.length + ++ps.open > MAX_OPEN) throw IRREGULAR;
        const node = call(ps, i + 1, fn, flags, depth + 1, childWatched);
        ps.open--;
        b.nodes = [node];
        i = run = ps.pos;
        continue;
      }
    }
    // A delimiter of this region.
    break;
  }
  if (i > run) b.lit(src.slice(run, Math.min(i, n)));
  if (compress && atSpace && b.nodes.length) b.dropLastChar();
  ps.stack.length = base;
  ps.pos = i;
  return b.program();
}

/** Parses a call's arguments from `pos`, just after its `(`; `ps.pos` ends after its `)`. */
function call(
  ps: Parser,
  pos: number,
  fn: FunctionDef,
  flags: number,
  depth: number,
  watched: boolean,
): CallNode {
  const lazy = fn.lazy;
  const feval = lazy
    ? flags & ~(EV.EVAL | EV.TOP | EV.FMAND | EV.STRIP_CURLY)
    : flags & ~(EV.TOP | EV.FMAND);
  const peval = feval & EV.EVAL ? feval | EV.FCHECK : (feval & ~EV.FCHECK) | EV.NOFCHECK;
  const want = Math.min(fn.parseArgs, MAX_ARGS);
  const args: (Program | string)[] = [];
  const node = callNode(fn, args);
  if (ps.src.charCodeAt(pos) === RPAREN) {
    ps.pos = pos + 1;
    return node;
  }
  ps.pos = pos;
  const shallow = depth <= ps.opts.maxDepth;
  for (;;) {
    const term = args.length >= want - 1 ? T_LAST : T_ARG;
    const p = (shallow && simpleArg(ps, peval, depth, term)) ||
      region(ps, peval, depth, term, watched, true);
    if (lazy) args.push(p.text ?? flatten(p));
    else args.push(p);
    const end = ps.pos;
    ps.pos = end + 1;
    if (ps.src.charCodeAt(end) === RPAREN) return node;
  }
}

/**
 * An argument that is one run of plain characters up to its delimiter (`12`, `#3`, `name`), or
 * one such name's call (`add(1,2)`): the program region() would give, without its builder;
 * null for anything else (region() parses it, from the same place).
 */
function simpleArg(ps: Parser, flags: number, depth: number, term: number): Program | null {
  const src = ps.src, n = ps.n, start = ps.pos;
  let i = start;
  while (i < n) {
    const c = src.charCodeAt(i);
    if (c < 128 && STOP[c] !== 0) break;
    i++;
  }
  if (i === start || i === n) return null;
  const c = src.charCodeAt(i);
  if (c === RPAREN || (c === COMMA && term === T_ARG)) {
    ps.pos = i;
    const s = src.slice(start, i);
    return { nodes: [litNode(s)], text: s };
  }
  if (c !== LPAREN || (flags & EV.FCHECK) === 0) return null;
  const fn = ps.names.find(src, start, i);
  if (!fn) return null;
  if (ps.stack.length + ++ps.open > MAX_OPEN) throw IRREGULAR;
  const node = call(ps, i + 1, fn, flags, depth + 1, true);
  ps.open--;
  const d = ps.pos < n ? src.charCodeAt(ps.pos) : -1;
  if (d === RPAREN || (d === COMMA && term === T_ARG)) return { nodes: [node], text: null };
  // More follows the call: the whole argument is parsed again the usual way.
  ps.pos = start;
  return null;
}

/**
 * Finds the end of a region from `i` without parsing it (what follows a run-time function
 * name, an unknown function, a part nested too deep), as scan.ts would, with the same checks.
 */
function skipRest(ps: Parser, i: number, term: number, watched: boolean, base: number): void {
  const src = ps.src, n = ps.n;
  if (term === T_TOP) {
    ps.pos = n;
    return;
  }
  while (i < n) {
    const c = src.charCodeAt(i);
    switch (c) {
      case PERCENT:
      case BACKSLASH:
        i += i + 1 < n ? 2 : 1;
        continue;
      case LBRACKET:
      case LPAREN:
        ps.push(c === LBRACKET ? RBRACKET : RPAREN);
        break;
      case RBRACKET:
      case RPAREN: {
        const at = ps.awaited(c, base);
        if (at >= 0) ps.stack.length = at;
        else if (c === RPAREN ? term === T_ARG || term === T_LAST : term === T_BRACKET) {
          ps.stack.length = base;
          ps.pos = i;
          return;
        } else if (watched) throw IRREGULAR;
        break;
      }
      case LBRACE:
        i = skipBraces(src, i + 1);
        continue;
      case COMMA:
        if (term === T_ARG && ps.stack.length === base) {
          ps.pos = i;
          return;
        }
        break;
      case RBRACE:
        if (term === T_BRACE && ps.stack.length === base) {
          ps.pos = i;
          return;
        }
        if (ps.braces > 0) throw IRREGULAR;
        break;
    }
    i++;
  }
  throw IRREGULAR;
}
