import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { TokenService } from "./tokens.ts";
import { TokenGenerations } from "./generations.ts";
import { keys } from "../storage/keys.ts";

/** Runs `fn` with an in-memory store (closed after). */
async function withKv(fn: (kv: Deno.Kv) => Promise<void>): Promise<void> {
  const kv = await Deno.openKv(":memory:");
  try {
    await fn(kv);
  } finally {
    kv.close();
  }
}

/** A token service of `secret` over its own generations in `kv`. */
function service(kv: Deno.Kv, secret: string): TokenService {
  return new TokenService(secret, new TokenGenerations(kv));
}

/** A token signed with `secret` by hand, with the given claims. */
function forged(secret: string, claims: Record<string, unknown>, exp = true): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setSubject("12")
    .setIssuedAt();
  if (exp) jwt.setExpirationTime("1h");
  return jwt.sign(new TextEncoder().encode(secret));
}

Deno.test("tokens: the secret is imported once, not at every sign and verify (each import leaks)", async () => {
  const subtle = crypto.subtle;
  const original = subtle.importKey;
  let imports = 0;
  subtle.importKey = function (this: SubtleCrypto, ...args: Parameters<SubtleCrypto["importKey"]>) {
    imports++;
    return original.apply(this, args);
  } as SubtleCrypto["importKey"];
  try {
    await withKv(async (kv) => {
      const tokens = service(kv, "secret-once");
      for (let i = 0; i < 20; i++) {
        const token = await tokens.sign(String(i));
        assert.equal(await tokens.verify(token), String(i));
      }
    });
    assert.equal(imports, 1);
  } finally {
    subtle.importKey = original;
  }
});

Deno.test("tokens: sign and verify round trip; other secrets and garbage fail", async () => {
  await withKv(async (kv) => {
    const a = service(kv, "secret-a");
    const b = service(kv, "secret-b");
    const t = await a.sign("12");
    assert.equal(await a.verify(t), "12");
    assert.equal(await b.verify(t), null);
    assert.equal(await a.verify("nope"), null);
    assert.equal(await a.verify(t + "x"), null);
    assert.equal(await a.verify("x".repeat(10_000)), null);
    // Another service with the same secret and store accepts it.
    assert.equal(await service(kv, "secret-a").verify(t), "12");
  });
});

Deno.test("tokens: a token signed without exp (same secret) is refused", async () => {
  await withKv(async (kv) => {
    const tokens = service(kv, "secret-a");
    assert.equal(await tokens.verify(await forged("secret-a", {}, false)), null);
    const key = new TextEncoder().encode("secret-a");
    const expired = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).setSubject("12")
      .setIssuedAt().setExpirationTime(Math.floor(Date.now() / 1000) - 10).sign(key);
    assert.equal(await tokens.verify(expired), null);
    const issued = await tokens.sign("12");
    const claims = JSON.parse(atob(issued.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    assert.equal(typeof claims.exp, "number", "issued tokens carry exp");
    assert.equal(claims.gen, 0, "and their generation");
  });
});

Deno.test("tokens: a revoke ends every token issued before it, renewed ones included", async () => {
  await withKv(async (kv) => {
    const tokens = service(kv, "secret-g");
    const old = await tokens.sign("12");
    const session = await tokens.session(old);
    assert.deepEqual(session, { id: "12", generation: 0 });
    // A token renewed from the old one carries its generation.
    const renewed = await tokens.sign("12", session!.generation);
    const other = await tokens.sign("13");
    assert.equal(await tokens.revoke("12"), 1);
    assert.equal(await tokens.verify(old), null);
    assert.equal(await tokens.verify(renewed), null);
    assert.equal(await tokens.session(renewed), null);
    assert.equal(await tokens.verify(other), "13", "another player's sessions go on");
    const fresh = await tokens.sign("12");
    assert.deepEqual(await tokens.session(fresh), { id: "12", generation: 1 });
    // A later generation than the player's is refused as well (a token is of one generation).
    assert.equal(await tokens.verify(await tokens.sign("12", 2)), null);
    // Another process on the same store sees the revoke (it reads the generation at first use).
    assert.equal(await service(kv, "secret-g").verify(old), null);
    assert.equal(await service(kv, "secret-g").verify(fresh), "12");
  });
});

Deno.test("tokens: a token without a generation is of generation 0; a malformed one is refused", async () => {
  await withKv(async (kv) => {
    const tokens = service(kv, "secret-h");
    // Tokens issued before generations existed go on working until the player's first revoke.
    const before = await forged("secret-h", {});
    assert.equal(await tokens.verify(before), "12");
    for (const gen of ["0", -1, 0.5, null, [0], 2 ** 60]) {
      assert.equal(await tokens.verify(await forged("secret-h", { gen })), null, String(gen));
    }
    await tokens.revoke("12");
    assert.equal(await tokens.verify(before), null);
  });
});

Deno.test("generations: read once per player, then from memory; advances are written through", async () => {
  await withKv(async (kv) => {
    let reads = 0;
    const counted = new Proxy(kv, {
      get(target, prop) {
        const v = Reflect.get(target, prop);
        if (prop === "get") {
          return (...args: Parameters<Deno.Kv["get"]>) => {
            reads++;
            return target.get(...args);
          };
        }
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    await kv.set(keys.tokenGeneration("7"), 4);
    const gens = new TokenGenerations(counted);
    assert.equal(await gens.current("7"), 4);
    for (let i = 0; i < 100; i++) assert.equal(await gens.current("7"), 4);
    assert.equal(reads, 1, "one read for a hundred checks");
    assert.equal(await gens.advance("7"), 5);
    const afterAdvance = reads;
    assert.equal(await gens.current("7"), 5);
    assert.equal(reads, afterAdvance, "the advance is known without a read");
    assert.equal((await kv.get(keys.tokenGeneration("7"))).value, 5);
    // A first read that races an advance never leaves the older value in memory.
    const racing = gens.current("8");
    await gens.advance("8");
    await racing;
    assert.equal(await gens.current("8"), 1);
    // Without the cache (another writer may change it), every check reads.
    const uncached = new TokenGenerations(counted, false);
    const from = reads;
    await uncached.current("7");
    await uncached.current("7");
    assert.equal(reads - from, 2);
    await kv.set(keys.tokenGeneration("7"), 9);
    assert.equal(await uncached.current("7"), 9);
  });
});
