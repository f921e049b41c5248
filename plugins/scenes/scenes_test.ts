/**
 * Unit tests of the scenes plugin's pure parts and its store: which scenes a line of speech goes
 * to, the pose text of speech, the room's line of a pose, and the indexes following a scene's
 * status and members in the same commit.
 */
import assert from "node:assert/strict";
import { memoryPluginKv } from "../../src/plugins/testing.ts";
import type { PluginKv } from "../../src/plugins/mod.ts";
import { AutoLog, speechText, targetsOf } from "./autolog.ts";
import { poseLine, stamp } from "./format.ts";
import { SceneStore } from "./store.ts";
import type { Pose, SceneRecord } from "./types.ts";

function scene(id: string, over: Partial<SceneRecord> = {}): SceneRecord {
  return {
    id,
    name: `S${id}`,
    location: "1",
    desc: "",
    owner: "10",
    participants: ["10"],
    allowed: ["10"],
    private: false,
    startTime: 0,
    status: "active",
    sceneType: "social",
    poseCount: 0,
    lastActivity: Number(id),
    lastPosed: {},
    ...over,
  };
}

Deno.test("scenes: speech goes to the speaker's scenes, else the most recent one they may join", () => {
  const a = scene("1", { participants: ["10", "11"], allowed: ["10"] });
  const b = scene("2", { lastActivity: 50 });
  const c = scene("3", { lastActivity: 40 });
  const secret = scene("4", { private: true, lastActivity: 99, allowed: ["10", "12"] });
  const paused = scene("5", { status: "paused", participants: ["13"], lastActivity: 100 });
  const ids = (xs: SceneRecord[]) => xs.map((s) => s.id);
  assert.deepEqual(ids(targetsOf([a, b, c, secret], "10")), ["1", "2", "3", "4"], "owner of all");
  assert.deepEqual(ids(targetsOf([a, b, c, secret], "11")), ["1"], "a participant: theirs only");
  assert.deepEqual(ids(targetsOf([a, b, c, secret], "12")), ["4"], "invited: the private one");
  assert.deepEqual(ids(targetsOf([a, b, c, secret], "99")), ["2"], "others: most recent public");
  assert.deepEqual(ids(targetsOf([paused, secret], "13")), [], "paused logs nothing");
  assert.deepEqual(ids(targetsOf([secret], "99")), [], "private takes no outsider");
  // A participant of a private scene who is no longer allowed is not logged there.
  const dropped = scene("6", { private: true, participants: ["10", "14"], allowed: ["10"] });
  assert.deepEqual(ids(targetsOf([dropped], "14")), []);
});

Deno.test("scenes: the pose text of speech and the room's line of a pose", () => {
  assert.equal(speechText({ kind: "say", text: "Hi." }), 'says, "Hi."');
  assert.equal(speechText({ kind: "pose", text: "waves." }), "waves.");
  assert.equal(speechText({ kind: "emit", text: "Rain." }), "Rain.");
  const p: Pose = {
    id: "1",
    charId: "#10",
    charName: "Ann",
    moniker: "%crAnn%cn",
    msg: "waves.",
    type: "pose",
    timestamp: 0,
  };
  assert.equal(poseLine(p), "%crAnn%cn waves.%cn");
  assert.equal(poseLine({ ...p, type: "ooc" }), "[OOC] %crAnn%cn: waves.%cn");
  assert.equal(poseLine({ ...p, type: "set" }), "[Scene Set] waves.%cn");
  assert.equal(stamp(Date.UTC(2026, 0, 2, 3, 4, 59)), "2026-01-02 03:04 UTC");
});

Deno.test("scenes: the store moves index entries with status, privacy and members", async () => {
  const db = await memoryPluginKv("scenes");
  try {
    const store = new SceneStore(db.kv);
    const page = { limit: 50, offset: 0 };
    const a = await store.create((id) => scene(id));
    const b = await store.create((id) => scene(id, { location: "2" }));
    const ids = (xs: SceneRecord[]) => xs.map((s) => s.id);
    assert.deepEqual(ids(await store.open(page)), [b.id, a.id]);
    await store.update(a.id, (s) => ({ next: { ...s, status: "closed" }, result: null }));
    assert.deepEqual(ids(await store.open(page)), [b.id]);
    assert.deepEqual(ids(await store.withStatus("closed", page)), [a.id]);
    assert.deepEqual(ids(await store.inRoom("1", "active", page)), []);
    assert.deepEqual(ids(await store.inRoom("1", "closed", page)), [a.id]);
    await store.update(b.id, (s) => ({
      next: { ...s, private: true, allowed: [...s.allowed, "20"] },
      result: null,
    }));
    assert.deepEqual(ids(await store.open(page)), []);
    assert.deepEqual(ids(await store.ofPlayer("20", page)), [b.id]);
    assert.deepEqual(ids(await store.ofPlayer("10", page)), [b.id, a.id]);
    assert.deepEqual(ids(await store.all({ limit: 1, offset: 1 })), [a.id]);
    // A refusal inside the update writes nothing.
    await assert.rejects(store.update(b.id, () => {
      throw new Error("no");
    }));
    assert.equal((await store.get(b.id))!.private, true);
    assert.equal(await store.get("0"), null);
    assert.equal(await store.get("x"), null);
  } finally {
    db.close();
  }
});

