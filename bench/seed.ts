/**
 * Bench-only seeding: writes players straight into a fresh database before the
 * engine starts, all sharing one bcrypt hash, and signs their tokens with the
 * secret the engine will be given. Hashing a thousand passwords one by one
 * would take minutes; nothing here changes how the engine itself behaves.
 */
import { join } from "node:path";
import { openStore } from "../src/storage/kv.ts";
import { keys } from "../src/storage/keys.ts";
import { ObjectStore } from "../src/world/objects.ts";
import { ensureStartingRoom } from "../src/world/start.ts";
import { hashPassword } from "../src/auth/passwords.ts";
import { TokenService } from "../src/auth/tokens.ts";
import { TokenGenerations } from "../src/auth/generations.ts";

/** A seeded player and its access token. */
export interface SeededPlayer {
  id: string;
  name: string;
  token: string;
}

/** Exits of room #1, as in a room of a real game (each typed word is matched against them). */
const EXITS = ["North;n", "South;s", "East;e", "West;w", "Out;o"];

/**
 * Creates `count` players in room #1 of `<dir>/ursamu.db`, and five exits from #1 to a second
 * room, and returns the players with tokens.
 */
export async function seedPlayers(
  dir: string,
  count: number,
  secret: string,
  password = "benchpassword",
): Promise<SeededPlayer[]> {
  const kv = await openStore(join(dir, "ursamu.db"));
  try {
    const objects = new ObjectStore(kv);
    await ensureStartingRoom(objects);
    const yard = await objects.create({ name: "Bench Yard", type: "room" });
    for (const name of EXITS) {
      await objects.create({ name, type: "exit", location: "1", data: { destination: yard.id } });
    }
    const hash = await hashPassword(password);
    const tokens = new TokenService(secret, new TokenGenerations(kv));
    const out: SeededPlayer[] = [];
    for (let i = 0; i < count; i++) {
      const name = `Bench${i}`;
      const p = await objects.create(
        { name, type: "player", location: "1", data: { home: "1" } },
        (id, op) => op.set(keys.credentials(id), { hash }),
      );
      out.push({ id: p.id, name, token: await tokens.sign(p.id) });
    }
    return out;
  } finally {
    kv.close();
  }
}
