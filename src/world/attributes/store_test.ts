import assert from "node:assert/strict";
import { AttributeStore } from "./store.ts";
import { ATTR_ENTRY_BYTES as E } from "./names.ts";
import { canSeeAttr } from "./access.ts";
import { ObjectStore } from "../objects.ts";
import { openStore } from "../../storage/kv.ts";
import { keys } from "../../storage/keys.ts";
import type { DbObject } from "../types.ts";
import type { StoredAttribute } from "./types.ts";
import { ForbiddenError, ValidationError } from "../../errors.ts";

interface Fixture {
  kv: Deno.Kv;
  objects: ObjectStore;
  attrs: AttributeStore;
  alice: DbObject;
  bob: DbObject;
  wiz: DbObject;
  box: DbObject;
  reports: string[];
}

/** A store over a fresh database: Alice owns a box, Bob is another player, Wiz is staff. */
async function fixture(live: boolean, quotaBytes = 0, kvIn?: Deno.Kv): Promise<Fixture> {
  const kv = kvIn ?? await openStore(":memory:");
  const objects = new ObjectStore(kv, { live });
  await objects.load();
  const reports: string[] = [];
  const attrs = new AttributeStore(kv, objects, {
    live,
    quotaBytes,
    report: (l) => reports.push(l),
  });
  await attrs.load();
  const alice = await objects.create({ name: "Alice", type: "player", location: "1" });
  const bob = await objects.create({ name: "Bob", type: "player", location: "1" });
  const wiz = await objects.create({
    name: "Wiz",
    type: "player",
    location: "1",
    flags: ["wizard"],
  });
  const box = await objects.create({
    name: "Box",
    type: "thing",
    location: alice.id,
    owner: alice.id,
  });
  return { kv, objects, attrs, alice, bob, wiz, box, reports };
}

async function stored(kv: Deno.Kv, id: string, name: string): Promise<StoredAttribute | null> {
  return (await kv.get<StoredAttribute>(keys.attribute(id, name))).value;
}

async function counter(kv: Deno.Kv, owner: string): Promise<number> {
  const e = await kv.get<Deno.KvU64>(keys.attributeBytes(owner));
  return e.value ? Number(e.value.value) : 0;
}

Deno.test("attributes, live: set at once in memory, persisted behind in order, counted", async () => {
  const f = await fixture(true);
  try {
    const { attrs, alice, box, kv } = f;
    assert.equal(attrs.setNow(alice, box.id, "finger", "Hello"), null);
    const a = attrs.peek(box.id, "FINGER")!;
    assert.deepEqual({ ...a }, { name: "FINGER", value: "Hello", owner: alice.id, flags: [] });
    assert.equal(attrs.peek(box.id, "finger"), a, "any case; the held record itself");
    assert.ok(Object.isFrozen(a));
    // Several writes of one attribute in a row: the database ends with the last.
    for (let i = 0; i < 20; i++) attrs.setNow(alice, box.id, "COUNT", String(i));
    attrs.setNow(alice, box.id, "GONE", "soon");
    attrs.setNow(alice, box.id, "GONE", "");
    assert.equal(attrs.peek(box.id, "GONE"), null, "an empty value clears");
    assert.deepEqual(attrs.names(box.id), ["COUNT", "FINGER"]);
    await attrs.flush();
    assert.deepEqual(await stored(kv, box.id, "COUNT"), { value: "19", owner: alice.id });
    assert.equal(await stored(kv, box.id, "GONE"), null);
    assert.equal(await counter(kv, alice.id), 2 * E + "FINGER".length + 5 + "COUNT".length + 2);
    assert.equal(await attrs.bytesOf(alice.id), await counter(kv, alice.id));
    // A second engine start reads what the first wrote.
    const again = new AttributeStore(kv, f.objects, { live: true, quotaBytes: 0 });
    await again.load();
    assert.equal(again.peek(box.id, "COUNT")?.value, "19");
    assert.deepEqual(again.names(box.id), ["COUNT", "FINGER"]);
    await again.close();
  } finally {
    await f.attrs.close();
    f.kv.close();
  }
});

