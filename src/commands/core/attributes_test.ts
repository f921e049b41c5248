import assert from "node:assert/strict";
import { testWorld } from "../_test_util.ts";
import { splitEdit } from "./attributes.ts";
import { renderPlain } from "../../text/colour.ts";

Deno.test("attributes: & sets, clears and refuses with MUX's rules", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const attrs = w.services.attributes;
    assert.deepEqual(await w.run(a.conn, "&finger me=Tall and quiet."), ["Set."]);
    assert.equal((await attrs.get(a.obj.id, "FINGER"))?.value, "Tall and quiet.");
    assert.deepEqual(await w.run(a.conn, "&FINGER me=  Spaced  "), ["Set."]);
    assert.equal((await attrs.get(a.obj.id, "finger"))?.value, "Spaced");
    assert.deepEqual(await w.run(a.conn, "&finger me"), ["Set."]);
    assert.equal(await attrs.get(a.obj.id, "FINGER"), null);
    // Bad input: a clear message and nothing stored.
    assert.match((await w.run(a.conn, "&1bad me=x"))[0], /not a good name for an attribute/);
    assert.match((await w.run(a.conn, `&${"A".repeat(65)} me=x`))[0], /not a good name/);
    assert.match((await w.run(a.conn, `&long me=${"x".repeat(8001)}`))[0], /at most 8000/);
    assert.deepEqual(await w.run(b.conn, "&note Alice=hi"), ["Permission denied."]);
    assert.deepEqual(await w.run(a.conn, "&"), ["Usage: &<attribute> <object>=<value>"]);
    assert.deepEqual(await w.run(a.conn, "&x nothing-here=1"), ["I don't see that here."]);
    assert.deepEqual((await attrs.list(a.obj.id)).map((x) => x.name), []);
    // DESC is the description: @desc and &DESC are one value.
    await w.run(a.conn, "@desc me=A tall figure.");
    assert.equal((await attrs.get(a.obj.id, "DESC"))?.value, "A tall figure.");
    assert.deepEqual(await w.run(a.conn, "&desc me=A short figure."), ["Set."]);
    assert.equal((await w.services.objects.get(a.obj.id))?.data.description, "A short figure.");
    assert.match((await w.run(a.conn, "&alias me=Al"))[0], /Set ALIAS with @alias/);
  } finally {
    await w.close();
  }
});

Deno.test("attributes: @set forms for attributes and their flags; examine shows MUX's layout", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const wiz = await w.player("Wiz", { flags: ["wizard"] });
    await w.services.objects.create({
      name: "Box",
      type: "thing",
      location: "1",
      owner: a.obj.id,
    });
    assert.deepEqual(await w.run(a.conn, "@set box=note:hello %chworld%cn"), ["Set."]);
    assert.deepEqual(await w.run(a.conn, "@set box/note=visual"), ["Set."]);
    assert.deepEqual(await w.run(a.conn, "@set box=plain:p"), ["Set."]);
    assert.deepEqual(await w.run(a.conn, "@set box/plain=bogus"), ["You can't set that!"]);
    assert.deepEqual(await w.run(a.conn, "@set box/plain=visual hidden"), ["You can't set that!"]);
    assert.deepEqual(await w.run(a.conn, "@set box/plain="), [
      "I don't know what you want to set!",
    ]);
    assert.deepEqual(await w.run(a.conn, "@set box/plain=hidden"), [
      "Only staff may set or clear hidden on an attribute.",
    ]);
    assert.deepEqual(await w.run(a.conn, "@set box/nope=visual"), ["No attribute NOPE on that."]);
    assert.deepEqual(await w.run(wiz.conn, "&staff box=s"), ["Set."]);
    assert.deepEqual(await w.run(a.conn, "@set box/plain=no_command"), ["Set."]);
    assert.deepEqual(await w.run(a.conn, "@set box/plain=locked"), ["Set."]);
    assert.match((await w.run(a.conn, "@set box/plain=!no_command"))[0], /PLAIN is locked/);
    // The owner sees all, with the attribute owner shown where it is not the object's.
    const full = renderPlain((await w.run(a.conn, "examine box"))[0]);
    assert.match(full, /NOTE \[V\]: hello %chworld%cn/, "values shown as typed");
    assert.match(full, /PLAIN \[\+\$\]: p/);
    assert.match(full, new RegExp(`STAFF \\[#${wiz.obj.id}\\]: s`));
    // Others see the visual ones; a pattern shows only those.
    const other = renderPlain((await w.run(b.conn, "examine box"))[0]);
    assert.match(other, /NOTE \[V\]/);
    assert.doesNotMatch(other, /PLAIN|STAFF/);
    assert.deepEqual((await w.run(a.conn, "ex box/n*")).map(renderPlain), [
      "NOTE [V]: hello %chworld%cn",
    ]);
    assert.deepEqual(await w.run(b.conn, "ex box/plain"), ["No matching attributes found."]);
    const data = w.hub.last(a.obj.id)?.data as { attributes?: unknown[] } | undefined;
    assert.ok(Array.isArray(data?.attributes));
    // Locked: not changed until unlocked.
    assert.match((await w.run(a.conn, "&plain box=x"))[0], /PLAIN is locked/);
    assert.deepEqual(await w.run(a.conn, "@set box/plain=!locked"), ["Cleared."]);
    assert.deepEqual(await w.run(a.conn, "&plain box=x"), ["Set."]);
    // The flag forms of @set still work.
    assert.deepEqual(await w.run(a.conn, "@set box=dark"), ["Set."]);
  } finally {
    await w.close();
  }
});

