import assert from "node:assert/strict";
import { collapsingNotices, type NoticeBatch } from "./notices.ts";

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("notices: the first at once, a burst in one line a window, keys apart", async () => {
  const told: NoticeBatch<number>[] = [];
  const n = collapsingNotices<number>({
    deliver: (b) => void told.push(b),
    windowMs: 80,
    keep: 3,
  }, (e) => {
    throw e;
  });
  try {
    n.add("board1", 1);
    n.add("board2", 1);
    for (let i = 2; i <= 10; i++) n.add("board1", i);
    assert.deepEqual(told.map((b) => [b.key, b.count, b.first]), [
      ["board1", 1, true],
      ["board2", 1, true],
    ]);
    // Waits for the window by conditions, never by asserting a time.
    for (let i = 0; i < 100 && told.length < 3; i++) await wait(20);
    const gathered = told.find((b) => b.key === "board1" && !b.first)!;
    assert.equal(gathered.count, 9);
    assert.deepEqual(gathered.items, [8, 9, 10], "the latest are kept");
    assert.equal(told.filter((b) => b.key === "board2").length, 1, "a lone notice is told once");
  } finally {
    n.close();
  }
  const before = told.length;
  n.add("board3", 1);
  assert.equal(told.length, before, "nothing after close");
});