Deno.test("attributes, live: an attribute written again before it was saved is saved once, with its last value", async () => {
  // Found by probing: a softcode loop (`iter(lnum(1800),set(me,W:...))`) queued every value it
  // passed through, 1,800 writes of kilobytes each an evaluation, and the engine grew by 300 MB
  // in two seconds while it wrote them, stalling everyone. Only the newest value is worth saving.
  const kv = await openStore(":memory:");
  const sets: string[] = [];
  const counted = new Proxy(kv, {
    get(target, prop) {
      if (prop !== "atomic") {
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      }
      return () => {
        const op = target.atomic();
        const set = op.set.bind(op);
        op.set = (key, value, options) => {
          sets.push(String(key.at(-1)));
          return set(key, value, options);
        };
        return op;
      };
    },
  });
  const f = await fixture(true, 0, counted);
  try {
    const { attrs, alice, box } = f;
    await attrs.flush();
    sets.length = 0;
    const durable: Promise<void>[] = [];
    for (let i = 0; i < 1000; i++) {
      assert.equal(attrs.setNow(alice, box.id, "W", `${i}`.repeat(500)), null);
      durable.push(attrs.set(alice, box.id, "V", `v${i}`).then(() => {}));
    }
    attrs.setNow(alice, box.id, "GONE", "soon");
    attrs.setNow(alice, box.id, "GONE", "");
    await Promise.all(durable);
    await attrs.flush();
    const saves = (name: string) => sets.filter((k) => k === name).length;
    assert.ok(saves("W") <= 2, `W was saved ${saves("W")} times`);
    assert.ok(saves("V") <= 2, `V was saved ${saves("V")} times`);
    assert.deepEqual(await stored(kv, box.id, "W"), { value: "999".repeat(500), owner: alice.id });
    assert.deepEqual(await stored(kv, box.id, "V"), { value: "v999", owner: alice.id });
    assert.equal(await stored(kv, box.id, "GONE"), null);
    assert.equal(await counter(kv, alice.id), 2 * E + 1 + 1500 + 1 + 4);
    assert.equal(await attrs.bytesOf(alice.id), await counter(kv, alice.id));
  } finally {
    await f.attrs.close();
    kv.close();
  }
});

Deno.test("attributes: bad names, long values, others' objects and quota change nothing", async () => {
  for (const live of [true, false]) {
    const f = await fixture(live, E + 100);
    try {
      const { attrs, alice, bob, wiz, box, kv } = f;
      const bad = { kind: "invalid" };
      if (live) {
        assert.deepEqual(
          { kind: attrs.setNow(alice, box.id, "1BAD", "x")?.kind },
          bad,
        );
        assert.match(attrs.setNow(alice, box.id, "OK", "x".repeat(8001))!.message, /at most 8000/);
        assert.deepEqual(attrs.setNow(bob, box.id, "OK", "x"), {
          kind: "permission",
          message: "Permission denied.",
        });
        const over = attrs.setNow(alice, box.id, "BIG", "x".repeat(120))!;
        assert.equal(over.kind, "quota");
        assert.match(
          over.message,
          new RegExp(`Alice's attributes at ${E + 123} bytes, over the quota of ${E + 100} bytes`),
        );
        assert.deepEqual(attrs.names(box.id), []);
      }
      await assert.rejects(attrs.set(alice, box.id, "A B", "x"), ValidationError);
      await assert.rejects(attrs.set(alice, box.id, "OK", "x".repeat(8001)), ValidationError);
      await assert.rejects(attrs.set(bob, box.id, "OK", "x"), ForbiddenError);
      await assert.rejects(attrs.set(alice, box.id, "BIG", "x".repeat(120)), /over the quota/);
      // Up to the quota, then not one byte more; staff have no quota.
      await attrs.set(alice, box.id, "A", "x".repeat(99));
      await assert.rejects(attrs.set(alice, box.id, "B", "y"), /over the quota/);
      await attrs.set(alice, box.id, "A", "x".repeat(50)); // shrinking is always allowed
      await attrs.set(wiz, box.id, "STAFF", "z".repeat(500));
      await attrs.flush();
      assert.equal(await stored(kv, box.id, "B"), null);
      assert.equal(await stored(kv, box.id, "OK"), null);
      assert.equal(await counter(kv, alice.id), E + 51);
      assert.equal(await counter(kv, wiz.id), E + 505);
      assert.deepEqual((await attrs.list(box.id)).map((a) => a.name), ["A", "STAFF"]);
    } finally {
      await f.attrs.close();
      f.kv.close();
    }
  }
});