Deno.test("attributes: @wipe, @cpattr, @mvattr and @edit", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const wiz = await w.player("Wiz", { flags: ["wizard"] });
    const box = await w.services.objects.create({
      name: "Box",
      type: "thing",
      location: "1",
      owner: a.obj.id,
    });
    const attrs = w.services.attributes;
    const names = async (id: string) => (await attrs.list(id)).map((x) => x.name).join(" ");
    for (const n of ["temp_a", "temp_b", "keep"]) await w.run(a.conn, `&${n} box=${n} value`);
    assert.deepEqual(await w.run(a.conn, "@wipe box/temp_*"), ["Wiped."]);
    assert.equal(await names(box.id), "KEEP");
    assert.deepEqual(await w.run(a.conn, "@wipe box/nothing*"), ["No matching attributes."]);
    assert.deepEqual(await w.run(b.conn, "@wipe box"), ["Permission denied."]);
    await w.run(wiz.conn, "&w box=staff's");
    await w.run(wiz.conn, "@set box/w=wizard");
    assert.deepEqual(await w.run(a.conn, "@wipe box"), [
      "Wiped 1 attribute; left 1: W (Permission denied.)",
    ]);
    assert.equal(await names(box.id), "W");

    await w.run(a.conn, "&src me=copied text");
    assert.deepEqual(await w.run(a.conn, "@cpattr me/src=box/dst,box,#999999"), [
      "Box/DST: Set.\nBox/SRC: Set.\n#999999: I don't see that here.",
    ]);
    assert.equal((await attrs.get(box.id, "DST"))?.value, "copied text");
    assert.deepEqual(await w.run(a.conn, "@cpattr src=box/third"), ["Box/THIRD: Set."]);
    assert.match((await w.run(b.conn, "@cpattr Alice/src=me"))[0], /no attribute SRC you can see/);

    await w.run(a.conn, "@set box/dst=visual");
    await w.run(a.conn, "@set box/dst=no_command");
    assert.deepEqual(await w.run(a.conn, "@mvattr box=dst,moved,copy"), [
      "MOVED: Set.\nCOPY: Set.\nDST: Cleared.",
    ]);
    assert.equal(await names(box.id), "COPY MOVED SRC THIRD W");
    // A move keeps the flags, as MUX's does (a visual attribute stays readable).
    assert.deepEqual((await attrs.get(box.id, "MOVED"))?.flags.toSorted(), [
      "no_command",
      "visual",
    ]);
    assert.deepEqual((await attrs.get(box.id, "COPY"))?.flags.toSorted(), ["no_command", "visual"]);
    assert.deepEqual(await w.run(a.conn, "@mvattr box=moved,moved"), [
      "MOVED: Not copied anywhere. Not cleared.",
    ]);
    assert.match((await w.run(a.conn, "@mvattr box=nope,x"))[0], /no attribute NOPE/);

    await w.run(a.conn, "&x1 box=hello world");
    assert.deepEqual(await w.run(a.conn, "@edit box/x1=world,there"), ["Set - X1: hello there"]);
    assert.deepEqual(await w.run(a.conn, "@edit box/x1=^,START "), ["Set - X1: STARThello there"]);
    assert.deepEqual(await w.run(a.conn, "@edit box/x1=$, END"), ["Set - X1: STARThello thereEND"]);
    assert.deepEqual(await w.run(a.conn, "@edit box/x1={o t},{o, t}"), [
      "Set - X1: STARThello, thereEND",
    ]);
    assert.deepEqual(await w.run(a.conn, "@edit box/zz*=a,b"), ["No matching attributes."]);
    assert.match((await w.run(a.conn, `@edit box/x1=$,${"y".repeat(8000)}`))[0], /at most 8000/);
  } finally {
    await w.close();
  }
});

Deno.test("attributes: examine shows at most 64,000 characters of lines and says what is left", async () => {
  const w = await testWorld();
  try {
    const wiz = await w.player("Wiz", { flags: ["wizard"] });
    for (let i = 0; i < 12; i++) {
      await w.services.attributes.set(wiz.obj, wiz.obj.id, `BIG${i}`, "x".repeat(8000));
    }
    const out = renderPlain((await w.run(wiz.conn, "examine me"))[0]);
    // Seven lines of 8,000 characters and their names, not eight: names count too.
    assert.equal((out.match(/^BIG\d+:/gm) ?? []).length, 7);
    assert.match(
      out,
      /\(5 more attributes not shown: examine \*Wiz\/<pattern> .* from BIG5 on\.\)/,
    );
    assert.equal((await w.run(wiz.conn, "ex me/big1?")).length, 1);
  } finally {
    await w.close();
  }
});

Deno.test("attributes: @edit's argument split respects braces", () => {
  assert.deepEqual(splitEdit("a,b"), ["a", "b"]);
  assert.deepEqual(splitEdit("{a,b},{c,d}"), ["a,b", "c,d"]);
  assert.deepEqual(splitEdit(" ^ , x "), ["^", "x"]);
  assert.equal(splitEdit("no comma"), null);
  assert.deepEqual(splitEdit("}}a,b"), ["}}a", "b"]);
});
