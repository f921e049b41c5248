import { assert, assertEquals } from "../../tests/assert.ts";
import { join } from "node:path";
import { snapshotKv } from "./snapshot.ts";
import { header, readTar, tarStream } from "./tar.ts";

Deno.test("snapshot: a copy taken during writes holds every atomic commit whole", async () => {
  const dir = await Deno.makeTempDir();
  const kv = await Deno.openKv(join(dir, "kv.db"));
  try {
    let stop = false;
    let commits = 0;
    // Each commit writes a pair; a copy that cut through a commit would hold half a pair.
    const writer = (async () => {
      for (let i = 0; !stop; i++) {
        await kv.atomic().set(["a", i], "x".repeat(3000)).set(["b", i], i).commit();
        commits++;
      }
    })();
    while (commits < 50) await new Promise((r) => setTimeout(r, 5));
    const counts = [];
    for (let n = 0; n < 3; n++) {
      const to = join(dir, `copy${n}.db`);
      const entries = await snapshotKv(join(dir, "kv.db"), to);
      const copy = await Deno.openKv(to);
      const a = new Set<number>(), b = new Set<number>();
      for await (const e of copy.list({ prefix: ["a"] })) a.add(e.key[1] as number);
      for await (const e of copy.list({ prefix: ["b"] })) b.add(e.key[1] as number);
      copy.close();
      assertEquals([...a].sort(), [...b].sort(), "every pair whole");
      assertEquals(entries, a.size + b.size);
      counts.push(a.size);
    }
    stop = true;
    await writer;
    assert(counts[2] > 0 && counts.every((c) => c <= commits), String(counts));
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("tar: files round-trip through the stream, long names use the prefix", async () => {
  const long = "wiki/" + "deep/".repeat(30) + "page.md";
  const files = [
    { name: "a.txt", data: new TextEncoder().encode("hello") },
    { name: long, data: new Uint8Array(1500).map((_, i) => i % 251) },
    { name: "empty", data: new Uint8Array(0) },
  ];
  const stream = ReadableStream.from(tarStream(files.map((f) => ({
    name: f.name,
    size: f.data.length,
    body: () => [f.data],
  }))));
  const got: { name: string; data: number[] }[] = [];
  for await (const e of readTar(stream)) {
    const parts: number[] = [];
    for await (const c of e.chunks()) parts.push(...c);
    got.push({ name: e.name, data: parts });
  }
  assertEquals(got, files.map((f) => ({ name: f.name, data: [...f.data] })));
  let refused = false;
  try {
    header("x/".repeat(200), 1, 0);
  } catch {
    refused = true;
  }
  assert(refused, "a path too long for ustar is refused");
});

Deno.test("tar: a header whose size is not a number is refused, not read as an empty file", async () => {
  const h = header("kv.sqlite", 1, 0);
  h.set(new TextEncoder().encode("zzzzzzzzzzz\0"), 124);
  h.fill(32, 148, 156);
  const sum = h.reduce((a, b) => a + b, 0);
  h.set(new TextEncoder().encode(sum.toString(8).padStart(6, "0") + "\0 "), 148);
  const archive = new Uint8Array(512 * 4);
  archive.set(h);
  let message = "";
  try {
    for await (const e of readTar(ReadableStream.from([archive]))) {
      for await (const _ of e.chunks()) { /* read */ }
    }
  } catch (e) {
    message = (e as Error).message;
  }
  assert(message.includes("damaged"), message);
});