Deno.test("attributes: MUX's ownership, locked and wizard attributes, visibility", async () => {
  for (const live of [true, false]) {
    const f = await fixture(live);
    try {
      const { attrs, alice, bob, wiz, box } = f;
      await attrs.set(wiz, box.id, "NOTE", "from staff");
      assert.equal((await attrs.get(box.id, "note"))?.owner, wiz.id);
      // Changing someone else's attribute on your object makes it yours (flags kept).
      await attrs.setFlag(wiz, box.id, "NOTE", "visual", true);
      await attrs.set(alice, box.id, "NOTE", "mine now");
      assert.deepEqual({ ...(await attrs.get(box.id, "NOTE"))! }, {
        name: "NOTE",
        value: "mine now",
        owner: alice.id,
        flags: ["visual"],
      });
      // Only staff set wizard and hidden; a wizard attribute is staff's to change.
      await assert.rejects(attrs.setFlag(alice, box.id, "NOTE", "wizard", true), /Only staff/);
      await attrs.setFlag(wiz, box.id, "NOTE", "wizard", true);
      await assert.rejects(attrs.set(alice, box.id, "NOTE", "x"), /Permission denied/);
      await attrs.setFlag(wiz, box.id, "NOTE", "wizard", false);
      // Locked: the owner locks and unlocks; nobody else (bar staff) changes it meanwhile.
      await attrs.setFlag(alice, box.id, "NOTE", "locked", true);
      await assert.rejects(attrs.set(alice, box.id, "NOTE", "x"), /NOTE is locked/);
      await attrs.setFlag(alice, box.id, "NOTE", "locked", false);
      await attrs.set(alice, box.id, "NOTE", "x");
      await assert.rejects(
        attrs.setFlag(alice, box.id, "NOPE", "visual", true),
        /No attribute NOPE/,
      );
      // Seeing: visual for anyone, hidden for staff only, the rest for whoever controls it.
      await attrs.set(alice, box.id, "PLAIN", "p");
      await attrs.set(alice, box.id, "SECRET", "s");
      await attrs.setFlag(wiz, box.id, "SECRET", "hidden", true);
      const seen = async (who: DbObject) =>
        (await attrs.visible(who, box)).map((a) => a.name).join(" ");
      assert.equal(await seen(bob), "NOTE");
      assert.equal(await seen(alice), "NOTE PLAIN");
      assert.equal(await seen(wiz), "NOTE PLAIN SECRET");
      assert.equal(
        await seen(alice),
        (await attrs.visible(alice, box, "*")).map((a) => a.name).join(" "),
      );
      assert.deepEqual((await attrs.visible(wiz, box, "s*")).map((a) => a.name), ["SECRET"]);
      // An attribute Bob owns on Alice's object is his to see.
      const bobs = { name: "X", value: "v", owner: bob.id, flags: [] };
      assert.ok(canSeeAttr(bob, box, bobs, null));
    } finally {
      await f.attrs.close();
      f.kv.close();
    }
  }
});

Deno.test("attributes: a name starting with _ is staff's alone, as MUX has it", async () => {
  for (const live of [true, false]) {
    const f = await fixture(live);
    try {
      const { attrs, alice, wiz } = f;
      // Staff notes on a player: the player controls itself, yet neither sees nor changes them.
      await attrs.set(wiz, alice.id, "_NOTES", "staff only");
      const notes = (await attrs.get(alice.id, "_notes"))!;
      assert.ok(canSeeAttr(wiz, alice, notes, null));
      assert.ok(!canSeeAttr(alice, alice, notes, null));
      assert.ok(!canSeeAttr(alice, alice, { ...notes, owner: alice.id, flags: ["visual"] }, null));
      assert.deepEqual((await attrs.visible(alice, alice)).map((a) => a.name), []);
      await assert.rejects(attrs.set(alice, alice.id, "_NOTES", "x"), /Permission denied/);
      await assert.rejects(attrs.set(alice, alice.id, "_NOTES", ""), /Permission denied/);
      await assert.rejects(attrs.setFlag(alice, alice.id, "_NOTES", "visual", true));
      await assert.rejects(attrs.setFlag(alice, alice.id, "_NOTES", "locked", true));
      // Nor may a player make one of their own.
      await assert.rejects(attrs.set(alice, alice.id, "_MINE", "x"), /Permission denied/);
      assert.equal(await attrs.get(alice.id, "_MINE"), null);
      assert.equal((await attrs.get(alice.id, "_NOTES"))?.value, "staff only");
    } finally {
      await f.attrs.close();
      f.kv.close();
    }
  }
});

