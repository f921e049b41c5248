/**
 * iter()'s body parsed once for all its items. MUX replaces `##` and `#@` in the body's text
 * before each item is evaluated, so each item's text is parsed anew (1,000 items, 1,000
 * parses). Where the result cannot differ, the body is parsed once with two stand-in characters
 * for the tokens, and each item is run from that program with the stand-ins read as the item and
 * its position (Evaluation.loopItem and loopPos):
 *
 * - the stand-ins may only land in plain text: not in a function's name (a word before `(`),
 *   not after `%` or `\`, not in a substitution, not in a colour code;
 * - in a lazy function's raw arguments only for the functions that use each of them as code
 *   they evaluate at once (`switch()`, `ifelse()`...: EVALUATES_ARGS); that evaluation meets
 *   the stand-ins in its text and parses it the same way (Evaluation.eval, Softcode.bound),
 *   or, where its text breaks a rule here, puts the item in the text as MUX does;
 * - the item must be inert: no character the parser reads (brackets, braces, parentheses,
 *   commas, `%`, `\`, `;`, spaces, colour), so inserting it as text parses as it would in place,
 *   and nothing a later token replacement reads (`##`, `#@`, a `#` at its end: a nested iter()
 *   or switch()'s `#$` would see those in MUX's text).
 *
 * Anything else takes MUX's way, text by text. An attribute the body calls (u(), a @function)
 * is not part of the body's text, in MUX or here: it runs outside the template
 * (Evaluation.evalAttr), where no stand-in is looked for. src/softcode/template_test.ts compares
 * the two ways.
 */
import { parseText } from "./parse.ts";
import {
  type CallNode,
  callNode,
  type CompileOptions,
  evalNode,
  itemNode,
  K_CALL,
  K_DEEP,
  K_DYN,
  K_EVAL,
  K_ITEM,
  K_LIT,
  K_NOTFOUND,
  K_SUB,
  litNode,
  type Node,
  type Program,
} from "./compile.ts";

/** The stand-ins (noncharacters no player can type: src/text/sanitize.ts strips them). */
const ITEM = "\uFDE0";
const POS = "\uFDE1";

/** Characters an item may not hold to be run from a template, and tokens it may not make. */
const LIVE = /[\s\[\](){},;%\\$^\uFDD0-\uFDEF]|#[#@]|#$/;

/** True when an item inserted as text parses as plain text wherever the template allows it. */
export function inertItem(item: string): boolean {
  return item !== "" && !LIVE.test(item);
}

/**
 * LIVE for a whole list split at spaces: a space is its delimiter, not in an item, and an item
 * ending in `#` is one followed by a space or the list's end.
 */
const LIVE_IN_LIST = /[^\S ]|[\[\](){},;%\\$^\uFDD0-\uFDEF]|#[#@ ]|#$/;

/** By ASCII code: 1 for a character LIVE_IN_LIST finds alone, 2 for `#` (read with the next). */
const LIVE_ASCII: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const ch of "\t\n\v\f\r[](){},;%\\$^") t[ch.charCodeAt(0)] = 1;
  t[0x23] = 2;
  return t;
})();

/**
 * A list split at spaces as splitList() splits it, and whether every item is inert
 * (inertItem), found in the same pass over the list: a separate look (a regular expression over
 * the 6,000 characters of 1,000 words) cost iter() 10-20 µs of about 130. A list
 * with a character beyond ASCII is looked at by LIVE_IN_LIST (the spaces and stand-ins of
 * Unicode); `inert` false says nothing of any one item.
 */
export function splitInert(s: string): { items: string[]; inert: boolean } {
  let a = 0, b = s.length;
  while (a < b && s.charCodeAt(a) === 0x20) a++;
  while (b > a && s.charCodeAt(b - 1) === 0x20) b--;
  const items: string[] = [];
  if (a === b) return { items, inert: true };
  let inert = true, wide = false;
  let start = a;
  for (let i = a; i < b; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20) {
      items.push(s.slice(start, i));
      while (i + 1 < b && s.charCodeAt(i + 1) === 0x20) i++;
      start = i + 1;
    } else if (c >= 128) wide = true;
    else if (LIVE_ASCII[c] !== 0) {
      if (LIVE_ASCII[c] === 1) inert = false;
      else {
        // `#` before `#`, `@`, a space or the list's end.
        const d = i + 1 < s.length ? s.charCodeAt(i + 1) : 0x20;
        if (d === 0x23 || d === 0x40 || d === 0x20) inert = false;
      }
    }
  }
  items.push(s.slice(start, b));
  if (inert && wide) inert = !LIVE_IN_LIST.test(s);
  return { items, inert };
}

