import assert from "node:assert/strict";
import { Config } from "./load.ts";
import { applySiteSettings, setSiteSetting } from "./site.ts";
import { keys } from "../storage/keys.ts";

Deno.test("site settings: stored, re-applied on a fresh config, env still wins", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    const first = await new Config({ env: {} }).load();
    assert.equal(await setSiteSetting(kv, first, "game.maxPlayers", 40), null);
    assert.equal(await setSiteSetting(kv, first, "server.name", "Moonhaven"), null);
    assert.match((await setSiteSetting(kv, first, "server.db", "/tmp/x")) ?? "", /not a site key/);
    assert.match((await setSiteSetting(kv, first, "game.maxPlayers", "x")) ?? "", /number/);
    assert.equal((await kv.get(keys.siteSetting("server.db"))).value, null);

    const next = await new Config({ env: { URSAMU_SERVER_NAME: "FromEnv" } }).load();
    assert.equal(await applySiteSettings(kv, next, () => {}), 2);
    assert.equal(next.value.game.maxPlayers, 40);
    assert.equal(next.value.server.name, "FromEnv");
  } finally {
    kv.close();
  }
});

Deno.test("site settings: a stored value that is no longer valid is skipped with a warning", async () => {
  const kv = await Deno.openKv(":memory:");
  try {
    await kv.set(keys.siteSetting("game.maxPlayers"), "lots");
    await kv.set(keys.siteSetting("server.db"), "/elsewhere");
    const warnings: string[] = [];
    const c = await new Config({ env: {} }).load();
    assert.equal(await applySiteSettings(kv, c, (m) => warnings.push(m)), 0);
    assert.equal(c.value.game.maxPlayers, 0);
    assert.equal(c.value.server.db, "data/ursamu.db");
    assert.equal(warnings.length, 2);
  } finally {
    kv.close();
  }
});
