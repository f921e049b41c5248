import assert from "node:assert/strict";
import { ObjectStore } from "./objects.ts";
import { keys } from "../storage/keys.ts";

async function store() {
  const kv = await Deno.openKv(":memory:");
  return { kv, objects: new ObjectStore(kv) };
}

Deno.test("objects: dbrefs count up, indexes follow create, update and delete", async () => {
  const { kv, objects } = await store();
  try {
    const room = await objects.create({ name: "Hall", type: "room" });
    const other = await objects.create({ name: "Yard", type: "room" });
    const p = await objects.create({ name: "Alice", type: "player", location: room.id });
    assert.deepEqual([room.id, other.id, p.id], ["1", "2", "3"]);
    assert.equal(p.owner, p.id);
    assert.equal((await objects.playerByName("ALICE"))?.id, p.id);
    assert.deepEqual((await objects.contents(room.id)).map((o) => o.id), [p.id]);
    assert.deepEqual(await objects.idsWithFlag("room"), ["1", "2"]);

    await objects.update(p.id, (o) => {
      o.location = other.id;
      o.name = "Alicia";
      o.flags.push("Builder");
    });
    assert.deepEqual(await objects.contents(room.id), []);
    assert.deepEqual((await objects.contents(other.id)).map((o) => o.id), [p.id]);
    assert.equal(await objects.playerByName("alice"), null);
    assert.equal((await objects.playerByName("alicia"))?.id, p.id);
    assert.deepEqual(await objects.idsWithFlag("builder"), [p.id]);

    await objects.delete(p.id);
    assert.equal(await objects.get(p.id), null);
    assert.deepEqual(await objects.contents(other.id), []);
    assert.equal(await objects.playerByName("alicia"), null);
    assert.deepEqual(await objects.idsWithFlag("builder"), []);
  } finally {
    kv.close();
  }
});

Deno.test("objects: exits are indexed by destination through link, relink, unlink and delete", async () => {
  const { kv, objects } = await store();
  try {
    const hall = await objects.create({ name: "Hall", type: "room" });
    const yard = await objects.create({ name: "Yard", type: "room" });
    const door = await objects.create({
      name: "Door",
      type: "exit",
      location: hall.id,
      data: { destination: yard.id },
    });
    const gate = await objects.create({ name: "Gate", type: "exit", location: hall.id });
    // A thing's data.destination is not an exit's and is not indexed.
    await objects.create({ name: "Map", type: "thing", data: { destination: yard.id } });
    const into = async (id: string) => (await objects.exitsTo(id)).map((o) => o.name);
    assert.deepEqual(await into(yard.id), ["Door"]);
    await objects.update(gate.id, (o) => void (o.data.destination = yard.id));
    assert.deepEqual(await into(yard.id), ["Door", "Gate"]);
    await objects.update(door.id, (o) => void (o.data.destination = hall.id));
    assert.deepEqual([await into(yard.id), await into(hall.id)], [["Gate"], ["Door"]]);
    await objects.update(gate.id, (o) => void delete o.data.destination);
    await objects.delete(door.id);
    assert.deepEqual([await into(yard.id), await into(hall.id)], [[], []]);
  } finally {
    kv.close();
  }
});

Deno.test("objects: player names are unique even under concurrent creates", async () => {
  const { kv, objects } = await store();
  try {
    const results = await Promise.allSettled(
      Array.from(
        { length: 8 },
        (_, i) => objects.create({ name: i % 2 ? "bob" : "Bob", type: "player", location: "" }),
      ),
    );
    assert.equal(results.filter((r) => r.status === "fulfilled").length, 1);
    let count = 0;
    for await (const _ of kv.list({ prefix: keys.withFlag("player") })) count++;
    assert.equal(count, 1);
  } finally {
    kv.close();
  }
});

Deno.test("objects: renaming a player onto a taken name is refused and changes nothing", async () => {
  const { kv, objects } = await store();
  try {
    await objects.create({ name: "Ann", type: "player" });
    const b = await objects.create({ name: "Ben", type: "player" });
    await assert.rejects(() => objects.update(b.id, (o) => (o.name = "ann")), /taken/);
    assert.equal((await objects.get(b.id))?.name, "Ben");
    assert.equal((await objects.playerByName("ben"))?.id, b.id);
  } finally {
    kv.close();
  }
});

