import assert from "node:assert/strict";
import { PluginKv } from "../../src/plugins/kv.ts";
import {
  ForbiddenError,
  NotFoundError,
  type Services,
  UnauthorizedError,
  ValidationError,
} from "../../src/plugins/mod.ts";
import { NoteStore } from "./store.ts";
import { notesRoutes } from "./routes.ts";

async function setup() {
  const kv = await Deno.openKv(":memory:");
  const store = new NoteStore(new PluginKv(kv, "notes"));
  const services = {
    objects: { get: (id: string) => Promise.resolve({ id, name: `P${id}` }) },
  } as unknown as Services;
  const handler = notesRoutes(services, store);
  const call = async (method: string, path: string, user: string | null, body?: unknown) => {
    const req = new Request("http://x" + path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const res = await handler(req, user);
    return { status: res.status, body: await res.json() };
  };
  return { kv, store, call, handler };
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
      await assert.rejects(t.call("GET", `/api/v1/notes${q}`, "5"), ValidationError, q);
    }
  } finally {
    t.kv.close();
  }
});

Deno.test("notes: refusals carry the documented messages", async () => {
  const t = await setup();
  try {
    const theirs = await t.call("POST", "/api/v1/notes", "6", { text: "mine" });
    await assert.rejects(
      t.call("GET", "/api/v1/notes", null),
      (e) => e instanceof UnauthorizedError && e.message === "Unauthorized",
    );
    await assert.rejects(
      t.call("POST", "/api/v1/notes", "5", { text: "   " }),
      (e) => e instanceof ValidationError && e.message === "text is required",
    );
    await assert.rejects(t.call("POST", "/api/v1/notes", "5", { text: 7 }), /text is required/);
    // No body, a body that is not JSON, or not an object: still no text.
    for (const body of [undefined, "not json", "[1]", "null"]) {
      const req = new Request("http://x/api/v1/notes", { method: "POST", body });
      await assert.rejects(
        (async () => await t.handler(req, "5"))(),
        (e) => e instanceof ValidationError && e.message === "text is required",
        String(body),
      );
    }
    await assert.rejects(
      t.call("DELETE", "/api/v1/notes/999", "5"),
      (e) => e instanceof NotFoundError && e.message === "Not found",
    );
    await assert.rejects(
      t.call("DELETE", `/api/v1/notes/${theirs.body.id}`, "5"),
      (e) => e instanceof ForbiddenError && e.message === "Forbidden",
    );
    await assert.rejects(
      t.call("GET", "/api/v1/notes/x/y", "5"),
      (e) => e instanceof NotFoundError && e.message === "Not Found",
    );
    await assert.rejects(t.call("PUT", "/api/v1/notes", "5", {}), /Not Found/);
  } finally {
    t.kv.close();
  }
});
