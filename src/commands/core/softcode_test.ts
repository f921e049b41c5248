import assert from "node:assert/strict";
import { testWorld } from "../_test_util.ts";

Deno.test("softcode commands: think evaluates; @pemit reaches what is near or controlled", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const room = await w.services.objects.create({ name: "Far", type: "room" });
    const c = await w.player("Carol", { location: room.id });
    assert.deepEqual(await w.run(a.conn, "think [add(1,2)] %n"), ["3 Alice"]);
    assert.deepEqual(await w.run(a.conn, "think 50%% %%r"), ["50%% %%r"]);

    await w.run(a.conn, "@pemit Bob=Hi [name(me)]");
    assert.equal(w.hub.last(b.obj.id)?.msg, "Hi Alice");
    assert.deepEqual(await w.run(a.conn, "@pemit *Carol=psst"), [
      "You are too far away to do that.",
    ]);
    assert.equal(w.hub.texts(c.obj.id).includes("psst"), false);
    assert.deepEqual(await w.run(a.conn, "@pemit Nobody=x"), ["Emit error(s): Nobody (unknown)"]);

    await w.run(a.conn, "@pemit/list me Bob=both [add(1,1)]");
    assert.equal(w.hub.last(a.obj.id)?.msg, "both 2");
    assert.equal(w.hub.last(b.obj.id)?.msg, "both 2");
    // As TinyMUX 2.12: a list without /list too, each object once, errors after the emits.
    w.hub.clear();
    assert.deepEqual(await w.run(a.conn, "@pemit me Nobody Bob me,#9999=plain list"), [
      "plain list",
      "Emit error(s): Nobody (unknown), #9999 (unknown)",
    ]);
    assert.deepEqual(w.hub.texts(b.obj.id), ["plain list"]);
    // Nothing to say, or nobody to say it to: silence, as MUX.
    assert.deepEqual(await w.run(a.conn, "@pemit me=[null(x)]"), []);
    assert.deepEqual(await w.run(a.conn, "@pemit [null(x)]=hi"), []);

    await w.run(a.conn, "@pemit/list me, Bob=commas [add(1,1)]");
    assert.equal(w.hub.last(a.obj.id)?.msg, "commas 2");
    assert.equal(w.hub.last(b.obj.id)?.msg, "commas 2");

    // Unevaluated text is shown as typed: the renderer reads no %r or %xr in it (wire form).
    await w.run(a.conn, "@npemit Bob=raw [add(1,1)] %r %xr");
    assert.equal(w.hub.last(b.obj.id)?.msg, "raw [add(1,1)] %%r %%xr");
    await w.run(a.conn, "@pemit/noeval Bob=also [raw] %t");
    assert.equal(w.hub.last(b.obj.id)?.msg, "also [raw] %%t");

    // /contents of the room one stands in, as @remit; a room far away needs control.
    await w.run(a.conn, "@pemit/contents here=to the room");
    assert.equal(w.hub.last(b.obj.id)?.msg, "to the room");
    assert.deepEqual(await w.run(a.conn, `@pemit/contents #${room.id}=far`), [
      "You are too far away to do that.",
    ]);
    // The `=` inside brackets does not split the command.
    await w.run(a.conn, "@pemit [setq(0,Bob=x)][first(%q0,=)]=split ok");
    assert.equal(w.hub.last(b.obj.id)?.msg, "split ok");
  } finally {
    await w.close();
  }
});

Deno.test("softcode commands: @remit needs the room or control; @oemit leaves its object out", async () => {
  const w = await testWorld();
  try {
    const a = await w.player("Alice");
    const b = await w.player("Bob");
    const staff = await w.player("Wiz", { flags: ["wizard"] });
    const far = await w.services.objects.create({ name: "Far", type: "room" });
    const c = await w.player("Carol", { location: far.id });

    await w.run(a.conn, "@remit here=Rumble.");
    assert.equal(w.hub.last(b.obj.id)?.msg, "Rumble.");
    // As TinyMUX 2.12's do_pemit_single: out of reach is too far; beside, not a room, denied.
    assert.deepEqual(await w.run(a.conn, `@remit #${far.id}=Nope`), [
      "You are too far away to do that.",
    ]);
    assert.deepEqual(await w.run(a.conn, "@remit *Bob=Nope"), ["Permission denied."]);
    assert.equal(w.hub.texts(b.obj.id).includes("Nope"), false);
    assert.equal(w.hub.texts(c.obj.id).includes("Nope"), false);
    await w.run(staff.conn, `@remit #${far.id}=Staff [lcstr(WAVE)].`);
    assert.equal(w.hub.last(c.obj.id)?.msg, "Staff wave.");

    w.hub.clear();
    await w.run(a.conn, "@oemit Bob=Not for Bob.");
    assert.equal(w.hub.texts(a.obj.id).includes("Not for Bob."), true);
    assert.equal(w.hub.texts(b.obj.id).includes("Not for Bob."), false);
    // A list: the room of the first, except every one named; errors after.
    w.hub.clear();
    assert.deepEqual(await w.run(staff.conn, "@oemit Bob Nobody Alice=Not for them."), [
      "Not for them.",
      "Emit error(s): Nobody (unknown)",
    ]);
    assert.equal(w.hub.texts(a.obj.id).includes("Not for them."), false);
    assert.equal(w.hub.texts(b.obj.id).includes("Not for them."), false);
    assert.deepEqual(await w.run(a.conn, "@remit nowhere=x"), ["Emit error(s): nowhere (unknown)"]);
    assert.deepEqual(await w.run(a.conn, "@oemit nobody=x"), ["Emit error(s): nobody (unknown)"]);
  } finally {
    await w.close();
  }
});
