/** Tests of MCCP2 compression, flushed per write. */
import assert from "node:assert/strict";
import { constants, createInflate, inflateSync } from "node:zlib";
import { bytes } from "./_test_util.ts";
import { concatBytes } from "./bytes.ts";
import { Mccp2Compressor } from "./mccp.ts";

const SYNC = { finishFlush: constants.Z_SYNC_FLUSH };

Deno.test("mccp: each write can be inflated on arrival, as one stream", async () => {
  const out: Uint8Array[] = [];
  const c = new Mccp2Compressor((b) => out.push(b));
  const messages = [
    "Welcome!\r\n",
    "You see a room.\r\n",
    "You see a room.\r\n",
    "x".repeat(50_000),
  ];
  const seen: number[] = [];
  for (const m of messages) {
    c.write(bytes(m));
    await c.flushed();
    seen.push(out.length);
  }
  // Every write produced output before the next one: nothing waits for a later write.
  assert.deepEqual(seen, [1, 2, 3, 4]);
  // Inflating the stream so far, after each write, gives exactly the text so far.
  for (let n = 1; n <= out.length; n++) {
    const text = new TextDecoder().decode(inflateSync(concatBytes(out.slice(0, n)), SYNC));
    assert.equal(text, messages.slice(0, n).join(""));
  }
  // Repeated text compresses against the earlier output: one stream, not independent blocks.
  assert.ok(out[2].length < 12, `repeat cost ${out[2].length} bytes`);
  await c.end();
  assert.equal(
    new TextDecoder().decode(inflateSync(concatBytes(out))),
    messages.join(""),
    "a finished stream inflates without the sync-flush allowance",
  );
});

Deno.test("mccp: a streaming inflater gets each message as it is written", async () => {
  const inflater = createInflate();
  const received: string[] = [];
  inflater.on("data", (d: Uint8Array) => received.push(new TextDecoder().decode(d)));
  const c = new Mccp2Compressor((b) => inflater.write(b));
  for (const m of ["one\r\n", "two\r\n", "three\r\n"]) {
    c.write(bytes(m));
    await c.flushed();
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(received.join("").endsWith(m), true, `got ${JSON.stringify(received)}`);
  }
  await c.end();
  inflater.end();
});

Deno.test("mccp: writes after end are ignored; end is idempotent", async () => {
  const out: Uint8Array[] = [];
  const c = new Mccp2Compressor((b) => out.push(b));
  c.write(bytes("bye"));
  await c.end();
  await c.end();
  assert.equal(c.active, false);
  const before = out.length;
  c.write(bytes("late"));
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(out.length, before);
  assert.equal(new TextDecoder().decode(inflateSync(concatBytes(out))), "bye");
});

Deno.test("mccp: a continued stream inflates as more of the first; its end has a zero check", async () => {
  const out: Uint8Array[] = [];
  const first = new Mccp2Compressor((b) => out.push(b.slice()));
  first.write(new TextEncoder().encode("one one one\n"));
  await first.flushed();
  // The first process is gone without ending its stream; another goes on.
  const next = new Mccp2Compressor((b) => out.push(b.slice()), { continued: true });
  assert.equal(next.continued, true);
  next.write(new TextEncoder().encode("two one one\n"));
  await next.flushed();
  const sofar = inflateSync(concatBytes(out), { finishFlush: constants.Z_SYNC_FLUSH });
  assert.equal(new TextDecoder().decode(sofar), "one one one\ntwo one one\n");
  await next.end();
  // The end is well formed but for the checksum of data this process never saw.
  assert.deepEqual(out.at(-1), new Uint8Array(4));
  assert.throws(() => inflateSync(concatBytes(out)), /check/i);
});
