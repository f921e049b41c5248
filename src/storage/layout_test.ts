import { assertEquals, assertRejects } from "../../tests/assert.ts";
import { keys } from "./keys.ts";
import { ensureLayout, type Migration, storedLayout } from "./layout.ts";

Deno.test("layout: an empty database is stamped, without a backup", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    let backups = 0;
    assertEquals(await storedLayout(kv), null);
    await ensureLayout(kv, { current: 3, backup: () => Promise.resolve(`b${++backups}`) });
    assertEquals((await kv.get(keys.layout())).value, 3);
    assertEquals(backups, 0);
  } finally {
    kv.close();
  }
});

Deno.test("layout: an older database is backed up once, then migrated step by step in order", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(["obj", "1"], { name: "Limbo" });
    await kv.set(keys.layout(), 1);
    const done: string[] = [];
    const log: string[] = [];
    const step = (to: number): Migration => ({
      to,
      description: `step ${to}`,
      run: async (db) => {
        done.push(`run ${to} at ${(await db.get(keys.layout())).value}`);
      },
    });
    await ensureLayout(kv, {
      current: 3,
      migrations: [step(3), step(1), step(2)],
      backup: (from, to) => {
        done.push(`backup ${from}->${to}`);
        return Promise.resolve("/b/pre.tar.gz");
      },
      log: (l) => log.push(l),
    });
    assertEquals(done, ["backup 1->3", "run 2 at 1", "run 3 at 2"]);
    assertEquals((await kv.get(keys.layout())).value, 3);
    assertEquals(
      log[0],
      "storage: migrating the database from layout 1 to 3; backup taken first: /b/pre.tar.gz",
    );
    // A database without the key but with data is layout 0, from before versioning.
    await kv.delete(keys.layout());
    assertEquals(await storedLayout(kv), 0);
  } finally {
    kv.close();
  }
});

Deno.test("layout: a newer database is refused and left alone", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(keys.layout(), 7);
    await assertRejects(
      () => ensureLayout(kv, { current: 2, dbName: "/g/x.db" }),
      /the database \/g\/x\.db has layout 7, newer than this engine's 2: it was used by a newer UrsaMU \(server\.db\); run that version/,
    );
    assertEquals((await kv.get(keys.layout())).value, 7);
  } finally {
    kv.close();
  }
});
