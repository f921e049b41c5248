/**
 * Markdown for the terminal: headings, paragraphs, lists, quotes, code, rules and tables
 * become plain lines with MUSH colour codes, word-wrapped to the reader's width. Links show
 * their text and address (`text <url>`), images their alt text. A `%` in the page is
 * escaped, so a page cannot smuggle colour codes or line breaks of its own. Every pattern
 * here is linear: page text is large and written by anyone with a text editor.
 */
import { padVisible, visibleLength, wrapText } from "../../src/plugins/mod.ts";
import type { Page } from "./store.ts";
import type { ChildStub, Listing } from "./store.ts";

/** Most lines a page shows in game; the rest is pointed to on the web. */
export const MAX_LINES = 400;
/** Most characters of a body rendered in game. */
const MAX_RENDERED = 128 * 1024;

/** `%` and the MUSH escapes it starts stay literal. */
function esc(text: string): string {
  return text.replaceAll("%", "%%");
}

// Every repeat is bounded: an unclosed `[`, `(` or a long run of backticks would otherwise
// rescan the rest of the line from every opener (quadratic in the line's length).
const INLINE_RE = new RegExp(
  [
    String.raw`\\([\\\x60*_{}\[\]()#+\-.!|>~<])`, // 1 escaped character
    String.raw`(\x60{1,3})([^\x60]{1,2000})\2`, // 2,3 code span
    String.raw`!\[([^\]]{0,300})\]\( {0,3}([^)\s]{0,1000})(?: {1,3}"[^"]{0,300}")? {0,3}\)`, // 4,5 image
    String.raw`\[([^\]]{1,300})\]\( {0,3}([^)\s]{0,1000})(?: {1,3}"[^"]{0,300}")? {0,3}\)`, // 6,7 link
    String.raw`<((?:https?|mailto):[^>\s]{1,1000})>`, // 8 autolink
    String.raw`\*\*([^*]{1,2000})\*\*`, // 9 strong
    String.raw`__([^_]{1,2000})__`, // 10 strong
    String.raw`\*([^*\s](?:[^*]{0,2000}[^*\s])?)\*`, // 11 emphasis
    String.raw`(?<![\p{L}\p{N}_])_([^_\s](?:[^_]{0,2000}[^_\s])?)_(?![\p{L}\p{N}_])`, // 12 emphasis
  ].join("|"),
  "gu",
);

/** Inline Markdown of one block's text to colour-coded text. */
export function renderInline(text: string, depth = 0): string {
  if (depth > 3) return esc(text);
  let out = "";
  let last = 0;
  for (const m of text.matchAll(INLINE_RE)) {
    out += esc(text.slice(last, m.index));
    last = m.index + m[0].length;
    const [, escaped, , code, alt, src, linkText, href, auto, s1, s2, e1, e2] = m;
    if (escaped !== undefined) out += esc(escaped);
    else if (code !== undefined) out += `%cg${esc(code)}%cn`;
    else if (src !== undefined) out += `[image: ${esc(alt || src)}] <${esc(src)}>`;
    else if (href !== undefined) {
      const shown = renderInline(linkText, depth + 1);
      out += href && href !== linkText ? `%cc${shown}%cn <${esc(href)}>` : `%cc${shown}%cn`;
    } else if (auto !== undefined) out += `<${esc(auto)}>`;
    else if (s1 !== undefined || s2 !== undefined) {
      out += `%ch${renderInline(s1 ?? s2, depth + 1)}%cn`;
    } else if (e1 !== undefined || e2 !== undefined) {
      out += `%cy${renderInline(e1 ?? e2, depth + 1)}%cn`;
    }
  }
  return out + esc(text.slice(last));
}

/** Wraps `text` to `width` with `first` before the first line and `rest` before the others. */
function wrapWith(text: string, width: number, first: string, rest: string): string[] {
  const inner = Math.max(10, width - Math.max(visibleLength(first), visibleLength(rest)));
  return wrapText(text, inner).split("\n").map((l, i) => (i === 0 ? first : rest) + l);
}

const FENCE_RE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING_RE = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const RULE_RE = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const ITEM_RE = /^([ \t]*)([-*+]|[0-9]{1,9}[.)])[ \t]+(.*)$/;
const QUOTE_RE = /^ {0,3}>[ \t]?(.*)$/;

