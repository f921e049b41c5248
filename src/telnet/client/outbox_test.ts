/** Tests of the outbox of typed lines: order, bounds, pacing by the hub's acks. */
import assert from "node:assert/strict";
import { HubOutbox } from "./outbox.ts";

/** An outbox on a fake link and clock; `sent` holds what went out, `fulls` counts full notices. */
function setup(opts: { maxLines?: number; maxBytes?: number; perSecond?: number } = {}) {
  const t = { now: 0, ready: true, open: true, refuse: false, fulls: 0, sent: [] as unknown[] };
  const link = {
    get open() {
      return t.open;
    },
    send(text: string) {
      if (t.refuse) return false;
      t.sent.push(JSON.parse(text));
      return true;
    },
    sendLine(text: string, ack: number | null) {
      if (t.refuse) return false;
      t.sent.push(ack === null ? { msg: text } : { msg: text, ack });
      return true;
    },
  };
  const outbox = new HubOutbox(link, {
    maxLines: opts.maxLines ?? 50,
    maxBytes: opts.maxBytes ?? 8192,
    perSecond: opts.perSecond ?? 8,
    ready: () => t.ready,
    full: () => t.fulls++,
    now: () => t.now,
  });
  return { t, outbox };
}

Deno.test("outbox: lines wait while not ready and go in order with acks once it is", () => {
  const { t, outbox } = setup();
  t.ready = false;
  outbox.push("look");
  outbox.push("   ");
  outbox.push("say hi");
  assert.equal(outbox.length, 2);
  assert.deepEqual(t.sent, []);
  t.ready = true;
  outbox.pump();
  assert.deepEqual(t.sent, [{ msg: "look", ack: 1 }, { msg: "say hi", ack: 2 }]);
  assert.equal(outbox.length, 0);
});

Deno.test("outbox: bounded by lines and bytes, with one notice until it drains", () => {
  const { t, outbox } = setup({ maxLines: 2, maxBytes: 10 });
  t.ready = false;
  outbox.push("a");
  outbox.push("b");
  outbox.push("c");
  outbox.push("d");
  assert.equal(outbox.length, 2);
  assert.equal(t.fulls, 1);
  t.ready = true;
  outbox.pump();
  t.ready = false;
  outbox.push("12345678901");
  assert.equal(t.fulls, 2, "drained, so the next refusal is told again");
  outbox.reset();
  outbox.push("12345678901");
  assert.equal(t.fulls, 3, "a reset (hub down) tells again");
});

Deno.test("outbox: paced to the hub's rate; acks and time let the rest go", () => {
  const { t, outbox } = setup({ perSecond: 2 });
  for (const l of ["a", "b", "c", "d"]) outbox.push(l);
  assert.deepEqual(t.sent.map((f) => (f as { msg: string }).msg), ["a", "b"]);
  outbox.confirm(2);
  assert.equal(t.sent.length, 2, "read, but still inside the hub's window");
  t.now = 1_010;
  outbox.pump();
  assert.deepEqual(t.sent.map((f) => (f as { msg: string }).msg), ["a", "b", "c", "d"]);
  outbox.stop();
});

Deno.test("outbox: an ack from inside the hub's call lets the next line go after it", async () => {
  const { t, outbox } = setup({ perSecond: 1 });
  outbox.push("a");
  outbox.push("b");
  assert.deepEqual(t.sent, [{ msg: "a", ack: 1 }]);
  outbox.confirmLater(1);
  outbox.confirmLater(1);
  assert.equal(t.sent.length, 1, "nothing is sent back from inside the hub's call");
  t.now = 1_010;
  await Promise.resolve();
  assert.deepEqual(t.sent, [{ msg: "a", ack: 1 }, { msg: "b", ack: 2 }], "once, in order");
  outbox.confirmLater(2);
  await Promise.resolve();
  assert.equal(t.sent.length, 2);
  outbox.stop();
});

Deno.test("outbox: an ack given while its line is being sent needs no pump of its own", async () => {
  const t = { now: 0, reads: 0, sent: [] as { msg: string; ack: number | null }[] };
  const outbox: HubOutbox = new HubOutbox({
    open: true,
    send: () => true,
    sendLine(text: string, ack: number | null) {
      t.sent.push({ msg: text, ack });
      // As the engine's in-memory link does: the hub reads the line and answers at once.
      if (ack !== null) outbox.confirmLater(ack);
      return true;
    },
  }, {
    maxLines: 50,
    maxBytes: 8192,
    perSecond: 2,
    ready: () => true,
    full: () => {},
    now: () => (t.reads++, t.now),
  });
  for (const l of ["a", "b", "c"]) outbox.push(l);
  assert.deepEqual(t.sent.map((l) => l.msg), ["a", "b"]);
  const reads = t.reads;
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(t.reads, reads, "no pump queued for the acks");
  // The confirmations counted: once the window has passed, the third goes without a ping.
  t.now = 1_010;
  outbox.pump();
  assert.deepEqual(t.sent.map((l) => l.msg), ["a", "b", "c"]);
  outbox.stop();
});

Deno.test("outbox: a line the link could not send stays first; drop forgets everything", () => {
  const { t, outbox } = setup();
  t.refuse = true;
  outbox.push("one");
  outbox.push("two");
  assert.equal(outbox.length, 2);
  outbox.reset();
  t.refuse = false;
  outbox.pump();
  assert.deepEqual(t.sent.map((f) => (f as { msg: string }).msg), ["one", "two"]);
  t.open = false;
  outbox.push("three");
  assert.equal(outbox.length, 1, "nothing goes while the link is closed");
  outbox.drop();
  t.open = true;
  outbox.pump();
  assert.equal(outbox.length, 0);
  assert.equal(t.sent.length, 2);
});