Deno.test("attributes: destroying an object removes them; a chown moves the unlocked ones", async () => {
  for (const live of [true, false]) {
    const f = await fixture(live);
    try {
      const { attrs, objects, alice, bob, wiz, box, kv } = f;
      await attrs.set(alice, box.id, "A", "1");
      await attrs.set(alice, box.id, "L", "2");
      await attrs.setFlag(alice, box.id, "L", "locked", true);
      await attrs.set(wiz, box.id, "W", "3");
      await objects.update(box.id, (o) => (o.owner = bob.id));
      await attrs.flush();
      await waitFor(async () => (await attrs.get(box.id, "A"))?.owner === bob.id);
      assert.equal((await attrs.get(box.id, "L"))?.owner, alice.id, "locked stays");
      assert.equal((await attrs.get(box.id, "W"))?.owner, bob.id, "every unlocked one moves");
      await waitFor(async () => (await counter(kv, bob.id)) === 2 * E + 4);
      assert.equal(await counter(kv, alice.id), E + 2);
      assert.equal(await counter(kv, wiz.id), 0);
      await objects.delete(box.id);
      await attrs.flush();
      await waitFor(async () => (await attrs.list(box.id)).length === 0);
      await waitFor(async () => (await counter(kv, bob.id)) === 0);
      assert.equal(await counter(kv, alice.id), 0);
      const left = [];
      for await (const e of kv.list({ prefix: keys.attributesOf(box.id) })) left.push(e);
      assert.deepEqual(left, []);
    } finally {
      await f.attrs.close();
      f.kv.close();
    }
  }
});

Deno.test("attributes: an object with 1,000 attributes of 8,000 characters; one read reads one entry", async () => {
  for (const live of [true, false]) {
    const f = await fixture(live, 0);
    try {
      const { attrs, alice, box, kv } = f;
      const value = (i: number) => `${i}:`.padEnd(8000, "x");
      if (live) {
        for (let i = 0; i < 1000; i++) {
          assert.equal(attrs.setNow(alice, box.id, `A${i}`, value(i)), null);
        }
      } else {
        for (let i = 0; i < 1000; i += 50) {
          await Promise.all(
            Array.from(
              { length: 50 },
              (_, j) => attrs.set(alice, box.id, `A${i + j}`, value(i + j)),
            ),
          );
        }
      }
      await attrs.flush();
      assert.equal((await attrs.get(box.id, "A777"))?.value, value(777));
      assert.equal((await attrs.list(box.id)).length, 1000);
      assert.equal(
        await counter(kv, alice.id),
        1000 * (E + 8000) + [...Array(1000).keys()].reduce((n, i) => n + `A${i}`.length, 0),
      );
      const reread = new AttributeStore(kv, f.objects, { live, quotaBytes: 0 });
      await reread.load();
      assert.equal((await reread.list(box.id, "A99?")).length, 10);
      await reread.close();
    } finally {
      await f.attrs.close();
      f.kv.close();
    }
  }
});

