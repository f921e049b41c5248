// MUSH colour codes (%ch, %cr, %cR, %cn, %r, %t, %b, %%) to DOM nodes, the way the engine's
// src/text/colour.ts reads them. Text is only ever placed in text nodes; URLs become links.
import { h } from "./dom.js";

const LETTERS = "xrgybmcw";
const URL_RE = /\bhttps?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/** Splits text into runs of `{ text, fg, bg, hi }`, one array per line. */
export function parseCodes(text) {
  const lines = [[]];
  let style = { fg: null, bg: null, hi: false };
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
      if (d === "c" && i + 2 < s.length) {
        const l = s[i + 2];
        const idx = LETTERS.indexOf(l.toLowerCase());
        if (l === "n" || l === "h" || idx >= 0) {
          flush();
          if (l === "n") style = { fg: null, bg: null, hi: false };
          else if (l === "h") style = { ...style, hi: true };
          else if (l === l.toLowerCase()) style = { ...style, fg: l };
          else style = { ...style, bg: l.toLowerCase() };
          i += 2;
          continue;
        }
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
    if (plain || (!r.fg && !r.bg && !r.hi)) return parts;
    const cls = [r.fg ? `fg-${r.fg}` : "", r.bg ? `bg-${r.bg}` : "", r.hi ? "hi" : ""]
      .filter(Boolean).join(" ");
    return h("span", { class: cls }, parts);
  });
}

/** True for a line that is only decoration (rules of -=*~_ and the like). */
export function isDecoration(line) {
  const t = line.trim();
  return t.length >= 3 && /^[-=*~_+.:#|<>\\/\s]+$/.test(t);
}
