import { assert, assertEquals } from "../../tests/assert.ts";
import { join } from "node:path";
import { restoreBackup, RestoreRefused } from "./restore.ts";
import { tarStream } from "./tar.ts";

/** Writes a .tar.gz holding the given files. */
async function archive(path: string, files: { name: string; text: string }[]): Promise<void> {
  const enc = new TextEncoder();
  const out = await Deno.open(path, { write: true, create: true, truncate: true });
  const tar = ReadableStream.from(tarStream(files.map((f) => {
    const data = enc.encode(f.text);
    return { name: f.name, size: data.length, body: () => [data] };
  })));
  await (tar as ReadableStream<BufferSource>).pipeThrough(new CompressionStream("gzip")).pipeTo(
    out.writable,
  );
}

/** Text that gzip cannot shrink. */
function noise(n: number): string {
  const bytes = new Uint8Array(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));
  return bytes.join(",");
}

async function refused(opts: Parameters<typeof restoreBackup>[0]): Promise<string> {
  try {
    await restoreBackup(opts);
  } catch (e) {
    if (e instanceof RestoreRefused) return e.message;
    throw e;
  }
  throw new Error("the restore was not refused");
}

Deno.test("restore: a bad archive is refused, leaves nothing behind", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const opts = {
      file: join(dir, "b.tar.gz"),
      dbPath: join(dir, "data", "kv.db"),
      wikiDir: join(dir, "wiki"),
    };
    await archive(opts.file, [{ name: "kv.sqlite", text: "x" }]);
    assert((await refused(opts)).includes("no manifest.json"));

    const manifest = JSON.stringify({ format: "ursamu-backup", version: 1, entries: 0 });
    await archive(opts.file, [
      { name: "manifest.json", text: manifest },
      { name: "wiki/../../escape.md", text: "x" },
      // Enough after the refused entry that the archive is not yet read to its end.
      { name: "wiki/big.md", text: noise(1 << 20) },
    ]);
    assert((await refused(opts)).includes("outside the wiki"));

    await archive(opts.file, [{ name: "manifest.json", text: "{ not json" }]);
    assert((await refused(opts)).includes("not a readable backup"));

    await Deno.mkdir(opts.wikiDir);
    await Deno.writeTextFile(join(opts.wikiDir, "page.md"), "kept");
    assert((await refused(opts)).includes("wiki directory"));
    assertEquals(await Deno.readTextFile(join(opts.wikiDir, "page.md")), "kept");
    await Deno.remove(opts.wikiDir, { recursive: true });

    const left = [];
    for await (const e of Deno.readDir(dir)) left.push(e.name);
    assertEquals(left.sort(), ["b.tar.gz", "data"]);
    assertEquals([...Deno.readDirSync(join(dir, "data"))], []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