/**
 * Lazy functions that use each raw argument only as code they evaluate at once, in the same
 * evaluation (Evaluation.eval, after at most switch()'s `#$` replacement): the stand-ins may stay
 * in their arguments. Others (iter()'s one-character delimiter, lit(), u()'s attribute name...)
 * read the text itself.
 */
const EVALUATES_ARGS = new Set([
  "SWITCH",
  "CASE",
  "IFELSE",
  "IF",
  "CAND",
  "COR",
  "CANDBOOL",
  "CORBOOL",
  "LOCALIZE",
]);

/** A body parsed once, with how many tokens it replaced (for the output limit's check). */
export interface Template {
  program: Program;
  tokens: number;
  /**
   * When the body is one call of a leaf function (FunctionDef.reads) whose arguments are each
   * a literal, `##` or `#@` (`strlen(##)`, `ljust(##,12,.)`): that call, run for each item with
   * its arguments put in place (Evaluation.runItem), not through the program; else null.
   */
  call: CallNode | null;
  /** The call's arguments by kind: ARG_TEXT (its literal), ARG_ITEM or ARG_POS. */
  kinds: readonly number[];
  /**
   * When the body is such calls (the first alone, the others in brackets) and text between
   * them (`ljust(##,12,.)[rjust(#@,4)]`): its pieces in order, each run or copied for each
   * item (Evaluation.runItem), not through the program; else null.
   */
  parts: readonly TemplatePart[] | null;
}

/** A piece of a template run as its pieces (Template.parts). */
export interface TemplatePart {
  /** Its text, when it is one (else ""). */
  text: string;
  /** Its leaf call, when it is one (else null). */
  call: CallNode | null;
  /** The call's arguments by kind, as Template.kinds. */
  kinds: readonly number[];
}

/** Kinds of a template call's arguments (Template.kinds). */
export const ARG_TEXT = 0;
export const ARG_ITEM = 1;
export const ARG_POS = 2;

/** The body's template, or null when its items must be parsed one by one. */
export function compileTemplate(
  body: string,
  flags: number,
  opts: CompileOptions,
): Template | null {
  if (hasStandIn(body)) return null;
  const text = body.replace(/#[#@]/g, (t) => t === "##" ? ITEM : POS);
  return text === body ? null : bindStandIns(text, flags, opts);
}

/**
 * A text that holds stand-ins (a template's, or a part of one a lazy function evaluates) parsed
 * once with them as item nodes; null when one of them could be read as more than text.
 */
export function bindStandIns(text: string, flags: number, opts: CompileOptions): Template | null {
  let tokens = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0xfde0 || c === 0xfde1) tokens++;
  }
  if (!tokens) return null;
  // A stand-in in a word before `(` could be a function's name; after `%` or `\` it is read,
  // and in a colour code's `<...>` too.
  if (/[\uFDE0\uFDE1][^\[\](){},;%\\]*\(/.test(text)) return null;
  if (/[%\\][^\s]{0,2}[\uFDE0\uFDE1]/.test(text)) return null;
  if (/%[xXcC]<[^>]*[\uFDE0\uFDE1]/.test(text)) return null;
  const program = bind(parseText(text, flags, opts));
  if (!program) return null;
  const kinds: number[] = [];
  const call = itemCall(program, kinds);
  return { program, tokens, call, kinds, parts: call === null ? itemParts(program) : null };
}

/**
 * The program's one leaf call whose arguments are literals and stand-ins (Template.call), with
 * their kinds put in `kinds`; null for any other program. A leaf reads only its arguments and
 * evaluates nothing, so with these it reads nothing of the item's evaluation but its arguments.
 */
function itemCall(p: Program, kinds: number[]): CallNode | null {
  if (p.text !== null || p.nodes.length !== 1) return null;
  return leafCall(p.nodes[0], kinds);
}