Deno.test("objects: listeners hear every committed create, update and delete", async () => {
  const { kv, objects } = await store();
  const heard: string[] = [];
  const stop = objects.onChange(({ before, after }) => {
    heard.push(`${before?.name ?? "-"} -> ${after?.name ?? "-"}`);
  });
  // A throwing listener is reported, never turned into a failed write.
  objects.onChange(() => {
    throw new Error("broken listener");
  });
  const errors: unknown[] = [];
  const realError = console.error;
  console.error = (...args: unknown[]) => errors.push(args);
  try {
    const p = await objects.create({ name: "Ann", type: "player" });
    await objects.update(p.id, (o) => (o.name = "Anna"));
    await assert.rejects(() =>
      objects.update(p.id, () => {
        throw new Error("aborted");
      })
    );
    await objects.create({ name: "Ben", type: "player" });
    await assert.rejects(() => objects.update(p.id, (o) => (o.name = "Ben")), /taken/);
    await objects.delete(p.id);
    await objects.delete(p.id);
    stop();
    await objects.create({ name: "Cid", type: "player" });
    assert.deepEqual(heard, ["- -> Ann", "Ann -> Anna", "- -> Ben", "Anna -> -"]);
    assert.equal(errors.length, 5, "the broken listener was reported for each change");
  } finally {
    console.error = realError;
    kv.close();
  }
});

Deno.test("objects: a move into an object deleted meanwhile is refused and changes nothing", async () => {
  for (const live of [false, true]) {
    const kv = await Deno.openKv(":memory:");
    const objects = new ObjectStore(kv, { live });
    try {
      const here = await objects.create({ name: "Here", type: "room" });
      const gone = await objects.create({ name: "Gone", type: "room" });
      const box = await objects.create({ name: "Box", type: "thing", location: here.id });
      // The mover read its destination before the delete, and writes after it.
      await objects.delete(gone.id);
      await assert.rejects(
        objects.update(box.id, (o) => void (o.location = gone.id)),
        { name: "NotFoundError", message: `#${gone.id} no longer exists; nothing moved.` },
      );
      assert.equal((await objects.get(box.id))!.location, here.id, `live ${live}`);
      assert.equal((await kv.get(keys.contents(gone.id, box.id))).value, null);
      assert.equal((await kv.get(keys.contents(here.id, box.id))).value, box.id);
      // A change that keeps the location is not checked against anything else.
      await objects.update(box.id, (o) => void (o.name = "Crate"));
      if (live) {
        // A destination made in memory whose commit is behind is waited for, not refused.
        const made = objects.createNow({ name: "New", type: "room" });
        const moved = await objects.update(box.id, (o) => void (o.location = made.id));
        assert.equal(moved.location, made.id);
      }
    } finally {
      await objects.flush();
      kv.close();
    }
  }
});

Deno.test("objects: a create in, or a link to, an object deleted meanwhile is refused", async () => {
  for (const live of [false, true]) {
    const kv = await Deno.openKv(":memory:");
    const objects = new ObjectStore(kv, { live });
    try {
      const here = await objects.create({ name: "Here", type: "room" });
      const gone = await objects.create({ name: "Gone", type: "room" });
      const door = await objects.create({ name: "Door", type: "exit", location: here.id });
      const box = await objects.create({ name: "Box", type: "thing", location: here.id });
      // The builder read the room before the delete, and writes after it.
      await objects.delete(gone.id);
      const next = (await kv.get<number>(keys.counter("dbref"))).value;
      for (const input of [{ location: gone.id }, { data: { destination: gone.id } }]) {
        await assert.rejects(
          objects.create({ name: "Late", type: input.location ? "thing" : "exit", ...input }),
          { name: "NotFoundError", message: `#${gone.id} no longer exists; nothing made.` },
        );
      }
      assert.deepEqual(await objects.byName("Late"), [], `live ${live}: nothing made`);
      assert.equal((await kv.get(keys.object(String(Number(next) + 1)))).value, null);
      for (const [o, key] of [[door, "destination"], [box, "home"]] as const) {
        await assert.rejects(
          objects.update(o.id, (x) => void (x.data[key] = gone.id)),
          { name: "NotFoundError", message: `#${gone.id} no longer exists; nothing linked.` },
        );
        assert.equal((await objects.get(o.id))!.data[key], undefined);
      }
      assert.equal((await kv.get(keys.exitTo(gone.id, door.id))).value, null);
      // A change that keeps its links is not checked against anything else.
      await objects.update(door.id, (x) => void (x.data.destination = here.id));
      await objects.update(door.id, (x) => void (x.name = "Gate"));
    } finally {
      await objects.flush();
      kv.close();
    }
  }
});
