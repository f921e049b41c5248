import assert from "node:assert/strict";
import { isRemoteDb } from "./kv.ts";

Deno.test("isRemoteDb: only an http(s) URL is a KV Connect server", () => {
  for (const db of ["http://kv.example:4512", "https://api.deno.com/databases/x/connect"]) {
    assert.equal(isRemoteDb(db), true, db);
  }
  for (const db of ["data/ursamu.db", ":memory:", "/srv/game/http.db", "httpdb", "ftp://x"]) {
    assert.equal(isRemoteDb(db), false, db);
  }
});
