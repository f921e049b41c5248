/**
 * The notes plugin through the real engine (the plugin test kit): REST with its fixed
 * messages, paging through the author index, and the in-game commands.
 */
import assert from "node:assert/strict";
import { startTestGame } from "../../src/plugins/testing.ts";

Deno.test("notes: REST create, list own, delete, and the contract's refusals", async () => {
  const game = await startTestGame({ plugins: ["notes"] });
  try {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const a = await game.request("POST", "/api/v1/notes", {
      as: ann,
      body: { text: "  remember " },
    });
    assert.equal(a.status, 201);
    assert.deepEqual(Object.keys(a.body).sort(), [
      "author",
      "authorName",
      "createdAt",
      "id",
      "text",
    ]);
    assert.equal(a.body.text, "remember");
    assert.equal(a.body.authorName, "Ann");
    const theirs = await game.request("POST", "/api/v1/notes", {
      as: bob,
      body: { text: "bob's" },
    });
    const list = await game.request("GET", "/api/v1/notes", { as: ann });
    assert.deepEqual(list.body.map((n: { text: string }) => n.text), ["remember"]);

    const refused = async (
      method: string,
      path: string,
      status: number,
      error: string,
      body?: unknown,
    ) => {
      const r = await game.request(method, path, { as: ann, body });
      assert.deepEqual([r.status, r.body], [status, { error }], `${method} ${path}`);
    };
    const anon = await game.request("GET", "/api/v1/notes");
    assert.deepEqual([anon.status, anon.body], [401, { error: "Unauthorized" }]);
    await refused("POST", "/api/v1/notes", 400, "text is required", { text: "   " });
    await refused("POST", "/api/v1/notes", 400, "text is required", { text: 7 });
    // No body, a body that is not JSON, or not an object: still no text.
    for (const body of [undefined, "not json", "[1]", "null"]) {
      await refused("POST", "/api/v1/notes", 400, "text is required", body);
    }
    await refused("DELETE", "/api/v1/notes/999", 404, "Not found");
    await refused("DELETE", `/api/v1/notes/${theirs.body.id}`, 403, "Forbidden");
    await refused("GET", "/api/v1/notes/x/y", 404, "Not Found");
    await refused("PUT", "/api/v1/notes", 404, "Not Found", {});
    const del = await game.request("DELETE", `/api/v1/notes/${a.body.id}`, { as: ann });
    assert.deepEqual(del.body, { deleted: true });
    assert.deepEqual((await game.request("GET", "/api/v1/notes", { as: ann })).body, []);
  } finally {
    await game.close();
  }
});

Deno.test("notes: the list pages through the author index, oldest first", async () => {
  const game = await startTestGame({ plugins: ["notes"] });
  try {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const mine: string[] = [];
    for (let i = 0; i < 260; i += 20) {
      await Promise.all(Array.from({ length: 20 }, (_, j) => {
        const n = i + j, who = n % 3 === 0 ? bob : ann;
        return game.request("POST", "/api/v1/notes", { as: who, body: { text: `n${n}` } });
      }));
    }
    const all = (await game.request("GET", "/api/v1/notes?limit=200", { as: ann })).body
      .concat((await game.request("GET", "/api/v1/notes?limit=200&offset=200", { as: ann })).body)
      .map((n: { text: string; id: string }) => n);
    for (const n of all) mine.push(n.text);
    assert.equal(mine.length, 173);
    const ids = all.map((n: { id: string }) => Number(n.id));
    assert.deepEqual(ids, [...ids].sort((x, y) => x - y), "oldest first");
    const texts = async (q: string) =>
      (await game.request("GET", `/api/v1/notes${q}`, { as: ann })).body.map((
        n: { text: string },
      ) => n.text);
    assert.deepEqual(await texts(""), mine.slice(0, 50));
    assert.deepEqual(await texts("?limit=500"), mine.slice(0, 200));
    assert.deepEqual(await texts("?offset=170&limit=20"), mine.slice(170));
    assert.deepEqual(await texts("?offset=173"), []);
    for (const q of ["?limit=0", "?limit=-1", "?limit=x", "?offset=-5"]) {
      assert.equal((await game.request("GET", `/api/v1/notes${q}`, { as: ann })).status, 400, q);
    }
  } finally {
    await game.close();
  }
});

Deno.test("notes: +note, +notes and +note/del in game, private to their author", async () => {
  const game = await startTestGame({ plugins: ["notes"] });
  try {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    await game.connect(bob);
    const saved = await game.run(ann, "+note buy milk");
    assert.match(saved.text("Ann"), /^Note \d+ saved\.$/);
    assert.equal(saved.text("Bob"), "", "nobody else hears of a note");
    assert.match((await game.run(ann, "+notes")).text("Ann"), /Your notes:\n {2}\d+: buy milk/);
    assert.equal((await game.run(bob, "+notes")).text("Bob"), "You have no notes.");
    const id = saved.text("Ann").match(/\d+/)![0];
    assert.equal((await game.run(bob, `+note/del ${id}`)).text("Bob"), "You have no such note.");
    assert.equal((await game.run(ann, `+note/del ${id}`)).text("Ann"), `Note ${id} deleted.`);
    assert.equal((await game.run(ann, "+note")).text("Ann"), "Usage: +note <text>");
    assert.equal((await game.run(ann, "+notes x")).text("Ann"), "Usage: +notes [<page>]");
  } finally {
    await game.close();
  }
});

Deno.test("notes: only players keep notes; a thing's +note stores nothing", async () => {
  // Before: a thing kept notes of its own, so a player's thousand things could each store
  // maxNotes notes of 4,000 characters beside the player's own (s53probe).
  const game = await startTestGame({ plugins: ["notes", "building"] });
  try {
    const bea = await game.player("Bea", { flags: ["builder"] });
    await game.run(bea, "@create Box");
    await game.run(bea, "@force Box=+note hidden away");
    await new Promise((r) => setTimeout(r, 300));
    await game.received();
    // Note numbers come from one counter: the first note stored is 1.
    assert.equal((await game.run(bea, "+note mine")).text("Bea"), "Note 1 saved.");
  } finally {
    await game.close();
  }
});

Deno.test("notes: a player keeps at most plugins.notes.maxNotes, counted not scanned", async () => {
  const game = await startTestGame({
    plugins: ["notes"],
    config: { plugins: { notes: { maxNotes: 3 } } },
  });
  try {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const post = (as = ann, text = "x") =>
      game.request("POST", "/api/v1/notes", { as, body: { text } });
    const made = await Promise.all([post(), post(), post(), post(), post()]);
    assert.deepEqual(
      made.map((r) => r.status).sort(),
      [201, 201, 201, 409, 409],
      "exactly three in parallel",
    );
    const full = made.find((r) => r.status === 409)!;
    assert.deepEqual(full.body, {
      error: "You have 3 notes, the most a player may keep. Delete some first.",
    });
    assert.equal((await game.request("GET", "/api/v1/notes", { as: ann })).body.length, 3);
    // Another player's notes are counted apart.
    assert.equal((await post(bob)).status, 201);
    const refused = await game.run(ann, "+note one more");
    assert.match(refused.text("Ann"), /You have 3 notes, the most a player may keep/);
    // A deleted note gives its place back.
    const first = (await game.request("GET", "/api/v1/notes", { as: ann })).body[0];
    assert.equal(
      (await game.request("DELETE", `/api/v1/notes/${first.id}`, { as: ann })).status,
      200,
    );
    assert.match((await game.run(ann, "+note back in")).text("Ann"), /Note \d+ saved/);
    assert.equal((await post()).status, 409);
  } finally {
    await game.close();
  }
});
