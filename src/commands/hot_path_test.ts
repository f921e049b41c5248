/**
 * The hot path waits for no database read it does not need: think, say, pose and a move
 * through a known exit read their actor, room, exits and destination from memory (the object
 * and exit caches). Counted on the engine's own KV handle, so a read added later fails here.
 */
import assert from "node:assert/strict";
import { testWorld } from "./_test_util.ts";

/** Counts point reads and listings on a KV handle by shadowing its methods. */
function countReads(kv: Deno.Kv) {
  const n = { get: 0, getMany: 0, list: 0 };
  const k = kv as unknown as Record<string, (...a: unknown[]) => unknown>;
  for (const m of ["get", "getMany", "list"] as const) {
    const original = k[m].bind(kv);
    k[m] = (...a: unknown[]) => {
      n[m]++;
      return original(...a);
    };
  }
  return {
    take() {
      const out = { ...n };
      n.get = n.getMany = n.list = 0;
      return out;
    },
  };
}

Deno.test("hot path: think, say, pose and : read nothing from the database once warm", async () => {
  const w = await testWorld();
  try {
    const { conn } = await w.player("Alice");
    await w.player("Bob");
    const { objects } = w.services;
    const yard = await objects.create({ name: "Yard", type: "room" });
    await objects.create({
      name: "North;n",
      type: "exit",
      location: "1",
      data: { destination: yard.id },
    });
    await objects.create({
      name: "South;s",
      type: "exit",
      location: yard.id,
      data: { destination: "1" },
    });
    const reads = countReads(w.services.kv);
    // Warm: the actor and room are read once (or were written by this engine).
    await w.run(conn, "think warm");
    reads.take();
    assert.deepEqual(await w.run(conn, "think hello"), ["hello"]);
    await w.run(conn, "say hi");
    await w.run(conn, "pose waves");
    await w.run(conn, ":grins");
    assert.deepEqual(reads.take(), { get: 0, getMany: 0, list: 0 });
    assert.ok(w.hub.texts(conn.playerId).some((t) => t.includes("Alice waves")));

    // A move writes (one commit) and shows the new room (listing its contents), but reads
    // neither the actor nor the destination back once they are known.
    await w.run(conn, "n");
    await w.run(conn, "s");
    reads.take();
    await w.run(conn, "n");
    const move = reads.take();
    assert.equal(move.get + move.getMany, 0, JSON.stringify(move));
    assert.equal((await objects.get(conn.playerId))?.location, yard.id);
    const stored = await w.services.kv.get<{ location: string }>(["obj", conn.playerId]);
    assert.equal(stored.value?.location, yard.id, "the move is in the database");
  } finally {
    await w.close();
  }
});
