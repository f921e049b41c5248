import assert from "node:assert/strict";
import { Accounts } from "./accounts.ts";
import { SlidingWindows } from "../rate/sliding.ts";
import { addressGroup } from "../net/client_address.ts";
import { SecurityLog } from "./security_log.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { registerFrom, TOO_MANY_REGISTRATIONS } from "./registration.ts";
import { Config } from "../config/load.ts";
import { ObjectStore } from "../world/objects.ts";
import { RateLimitError } from "../errors.ts";

/** Registration over an in-memory store with a hasher that counts its hashes. */
async function withRegistration(
  limit: number,
  fn: (
    deps: Parameters<typeof registerFrom>[0] & {
      config: Config;
      hashes: () => number;
      logged: () => string;
    },
  ) => Promise<void>,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const dir = await Deno.makeTempDir({ prefix: "ursamu-register-" });
  try {
    let hashes = 0;
    const hasher = {
      hash: (pw: string) => {
        hashes++;
        return hashPassword(pw);
      },
      verify: verifyPassword,
    };
    const config = await new Config({ overrides: { "game.registrationsPerHour": limit } }).load();
    const securityLog = new SecurityLog(`${dir}/security.log`);
    await fn({
      accounts: new Accounts(kv, new ObjectStore(kv), hasher),
      config,
      registrations: new SlidingWindows({
        limit: () => config.value.game.registrationsPerHour,
        windowMs: 3_600_000,
        group: addressGroup,
      }),
      securityLog,
      hashes: () => hashes,
      logged: () => {
        try {
          return Deno.readTextFileSync(`${dir}/security.log`);
        } catch {
          return "";
        }
      },
    });
    await securityLog.close();
  } finally {
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

const room = () => Promise.resolve("1");

Deno.test("registration: the default allows 30 an hour per address", async () => {
  const config = await new Config().load();
  assert.equal(config.value.game.registrationsPerHour, 30);
});

Deno.test("registration: a flood from one address reaches bcrypt at most `limit` times", async () => {
  await withRegistration(3, async (d) => {
    const results = await Promise.allSettled(
      Array.from(
        { length: 20 },
        (_, i) => registerFrom(d, "198.51.100.7", `Flood${i}`, "password123", room),
      ),
    );
    const made = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r) =>
      r.status === "rejected" && r.reason instanceof RateLimitError &&
      r.reason.message === TOO_MANY_REGISTRATIONS
    );
    assert.equal(made.length, 3);
    assert.equal(refused.length, 17);
    assert.equal(d.hashes(), 3, "the slot is taken before the password is hashed");
    await d.securityLog.flush();
    // One line for the flood (a line a refusal grew the log without bound).
    assert.equal(d.logged().match(/REGISTER_RATE_LIMITED/g)?.length, 1);
    // Another address has its own allowance.
    await registerFrom(d, "198.51.100.8", "Neighbour", "password123", room);
  });
});

Deno.test("registration: a failed registration gives its slot back; 0 turns the limit off", async () => {
  await withRegistration(2, async (d) => {
    const ip = "198.51.100.9";
    await registerFrom(d, ip, "Taken", "password123", room);
    // A taken name, a bad name and a refused password: nothing created, nothing counted.
    await assert.rejects(registerFrom(d, ip, "Taken", "password123", room), /already taken/);
    await assert.rejects(registerFrom(d, ip, "x", "password123", room));
    await assert.rejects(registerFrom(d, ip, "Shorty", "short", room));
    await registerFrom(d, ip, "Second", "password123", room);
    await assert.rejects(registerFrom(d, ip, "Third", "password123", room), RateLimitError);
    // The limit is read at each registration (a configuration reload changes it).
    d.config.set("game.registrationsPerHour", 0);
    for (let i = 0; i < 5; i++) await registerFrom(d, ip, `Free${i}`, "password123", room);
    // Registrations while it was off were not counted: the two from before still are.
    d.config.set("game.registrationsPerHour", 2);
    await assert.rejects(registerFrom(d, ip, "Over", "password123", room), RateLimitError);
  });
});
