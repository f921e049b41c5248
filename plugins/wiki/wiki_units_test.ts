/** Unit tests of the wiki's pure parts: paths, front matter, and the terminal rendering. */
import assert from "node:assert/strict";
import { stripColour, ValidationError } from "../../src/plugins/mod.ts";
import { parseUrlPath, parseWikiPath } from "./paths.ts";
import { checkMeta, formatPage, MAX_TITLE, parsePage } from "./frontmatter.ts";
import { MAX_LINES, renderInline, renderMarkdown, renderPage } from "./render.ts";

Deno.test("paths: good paths, assets, and the root", () => {
  assert.deepEqual(parseWikiPath("setting/harbour"), {
    segments: ["setting", "harbour"],
    path: "setting/harbour",
    asset: false,
  });
  assert.deepEqual(parseWikiPath("maps/Harbour Map.PNG"), {
    segments: ["maps", "Harbour Map.PNG"],
    path: "maps/Harbour Map.PNG",
    asset: true,
    contentType: "image/png",
  });
  assert.equal(parseWikiPath("a/").path, "a");
  assert.equal(parseWikiPath("notes.v2").asset, false);
  assert.equal(parseWikiPath("Åsa/café_1-2").path, "Åsa/café_1-2");
  assert.equal(parseWikiPath("", { root: true }).path, "");
  assert.equal(parseUrlPath("/a%20b/c.pdf").path, "a b/c.pdf");
  assert.equal(parseUrlPath("", { root: true }).path, "");
  assert.equal(parseUrlPath("/", { root: true }).path, "");
  // `<folder>/index` is the folder's own page, and the file it names.
  assert.deepEqual(parseWikiPath("setting/Index"), {
    segments: ["setting"],
    path: "setting",
    asset: false,
    folderPage: true,
  });
  assert.deepEqual(parseWikiPath("index"), {
    segments: [],
    path: "",
    asset: false,
    folderPage: true,
  });
  assert.equal(parseWikiPath("index/harbour").path, "index/harbour");
});

Deno.test("paths: every hostile form is a 400", () => {
  const bad = [
    "",
    "..",
    ".",
    "../x",
    "a/../b",
    "a/./b",
    "/abs",
    "a//b",
    "a\\b",
    "a\u0000b",
    "a\nb",
    ".git",
    "a/.env",
    "a/b.md",
    "README",
    "docs/readme",
    "trailing ",
    " leading",
    "dot.",
    "a:b",
    "a*b",
    "x".repeat(101),
    Array(17).fill("d").join("/"),
    "a/".repeat(300) + "b",
  ];
  for (const p of bad) {
    assert.throws(() => parseWikiPath(p), ValidationError, JSON.stringify(p));
  }
  assert.throws(() => parseWikiPath(5), ValidationError);
  for (const raw of ["/a%2fb", "/a%5Cb", "/%2e%2e", "/..", "//etc", "/a%zz", "/a%00b", "/.git"]) {
    assert.throws(() => parseUrlPath(raw), ValidationError, raw);
  }
});

Deno.test("front matter: written with inline arrays, read back the same", () => {
  const meta = {
    title: "The Harbour",
    tags: ["place", "sea"],
    level: 3,
    open: true,
    "x-y_z": "ok",
  };
  const text = formatPage(meta, "# Body\n\ntext");
  assert.equal(
    text,
    "---\ntitle: The Harbour\ntags: [place, sea]\nlevel: 3\nopen: true\nx-y_z: ok\n---\n\n" +
      "# Body\n\ntext",
  );
  const back = parsePage(text);
  assert.deepEqual(back.meta, meta);
  assert.equal(back.body, "# Body\n\ntext");
  // Values that look like other types stay strings when written.
  const tricky = { title: "yes", date: "2024-01-01", note: "a: b # c", num: "12" };
  assert.deepEqual(parsePage(formatPage(tricky, "")).meta, tricky);
  assert.equal(formatPage({}, "plain"), "plain");
});

