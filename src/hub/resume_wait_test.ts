import assert from "node:assert/strict";
import { recordForResume, ResumeWait } from "./resume_wait.ts";
import { keys } from "../storage/keys.ts";

/** Whether `p` has settled within the current turns. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => done = true);
  await new Promise((r) => setTimeout(r, 0));
  return done;
}

Deno.test("resume wait: no record waits for nobody", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const w = await ResumeWait.open(kv, 60_000);
    assert.deepEqual(w.waiting, false);
    assert.deepEqual(await settled(w.ready()), true);
  } finally {
    kv.close();
  }
});

Deno.test("resume wait: ends when every recorded player has resumed; the record is used once", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await recordForResume(kv, ["#1", "#2"]);
    const w = await ResumeWait.open(kv, 60_000);
    assert.deepEqual((await kv.get(keys.restartResumes())).value, null);
    assert.deepEqual(w.waiting, true);
    w.resumed("#3");
    w.resumed("#1");
    assert.deepEqual(await settled(w.ready()), false);
    w.resumed("#2");
    assert.deepEqual(await settled(w.ready()), true);
    assert.deepEqual((await ResumeWait.open(kv, 60_000)).waiting, false);
  } finally {
    kv.close();
  }
});

Deno.test("resume wait: ends at its bound when someone never comes back, or when cancelled", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await recordForResume(kv, ["#1"]);
    const w = await ResumeWait.open(kv, 30);
    assert.deepEqual(await settled(w.ready()), false);
    await w.ready();
    assert.deepEqual(w.waiting, false);
    await recordForResume(kv, ["#1"]);
    const c = await ResumeWait.open(kv, 60_000);
    c.cancel();
    assert.deepEqual(await settled(c.ready()), true);
  } finally {
    kv.close();
  }
});
