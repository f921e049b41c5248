// The web client's replay of the lines a restart handed back (web/assets/replay.js): sent first
// once the session continues, one at a time behind the hub's acks, typed lines behind them;
// dropped with the lines named when the session does not continue.
import assert from "node:assert/strict";
import { Replay } from "../web/assets/replay.js";

/** A replay whose frames are recorded; `ackAll` answers each sent line as the hub would. */
function setup() {
  const sent: { line: string; ack: string }[] = [];
  const replay = new Replay((line: string, ack: string) => sent.push({ line, ack }));
  return { sent, replay };
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("web replay: handed-back lines go first after the resume, each after the last one's ack", async () => {
  const { sent, replay } = setup();
  replay.handBack(["say one", "  ", "say two"]);
  assert.equal(replay.busy, true);
  assert.equal(sent.length, 0, "nothing before the session continues");
  replay.start();
  assert.deepEqual(sent.map((s) => s.line), ["say one"]);
  // Typed meanwhile: behind them.
  assert.equal(replay.queue("say typed"), true);
  await tick(200);
  assert.equal(sent.length, 1, "the next waits for the ack");
  replay.acked("not ours");
  replay.acked(sent[0].ack);
  assert.equal(sent.length, 1, "and a pause after it");
  await tick(200);
  assert.deepEqual(sent.map((s) => s.line), ["say one", "say two"]);
  replay.acked(sent[1].ack);
  await tick(200);
  replay.acked(sent[2].ack);
  await tick(200);
  assert.deepEqual(sent.map((s) => s.line), ["say one", "say two", "say typed"]);
  assert.equal(replay.busy, false);
});

Deno.test("web replay: a close pauses it; a session that does not continue drops the lines", () => {
  const { sent, replay } = setup();
  replay.handBack(["say one", "say two"]);
  replay.start();
  replay.pause();
  // Handed back again at a second restart: before what was still waiting.
  replay.handBack(["say one"]);
  assert.deepEqual(replay.drop(), ["say one", "say two"]);
  assert.equal(replay.busy, false);
  replay.start();
  assert.equal(sent.length, 1, "nothing more goes");
  // Bounded: at most 200 kept, typed lines refused past that.
  replay.handBack(Array.from({ length: 300 }, (_, i) => `say ${i}`));
  assert.equal(replay.drop().length, 200);
  replay.handBack(Array.from({ length: 200 }, (_, i) => `say ${i}`));
  assert.equal(replay.queue("one too many"), false);
  replay.drop();
});
