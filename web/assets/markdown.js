// A small Markdown renderer that builds DOM nodes (headings, paragraphs, lists, quotes, code,
// rules, emphasis, code spans, links, images). Raw HTML in the source stays text.
import { h } from "./dom.js";

/**
 * A link target as a browser reads it (the WHATWG URL standard, for http and https): leading and
 * trailing controls and spaces dropped, tabs and line breaks dropped anywhere, and `\` taken as
 * `/` before the query or fragment. So `/\evil.example/x` is seen as the `//evil.example/x` a
 * browser makes of it, and the element carries the very form that was checked.
 */
export function browserForm(url) {
  // deno-lint-ignore no-control-regex
  const u = String(url ?? "").replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, "")
    .replace(/[\t\n\r]/g, "");
  const cut = u.search(/[?#]/);
  const head = cut === -1 ? u : u.slice(0, cut);
  return head.replace(/\\/g, "/") + (cut === -1 ? "" : u.slice(cut));
}

/** A URL safe to link to: http(s), mailto, or a path on this site (null for anything else). */
export function safeUrl(url, base) {
  const u = browserForm(url);
  if (/^(https?:|mailto:)/i.test(u)) return u;
  if (/^[a-z][a-z0-9+.-]*:/i.test(u) || u.startsWith("//")) return null;
  if (u.startsWith("/") || u.startsWith("#")) return u;
  return base ? `${base}/${u}` : u;
}

/** A URL on this site only (pictures: the page's policy loads nothing from elsewhere), or null. */
export function siteUrl(url, base) {
  const u = safeUrl(url, base);
  return u && !/^(https?:|mailto:)/i.test(u) ? u : null;
}

/** Inline Markdown to nodes. */
function inline(text, opts) {
  const out = [];
  const re =
    /(`[^`]+`)|(!\[[^\]]*\]\([^)\s]+\))|(\[[^\]]+\]\([^)\s]+\))|(\*\*[^*]+\*\*)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    const t = m[0];
    if (m[1]) out.push(h("code", {}, t.slice(1, -1)));
    else if (m[2] || m[3]) {
      const img = Boolean(m[2]);
      const [, label, url] = /^!?\[([^\]]*)\]\(([^)\s]+)\)$/.exec(t);
      if (img) {
        // Images only from this site (the CSP allows no others): wiki assets.
        const src = siteUrl(url, opts.assetBase);
        out.push(src ? h("img", { src, alt: label }) : `[${label}]`);
      } else {
        const href = safeUrl(url, opts.linkBase);
        const ext = href && /^https?:/i.test(href);
        out.push(
          href
            ? h(
              "a",
              { href, ...(ext ? { target: "_blank", rel: "noopener noreferrer" } : {}) },
              inline(label, opts),
            )
            : label,
        );
      }
    } else if (m[4]) out.push(h("strong", {}, inline(t.slice(2, -2), opts)));
    else out.push(h("em", {}, inline(t.slice(1, -1), opts)));
    last = m.index + t.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/** Renders Markdown into a `<div class="md">`. */
export function markdown(src, opts = {}) {
  const root = h("div", { class: "md" });
  const lines = String(src ?? "").replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = /^```/.exec(line);
    if (fence) {
      const code = [];
      i++;
      while (i < lines.length && !/^```/.test(lines[i])) code.push(lines[i++]);
      i++;
      root.append(h("pre", {}, h("code", {}, code.join("\n"))));
      continue;
    }
    const head = /^(#{1,6})\s+(.*)$/.exec(line);
    if (head) {
      // The page title is the h1: a "#" inside a page is a section (h2) like "##".
      const level = Math.max(2, head[1].length);
      root.append(h(`h${level}`, {}, inline(head[2], opts)));
      i++;
      continue;
    }
    if (/^(-{3,}|\*{3,}|_{3,})\s*$/.test(line)) {
      root.append(h("hr"));
      i++;
      continue;
    }
    if (/^>\s?/.test(line)) {
      const q = [];
      while (i < lines.length && /^>\s?/.test(lines[i])) q.push(lines[i++].replace(/^>\s?/, ""));
      root.append(h("blockquote", {}, [...markdown(q.join("\n"), opts).childNodes]));
      continue;
    }
    const bullet = /^\s*([-*+]|\d+[.)])\s+/;
    if (bullet.test(line)) {
      const ordered = /^\s*\d/.test(line);
      const list = h(ordered ? "ol" : "ul");
      while (i < lines.length && bullet.test(lines[i])) {
        list.append(h("li", {}, inline(lines[i].replace(bullet, ""), opts)));
        i++;
      }
      root.append(list);
      continue;
    }
    const para = [];
    while (
      i < lines.length && lines[i].trim() &&
      !/^(#{1,6}\s|```|>|\s*([-*+]|\d+[.)])\s)/.test(lines[i])
    ) {
      para.push(lines[i++]);
    }
    if (!para.length) para.push(lines[i++]);
    root.append(h("p", {}, inline(para.join(" "), opts)));
  }
  return root;
}
