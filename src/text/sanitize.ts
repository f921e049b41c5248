/**
 * The one sanitiser for text that comes from players: command lines, REST bodies, names.
 *
 * It removes what must never be stored or shown to others, because it changes how other text
 * looks rather than being text itself:
 * - terminal escapes (ESC and a whole CSI sequence), other C0 controls, DEL and C1 controls
 *   (U+0080–U+009F; U+009B is a one-character CSI on some terminals);
 * - the bidirectional embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069,
 *   which can show a line reversed (`U+202E`) or pull later text into it;
 * - lone surrogates (half of a UTF-16 pair: no character at all) and noncharacters
 *   (U+FDD0–U+FDEF and every U+xFFFE/U+xFFFF).
 *
 * The bidi marks U+200E, U+200F and U+061C stay in text (right-to-left writing needs them and
 * they cannot reorder a line), as do joiners (emoji sequences); names refuse them, see
 * `nameCharProblem`. Every function is a single linear pass that never throws.
 */

/** How `sanitizeText` treats line structure. */
export interface SanitizeOptions {
  /**
   * Keep line breaks and tabs (stored text: descriptions, notes, help). A CR LF or lone CR
   * becomes LF. Without it (one command line) breaks are dropped and a tab becomes a space.
   */
  multiline?: boolean;
  /** Keep at most this many code points (default: no limit). */
  maxLength?: number;
}

/** True for a code point that `sanitizeText` drops (lone surrogates are handled apart). */
export function isUnsafeCodePoint(cp: number): boolean {
  if (cp < 0x20) return true;
  if (cp >= 0x7f && cp <= 0x9f) return true;
  if (cp >= 0x202a && cp <= 0x202e) return true;
  if (cp >= 0x2066 && cp <= 0x2069) return true;
  if (cp >= 0xfdd0 && cp <= 0xfdef) return true;
  return (cp & 0xfffe) === 0xfffe;
}

/**
 * Format characters that show nothing: allowed inside text, refused in names, where they
 * would let two different names look the same (`W<U+200B>iz` and `Wiz`).
 */
function isInvisibleFormat(cp: number): boolean {
  return cp === 0x00ad || cp === 0x034f || cp === 0x061c || cp === 0x180e || cp === 0xfeff ||
    (cp >= 0x200b && cp <= 0x200f && cp !== 0x200c && cp !== 0x200d) ||
    (cp >= 0x2060 && cp <= 0x206f);
}

/** Removes unsafe characters (see the module comment) from player text. */
export function sanitizeText(text: string, options: SanitizeOptions = {}): string {
  if (typeof text !== "string") return "";
  const multiline = options.multiline === true;
  const max = options.maxLength;
  const limit = max === undefined ? Infinity : Number.isNaN(max) ? 0 : Math.max(0, Math.floor(max));
  const out: string[] = [];
  const n = text.length;
  let count = 0;
  let start = 0; // start of the pending run of characters kept verbatim
  let i = 0;
  const cut = (next: number, replacement?: string) => {
    if (start < i) out.push(text.slice(start, i));
    if (replacement !== undefined) {
      out.push(replacement);
      count++;
    }
    i = next;
    start = next;
  };
  while (i < n && count < limit) {
    const c = text.charCodeAt(i);
    if (c < 0x80 && c >= 0x20 && c !== 0x7f) {
      i++;
      count++;
      continue;
    }
    if (c === 0x1b) {
      cut(skipEscape(text, i));
    } else if (c === 0x09) {
      cut(i + 1, multiline ? "\t" : " ");
    } else if (c === 0x0a || c === 0x0d) {
      const next = c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
      if (multiline) cut(next, "\n");
      else cut(next);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const low = text.charCodeAt(i + 1);
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
        if ((cp & 0xfffe) === 0xfffe) cut(i + 2);
        else {
          i += 2;
          count++;
        }
      } else cut(i + 1);
    } else if (isUnsafeCodePoint(c)) {
      cut(i + 1);
    } else {
      i++;
      count++;
    }
  }
  // Nothing cut (most lines; every cut moves `start`): the text itself, or its first `limit`
  // code points.
  if (start === 0) return i === n ? text : text.slice(0, i);
  if (start < i) out.push(text.slice(start, i));
  return out.join("");
}

/**
 * Why a name holds characters no name may have, or null. Names get what text gets plus
 * invisible format characters; they are refused rather than quietly changed, since a name is
 * how others recognise someone.
 */
export function nameCharProblem(name: string): string | null {
  if (sanitizeText(name) !== name) {
    return "name must not contain control characters, direction overrides or invalid characters";
  }
  for (let i = 0; i < name.length; i++) {
    if (isInvisibleFormat(name.charCodeAt(i))) return "name must not contain invisible characters";
  }
  return null;
}

/**
 * Sanitises every string (not keys) in a parsed JSON value, in place, as multi-line text. The
 * walk is iterative, so a deeply nested body cannot overflow the stack here. Values under a key
 * for which `skip` answers true (secrets that are compared byte for byte) are left alone.
 */
export function sanitizeJson<T>(value: T, skip: (key: string) => boolean = () => false): T {
  if (typeof value === "string") return sanitizeText(value, { multiline: true }) as T;
  const stack: unknown[] = [value];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (let k = 0; k < v.length; k++) {
        const x = v[k];
        if (typeof x === "string") v[k] = sanitizeText(x, { multiline: true });
        else if (x !== null && typeof x === "object") stack.push(x);
      }
    } else if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) {
        if (skip(k)) continue;
        const x = o[k];
        if (typeof x === "string") o[k] = sanitizeText(x, { multiline: true });
        else if (x !== null && typeof x === "object") stack.push(x);
      }
    }
  }
  return value;
}

/**
 * Index just past the escape sequence at `i` (which holds ESC). A complete CSI
 * (ESC [ parameters final-byte) is skipped whole; otherwise only the ESC itself goes.
 */
function skipEscape(text: string, i: number): number {
  if (text.charCodeAt(i + 1) !== 0x5b) return i + 1;
  let j = i + 2;
  // Parameter and intermediate bytes never include ESC, so scans of different escapes never
  // overlap and the whole pass stays linear.
  while (j < text.length) {
    const d = text.charCodeAt(j);
    if (d < 0x20 || d > 0x3f) break;
    j++;
  }
  const final = text.charCodeAt(j);
  return final >= 0x40 && final <= 0x7e ? j + 1 : i + 1;
}
