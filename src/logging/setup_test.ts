import assert from "node:assert/strict";
import { Logger } from "./logger.ts";
import { pipeLines } from "./setup.ts";

function collecting(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const logger = new Logger({
    level: "debug",
    subsystem: "test",
    file: null,
    secrets: [],
    // Formatted as "<time> INFO  engine: <text>": the text is what the child wrote.
    console: (line) => lines.push(line.replace(/^\S+ \S+ +engine: /, "")),
  });
  return { logger, lines };
}

Deno.test("pipeLines: a child's lines arrive whole, split across reads, multi-byte characters intact", async () => {
  const { logger, lines } = collecting();
  const bytes = new TextEncoder().encode("one\r\ntw\u00e9 \u2603\nthree\nlast without newline");
  // Split inside the multi-byte characters and the lines, as a pipe may deliver them.
  const cuts = [2, 6, 9, 11, 20, bytes.length];
  const stream = new ReadableStream<Uint8Array>({
    type: "bytes",
    start(c) {
      let from = 0;
      for (const to of cuts) {
        c.enqueue(bytes.slice(from, to));
        from = to;
      }
      c.close();
    },
  });
  await pipeLines(stream, logger, "info", "engine");
  assert.deepEqual(lines, ["one", "tw\u00e9 \u2603", "three", "last without newline"]);
});

Deno.test("pipeLines: a plain (not byte) stream is read too", async () => {
  const { logger, lines } = collecting();
  const enc = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(enc.encode("a\nb"));
      c.enqueue(enc.encode("c\n"));
      c.close();
    },
  });
  await pipeLines(stream, logger, "info", "engine");
  assert.deepEqual(lines, ["a", "bc"]);
});

Deno.test("pipeLines: a child's pipe is read into one reused buffer, not a new one per read", async () => {
  const { logger, lines } = collecting();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      "for (let i = 0; i < 50; i++) { console.log('line ' + i); await new Promise((r) => setTimeout(r, 1)); }",
    ],
    stdout: "piped",
    stderr: "null",
    stdin: "null",
  }).spawn();
  const getReader = child.stdout.getReader.bind(child.stdout);
  const modes: (string | undefined)[] = [];
  child.stdout.getReader = ((opts?: { mode?: "byob" }) => {
    modes.push(opts?.mode);
    return getReader(opts as { mode: "byob" });
  }) as typeof child.stdout.getReader;
  await pipeLines(child.stdout, logger, "info", "engine");
  await child.status;
  assert.deepEqual(modes, ["byob"]);
  assert.equal(lines.length, 50);
  assert.equal(lines[49], "line 49");
});