/** A Markdown body as terminal lines (colour codes kept), wrapped to `width`. */
export function renderMarkdown(body: string, width: number): string[] {
  const out: string[] = [];
  let para: string[] = [];
  let quote: string[] = [];
  let item: { indent: string; bullet: string; text: string[] } | null = null;
  let fence: string | null = null;

  const blank = () => {
    if (out.length && out[out.length - 1] !== "") out.push("");
  };
  const joinLines = (lines: string[]) =>
    lines.map((
      l,
      i,
    ) => (i < lines.length - 1 && /( {2,}|\\)$/.test(l)
      ? l.replace(/( +|\\)$/, "\n")
      : l.trimEnd() + " ")
    )
      .join("").trim();
  const flush = () => {
    if (para.length) {
      out.push(...wrapWith(renderInline(joinLines(para)), width, "", ""));
      para = [];
    }
    if (quote.length) {
      out.push(...wrapWith(renderInline(joinLines(quote)), width, "%cx|%cn ", "%cx|%cn "));
      quote = [];
    }
    if (item) {
      const hang = " ".repeat(item.indent.length + item.bullet.length + 1);
      out.push(
        ...wrapWith(
          renderInline(joinLines(item.text)),
          width,
          `${item.indent}${item.bullet} `,
          hang,
        ),
      );
      item = null;
    }
  };

  for (const raw of body.split(/\r?\n/)) {
    const line = raw.replace(/\t/g, "    ");
    if (fence !== null) {
      if (line.trim().startsWith(fence)) {
        fence = null;
        blank();
      } else out.push(`  %cg${esc(line)}%cn`);
      continue;
    }
    const f = FENCE_RE.exec(line);
    if (f) {
      flush();
      blank();
      fence = f[1];
      continue;
    }
    if (line.trim() === "") {
      flush();
      blank();
      continue;
    }
    const h = HEADING_RE.exec(line);
    if (h) {
      flush();
      blank();
      const text = renderInline(h[2]);
      if (h[1].length === 1) {
        out.push(...wrapWith(`%ch%cc${text}%cn`, width, "", ""));
        out.push("%cc" + "=".repeat(Math.min(width, Math.max(3, h[2].length))) + "%cn");
      } else if (h[1].length === 2) {
        out.push(...wrapWith(`%ch${text}%cn`, width, "", ""));
        out.push("-".repeat(Math.min(width, Math.max(3, h[2].length))));
      } else {
        out.push(...wrapWith(`%ch${text}%cn`, width, "", ""));
      }
      continue;
    }
    if (RULE_RE.test(line)) {
      flush();
      out.push("%cx" + "-".repeat(width) + "%cn");
      continue;
    }
    const li = ITEM_RE.exec(line);
    if (li) {
      flush();
      const level = Math.min(6, Math.floor(li[1].length / 2));
      const bullet = /^[-*+]$/.test(li[2]) ? "*" : li[2].replace(")", ".");
      item = { indent: "  ".repeat(level + 1), bullet, text: [li[3]] };
      continue;
    }
    const q = QUOTE_RE.exec(line);
    if (q) {
      if (para.length || item) flush();
      quote.push(q[1]);
      continue;
    }
    if (/^ {0,3}\|/.test(line)) {
      flush();
      out.push(renderInline(line.trim()));
      continue;
    }
    if (item && /^\s/.test(raw)) {
      (item as { text: string[] }).text.push(line.trimStart());
      continue;
    }
    if (quote.length) flush();
    if (!para.length && /^ {4}/.test(line)) {
      out.push(`  %cg${esc(line.slice(4))}%cn`);
      continue;
    }
    para.push(line.trimStart()); // trailing spaces may be a hard break
  }
  flush();
  while (out.length && out[out.length - 1] === "") out.pop();
  return out;
}

/** A page for `+wiki`: title bar, the rendered body (at most MAX_LINES lines), its metadata. */
export function renderPage(page: Page, width: number): string {
  const rule = "%cx" + "=".repeat(width) + "%cn";
  const title = typeof page.meta.title === "string" ? page.meta.title : page.path;
  // 400 lines of at most 250 columns never need more than this much of a (10 MB) body.
  const cut = page.body.length > MAX_RENDERED;
  const lines = renderMarkdown(cut ? page.body.slice(0, MAX_RENDERED) : page.body, width);
  const shown = lines.slice(0, MAX_LINES);
  if (cut || lines.length > MAX_LINES) {
    shown.push("", "%cx... the page goes on: read the whole page on the web.%cn");
  }
  const facts: string[] = [];
  const { author, date, tags } = page.meta;
  if (typeof author === "string" && author) facts.push(`%chAuthor:%cn ${esc(author)}`);
  if (date !== undefined && date !== null && date !== "") {
    facts.push(`%chDate:%cn ${esc(String(date))}`);
  }
  if (Array.isArray(tags) && tags.length) facts.push(`%chTags:%cn ${esc(tags.join(", "))}`);
  return [
    rule,
    ...wrapWith(`%ch${esc(title)}%cn %cx(${esc(page.path || "/")})%cn`, width, "", ""),
    rule,
    ...shown,
    rule,
    ...(facts.length ? wrapWith(facts.join("  "), width, "", "") : []),
  ].join("\n");
}

function childLine(c: ChildStub, width: number): string {
  const name = c.path.split("/").pop() ?? c.path;
  if (c.type === "directory") return `  %ch${esc(name)}/%cn`;
  if (c.type === "asset") return `  ${esc(name)} %cx(file)%cn`;
  const left = padVisible(`  ${esc(name)}`, Math.min(30, Math.floor(width / 2)));
  return padVisible(`${left} ${esc(c.title)}`, width);
}

/** A folder listing for `+wiki`. */
export function renderListing(listing: Listing, width: number): string {
  const rule = "%cx" + "=".repeat(width) + "%cn";
  const head = `%chWiki: ${esc(listing.path ? listing.path + "/" : "/")}%cn`;
  const body = listing.children.length
    ? listing.children.map((c) => childLine(c, width))
    : ["  (empty)"];
  return [rule, head, rule, ...body, rule, "+wiki <path> reads a page or a folder."].join("\n");
}

/** Search results for `+wiki/search`. */
export function renderResults(
  query: string,
  hits: { path: string; title: string }[],
  total: number,
  width: number,
): string {
  if (!hits.length) return `No wiki pages match '${esc(query)}'.`;
  const lines = hits.map((h) => {
    const left = padVisible(`  ${esc(h.path)}`, Math.min(36, Math.floor(width / 2)));
    return padVisible(`${left} ${esc(h.title)}`, width);
  });
  const more = total > hits.length
    ? [`...and ${total - hits.length} more. Narrow the search.`]
    : [];
  return [`%chWiki pages matching '${esc(query)}' (${total}):%cn`, ...lines, ...more].join("\n");
}