/** The plugin's KV with its index reads counted, and optionally held until `release()`. */
function counted(kv: PluginKv) {
  const state = { reads: 0, hold: false, held: [] as (() => void)[] };
  const wrapped = new Proxy(kv, {
    get(target, prop) {
      if (prop !== "slicePage") {
        // Bound to the real store: its methods use private fields a proxy does not have.
        const v = Reflect.get(target, prop, target);
        return typeof v === "function" ? v.bind(target) : v;
      }
      return async (...args: Parameters<PluginKv["slicePage"]>) => {
        state.reads++;
        const result = await target.slicePage(...args);
        if (state.hold) await new Promise<void>((r) => state.held.push(r));
        return result;
      };
    },
  });
  return { kv: wrapped, state, release: () => state.held.splice(0).forEach((r) => r()) };
}

Deno.test("scenes: a room without an active scene is read once, until a scene is written there", async () => {
  const db = await memoryPluginKv("scenes");
  try {
    const c = counted(db.kv);
    const store = new SceneStore(c.kv, { soleWriter: true });
    const ids = (xs: SceneRecord[]) => xs.map((s) => s.id);
    assert.equal(store.knownQuiet("1"), false, "not known before a read");
    assert.deepEqual(await store.activeIn("1"), []);
    assert.equal(store.knownQuiet("1"), true, "known after a read that found none");
    assert.deepEqual(await store.activeIn("1"), []);
    assert.equal(c.state.reads, 1, "the second line in a quiet room reads nothing");
    const a = await store.create((id) => scene(id));
    assert.equal(store.knownQuiet("1"), false, "a scene written there makes it unknown");
    assert.deepEqual(ids(await store.activeIn("1")), [a.id], "a new scene is seen at once");
    await store.activeIn("1");
    assert.equal(c.state.reads, 3, "a room with a scene is read every time");
    await store.update(a.id, (s) => ({ next: { ...s, status: "closed" }, result: null }));
    assert.deepEqual(await store.activeIn("1"), []);
    await store.update(a.id, (s) => ({ next: { ...s, status: "active" }, result: null }));
    assert.deepEqual(ids(await store.activeIn("1")), [a.id], "reopened, it is seen at once");
    // A scene that moves is seen in its new room and gone from its old one.
    const b = await store.create((id) => scene(id, { location: "2" }));
    assert.deepEqual(await store.activeIn("3"), []);
    await store.update(b.id, (s) => ({ next: { ...s, location: "3" }, result: null }));
    assert.deepEqual(ids(await store.activeIn("3")), [b.id]);
    assert.deepEqual(await store.activeIn("2"), []);
    // A read that raced a scene's creation answered without it; it is not remembered.
    c.state.hold = true;
    const racing = store.activeIn("4");
    await new Promise((r) => setTimeout(r, 10));
    const d = await store.create((id) => scene(id, { location: "4" }));
    c.release();
    assert.deepEqual(await racing, []);
    assert.equal(store.knownQuiet("4"), false, "a read that raced a write is not remembered");
    c.state.hold = false;
    assert.deepEqual(ids(await store.activeIn("4")), [d.id], "the next line sees the new scene");
  } finally {
    db.close();
  }
});

Deno.test("scenes: with other writers of the database, every line reads the room's scenes", async () => {
  const db = await memoryPluginKv("scenes");
  try {
    const c = counted(db.kv);
    const store = new SceneStore(c.kv);
    await store.activeIn("1");
    await store.activeIn("1");
    assert.equal(c.state.reads, 2);
    assert.equal(store.knownQuiet("1"), false, "nothing is known quiet");
  } finally {
    db.close();
  }
});

Deno.test("scenes: speech in a room known to have no scene is answered at once; elsewhere it is logged", async () => {
  const db = await memoryPluginKv("scenes");
  try {
    const store = new SceneStore(db.kv, { soleWriter: true });
    const reads: string[] = [];
    const posed: string[] = [];
    const log = new AutoLog(
      {
        now: () => 1,
        knownQuiet: (room) => store.knownQuiet(room),
        activeIn: (room) => store.activeIn(room),
        isFull: () => false,
        pose: (_actor, id, p) => {
          posed.push(`${id}: ${p.msg}`);
          return Promise.resolve(null as never);
        },
      },
      {
        get: (id: string) => {
          reads.push(id);
          return Promise.resolve({ id, name: "Ann" } as never);
        },
      },
      { info() {}, warn() {}, error() {}, debug() {} } as never,
      () => {},
    );
    const line = (roomId: string, text: string) =>
      log.heard({ actorId: "5", actorName: "Ann", roomId, text, kind: "say", msg: "" });
    // The first line in a room reads it (and the actor); then the room is known quiet.
    await line("1", "hello");
    assert.deepEqual(reads, ["5"]);
    assert.equal(line("1", "again"), undefined, "a quiet room's line makes no promise");
    assert.deepEqual(reads, ["5"], "nor reads the actor");
    // A scene started there: the next line is logged.
    const s = await store.create((id) => scene(id));
    await line("1", "now");
    assert.deepEqual(posed, [`${s.id}: says, "now"`]);
    assert.deepEqual(reads, ["5", "5"]);
  } finally {
    db.close();
  }
});
