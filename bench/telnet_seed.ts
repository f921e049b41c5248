/**
 * Bench-only seeding for the telnet part: writes players straight into a fresh database before
 * the supervisor starts, all sharing one password hash of the engine's current scheme (`v2$` +
 * bcrypt of the SHA-256 pre-hash, src/auth/passwords.ts) but of a LOWER bcrypt cost than the
 * engine's 10. The engine verifies any cost and rehashes only hashes of the old scheme
 * (`needsRehash` looks at the `v2$` marker, not the cost), so these players log in by password
 * over telnet with a verify of ~1 ms instead of ~50 ms: holding 10,000 of them takes a minute
 * rather than ten. The login-rate figures are taken with full-cost hashes (`cost` 10).
 */
import { join } from "node:path";
import bcrypt from "bcryptjs";
import { openStore } from "../src/storage/kv.ts";
import { keys } from "../src/storage/keys.ts";
import { ObjectStore } from "../src/world/objects.ts";
import { ensureStartingRoom } from "../src/world/start.ts";

/** The password of every seeded telnet player. */
export const TELNET_PASSWORD = "benchpassword";

/** A hash in the engine's current scheme at the given bcrypt cost (bench only below 10). */
export async function benchHash(password: string, cost: number): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(password));
  const pre = btoa(String.fromCharCode(...new Uint8Array(digest)));
  return "v2$" + await bcrypt.hash(pre, cost);
}

/**
 * Creates players `<prefix><from>` .. `<prefix><to - 1>` in `<dir>/ursamu.db`, all with
 * `TELNET_PASSWORD` hashed at `cost`: in room #1, or with `perRoom`, in new rooms of that many
 * players each (a crowd of 10,000 in one room would make every login a fan-out to all of them,
 * which no game has). Returns their names.
 */
export async function seedTelnetPlayers(
  dir: string,
  prefix: string,
  from: number,
  to: number,
  cost: number,
  perRoom = 0,
): Promise<string[]> {
  const kv = await openStore(join(dir, "ursamu.db"));
  try {
    const objects = new ObjectStore(kv);
    await ensureStartingRoom(objects);
    const hash = await benchHash(TELNET_PASSWORD, cost);
    const names: string[] = [];
    const batch = perRoom > 0 ? perRoom : 50;
    for (let i = from; i < to; i += batch) {
      const slice = Array.from({ length: Math.min(batch, to - i) }, (_, k) => `${prefix}${i + k}`);
      const location = perRoom > 0
        ? (await objects.create({ name: `Bench Room ${i}`, type: "room" })).id
        : "1";
      // Creates run one at a time inside the store (dbref counter); a batch only saves awaits.
      await Promise.all(slice.map((name) =>
        objects.create(
          { name, type: "player", location, data: { home: location } },
          (id, op) => op.set(keys.credentials(id), { hash }),
        )
      ));
      names.push(...slice);
    }
    return names;
  } finally {
    kv.close();
  }
}

if (import.meta.main) {
  const [dir, prefix = "bench", from = "0", to = "1000", cost = "4", perRoom = "0"] = Deno.args;
  const t0 = performance.now();
  const names = await seedTelnetPlayers(
    dir,
    prefix,
    Number(from),
    Number(to),
    Number(cost),
    Number(perRoom),
  );
  console.log(`seeded ${names.length} players in ${Math.round(performance.now() - t0)} ms`);
}
