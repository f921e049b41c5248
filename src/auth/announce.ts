/**
 * Players created while no engine ran (by first-run setup in the supervisor, or the setup
 * command) missed the `player:created` event plugins act on (the channels plugin joins new
 * players to the default channels). They carry a durable mark, and the engine replays the
 * event for them once its plugins are loaded.
 */
import { keys } from "../storage/keys.ts";
import type { ObjectStore } from "../world/objects.ts";

/** Marks replayed at one start; more wait for the next (there is normally one). */
const BATCH = 100;

/**
 * Calls `announce` for each marked player that still exists, then clears its mark (also when
 * the player is gone). Returns how many were announced.
 */
export async function announcePending(
  kv: Deno.Kv,
  objects: ObjectStore,
  announce: (player: { id: string; name: string }) => Promise<void>,
): Promise<number> {
  let n = 0;
  for await (const entry of kv.list({ prefix: keys.announcesPending() }, { limit: BATCH })) {
    const id = String(entry.key[entry.key.length - 1]);
    const player = await objects.get(id);
    if (player?.flags.includes("player")) {
      await announce({ id: player.id, name: player.name });
      n++;
    }
    await kv.delete(entry.key);
  }
  return n;
}
