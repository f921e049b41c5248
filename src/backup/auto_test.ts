import { assert, assertEquals } from "../../tests/assert.ts";
import { join } from "node:path";
import { AutoBackups, autoBackups } from "./auto.ts";

Deno.test("auto backups: busy while one is written (softcode's dumping()), and not after", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const dbPath = join(dir, "game.db");
    const kv = await Deno.openKv(dbPath);
    await kv.set(["obj", "1"], { name: "Limbo" });
    kv.close();
    const backups = new AutoBackups({
      dbPath,
      wikiDir: join(dir, "wiki"),
      dir: join(dir, "backups"),
      intervalMs: 0,
      maxBackups: 2,
      engine: "test",
    });
    assertEquals(backups.busy, false);
    const writing = backups.runOnce();
    assertEquals(backups.busy, true, "busy from the moment it begins");
    const done = await writing;
    assertEquals(backups.busy, false);
    assert(done.entries >= 1);
    assertEquals((await autoBackups(join(dir, "backups"))).length, 1);
    // A backup that fails is over too.
    const failing = new AutoBackups({
      dbPath: join(dir, "missing", "game.db"),
      wikiDir: join(dir, "wiki"),
      dir: join(dir, "backups"),
      intervalMs: 0,
      maxBackups: 2,
      engine: "test",
    });
    await failing.runOnce().then(() => {}, () => {});
    assertEquals(failing.busy, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
