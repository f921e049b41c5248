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
