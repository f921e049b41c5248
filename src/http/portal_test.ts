import assert from "node:assert/strict";
import { Portal } from "./portal.ts";

const here = (..._files: string[]) => (f: string) => _files.includes(f);
const portal = () => new Portal((owner) => `/plugins/${owner}`);

Deno.test("portal: sections and panes in order, with their modules' addresses and settings", () => {
  const p = portal();
  let limit = 5;
  p.section("tea", {
    path: "kettles",
    label: "Kettles",
    module: "kettles.js",
    order: 30,
    styles: "k.css",
    settings: () => ({ limit }),
  }, here("kettles.js", "k.css"));
  p.section(
    "cups",
    { path: "cups", label: " Cups ", module: "web/cups.mjs" },
    here("web/cups.mjs"),
  );
  p.section(
    "tea",
    { path: "pots", label: "Pots", module: "kettles.js", order: 30 },
    here("kettles.js"),
  );
  p.pane("tea", { module: "stove.js", order: 5 }, here("stove.js"));
  limit = 7;
  const v = p.view();
  assert.deepEqual(v.sections.map((s) => [s.path, s.label, s.order]), [
    ["kettles", "Kettles", 30],
    ["pots", "Pots", 30],
    ["cups", "Cups", 100],
  ]);
  assert.equal(v.sections[0].module, "/plugins/tea/kettles.js");
  assert.equal(v.sections[0].styles, "/plugins/tea/k.css");
  assert.deepEqual(v.sections[0].settings, { limit: 7 }, "settings are read at each view");
  assert.equal(v.sections[2].module, "/plugins/cups/web/cups.mjs");
  assert.deepEqual(v.panes, [{
    owner: "tea",
    order: 5,
    module: "/plugins/tea/stove.js",
    styles: null,
    settings: {},
  }]);
  assert(p.has("pots") && !p.has("pot"));
  assert.equal(p.removeOwner("tea"), 3);
  assert.deepEqual(p.view().sections.map((s) => s.path), ["cups"]);
  assert.deepEqual(p.view().panes, []);
});

Deno.test("portal: bad or clashing declarations are refused with a reason", () => {
  const p = portal();
  const ok = here("a.js", "a.css");
  p.section("tea", { path: "kettles", label: "Kettles", module: "a.js" }, ok);
  const refused: [unknown, RegExp][] = [
    [{ path: "kettles", label: "K", module: "a.js" }, /'\/kettles' is plugin tea's/],
    [{ path: "profile", label: "P", module: "a.js" }, /engine's own/],
    [{ path: "api", label: "P", module: "a.js" }, /engine's own/],
    [{ path: "Big", label: "P", module: "a.js" }, /bad path/],
    [{ path: "a/b", label: "P", module: "a.js" }, /bad path/],
    [{ path: "x", label: "", module: "a.js" }, /label/],
    [{ path: "x", label: "a\nb", module: "a.js" }, /label/],
    [{ path: "x", label: "L".repeat(33), module: "a.js" }, /label/],
    [{ path: "x", label: "L", module: "../mod.ts" }, /bad module/],
    [{ path: "x", label: "L", module: "a.ts" }, /bad module/],
    [{ path: "x", label: "L", module: "/a.js" }, /bad module/],
    [{ path: "x", label: "L", module: "b.js" }, /not in the plugin's web folder/],
    [{ path: "x", label: "L", module: "a.js", styles: "a.js" }, /bad styles/],
    [{ path: "x", label: "L", module: "a.js", order: NaN }, /order/],
    [{ path: "x", label: "L", module: "a.js", settings: "no" }, /settings/],
    [{ path: "x", label: "L", module: "a.js", unread: "/kettles/unread" }, /unread/],
    [{ path: "x", label: "L", module: "a.js", unread: "https://x.example/api/v1/u" }, /unread/],
    [{ path: "x", label: "L", module: "a.js", unread: "/api/v1/../auth" }, /unread/],
    [{ path: "x", label: "L", module: "a.js", unread: "/api/v1/u?x=1" }, /unread/],
    [{ path: "x", label: "L", module: "a.js", unread: 7 }, /unread/],
    [null, /no spec/],
  ];
  for (const [spec, why] of refused) {
    // deno-lint-ignore no-explicit-any
    assert.throws(() => p.section("cups", spec as any, ok), why, JSON.stringify(spec));
  }
  for (let i = 0; i < 7; i++) p.section("tea", { path: `k${i}`, label: "K", module: "a.js" }, ok);
  assert.throws(
    () => p.section("tea", { path: "k9", label: "K", module: "a.js" }, ok),
    /at most 8/,
  );
  assert.equal(p.view().sections.length, 8, "nothing refused was kept");
});

Deno.test("portal: a settings function that throws is logged and gives no settings", () => {
  const p = portal();
  p.section("tea", {
    path: "kettles",
    label: "Kettles",
    module: "a.js",
    settings: () => {
      throw new Error("boom");
    },
  }, here("a.js"));
  const logged: string[] = [];
  assert.deepEqual(p.view((m) => logged.push(m)).sections[0].settings, {});
  assert.deepEqual(logged, ["plugin tea: portal settings failed"]);
});
