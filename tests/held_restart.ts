/**
 * A supervised game whose next engine can be held back at start (the `holdstart` fixture
 * plugin), so a moment can be made to fall inside a restart for sure: after the old engine
 * stopped its timers, before the new one runs anything.
 */
import { join } from "node:path";
import { ROOT, type TestServer } from "./harness.ts";
import { startSupervised } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

/** A supervised game with the hold; `close()` stops it and removes its plugins folder. */
export interface HeldGame {
  readonly srv: TestServer;
  /** `@reboot`s as `player` and holds the new engine until `at` (ms since the epoch) has passed. */
  rebootThrough(player: TelnetClient, at: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts the game with `plugins` (names under ROOT/plugins) and the hold. */
export async function startHeldGame(plugins: readonly string[] = []): Promise<HeldGame> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-held-" });
  const folder = join(dir, "plugins");
  await Deno.mkdir(folder);
  for (const name of plugins) await Deno.symlink(join(ROOT, "plugins", name), join(folder, name));
  await Deno.symlink(join(ROOT, "tests/fixtures/plugins/holdstart"), join(folder, "holdstart"));
  const hold = join(dir, "hold");
  const srv = await startSupervised({
    env: { URSAMU_SERVER_PLUGINSDIR: folder, HOLDSTART_FILE: hold },
    args: ["--max-delay", "1000"],
  });
  return {
    srv,
    async rebootThrough(player, at) {
      await Deno.writeTextFile(hold, "");
      await player.send("@reboot");
      // The sidecar's notice comes after the old engine stopped its timers.
      await player.waitFor(/server is restarting/, 30_000);
      if (Date.now() >= at) {
        throw new Error("the old engine stopped after the moment (setup too slow)");
      }
      await new Promise((r) => setTimeout(r, at - Date.now() + 300));
      await Deno.remove(hold);
    },
    async close() {
      await srv.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}
