// MUSH colour codes to DOM nodes, the way the engine's src/text/colour.ts reads them: %ch,
// %cr, %cR, %cn, MUX's %x/%X forms with u (underline), f (flash), i (inverse), and RGB
// colours (%x<#ff8040>, %X<0 0 255>), which a browser shows exactly; %r %t %b %%. Text is
// only ever placed in text nodes; URLs become links.
import { h } from "./dom.js";

const LETTERS = "xrgybmcw";
const URL_RE = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;
const PLAIN = { fg: null, bg: null, hi: false, ul: false, fl: false, inv: false };

/** `#RRGGBB` or `R G B` (0-255) as `#rrggbb`, or null. */
function rgbOf(spec) {
  if (/^#[0-9a-fA-F]{6}$/.test(spec)) return spec.toLowerCase();
  const m = /^(\d{1,3}) (\d{1,3}) (\d{1,3})$/.exec(spec);
  if (!m) return null;
  const v = [m[1], m[2], m[3]].map(Number);
  if (v.some((x) => x > 255)) return null;
  return "#" + v.map((x) => x.toString(16).padStart(2, "0")).join("");
}

/** The colour code at `i` of `s`: `{ len, apply(style) }`, or null. */
function codeAt(s, i) {
  const kind = s[i + 1];
  if (kind !== "c" && kind !== "x" && kind !== "C" && kind !== "X") return null;
  const l = s[i + 2];
  if (l === undefined) return null;
  if (l === "<") {
    const close = s.indexOf(">", i + 3);
    if (close < 0 || close - i > 20) return null;
    const rgb = rgbOf(s.slice(i + 3, close));
    if (!rgb) return null;
    const bg = kind === "C" || kind === "X";
    return { len: close + 1 - i, apply: (st) => (bg ? { ...st, bg: rgb } : { ...st, fg: rgb }) };
  }
  if (l === "n") return { len: 3, apply: () => ({ ...PLAIN }) };
  if (l === "h") return { len: 3, apply: (st) => ({ ...st, hi: true }) };
  if (l === "u") return { len: 3, apply: (st) => ({ ...st, ul: true }) };
  if (l === "f") return { len: 3, apply: (st) => ({ ...st, fl: true }) };
  if (l === "i") return { len: 3, apply: (st) => ({ ...st, inv: true }) };
  if (LETTERS.includes(l)) return { len: 3, apply: (st) => ({ ...st, fg: l }) };
  if (LETTERS.toUpperCase().includes(l)) {
    return { len: 3, apply: (st) => ({ ...st, bg: l.toLowerCase() }) };
  }
  return null;
}

/** Splits text into runs of `{ text, fg, bg, hi, ul, fl, inv }`, one array per line. */
export function parseCodes(text) {
  /** @type {{ text: string, fg: string | null, bg: string | null, hi: boolean, ul: boolean, fl: boolean, inv: boolean }[][]} */
  const lines = [[]];
  let style = { ...PLAIN };
  let buf = "";
  const flush = () => {
    if (buf) lines[lines.length - 1].push({ text: buf, ...style });
    buf = "";
  };
  const s = typeof text === "string" ? text : "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === "%" && i + 1 < s.length) {
      const d = s[i + 1];
      const code = codeAt(s, i);
      if (code) {
        flush();
        style = code.apply(style);
        i += code.len - 1;
        continue;
      } else if (d === "r" || d === "R") {
        flush();
        lines.push([]);
        i += 1;
        continue;
      } else if (d === "t" || d === "T") {
        buf += "    ";
        i += 1;
        continue;
      } else if (d === "b" || d === "B") {
        buf += " ";
        i += 1;
        continue;
      } else if (d === "%") {
        buf += "%";
        i += 1;
        continue;
      }
    }
    if (c === "\n") {
      flush();
      lines.push([]);
      continue;
    }
    if (c === "\r") continue;
    // Raw escapes and control characters never reach the page.
    if (c === "\x1b") {
      // deno-lint-ignore no-control-regex
      const m = /^\x1b\[[0-?]*[ -/]*[@-~]/.exec(s.slice(i));
      if (m) i += m[0].length - 1;
      continue;
    }
    const code = c.charCodeAt(0);
    if (code < 0x20 && c !== "\t") continue;
    buf += c;
  }
  flush();
  return lines;
}

/** The plain text of a coded string (no colour), lines joined with "\n". */
export function plainText(text) {
  return parseCodes(text).map((runs) => runs.map((r) => r.text).join("")).join("\n");
}

/** Text with URLs turned into links that open in a new tab. */
export function linkify(text) {
  const out = [];
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(h("a", { href: m[0], target: "_blank", rel: "noopener noreferrer" }, m[0]));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** One line's runs as nodes: coloured spans (unless `plain`), links inside. */
export function renderRuns(runs, plain = false) {
  return runs.map((r) => {
    const parts = linkify(r.text);
    if (plain || (!r.fg && !r.bg && !r.hi && !r.ul && !r.fl && !r.inv)) return parts;
    const letter = (v) => v && v[0] !== "#";
    const cls = [
      letter(r.fg) ? `fg-${r.fg}` : "",
      letter(r.bg) ? `bg-${r.bg}` : "",
      r.hi ? "hi" : "",
      r.ul ? "ul" : "",
      r.fl ? "fl" : "",
      r.inv ? "inv" : "",
    ].filter(Boolean).join(" ");
    const span = h("span", { class: cls }, parts);
    // RGB colours go through the style object, which the page's style policy allows.
    if (r.fg && !letter(r.fg)) span.style.color = r.fg;
    if (r.bg && !letter(r.bg)) span.style.background = r.bg;
    return span;
  });
}

/** True for a line that is only decoration (rules of -=*~_ and the like). */
export function isDecoration(line) {
  const t = line.trim();
  return t.length >= 3 && /^[-=*~_+.:#|<>\\/\s]+$/.test(t);
}
