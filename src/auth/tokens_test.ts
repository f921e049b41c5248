import assert from "node:assert/strict";
import { TokenService } from "./tokens.ts";

Deno.test("tokens: the secret is imported once, not at every sign and verify (each import leaks)", async () => {
  const subtle = crypto.subtle;
  const original = subtle.importKey;
  let imports = 0;
  subtle.importKey = function (this: SubtleCrypto, ...args: Parameters<SubtleCrypto["importKey"]>) {
    imports++;
    return original.apply(this, args);
  } as SubtleCrypto["importKey"];
  try {
    const tokens = new TokenService("secret-once");
    for (let i = 0; i < 20; i++) {
      const token = await tokens.sign(String(i));
      assert.equal(await tokens.verify(token), String(i));
    }
    assert.equal(imports, 1);
  } finally {
    subtle.importKey = original;
  }
});

Deno.test("tokens: a token signed by one service verifies in another with the same secret", async () => {
  const token = await new TokenService("shared-secret").sign("42");
  assert.equal(await new TokenService("shared-secret").verify(token), "42");
  assert.equal(await new TokenService("other-secret").verify(token), null);
});