/** A node that is a leaf call of literals and stand-ins (see itemCall), or null. */
function leafCall(n: Node, kinds: number[]): CallNode | null {
  if (n.k !== K_CALL || n.fn.reads !== "args" || n.args.length > 3) return null;
  for (const a of n.args) {
    if (typeof a === "string") return null;
    if (a.text !== null) kinds.push(ARG_TEXT);
    else if (a.nodes.length === 1 && a.nodes[0].k === K_ITEM) {
      kinds.push(a.nodes[0].pos ? ARG_POS : ARG_ITEM);
    } else return null;
  }
  return n;
}

/**
 * The program's pieces (Template.parts) when each node is text, a leaf call of literals and
 * stand-ins (first), or a bracket holding text or one such call; null for any other program. As
 * run() gives them: text is copied even once the evaluation has halted, a call then gives
 * nothing.
 */
function itemParts(p: Program): TemplatePart[] | null {
  if (p.text !== null) return null;
  const parts: TemplatePart[] = [];
  let calls = 0;
  for (const n of p.nodes) {
    const inner = n.k === K_EVAL ? n.p : null;
    // A call not in brackets is one only at the start; after it halts, run() would make one
    // later still (with empty tokens, refused), where a bracket's gives nothing.
    if (n.k === K_CALL && parts.length > 0) return null;
    if (n.k === K_LIT || (inner !== null && inner.text !== null)) {
      parts.push({ text: n.k === K_LIT ? n.s : inner!.text!, call: null, kinds: [] });
      continue;
    }
    const kinds: number[] = [];
    const call = inner === null
      ? leafCall(n, kinds)
      : inner.nodes.length === 1
      ? leafCall(inner.nodes[0], kinds)
      : null;
    if (call === null) return null;
    parts.push({ text: "", call, kinds });
    calls++;
  }
  return calls > 0 ? parts : null;
}

/** The text with its stand-ins replaced by the item and its position (MUX's text). */
export function fillStandIns(text: string, item: string, pos: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0xfde0 && c !== 0xfde1) continue;
    out += text.slice(from, i) + (c === 0xfde0 ? item : pos);
    from = i + 1;
  }
  return out + text.slice(from);
}

/** The program with its stand-ins as item nodes; null when one is anywhere but in plain text. */
function bind(p: Program): Program | null {
  if (p.text !== null) {
    return hasStandIn(p.text) ? { nodes: split(p.text), text: null } : p;
  }
  const nodes: Node[] = [];
  for (const n of p.nodes) {
    switch (n.k) {
      case K_LIT:
        if (hasStandIn(n.s)) nodes.push(...split(n.s));
        else nodes.push(n);
        break;
      case K_EVAL: {
        const inner = bind(n.p);
        if (!inner) return null;
        nodes.push(evalNode(inner));
        break;
      }
      case K_CALL: {
        const args: (Program | string)[] = [];
        for (const a of n.args) {
          if (typeof a === "string") {
            // A lazy function's raw argument: MUX would have put the item in its text; only a
            // function that evaluates it as it is may be given the stand-ins (see above).
            if (hasStandIn(a) && !EVALUATES_ARGS.has(n.fn.name)) return null;
            args.push(a);
          } else {
            const b = bind(a);
            if (!b) return null;
            args.push(b);
          }
        }
        nodes.push(callNode(n.fn, args));
        break;
      }
      case K_SUB:
        if (hasStandIn(n.arg)) return null;
        nodes.push(n);
        break;
      case K_NOTFOUND:
        if (hasStandIn(n.name)) return null;
        nodes.push(n);
        break;
      case K_DYN:
        if (hasStandIn(n.src)) return null;
        nodes.push(n);
        break;
      case K_DEEP:
      case K_ITEM:
        nodes.push(n);
        break;
    }
  }
  return { nodes, text: null };
}

/** True when a text holds a stand-in. */
export function hasStandIn(s: string): boolean {
  return s.includes(ITEM) || s.includes(POS);
}

/** A literal cut at its stand-ins. */
function split(s: string): Node[] {
  const out: Node[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== ITEM && c !== POS) continue;
    if (i > from) out.push(litNode(s.slice(from, i)));
    out.push(itemNode(c === POS));
    from = i + 1;
  }
  if (from < s.length) out.push(litNode(s.slice(from)));
  return out;
}
