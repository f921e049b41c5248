/**
 * Finding where a bracketed or delimited piece of softcode ends, the way TinyMUX 2.12 does:
 * `[` and `(` open a level that `]` or `)` closes (at most 32 levels are tracked; deeper
 * openers are ignored, as in MUX), `{...}` is skipped whole with its own nesting, and `%` or
 * `\` protects the character after it. A linear scan with no recursion, whatever the input.
 */

/** Deepest `[`/`(` nesting a scan tracks (MUX's limit; deeper openers are not matched). */
const STACK_LIMIT = 32;

const PERCENT = 0x25, BACKSLASH = 0x5c, LPAREN = 0x28, RPAREN = 0x29;
const LBRACKET = 0x5b, RBRACKET = 0x5d, LBRACE = 0x7b, RBRACE = 0x7d;

/** Where a scan stopped: the index of the delimiter found and which of the two it was. */
export interface ScanHit {
  end: number;
  which: 1 | 2;
}

/** Index just past a `{...}` group whose `{` is at `i - 1` (or the end of `s` if unclosed). */
export function skipBraces(s: string, i: number): number {
  const n = s.length;
  let level = 1;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (c === PERCENT || c === BACKSLASH) {
      if (i + 1 < n) i++;
    } else if (c === LBRACE) {
      level++;
    } else if (c === RBRACE) {
      if (--level <= 0) return i + 1;
    }
    i++;
  }
  return n;
}

/**
 * Scans `s` from `pos` for `d1` or `d2` (char codes; -1 for none) outside any nesting. Returns
 * the hit, or null when the text ends first. `]` and `)` close what is open before they can
 * be a delimiter; `,` and `}` are delimiters only at the outer level.
 */
export function scanTo(s: string, pos: number, d1: number, d2: number): ScanHit | null {
  const n = s.length;
  const stack: number[] = [];
  let i = pos;
  while (i < n) {
    const c = s.charCodeAt(i);
    switch (c) {
      case PERCENT:
      case BACKSLASH:
        i += i + 1 < n ? 2 : 1;
        continue;
      case LBRACKET:
      case LPAREN:
        if (c === d1 || c === d2) {
          if (stack.length === 0) return { end: i, which: c === d1 ? 1 : 2 };
        }
        if (stack.length < STACK_LIMIT) stack.push(c === LBRACKET ? RBRACKET : RPAREN);
        i++;
        continue;
      case RBRACKET:
      case RPAREN: {
        const at = stack.lastIndexOf(c);
        if (at >= 0) {
          stack.length = at;
        } else if (c === d1 || c === d2) {
          return { end: i, which: c === d1 ? 1 : 2 };
        }
        i++;
        continue;
      }
      case LBRACE:
        i = skipBraces(s, i + 1);
        continue;
      default:
        if ((c === d1 || c === d2) && stack.length === 0) {
          return { end: i, which: c === d1 ? 1 : 2 };
        }
        i++;
    }
  }
  return null;
}
