import assert from "node:assert/strict";
import { PluginKv } from "../../src/plugins/kv.ts";
import { createPluginApp, dispatchToPlugin } from "../../src/plugins/http.ts";
import type { DbObject } from "../../src/plugins/mod.ts";
import { NoteStore } from "./store.ts";
import { notesRoutes, PREFIX } from "./routes.ts";

async function setup() {
  const kv = await Deno.openKv(":memory:");
  const store = new NoteStore(new PluginKv(kv, "notes"));
  const app = createPluginApp(PREFIX, "notes");
  notesRoutes(app, store);
  const player = (id: string) => ({ id, name: `P${id}`, flags: ["player"] }) as unknown as DbObject;
  const send = async (method: string, path: string, user: string | null, body?: string) => {
    const req = new Request("http://x" + path, { method, body });
    const res = await dispatchToPlugin(app, req, {
      player: user ? player(user) : null,
      ip: "127.0.0.1",
    });
    return { status: res.status, body: await res.json() };
  };
  const call = (method: string, path: string, user: string | null, body?: unknown) =>
    send(method, path, user, body === undefined ? undefined : JSON.stringify(body));
  return { kv, store, call, send };
}

Deno.test("notes: create, list own, delete", async () => {
  const t = await setup();
  try {
    const a = await t.call("POST", "/api/v1/notes", "5", { text: "  remember  " });
    assert.equal(a.status, 201);
    assert.deepEqual(Object.keys(a.body).sort(), [
      "author",
      "authorName",
      "createdAt",
      "id",
      "text",
    ]);
    assert.equal(a.body.text, "remember");
    assert.equal(a.body.authorName, "P5");
    await t.call("POST", "/api/v1/notes", "6", { text: "other" });
    const list = await t.call("GET", "/api/v1/notes", "5");
    assert.deepEqual(list.body.map((n: { text: string }) => n.text), ["remember"]);
    const del = await t.call("DELETE", `/api/v1/notes/${a.body.id}`, "5");
    assert.deepEqual(del.body, { deleted: true });
    assert.deepEqual((await t.call("GET", "/api/v1/notes", "5")).body, []);
  } finally {
    t.kv.close();
  }
});

Deno.test("notes: the list pages through the author index, oldest first", async () => {
  const t = await setup();
  try {
    for (let i = 0; i < 1050; i++) await t.store.create(i % 3 === 0 ? "6" : "5", "P", `n${i}`);
    const mine = Array.from({ length: 1050 }, (_, i) => i).filter((i) => i % 3 !== 0);
    const texts = async (q: string) =>
      (await t.call("GET", `/api/v1/notes${q}`, "5")).body.map((n: { text: string }) => n.text);
    assert.deepEqual(await texts(""), mine.slice(0, 50).map((i) => `n${i}`));
    assert.deepEqual(await texts("?limit=200"), mine.slice(0, 200).map((i) => `n${i}`));
    assert.deepEqual(await texts("?limit=500"), mine.slice(0, 200).map((i) => `n${i}`));
    assert.deepEqual(await texts("?offset=690&limit=20"), mine.slice(690).map((i) => `n${i}`));
    assert.deepEqual(await texts("?offset=700"), []);
    for (const q of ["?limit=0", "?limit=-1", "?limit=x", "?offset=-5"]) {
      assert.equal((await t.call("GET", `/api/v1/notes${q}`, "5")).status, 400, q);
    }
  } finally {
    t.kv.close();
  }
});

Deno.test("notes: refusals carry the contract's messages", async () => {
  const t = await setup();
  try {
    const theirs = await t.call("POST", "/api/v1/notes", "6", { text: "mine" });
    const expect = async (
      p: Promise<{ status: number; body: unknown }>,
      status: number,
      error: string,
    ) => assert.deepEqual(await p, { status, body: { error } });
    await expect(t.call("GET", "/api/v1/notes", null), 401, "Unauthorized");
    await expect(t.call("POST", "/api/v1/notes", "5", { text: "   " }), 400, "text is required");
    await expect(t.call("POST", "/api/v1/notes", "5", { text: 7 }), 400, "text is required");
    // No body, a body that is not JSON, or not an object: still no text.
    for (const body of [undefined, "not json", "[1]", "null"]) {
      await expect(t.send("POST", "/api/v1/notes", "5", body), 400, "text is required");
    }
    await expect(t.call("DELETE", "/api/v1/notes/999", "5"), 404, "Not found");
    await expect(t.call("DELETE", `/api/v1/notes/${theirs.body.id}`, "5"), 403, "Forbidden");
    await expect(t.call("GET", "/api/v1/notes/x/y", "5"), 404, "Not Found");
    await expect(t.call("PUT", "/api/v1/notes", "5", {}), 404, "Not Found");
  } finally {
    t.kv.close();
  }
});
