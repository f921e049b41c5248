/** Tests of the outbox of typed lines: order, bounds, pacing by the hub's acks. */
import assert from "node:assert/strict";
import { HubOutbox } from "./outbox.ts";

/**
 * An outbox on a fake link and clock; `sent` holds what went out, `fulls` counts full notices.
 * The link answers as a wire does (`sent`: the ack comes later), or, with `read`, as the engine's
 * carrier does (the hub read the line during the call).
 */
function setup(opts: { maxLines?: number; maxBytes?: number; perSecond?: number } = {}) {
  const t = {
    now: 0,
    ready: true,
    open: true,
    refuse: false,
    read: false,
    fulls: 0,
    sent: [] as unknown[],
  };
  const answer = () => t.refuse ? "failed" as const : t.read ? "read" as const : "sent" as const;
  const link = {
    get open() {
      return t.open;
    },
    line(text: string, ack: number | null) {
      const a = answer();
      if (a !== "failed") t.sent.push(ack === null ? { msg: text } : { msg: text, ack });
      return a;
    },
    ping(id: number) {
      const a = answer();
      if (a !== "failed") t.sent.push({ type: "ping", id });
      return a;
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

Deno.test("outbox: a line the hub read during the call is acknowledged by the answer itself", () => {
  const { t, outbox } = setup({ perSecond: 2 });
  t.read = true;
  for (const l of ["a", "b", "c"]) outbox.push(l);
  assert.deepEqual(t.sent.map((f) => (f as { msg: string }).msg), ["a", "b"], "paced as ever");
  // The acknowledgements counted: once the window has passed, the third goes, and no ping was
  // needed to ask for them.
  t.now = 1_010;
  outbox.pump();
  assert.deepEqual(t.sent.map((f) => (f as { msg: string }).msg), ["a", "b", "c"]);
  t.now = 5_000;
  outbox.push("d");
  assert.deepEqual(t.sent.at(-1), { msg: "d", ack: 4 });
  assert.equal(t.sent.some((f) => (f as { type?: string }).type === "ping"), false);
  outbox.stop();
});

Deno.test("outbox: a line the hub dropped (no answer) is asked about with a ping, whose answer lets the rest go", () => {
  const { t, outbox } = setup({ perSecond: 1 });
  outbox.push("a");
  outbox.push("b");
  assert.deepEqual(t.sent, [{ msg: "a", ack: 1 }]);
  t.read = true;
  t.now = 3_100;
  outbox.pump();
  assert.deepEqual(t.sent.at(-1), { type: "ping", id: 2 }, "the pacer asks after 3 s");
  t.now = 4_200;
  outbox.pump();
  assert.deepEqual(t.sent.at(-1), { msg: "b", ack: 3 });
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

Deno.test("outbox: lines put first go before every waiting line", () => {
  const { t, outbox } = setup();
  t.ready = false;
  outbox.push("look");
  outbox.first(["OUTPUTPREFIX <<", "", "OUTPUTSUFFIX >>"]);
  assert.equal(outbox.length, 3);
  t.ready = true;
  outbox.pump();
  assert.deepEqual(t.sent.map((s) => (s as { msg: string }).msg), [
    "OUTPUTPREFIX <<",
    "OUTPUTSUFFIX >>",
    "look",
  ]);
});

Deno.test("outbox: lines the hub hands back go first, under the same bounds as typed lines", () => {
  const { t, outbox } = setup({ maxLines: 4, maxBytes: 64 });
  t.ready = false;
  outbox.push("typed later");
  // Blank lines are not sent; the rest go before the line typed later, oldest first.
  outbox.putBack(["say one", "  ", "say two"]);
  assert.deepEqual(outbox.lines(), ["say one", "say two", "typed later"]);
  assert.equal(t.fulls, 0);
  // Past the bound of lines: the newest are not kept, and the player is told once.
  outbox.putBack(["say zero", "say zero and a half"]);
  assert.deepEqual(outbox.lines(), ["say zero", "say zero and a half", "say one", "say two"]);
  assert.equal(t.fulls, 1);
  outbox.putBack(["again"]);
  assert.equal(t.fulls, 1, "told once until it drains");
  assert.equal(outbox.length, 4);
  // Past the bound of bytes likewise: 200 lines of 30 bytes keep what fits in 64.
  const bytes = setup({ maxLines: 1000, maxBytes: 64 });
  bytes.t.ready = false;
  bytes.outbox.putBack(Array.from({ length: 200 }, (_, i) => `say ${String(i).padStart(26, "x")}`));
  assert.equal(bytes.outbox.length, 2);
  assert.equal(bytes.t.fulls, 1);
  // Once ready they go paced, as any line: eight in the first second.
  const paced = setup({ maxLines: 1000, maxBytes: 1 << 20, perSecond: 8 });
  paced.t.ready = false;
  paced.outbox.putBack(Array.from({ length: 20 }, (_, i) => `say ${i}`));
  paced.t.ready = true;
  paced.outbox.pump();
  assert.equal(paced.t.sent.length, 8);
  paced.outbox.stop();
});
