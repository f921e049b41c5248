/**
 * The boards store on an in-memory KV: what reading costs in writes (every commit gets a
 * versionstamp of its own, so counting the new versionstamps in the plugin's space counts
 * commits, and counting changed keys counts the keys they wrote), and the read state's
 * high-water mark over deleted posts.
 */
import assert from "node:assert/strict";
import { memoryPluginKv } from "../../src/plugins/testing.ts";
import type { PluginKv } from "../../src/plugins/mod.ts";
import { type Board, BoardStore, isRead, MAX_BOARDS, type ReadState } from "./store.ts";

/** Every key of the plugin's space with its versionstamp. */
async function snapshot(kv: PluginKv): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of kv.list([])) out.set(JSON.stringify(e.key), e.versionstamp);
  return out;
}

/** Keys added, changed or removed between two snapshots, and how many commits did it. */
function diff(a: Map<string, string>, b: Map<string, string>) {
  const keys = new Set<string>();
  const stamps = new Set<string>();
  for (const [k, v] of b) {
    if (a.get(k) !== v) {
      keys.add(k);
      stamps.add(v);
    }
  }
  for (const k of a.keys()) if (!b.has(k)) keys.add(k);
  return { keys: [...keys], commits: stamps.size };
}

async function boardWithPosts(store: BoardStore, n: number): Promise<Board> {
  const board = await store.createBoard({
    name: "General",
    slug: "general",
    description: "",
    readLock: "",
    postLock: "",
    createdAt: 0,
    createdBy: "1",
  });
  for (let i = 0; i < n; i++) {
    await store.createPost(board, { subject: `s${i}`, body: "b", author: "1", authorName: "A" });
  }
  return board;
}

Deno.test("boards store: reading a post or a board is one write of one key; a reread none", async () => {
  const mem = await memoryPluginKv("boards");
  try {
    const store = new BoardStore(mem.kv);
    const board = await boardWithPosts(store, 300);
    const readKey = JSON.stringify(mem.kv.key("read", board.id, "7"));
    for (const num of [5, 1, 2, 3, 4, 250]) {
      const before = await snapshot(mem.kv);
      await store.markRead(board.id, "7", num);
      assert.deepEqual(diff(before, await snapshot(mem.kv)), { keys: [readKey], commits: 1 });
    }
    const before = await snapshot(mem.kv);
    await store.markRead(board.id, "7", 3);
    assert.deepEqual(diff(before, await snapshot(mem.kv)), { keys: [], commits: 0 });
    const [state] = await store.readStates([board.id], "7");
    assert.deepEqual(state, { hw: 5, above: [250] });

    const b2 = await snapshot(mem.kv);
    await store.markBoardRead(board.id, "7");
    assert.deepEqual(diff(b2, await snapshot(mem.kv)), { keys: [readKey], commits: 1 });
    assert.deepEqual((await store.readStates([board.id], "7"))[0], { hw: 300, above: [] });
  } finally {
    mem.close();
  }
});

Deno.test("boards store: the mark moves over deleted posts; unread counts skip them", async () => {
  const mem = await memoryPluginKv("boards");
  try {
    const store = new BoardStore(mem.kv);
    const board = await boardWithPosts(store, 6);
    for (const n of [2, 4]) await store.deletePost((await store.post(board.id, n))!);
    await store.markRead(board.id, "7", 3);
    await store.markRead(board.id, "7", 1);
    let state = (await store.readStates([board.id], "7"))[0] as ReadState;
    assert.deepEqual(state, { hw: 3, above: [] }, "2 is gone, so 1 and 3 make a run");
    await store.markRead(board.id, "7", 5);
    state = (await store.readStates([board.id], "7"))[0] as ReadState;
    assert.deepEqual(state, { hw: 5, above: [] });
    assert.deepEqual(await store.unread(board.id, state, 4), [6]);
    assert.equal(isRead(state, 4), true);
    assert.equal(isRead(state, 6), false);
    assert.equal(await store.unread(board.id, null, 4), 4, "no state: every post");
    assert.deepEqual(await store.postCounts([board.id, "99"]), [4, 0]);
    // A new post never takes a freed number.
    const next = await store.createPost(board, {
      subject: "n",
      body: "b",
      author: "1",
      authorName: "A",
    });
    assert.equal(next.num, 7);
  } finally {
    mem.close();
  }
});

Deno.test("boards store: a removed reader's read state goes from every board", async () => {
  const mem = await memoryPluginKv("boards");
  try {
    const store = new BoardStore(mem.kv);
    const one = await boardWithPosts(store, 2);
    const { id: _id, ...fields } = one;
    const two = await store.createBoard({ ...fields, name: "Two", slug: "two" });
    for (const b of [one, two]) {
      await store.markRead(b.id, "7", 1);
      await store.markRead(b.id, "8", 1);
    }
    await store.forgetReader("7");
    assert.deepEqual(await store.readStates([one.id, two.id], "7"), [null, null]);
    assert.deepEqual(
      (await store.readStates([one.id, two.id], "8")).map((r) => r?.hw),
      [1, 1],
      "other readers keep theirs",
    );
  } finally {
    mem.close();
  }
});

Deno.test("boards store: a game holds at most MAX_BOARDS boards (409 past that)", async () => {
  const mem = await memoryPluginKv("boards");
  try {
    const store = new BoardStore(mem.kv);
    const input = (i: number) => ({
      name: `B${i}`,
      slug: `b${i}`,
      description: "",
      readLock: "",
      postLock: "",
      createdAt: 0,
      createdBy: "1",
    });
    for (let i = 0; i < MAX_BOARDS; i++) await store.createBoard(input(i));
    await assert.rejects(() => store.createBoard(input(MAX_BOARDS)), /at most 200 boards/);
    assert.equal((await store.boards()).length, MAX_BOARDS);
  } finally {
    mem.close();
  }
});
