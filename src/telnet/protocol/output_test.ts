/** OutputPipe: the end of a connection's compressed stream, begun here or in another process. */
import assert from "node:assert/strict";
import { constants, inflateSync } from "node:zlib";
import { OutputPipe } from "./output.ts";
import { concatBytes } from "./bytes.ts";

const text = (s: string) => new TextEncoder().encode(s);

Deno.test("output: closing ends a stream begun here, with its checksum", async () => {
  const out: Uint8Array[] = [];
  const pipe = new OutputPipe((b) => out.push(b.slice()));
  pipe.startCompression(text("M"));
  pipe.write(text("bye\n"));
  await pipe.close();
  const all = concatBytes(out);
  assert.equal(all[0], "M".charCodeAt(0));
  assert.equal(new TextDecoder().decode(inflateSync(all.subarray(1))), "bye\n");
});

Deno.test("output: closing leaves a continued stream unended, so no client sees a bad check", async () => {
  // The first process's stream, as the client has it so far.
  const out: Uint8Array[] = [];
  const first = new OutputPipe((b) => out.push(b.slice()));
  first.startCompression(new Uint8Array(0));
  first.write(text("hello\n"));
  await first.idle();
  // The next process goes on with the same stream and closes the connection.
  const next = new OutputPipe((b) => out.push(b.slice()));
  next.continueCompression();
  next.write(text("goodbye\n"));
  await next.close();
  const all = concatBytes(out);
  // Everything inflates, and the stream stops at a flush point, not at a zero checksum.
  const read = inflateSync(all, { finishFlush: constants.Z_SYNC_FLUSH });
  assert.equal(new TextDecoder().decode(read), "hello\ngoodbye\n");
  assert.notDeepEqual(all.subarray(-4), new Uint8Array(4));
  assert.deepEqual([...all.subarray(-4)], [0, 0, 0xff, 0xff], "ends on a sync flush");
});

Deno.test("output: a continued stream's zlib memory is given back when its connection closes", async () => {
  // In a process of its own, so only these streams count in its resident memory.
  const script = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(
      script,
      `import { OutputPipe } from ${JSON.stringify(new URL("./output.ts", import.meta.url).href)};
const gc = (globalThis as { gc?: () => void }).gc!;
const settle = async () => { for (let i = 0; i < 5; i++) { gc(); await new Promise((r) => setTimeout(r, 20)); } };
await settle();
const before = Deno.memoryUsage().rss;
for (let i = 0; i < 400; i++) {
  const pipe = new OutputPipe(() => {});
  pipe.continueCompression();
  pipe.write(new TextEncoder().encode("a line of the game\\n".repeat(20)));
  await pipe.close();
}
await settle();
console.log(Math.round((Deno.memoryUsage().rss - before) / 1e6));
`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", "--v8-flags=--expose-gc", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const grewMb = Number(new TextDecoder().decode(out.stdout).trim());
    // Each stream's deflate state is about 200 KB: 400 kept would be some 80 MB.
    assert.ok(grewMb < 30, `resident memory grew ${grewMb} MB over 400 closed streams`);
  } finally {
    await Deno.remove(script);
  }
});
