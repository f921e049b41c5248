import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { AttrRefs, MAX_KEPT_TEXT, upperName, validAttrName } from "./attr_refs.ts";
import { parseObjAttr } from "./match.ts";

Deno.test("attr refs: a kept reference gives what the full match gives, on generated texts", () => {
  const t = testSoftcode();
  const box = t.world.add("Box", "thing", { location: t.room, owner: t.wiz });
  const world = t.sc.ports.world;
  const refs = new AttrRefs(64);
  // Pieces MUX's matcher reads differently: spaces, leading zeros, names, `me`, `*`, empty
  // parts, a second `/`, bad attribute names, case.
  const objs = [
    "",
    "#" + box,
    " #" + box,
    "#" + box + " ",
    "#0" + box,
    "#99",
    "#",
    "me",
    " Me ",
    "mE",
    "me me",
    "Box",
    "*Wizard",
    "#-1",
  ];
  const names = ["", "foo", "FOO", " Foo ", "f o", "1ab", "_x", "a/b", "~q", "x".repeat(65), "é"];
  let kept = 0;
  let seed = 7;
  const pick = <T>(xs: T[]) => xs[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % xs.length];
  for (let i = 0; i < 3_000; i++) {
    const ref = i % 5 === 0 ? pick(names) : pick(objs) + "/" + pick(names);
    for (const looker of [t.wiz, box]) {
      const got = refs.get(ref);
      if (got === null) continue;
      kept++;
      // What fetchAttr made of the text before: parseObjAttr, MUX's fallback to the whole text
      // when the object is not found, the name checked and upper-cased. A kept `#123` that
      // names nothing gives nothing (fetchAttr looks), as the whole text, never a valid name.
      const p = parseObjAttr(world, looker, ref);
      if (got.id !== null && world.object(got.id) === null) {
        assert.equal(p.id, null, JSON.stringify(ref));
        assert.ok(!validAttrName(ref), JSON.stringify(ref));
        continue;
      }
      const name = p.id === null ? ref : p.attr;
      assert.ok(validAttrName(name), JSON.stringify(ref));
      assert.equal(got.name, upperName(name), JSON.stringify(ref));
      assert.equal(got.id ?? looker, p.id, JSON.stringify(ref));
    }
  }
  assert.ok(kept > 500, `only ${kept} kept`);
  // A bare name kept once is given back as the same answer, whoever asks; a `#123/<name>` is
  // read anew, to the same meaning.
  assert.equal(refs.get("foo"), refs.get("foo"));
  assert.deepEqual(refs.get(`#${box}/foo`), refs.get(`#${box}/foo`));
  // `me/<name>` is the reader's own, as a bare name is.
  assert.deepEqual(refs.get("me/foo"), { id: null, name: "FOO" });
  assert.equal(refs.get("Box/foo"), null);
});

Deno.test("attr refs: a full table starts again, and answers the same", () => {
  const refs = new AttrRefs(4);
  const first = refs.get("A");
  assert.equal(refs.get("A"), first);
  for (let i = 0; i < 10; i++) refs.get(`B${i}`);
  const again = refs.get("A");
  assert.deepEqual(again, first);
  assert.notEqual(again, first);
});

Deno.test("attr refs: u() and get() through a kept reference see the world as it is now", () => {
  const t = testSoftcode();
  const bob = t.world.add("Bob", "player", { location: t.room });
  const lib = t.world.add("Lib", "thing", { location: t.room, owner: t.wiz });
  t.world.set(lib, "F", "one:%0", ["visual"]);
  const u = `u(#${lib}/F,x)`;
  const get = `get(#${lib}/f)`;
  assert.equal(t.run(u, bob), "one:x");
  assert.equal(t.run(get, bob), "one:%0");
  // The attribute written.
  t.world.set(lib, "F", "two:%0", ["visual"]);
  assert.equal(t.run(u, bob), "two:x");
  assert.equal(t.run(get, bob), "two:%0");
  // Its permission changed: no longer visual to Bob, still the wizard's to read.
  t.world.set(lib, "F", "three:%0");
  assert.equal(t.run(u, bob), "#-1 PERMISSION DENIED");
  assert.equal(t.run(get, bob), "#-1 PERMISSION DENIED");
  assert.equal(t.run(u), "three:x");
  // Cleared.
  t.world.attrs.get(lib)!.delete("F");
  assert.equal(t.run(u), "");
  assert.equal(t.run(get), "");
  // Inherited from a parent once the object's own is gone, and the object destroyed.
  const parent = t.world.add("Parent", "thing", { owner: t.wiz });
  t.world.set(parent, "F", "parent:%0", ["visual"]);
  t.world.objects.get(lib)!.data.parent = parent;
  t.world.touch();
  assert.equal(t.run(u, bob), "parent:x");
  t.world.set(lib, "F", "four:%0", ["visual"]);
  assert.equal(t.run(u, bob), "four:x");
  t.world.objects.delete(lib);
  assert.equal(t.run(u), "");
  assert.equal(t.run(get), "#-1 NO MATCH");
});

Deno.test("attr refs: a bare name is each executor's own attribute, and registers stay live", () => {
  const t = testSoftcode();
  const a = t.world.add("A", "thing", { location: t.room, owner: t.wiz });
  const b = t.world.add("B", "thing", { location: t.room, owner: t.wiz });
  t.world.set(a, "WHO", "a:%q0");
  t.world.set(b, "WHO", "b:%q0");
  t.world.set(a, "GO", "[setq(0,1)][u(who)]");
  t.world.set(b, "GO", "[setq(0,2)][u(who)]");
  assert.equal(t.run(`u(#${a}/go)`), "a:1");
  assert.equal(t.run(`u(#${b}/go)`), "b:2");
  assert.equal(t.run(`[setq(0,3)][u(#${a}/who)]`), "a:3");
  // `me/` is whoever reads it: kept as a bare name is, each executor's own.
  t.world.set(a, "ME", "[u(me/who)]");
  t.world.set(b, "ME", "[u(me/who)]");
  assert.equal(t.run(`[setq(0,4)][u(#${a}/me)][u(#${b}/me)]`), "a:4b:4");
});

Deno.test("attr refs: a long text is matched in full and never kept", () => {
  const refs = new AttrRefs(4_096);
  // What a loop over a player's long texts would otherwise fill the table with.
  for (let i = 0; i < 100; i++) assert.equal(refs.get(`${i}${"a".repeat(7_990)}`), null);
  assert.equal(refs.get("#12/" + " ".repeat(MAX_KEPT_TEXT) + "foo"), null);
  assert.equal(refs.size, 0);
  // Up to the bound a name is kept as before (a `#123/<name>` is read, not kept), and the
  // engine reads a long one all the same.
  assert.deepEqual(refs.get("#12/" + "f".repeat(64)), { id: "12", name: "F".repeat(64) });
  assert.equal(refs.size, 0);
  assert.deepEqual(refs.get("f".repeat(64)), { id: null, name: "F".repeat(64) });
  assert.equal(refs.size, 1);
  const t = testSoftcode();
  t.world.set(t.wiz, "F", "got:%0");
  assert.equal(t.run(`u(#${t.wiz}/${" ".repeat(100)}f,x)`), "got:x");
  assert.equal(t.run(`get(#${t.wiz}/${" ".repeat(100)}f)`), "got:%0");
});
