/** Black-box tests of the notes sample plugin. */
import { assert, assertEquals } from "./assert.ts";
import { api } from "./harness.ts";
import { startPluginWorld } from "./plugins_world.ts";

Deno.test("notes plugin: REST contract, permissions and in-game commands", async () => {
  const w = await startPluginWorld(["Alice", "Bob"]);
  try {
    const base = w.srv.base;
    const { Alice, Bob } = w.tokens;

    for (
      const [method, path] of [["GET", "/api/v1/notes"], ["POST", "/api/v1/notes"], [
        "DELETE",
        "/api/v1/notes/1",
      ]]
    ) {
      const r = await api(base, method, path, method === "POST" ? { text: "x" } : undefined);
      assertEquals([r.status, r.body], [401, { error: "Unauthorized" }], `${method} ${path}`);
    }
    const bad = await api(base, "GET", "/api/v1/notes", undefined, "not-a-token");
    assertEquals(bad.status, 401);

    for (const body of [{}, { text: "" }, { text: "   " }, { text: 5 }]) {
      const r = await api(base, "POST", "/api/v1/notes", body, Alice);
      assertEquals([r.status, r.body], [400, { error: "text is required" }], JSON.stringify(body));
    }
    const notJson = await api(base, "POST", "/api/v1/notes", "{oops", Alice);
    assertEquals(notJson.status, 400);

    const created = await api(base, "POST", "/api/v1/notes", { text: " buy milk " }, Alice);
    assertEquals(created.status, 201);
    const note = created.body;
    assertEquals(note.text, "buy milk");
    assertEquals(note.author, w.ids.Alice);
    assertEquals(note.authorName, "Alice");
    assertEquals(typeof note.id, "string");
    assertEquals(typeof note.createdAt, "number");

    const bobs = await api(base, "POST", "/api/v1/notes", { text: "bob's" }, Bob);
    assertEquals(bobs.status, 201);
    const list = await api(base, "GET", "/api/v1/notes", undefined, Alice);
    assertEquals(list.status, 200);
    assertEquals(list.body.map((n: { id: string }) => n.id), [note.id]);

    const forbidden = await api(base, "DELETE", `/api/v1/notes/${note.id}`, undefined, Bob);
    assertEquals([forbidden.status, forbidden.body], [403, { error: "Forbidden" }]);
    const missing = await api(base, "DELETE", "/api/v1/notes/99999", undefined, Alice);
    assertEquals([missing.status, missing.body], [404, { error: "Not found" }]);
    for (const path of ["/api/v1/notes/1/extra", "/api/v1/notes/x/y/z"]) {
      const r = await api(base, "GET", path, undefined, Alice);
      assertEquals([r.status, r.body], [404, { error: "Not Found" }], path);
    }
    const prefixClash = await api(base, "GET", "/api/v1/notesx", undefined, Alice);
    assertEquals(prefixClash.status, 404);

    const del = await api(base, "DELETE", `/api/v1/notes/${note.id}`, undefined, Alice);
    assertEquals([del.status, del.body], [200, { deleted: true }]);
    assertEquals((await api(base, "GET", "/api/v1/notes", undefined, Alice)).body, []);
    const again = await api(base, "DELETE", `/api/v1/notes/${note.id}`, undefined, Alice);
    assertEquals(again.status, 404);

    // In game, over the WebSocket hub.
    const alice = await w.login("Alice");
    await alice.cmd("+note feed the cat", /Note \d+ saved/);
    const listed = await alice.cmd("+notes", /Your notes/);
    assert(listed.msg.includes("feed the cat"));
    const rest = await api(base, "GET", "/api/v1/notes", undefined, Alice);
    assertEquals(rest.body.map((n: { text: string }) => n.text), ["feed the cat"]);
    await alice.cmd(`+note/del ${bobs.body.id}`, /You have no such note/);
    await alice.cmd(`+note/del ${rest.body[0].id}`, /deleted/);
    await alice.cmd("+notes", /You have no notes/);
  } finally {
    await w.stop();
  }
});