Deno.test("front matter: files that are not quite right still read", () => {
  assert.deepEqual(parsePage("no block"), { meta: {}, body: "no block", block: null });
  assert.deepEqual(parsePage("---\ntitle: [x\n---\nbody").meta, {});
  assert.equal(parsePage("---\ntitle: [x\n---\nbody").body, "---\ntitle: [x\n---\nbody");
  assert.deepEqual(parsePage("---\n- a list\n---\nbody").meta, {});
  assert.equal(parsePage("---\n---\nbody").body, "body");
  assert.equal(parsePage("---\ntitle: a---b\n---\nbody").meta.title, "a---b");
  assert.equal(parsePage("---\r\ntitle: T\r\n---\r\nbody").meta.title, "T");
  // Keys that break the rule, and page fields, are left out.
  assert.deepEqual(parsePage("---\ntitle: T\nbad key: 1\npath: x\nbody: y\n---\n").meta, {
    title: "T",
  });
  // An unclosed block is body.
  assert.equal(parsePage("---\ntitle: T\n").body, "---\ntitle: T\n");
});

Deno.test("front matter: checkMeta refuses what the rules refuse", () => {
  const bad: Record<string, unknown>[] = [
    { "a b": 1 },
    { "a.b": 1 },
    { "": 1 },
    { ["k".repeat(65)]: 1 },
    { body: "x" },
    { path: "x" },
    { obj: { a: 1 } },
    { list: [[1]] },
    { n: Infinity },
    { n: null },
    { s: "x".repeat(2001) },
    { list: Array(101).fill("a") },
    { title: "" },
    { title: 5 },
    { tags: "a" },
    { tags: [1] },
    { date: 20240101 },
    Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, i])),
  ];
  for (const m of bad) assert.throws(() => checkMeta(m), ValidationError, JSON.stringify(m));
  checkMeta({ title: "T", tags: [], level: 1.5, ok: false, mixed: ["a", 1, true] });
  checkMeta({ mood: null }, { allowNull: true });
  // The title bound holds for every writer (REST create and edit, the game), here once.
  checkMeta({ title: "x".repeat(MAX_TITLE) });
  assert.throws(
    () => checkMeta({ title: "x".repeat(MAX_TITLE + 1) }, { allowNull: true }),
    ValidationError,
    `title must be at most ${MAX_TITLE} characters.`,
  );
});

Deno.test("render: inline Markdown, escapes, and no colour codes from the page", () => {
  const plain = (s: string) => stripColour(renderInline(s));
  assert.equal(plain("**bold** and *em* and _em_ and `code`"), "bold and em and em and code");
  assert.equal(plain("[text](http://x.y/z)"), "text <http://x.y/z>");
  assert.equal(plain("[http://x.y](http://x.y)"), "http://x.y");
  assert.equal(plain("![alt](/a.png)"), "[image: alt] </a.png>");
  assert.equal(plain("<https://a.b>"), "<https://a.b>");
  assert.equal(plain("\\*not em\\*"), "*not em*");
  assert.equal(plain("snake_case_word"), "snake_case_word");
  assert.equal(plain("100% %cr red %r"), "100% %cr red %r");
  assert.equal(plain("**unclosed"), "**unclosed");
  assert.match(renderInline("**b**"), /^%ch/);
});

Deno.test("render: blocks wrap to the width; long pages are cut with a pointer", () => {
  const body = "# Title\n\n" + "word ".repeat(100) + "\n\n- " + "item ".repeat(40) +
    "\n\n" + "x".repeat(200);
  for (const width of [20, 40, 78, 120]) {
    const lines = renderMarkdown(body, width).map(stripColour);
    for (const l of lines) assert.ok(l.length <= width, `${width}: ${l}`);
  }
  const long = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join("\n");
  const page = stripColour(renderPage({ path: "p", meta: { title: "P" }, body: long }, 78));
  assert.match(page, /the page goes on: read the whole page on the web/);
  assert.ok(page.split("\n").length < MAX_LINES + 20);
});

Deno.test("render: hostile Markdown is shown as written", () => {
  // Many openers and no closers: each pattern gives up at the next delimiter or its bound
  // (before the bounds, this line took seconds).
  const nasty = "**a ".repeat(20_000) + "`".repeat(5000) + "[x".repeat(20_000) +
    "_a".repeat(20_000);
  const shown = renderMarkdown(nasty, 78).map(stripColour).join("");
  assert.ok(shown.includes("`".repeat(70)) && shown.includes("[x[x[x") && shown.includes("_a_a"));
  const huge = renderPage({ path: "p", meta: { title: "P" }, body: "word ".repeat(2_000_000) }, 78);
  assert.match(stripColour(huge), /the page goes on/);
});
