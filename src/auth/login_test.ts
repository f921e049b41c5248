import assert from "node:assert/strict";
import { Accounts } from "./accounts.ts";
import { SlidingWindows } from "../rate/sliding.ts";
import { addressGroup } from "../net/client_address.ts";
import { AccountLimit } from "./account_limit.ts";
import { SecurityLog } from "./security_log.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";
import { attemptLogin, type LoginDeps } from "./login.ts";
import { Config } from "../config/load.ts";
import { ObjectStore } from "../world/objects.ts";

/** Logins over an in-memory store, a clock the test moves and a hasher that counts compares. */
async function withLogins(
  accountLoginFailures: number,
  fn: (d: LoginDeps & { compares: () => number; tick: (ms: number) => void }) => Promise<void>,
  maxAddresses?: number,
): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  const dir = await Deno.makeTempDir({ prefix: "ursamu-login-" });
  let compares = 0;
  let now = 1_000_000;
  const clock = () => now;
  const hasher = {
    hash: hashPassword,
    verify: (pw: string, hash: string) => {
      compares++;
      return verifyPassword(pw, hash);
    },
  };
  const config = await new Config({
    overrides: {
      "game.accountLoginFailures": accountLoginFailures,
      "game.accountLoginWindow": 600,
    },
  }).load();
  const securityLog = new SecurityLog(`${dir}/security.log`, { now: clock });
  try {
    const accounts = new Accounts(kv, new ObjectStore(kv), hasher);
    await accounts.register("Alice", "password123", { location: "1" });
    await fn({
      accounts,
      config,
      securityLog,
      loginFailures: new SlidingWindows({
        limit: 10,
        windowMs: 60_000,
        now: clock,
        group: addressGroup,
        maxKeys: maxAddresses,
      }),
      accountFailures: new AccountLimit(
        () => config.value.game.accountLoginFailures,
        () => config.value.game.accountLoginWindow * 1000,
        clock,
      ),
      compares: () => compares,
      tick: (ms) => now += ms,
    });
  } finally {
    await securityLog.close();
    kv.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("login: past an account's limit, no password is compared from a new address until the window ends", async () => {
  await withLogins(3, async (d) => {
    for (const ip of ["192.0.2.1", "192.0.2.2", "192.0.2.3"]) {
      assert.deepEqual(await attemptLogin(d, ip, "Alice", "wrong-password"), {
        ok: false,
        limited: false,
      });
    }
    const compared = d.compares();
    for (const ip of ["192.0.2.4", "192.0.2.5"]) {
      assert.deepEqual(await attemptLogin(d, ip, "alice", "password123"), {
        ok: false,
        limited: "account",
      });
    }
    assert.equal(d.compares(), compared, "a refused attempt never reaches bcrypt");
    // Nobody else is held, and the limit is a window, not a lock: once the failures are older
    // than it, the right password gets in from anywhere.
    d.tick(600_000);
    const late = await attemptLogin(d, "192.0.2.4", "Alice", "password123");
    assert.ok(late.ok);
  });
});

Deno.test("login: the address an account last logged in from is not held by its limit", async () => {
  await withLogins(2, async (d) => {
    assert.ok((await attemptLogin(d, "198.51.100.7", "Alice", "password123")).ok);
    for (const ip of ["192.0.2.1", "192.0.2.2"]) {
      await attemptLogin(d, ip, "Alice", "wrong-password");
    }
    assert.deepEqual(await attemptLogin(d, "192.0.2.3", "Alice", "password123"), {
      ok: false,
      limited: "account",
    });
    // A typo at home is still a failure of that address, but not held by the account's limit.
    assert.deepEqual(await attemptLogin(d, "198.51.100.7", "Alice", "typo-password"), {
      ok: false,
      limited: false,
    });
    assert.ok((await attemptLogin(d, "198.51.100.7", "Alice", "password123")).ok);
    await d.securityLog.close();
    const lines = (await Deno.readTextFile(d.securityLog.file)).trim().split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.filter((l) => l.event === "LOGIN_ACCOUNT_LIMITED").map((l) => [l.ip, l.detail ?? null]),
      [["192.0.2.3", null]],
    );
  });
});

Deno.test("login: 0 turns the account limit off", async () => {
  await withLogins(0, async (d) => {
    for (let i = 0; i < 8; i++) await attemptLogin(d, `192.0.2.${i}`, "Alice", "wrong-password");
    assert.ok((await attemptLogin(d, "192.0.2.99", "Alice", "password123")).ok);
  });
});

Deno.test("login: one address failing again and again counts once against the account", async () => {
  await withLogins(2, async (d) => {
    for (let i = 0; i < 10; i++) await attemptLogin(d, "192.0.2.1", "Alice", "wrong-password");
    assert.deepEqual(await attemptLogin(d, "192.0.2.1", "Alice", "password123"), {
      ok: false,
      limited: "address",
    });
    // Its own limit holds that address; the account is open to the player elsewhere.
    assert.ok((await attemptLogin(d, "198.51.100.7", "Alice", "password123")).ok);
  });
});

Deno.test("login: failures from more addresses than the table holds never start one's limit over", async () => {
  await withLogins(0, async (d) => {
    const attacker = "2001:db8:1:ffff::1";
    for (let i = 0; i < 10; i++) await attemptLogin(d, attacker, "Alice", "wrong-password");
    assert.deepEqual(await attemptLogin(d, attacker, "Alice", "wrong-password"), {
      ok: false,
      limited: "address",
    });
    // Three times the table's bound of other /64s of the attacker's /48 fail once each.
    for (let i = 0; i < 60; i++) {
      d.tick(100);
      await attemptLogin(d, `2001:db8:1:${i.toString(16)}::1`, "Alice", "wrong-password");
    }
    const compared = d.compares();
    assert.deepEqual(await attemptLogin(d, "2001:db8:1:ffff::2", "Alice", "password123"), {
      ok: false,
      limited: "address",
    });
    assert.equal(d.compares(), compared, "still refused before bcrypt");
    assert.equal(d.loginFailures.size, 20, "the table kept its bound");
    d.tick(60_000);
    assert.ok((await attemptLogin(d, attacker, "Alice", "password123")).ok);
  }, 20);
});
