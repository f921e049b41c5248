import assert from "node:assert/strict";
import { afterEnd, ConnectionStats, connInfoOf } from "./conninfo.ts";
import type { DbObject } from "./types.ts";
import { keys } from "../storage/keys.ts";

const NONE = { connects: 0, total: 0, longest: 0, last: 0, left: 0 };
const S = 1000;

Deno.test("conninfo: a lone connection's end counts its whole session", () => {
  const after = afterEnd(NONE, { playerId: "2", since: 100 * S, others: [], at: 160 * S });
  assert.deepEqual(after, { connects: 1, total: 60, longest: 60, last: 60, left: 160 });
  const again = afterEnd(after, { playerId: "2", since: 200 * S, others: [], at: 230 * S });
  assert.deepEqual(again, { connects: 2, total: 90, longest: 60, last: 30, left: 230 });
});

Deno.test("conninfo: overlapping connections count their time once, as MUX's", () => {
  // Two connections: the oldest from 100 s, another from 130 s; the newer goes at 150 s.
  const a = afterEnd(NONE, { playerId: "2", since: 130 * S, others: [100 * S], at: 150 * S });
  assert.deepEqual(a, { connects: 1, total: 0, longest: 0, last: 50, left: 150 });
  // Then the oldest goes at 170 s, alone: 70 s of session.
  const b = afterEnd(a, { playerId: "2", since: 100 * S, others: [], at: 170 * S });
  assert.deepEqual(b, { connects: 2, total: 70, longest: 70, last: 70, left: 170 });
  // The oldest going while a newer one stays adds only its own part (until the newer came).
  const c = afterEnd(NONE, { playerId: "2", since: 100 * S, others: [140 * S], at: 150 * S });
  assert.deepEqual(c, { connects: 1, total: 40, longest: 50, last: 50, left: 150 });
});

Deno.test("conninfo: what is stored is read defensively", () => {
  const p = (conninfo: unknown): DbObject => ({
    id: "2",
    name: "P",
    flags: ["player"],
    location: "",
    owner: "2",
    data: { conninfo },
    createdAt: 0,
    updatedAt: 0,
  });
  assert.deepEqual(connInfoOf(p(undefined)), NONE);
  assert.deepEqual(connInfoOf(p("junk")), NONE);
  assert.deepEqual(connInfoOf(p({ connects: -3, total: "x", longest: 1.7, last: NaN, left: 9 })), {
    ...NONE,
    longest: 1,
    left: 9,
  });
});

Deno.test("conninfo: the record only rises and survives a new start", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const updates: string[] = [];
    const objects = {
      world: null,
      update: (id: string) => {
        updates.push(id);
        return Promise.resolve({} as DbObject);
      },
      updateNow: () => {
        throw new Error("no world in memory");
      },
    };
    const stats = new ConnectionStats(kv, objects);
    await stats.load();
    assert.equal(stats.record, 0);
    stats.started(3);
    stats.started(2);
    assert.equal(stats.record, 3);
    for (let i = 0; i < 50 && (await kv.get(keys.connectionRecord())).value !== 3; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    const again = new ConnectionStats(kv, objects);
    await again.load();
    assert.equal(again.record, 3);
    again.ended({ playerId: "7", since: 0, others: [], at: 1000 });
    assert.deepEqual(updates, ["7"]);
  } finally {
    kv.close();
  }
});
