import assert from "node:assert/strict";
import { LineReader } from "./terminal_io.ts";
import { SetupCancelled } from "./setup.ts";

/** A reader over scripted chunks of typed bytes; `shown` is what the terminal would display. */
function typed(...chunks: string[]) {
  const enc = new TextEncoder();
  const queue = chunks.map((c) => enc.encode(c));
  let shown = "";
  const reader = new LineReader(
    (into) => {
      const next = queue.shift();
      if (!next) return Promise.resolve(null);
      into.set(next);
      return Promise.resolve(next.length);
    },
    (bytes) => {
      shown += new TextDecoder().decode(bytes);
      return Promise.resolve();
    },
  );
  return { reader, shown: () => shown };
}

Deno.test("line reader: a line is echoed, ended by Enter, and typed-ahead bytes are kept", async () => {
  const t = typed("owner@exa", "mple.com\rOwner\r\n", "pw\n");
  assert.equal(await t.reader.readLine(false), "owner@example.com");
  assert.equal(await t.reader.readLine(false), "Owner");
  assert.equal(await t.reader.readLine(true), "pw");
  assert.equal(t.shown(), "owner@example.com\r\nOwner\r\n\r\n");
});

Deno.test("line reader: Ctrl-D on an empty line ends input and moves to a new line", async () => {
  const t = typed("\x04");
  assert.equal(await t.reader.readLine(false), null);
  assert.equal(t.shown(), "\r\n");
  const mid = typed("abc\x04d\r");
  assert.equal(await mid.reader.readLine(false), "abcd", "Ctrl-D inside a line is ignored");
});

Deno.test("line reader: Ctrl-C cancels, at any prompt, secret or not", async () => {
  for (const secret of [false, true]) {
    const t = typed("ab\x03");
    await assert.rejects(t.reader.readLine(secret), SetupCancelled);
    assert.ok(t.shown().endsWith("^C\r\n"));
  }
});

Deno.test("line reader: editing keys, escape sequences and secrets", async () => {
  const t = typed("Ow\x7fwn\x1b[Der\x08r\r");
  assert.equal(await t.reader.readLine(false), "Owner");
  const utf = typed("caf\u00e9\x7fe\r");
  assert.equal(await utf.reader.readLine(false), "cafe", "backspace removes a whole character");
  const kill = typed("wrong\x15right\r");
  assert.equal(await kill.reader.readLine(false), "right");
  const secret = typed("hunter22\r");
  assert.equal(await secret.reader.readLine(true), "hunter22");
  assert.equal(secret.shown(), "\r\n", "nothing of a secret is echoed");
  const eof = typed("partial");
  assert.equal(await eof.reader.readLine(false), "partial", "end of file ends the last line");
  assert.equal(await eof.reader.readLine(false), null);
});
