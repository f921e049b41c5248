import { join } from "node:path";
import { assert, assertEquals } from "../tests/assert.ts";
import { createEngine } from "./engine.ts";

// Deno's resource and op sanitizers fail this test if the failed start leaves the database
// handle, the hub's timers or the script rescan open.
Deno.test({
  name: "createEngine: a start that fails late closes what it had opened",
  sanitizeOps: true,
  sanitizeResources: true,
}, async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-engine-" });
  const log = console.log;
  // The first-run line comes after the superuser's password was hashed in the pool's workers,
  // late in the start; failing there is a stand-in for any late start-up failure.
  console.log = (...args: unknown[]) => {
    if (String(args[0]).startsWith("setup:")) throw new Error("late failure");
  };
  let error: unknown = null;
  try {
    await createEngine({
      root: dir,
      env: {
        URSAMU_SERVER_DB: "data/game.db",
        URSAMU_SUPERUSER_NAME: "Admin",
        URSAMU_SUPERUSER_PASSWORD: "admin-password-1",
        JWT_SECRET: "engine-test-secret",
      },
    });
  } catch (e) {
    error = e;
  } finally {
    console.log = log;
  }
  assert(error instanceof Error);
  assertEquals(error.message, "late failure");
  // The database file is free: it can be opened again and removed.
  const kv = await Deno.openKv(join(dir, "data", "game.db"));
  kv.close();
  await Deno.remove(dir, { recursive: true });
});

Deno.test("createEngine: a KV Connect server.db is opened as a URL, not as a file under the root", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-engine-" });
  let error: unknown = null;
  try {
    // No access token: opening the remote database fails at once, naming the URL.
    const engine = await createEngine({
      root: dir,
      env: { URSAMU_SERVER_DB: "http://127.0.0.1:9/kv", JWT_SECRET: "engine-test-secret" },
    });
    await engine.close();
  } catch (e) {
    error = e;
  }
  try {
    assert(error instanceof Error, "the start fails without a KV Connect token");
    assert(error.message.includes("http://127.0.0.1:9/kv"), error.message);
    // Resolving the URL against the root made a local database at <root>/http:/127.0.0.1:9/kv.
    assertEquals([...Deno.readDirSync(dir)].map((e) => e.name), []);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
