/**
 * iter()'s body parsed once for all its items. MUX replaces `##` and `#@` in the body's text
 * before each item is evaluated, so each item's text is parsed anew (1,000 items, 1,000
 * parses). Where the result cannot differ, the body is parsed once with two stand-in characters
 * for the tokens, and each item is run from that program with the stand-ins read as the item and
 * its position (Evaluation.loopItem and loopPos):
 *
 * - the stand-ins may only land in plain text: not in a function's name (a word before `(`),
 *   not after `%` or `\`, not in a lazy function's raw arguments, not in a substitution;
 * - the item must be inert: no character the parser reads (brackets, braces, parentheses,
 *   commas, `%`, `\`, `;`, spaces, colour), so inserting it as text parses as it would in place.
 *
 * Anything else takes MUX's way, text by text. src/softcode/template_test.ts compares the two.
 */
import { parseText } from "./parse.ts";
import {
  type CompileOptions,
  K_CALL,
  K_DEEP,
  K_DYN,
  K_EVAL,
  K_ITEM,
  K_LIT,
  K_NOTFOUND,
  K_SUB,
  type Node,
  type Program,
} from "./compile.ts";

/** The stand-ins (noncharacters no player can type: src/text/sanitize.ts strips them). */
const ITEM = "\uFDE0";
const POS = "\uFDE1";

/** Characters an item may not hold to be run from a template. */
const LIVE = /[\s\[\](){},;%\\$^\uFDD0-\uFDEF]/;

/** True when an item inserted as text parses as plain text wherever the template allows it. */
export function inertItem(item: string): boolean {
  return item !== "" && !LIVE.test(item);
}

/** A body parsed once, with how many tokens it replaced (for the output limit's check). */
export interface Template {
  program: Program;
  tokens: number;
}

/** The body's template, or null when its items must be parsed one by one. */
export function compileTemplate(
  body: string,
  flags: number,
  opts: CompileOptions,
): Template | null {
  if (body.includes(ITEM) || body.includes(POS)) return null;
  let tokens = 0;
  const text = body.replace(/#[#@]/g, (t) => {
    tokens++;
    return t === "##" ? ITEM : POS;
  });
  if (!tokens) return null;
  // A stand-in in a word before `(` could be a function's name; after `%` or `\` it is read.
  if (/[\uFDE0\uFDE1][^\[\](){},;%\\]*\(/.test(text)) return null;
  if (/[%\\][^\s]{0,2}[\uFDE0\uFDE1]/.test(text)) return null;
  const program = bind(parseText(text, flags, opts));
  return program && { program, tokens };
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
        nodes.push({ k: K_EVAL, p: inner });
        break;
      }
      case K_CALL: {
        const args: (Program | string)[] = [];
        for (const a of n.args) {
          if (typeof a === "string") {
            // A lazy function's raw argument: MUX would have put the item in its text.
            if (hasStandIn(a)) return null;
            args.push(a);
          } else {
            const b = bind(a);
            if (!b) return null;
            args.push(b);
          }
        }
        nodes.push({ k: K_CALL, fn: n.fn, args });
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

function hasStandIn(s: string): boolean {
  return s.includes(ITEM) || s.includes(POS);
}

/** A literal cut at its stand-ins. */
function split(s: string): Node[] {
  const out: Node[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c !== ITEM && c !== POS) continue;
    if (i > from) out.push({ k: K_LIT, s: s.slice(from, i) });
    out.push({ k: K_ITEM, pos: c === POS });
    from = i + 1;
  }
  if (from < s.length) out.push({ k: K_LIT, s: s.slice(from) });
  return out;
}