Deno.test("attributes, live: a commit that fails is reported and memory takes back what KV holds", async () => {
  const raw = await openStore(":memory:");
  let failing = false;
  const kv = new Proxy(raw, {
    get(target, prop) {
      if (prop === "atomic") {
        return () => {
          const op = target.atomic();
          const commit = op.commit.bind(op);
          op.commit = () => failing ? Promise.reject(new Error("disk full")) : commit();
          return op;
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const f = await fixture(true, 0, kv);
  try {
    const { attrs, alice, box } = f;
    await attrs.set(alice, box.id, "KEEP", "old");
    failing = true;
    assert.equal(attrs.setNow(alice, box.id, "KEEP", "new"), null);
    assert.equal(attrs.setNow(alice, box.id, "FRESH", "value"), null);
    assert.equal(attrs.peek(box.id, "KEEP")?.value, "new", "memory at once");
    await assert.rejects(attrs.set(alice, box.id, "OTHER", "x"), /disk full/);
    await attrs.flush();
    failing = false;
    assert.equal(attrs.peek(box.id, "KEEP")?.value, "old", "back to what the database holds");
    assert.equal(attrs.peek(box.id, "FRESH"), null);
    assert.equal(attrs.peek(box.id, "OTHER"), null);
    assert.equal(await attrs.bytesOf(alice.id), E + "KEEP".length + 3);
    assert.ok(f.reports.some((r) => /failed \(disk full\)/.test(r)), f.reports.join("\n"));
  } finally {
    failing = false;
    await f.attrs.close();
    raw.close();
  }
});

Deno.test("attributes: DESC is the object's description; its flags are fixed", async () => {
  for (const live of [true, false]) {
    const f = await fixture(live);
    try {
      const { attrs, objects, alice, bob, box } = f;
      await objects.update(box.id, (o) => (o.data.description = "A plain box."));
      assert.deepEqual({ ...(await attrs.get(box.id, "desc"))! }, {
        name: "DESC",
        value: "A plain box.",
        owner: alice.id,
        flags: ["visual"],
      });
      await attrs.set(alice, box.id, "DESC", "A painted box.");
      assert.equal((await objects.get(box.id))?.data.description, "A painted box.");
      assert.ok((await attrs.visible(bob, box)).some((a) => a.name === "DESC"), "always visual");
      await assert.rejects(attrs.set(bob, box.id, "DESC", "Mine"), /Permission denied/);
      await assert.rejects(
        attrs.setFlag(alice, box.id, "DESC", "hidden", false),
        /flags are fixed/,
      );
      await assert.rejects(attrs.set(alice, box.id, "DESC", "x".repeat(8001)), /at most 8000/);
      await attrs.set(alice, box.id, "DESC", "");
      assert.equal((await objects.get(box.id))?.data.description, undefined);
      assert.equal(await attrs.get(box.id, "DESC"), null);
      if (live) {
        assert.equal(attrs.setNow(alice, box.id, "desc", "Set from softcode."), null);
        await waitFor(() =>
          Promise.resolve(attrs.peek(box.id, "DESC")?.value === "Set from softcode.")
        );
        assert.deepEqual(attrs.names(box.id), ["DESC"]);
      }
    } finally {
      await f.attrs.close();
      f.kv.close();
    }
  }
});

Deno.test("attributes, live: load removes those of objects that are gone and sets the counters", async () => {
  const kv = await openStore(":memory:");
  try {
    const objects = new ObjectStore(kv, { live: true });
    const box = await objects.create({ name: "Box", type: "thing", owner: "7" });
    await kv.set(keys.attribute(box.id, "KEPT"), { value: "v", owner: "7" });
    await kv.set(keys.attribute("999", "ORPHAN"), { value: "v", owner: "7" });
    await kv.set(keys.attribute(box.id, "ODD"), { value: 12 });
    await kv.set(keys.attributeBytes("7"), new Deno.KvU64(1234n));
    await kv.set(keys.attributeBytes("8"), new Deno.KvU64(5n));
    const reports: string[] = [];
    const attrs = new AttributeStore(kv, objects, {
      live: true,
      quotaBytes: 0,
      report: (l) => reports.push(l),
    });
    assert.deepEqual(await attrs.load(), { attributes: 1, removed: 1 });
    assert.equal((await kv.get(keys.attribute("999", "ORPHAN"))).value, null);
    assert.ok((await kv.get(keys.attribute(box.id, "ODD"))).value, "an odd entry is left alone");
    assert.equal(await counter(kv, "7"), E + 5);
    assert.equal((await kv.get(keys.attributeBytes("8"))).value, null);
    assert.equal(reports.length, 2, reports.join("\n"));
    await attrs.close();
  } finally {
    kv.close();
  }
});

/** Waits (a few seconds at most) until `ok` answers true: background writes settle. */
async function waitFor(ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail("the condition never held");
}
