/**
 * The wiki plugin through the real engine (the plugin test kit): every REST endpoint with its
 * refusals, the files on disk (front matter, atomic writes, nothing outside the wiki
 * directory), search kept current by writes and by edits made on disk, the in-game commands,
 * the events, and a table of hostile paths.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestGame, type TestGame, type TestPlayer } from "../src/plugins/testing.ts";

const LISTENER = join(import.meta.dirname!, "fixtures/plugins/wiki_listener");
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
const MB10 = 10 * 1024 * 1024;

interface World {
  game: TestGame;
  dir: string;
  admin: TestPlayer;
  ann: TestPlayer;
}

/** A game with the wiki (and the event recorder) over a fresh wiki directory. */
async function withWiki(fn: (w: World) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-wiki-" });
  const game = await startTestGame({
    plugins: ["wiki", "help", LISTENER],
    config: { server: { wikiDir: dir } },
  });
  try {
    const admin = await game.player("Boss", { flags: ["admin"] });
    const ann = await game.player("Ann");
    await fn({ game, dir, admin, ann });
  } finally {
    await game.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every file under `dir` (relative paths, sorted), hidden ones included. */
async function tree(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string, rel: string) => {
    for await (const e of Deno.readDir(d)) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(join(d, e.name), r);
      else out.push(r);
    }
  };
  await walk(dir, "");
  return out.sort();
}

/** Raw HTTP with a token, for bodies the kit does not send (binary, streamed). */
function raw(
  game: TestGame,
  method: string,
  path: string,
  init: RequestInit & { as?: TestPlayer } = {},
) {
  const headers = new Headers(init.headers);
  if (init.as) headers.set("authorization", `Bearer ${init.as.token}`);
  return fetch(game.base + path, { ...init, method, headers });
}

async function events(game: TestGame) {
  return (await game.request("GET", "/api/v1/wikilog/events")).body as {
    event: string;
    payload: Record<string, unknown>;
  }[];
}

Deno.test("wiki REST: create, read, list, edit, delete, with the files on disk as the truth", async () => {
  await withWiki(async ({ game, dir, admin, ann }) => {
    const made = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: {
        path: "setting/harbour",
        title: "The Harbour",
        date: "Year 3",
        tags: ["place", "sea"],
        body: "# Harbour\n\nShips come and go.",
        mood: "grim",
        level: 3,
        open: true,
      },
    });
    assert.equal(made.status, 201);
    assert.deepEqual(made.body, {
      title: "The Harbour",
      date: "Year 3",
      tags: ["place", "sea"],
      mood: "grim",
      level: 3,
      open: true,
      author: "Boss",
      path: "setting/harbour",
      body: "# Harbour\n\nShips come and go.",
    });
    const text = await Deno.readTextFile(join(dir, "setting/harbour.md"));
    assert.match(text, /^---\n/);
    assert.match(text, /\ntags: \[place, sea\]\n/);
    assert.match(text, /\n---\n\n# Harbour\n\nShips come and go\.$/);

    // Read: the page with metadata merged; a folder without index.md is a listing.
    const page = await game.request("GET", "/api/v1/wiki/setting/harbour", { as: ann });
    assert.equal(page.status, 200);
    assert.deepEqual(page.body, made.body);
    const listing = await game.request("GET", "/api/v1/wiki/setting", { as: ann });
    assert.deepEqual(listing.body, {
      path: "setting",
      type: "directory",
      children: [{ path: "setting/harbour", title: "The Harbour", type: "page" }],
    });

    // 409 when it exists (either form), nothing changed.
    const again = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "setting/harbour", title: "Other", body: "x" },
    });
    assert.deepEqual([again.status, again.body], [409, {
      error: "A wiki page already exists at that path.",
    }]);
    assert.equal(await Deno.readTextFile(join(dir, "setting/harbour.md")), text);

    // A folder's own page is its index.md.
    const idx = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "setting", title: "Setting", body: "All about the world." },
    });
    assert.equal(idx.status, 201);
    assert.ok((await tree(dir)).includes("setting/index.md"));
    const folderPage = await game.request("GET", "/api/v1/wiki/setting", { as: ann });
    assert.equal(folderPage.body.title, "Setting");
    assert.equal(folderPage.body.body, "All about the world.");

    // `<folder>/index` writes `<folder>/index.md`, the folder made first when it is new.
    const named = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "people/index", title: "People", body: "Who is who." },
    });
    assert.equal(named.status, 201, JSON.stringify(named.body));
    assert.equal(named.body.path, "people");
    assert.ok((await tree(dir)).includes("people/index.md"));
    assert.equal(
      (await game.request("GET", "/api/v1/wiki/people", { as: ann })).body.title,
      "People",
    );
    assert.equal(
      (await game.request("GET", "/api/v1/wiki/people/index", { as: ann })).body.body,
      "Who is who.",
    );
    // Either way of naming a folder's page that exists is a 409; so is an index.md that a
    // `<folder>.md` beside it would hide.
    for (const path of ["setting/index", "people", "people/index", "setting/harbour/index"]) {
      const dup = await game.request("POST", "/api/v1/wiki", {
        as: admin,
        body: { path, title: "Again", body: "x" },
      });
      assert.equal(dup.status, 409, path);
    }
    assert.ok(!(await tree(dir)).includes("setting/harbour/index.md"));
    const delNamed = await game.request("DELETE", "/api/v1/wiki/people/index", { as: admin });
    assert.deepEqual([delNamed.status, delNamed.body], [200, { deleted: true }]);
    assert.ok(!(await tree(dir)).includes("people/index.md"));

    // PATCH: only the fields sent change; body alone keeps the front matter byte for byte.
    const patched = await game.request("PATCH", "/api/v1/wiki/setting/harbour", {
      as: admin,
      body: { body: "Now empty of ships." },
    });
    assert.equal(patched.status, 200);
    assert.equal(patched.body.body, "Now empty of ships.");
    assert.equal(patched.body.mood, "grim");
    const after = await Deno.readTextFile(join(dir, "setting/harbour.md"));
    assert.equal(after.split("\n---\n")[0], text.split("\n---\n")[0]);
    assert.match(after, /\n\nNow empty of ships\.$/);
    const meta = await game.request("PATCH", "/api/v1/wiki/setting/harbour", {
      as: admin,
      body: { mood: null, tags: ["port"], title: "Old Harbour" },
    });
    assert.equal(meta.status, 200);
    assert.equal(meta.body.mood, undefined);
    assert.deepEqual(meta.body.tags, ["port"]);
    assert.equal(meta.body.title, "Old Harbour");
    assert.equal(meta.body.body, "Now empty of ships.");
    assert.equal(meta.body.level, 3);

    // DELETE: <path>.md, then a folder's index.md.
    const del = await game.request("DELETE", "/api/v1/wiki/setting/harbour", { as: admin });
    assert.deepEqual([del.status, del.body], [200, { deleted: true }]);
    assert.ok(!(await tree(dir)).includes("setting/harbour.md"));
    const delIdx = await game.request("DELETE", "/api/v1/wiki/setting", { as: admin });
    assert.deepEqual(delIdx.body, { deleted: true });
    assert.deepEqual(await tree(dir), []);
    const gone = await game.request("GET", "/api/v1/wiki/setting/harbour", { as: ann });
    assert.deepEqual([gone.status, gone.body], [404, { error: "Not found" }]);
    const delAgain = await game.request("DELETE", "/api/v1/wiki/setting/harbour", { as: admin });
    assert.equal(delAgain.status, 404);
    // Every change fired its event, in order; refused ones fired none.
    assert.deepEqual((await events(game)).map((e) => [e.event, e.payload.path, e.payload.type]), [
      ["wiki:created", "setting/harbour", "page"],
      ["wiki:created", "setting", "page"],
      ["wiki:created", "people", "page"],
      ["wiki:deleted", "people", "page"],
      ["wiki:edited", "setting/harbour", "page"],
      ["wiki:edited", "setting/harbour", "page"],
      ["wiki:deleted", "setting/harbour", "page"],
      ["wiki:deleted", "setting", "page"],
    ]);
  });
});

Deno.test("wiki REST: who may do what, and bad bodies change nothing", async () => {
  await withWiki(async ({ game, dir, admin, ann }) => {
    await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "rules", title: "Rules", body: "Be kind." },
    });
    const before = await tree(dir);
    const rulesText = await Deno.readTextFile(join(dir, "rules.md"));
    const check = async (
      method: string,
      path: string,
      as: TestPlayer | undefined,
      status: number,
      body?: unknown,
      error?: string | RegExp,
    ) => {
      const r = await game.request(method, path, { as, body });
      assert.equal(r.status, status, `${method} ${path}: ${JSON.stringify(r.body)}`);
      assert.equal(typeof r.body.error, "string", `${method} ${path}`);
      if (typeof error === "string") assert.equal(r.body.error, error);
      else if (error) assert.match(r.body.error, error);
    };
    // No token: pages, listings and search are 401; writes too.
    await check("GET", "/api/v1/wiki?q=kind", undefined, 401, undefined, "Unauthorized");
    await check("GET", "/api/v1/wiki/rules", undefined, 401);
    await check("GET", "/api/v1/wiki/nothing", undefined, 401);
    await check("POST", "/api/v1/wiki", undefined, 401, { path: "x", title: "x" });
    await check("PATCH", "/api/v1/wiki/rules", undefined, 401, { body: "x" });
    await check("DELETE", "/api/v1/wiki/rules", undefined, 401);
    // A player who is not staff: 403 on every write.
    await check("POST", "/api/v1/wiki", ann, 403, { path: "x", title: "x" }, "Forbidden");
    await check("PATCH", "/api/v1/wiki/rules", ann, 403, { body: "x" });
    await check("DELETE", "/api/v1/wiki/rules", ann, 403);
    const put = await raw(game, "PUT", "/api/v1/wiki/a.png", {
      as: ann,
      headers: { "content-type": "image/png" },
      body: PNG,
    });
    assert.equal(put.status, 403);
    await put.body?.cancel();
    // Unknown paths.
    await check("GET", "/api/v1/wiki/nothing/here", ann, 404, undefined, "Not found");
    await check("PATCH", "/api/v1/wiki/nothing", admin, 404, { body: "x" });
    // Bad metadata and bodies: 400 with a clear message.
    const bad: [unknown, string | RegExp][] = [
      [{ path: "p", title: "T", "bad key": 1 }, /Invalid metadata key 'bad key'/],
      [{ path: "p", title: "T", "a.b": 1 }, /Invalid metadata key/],
      [{ path: "p", title: "T", "ключ": 1 }, /Invalid metadata key/],
      [{ path: "p", title: "T", nested: { a: 1 } }, /must be a string, number, boolean/],
      [{ path: "p", title: "T", list: [{ a: 1 }] }, /must be a string, number, boolean/],
      [{ path: "p", title: "T", tags: "one" }, /tags must be an array of strings/],
      [{ path: "p", title: "T", date: 5 }, /date must be a string/],
      [{ path: "p", title: "T", body: 5 }, /body must be a string/],
      [{ path: "p", body: "no title" }, /title is required/],
      [{ path: "p", title: "  " }, /title is required/],
      [{ title: "no path" }, /Invalid wiki path/],
      [{ path: "p.png", title: "T" }, /PUT/],
      [{ path: "README", title: "T" }, /README/],
    ];
    for (const [body, error] of bad) await check("POST", "/api/v1/wiki", admin, 400, body, error);
    await check("POST", "/api/v1/wiki", admin, 400, "not json", /JSON/);
    await check("PATCH", "/api/v1/wiki/rules", admin, 400, { "x y": 1 }, /Invalid metadata key/);
    await check("PATCH", "/api/v1/wiki/rules", admin, 400, { path: "elsewhere" }, /path cannot/);
    await check("PATCH", "/api/v1/wiki/rules", admin, 400, { title: null }, /title/);
    await check("PATCH", "/api/v1/wiki/rules", admin, 400, { body: ["x"] }, /body must be/);
    assert.deepEqual(await tree(dir), before);
    assert.equal(await Deno.readTextFile(join(dir, "rules.md")), rulesText);
  });
});

Deno.test("wiki REST: bodies up to 10 MB are accepted on create and PATCH, larger ones refused", async () => {
  await withWiki(async ({ game, dir, admin }) => {
    const big = "a".repeat(MB10 - 1024) + "\nneedle";
    const made = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "big", title: "Big", body: big },
    });
    assert.equal(made.status, 201, JSON.stringify(made.body).slice(0, 200));
    assert.equal((await Deno.stat(join(dir, "big.md"))).size > MB10 - 1024, true);
    const patched = await game.request("PATCH", "/api/v1/wiki/big", {
      as: admin,
      body: { body: big + "!" },
    });
    assert.equal(patched.status, 200);
    const tooBig = "b".repeat(MB10 + 1);
    const refused = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "huge", title: "Huge", body: tooBig },
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /10485760 bytes|larger than/);
    const refusedPatch = await game.request("PATCH", "/api/v1/wiki/big", {
      as: admin,
      body: { body: tooBig },
    });
    assert.equal(refusedPatch.status, 400);
    // Far past the cap: refused while reading, before parsing.
    const huge = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: JSON.stringify({ path: "huge", title: "Huge", body: "c".repeat(MB10 + 512 * 1024) }),
    });
    assert.equal(huge.status, 400);
    assert.match(huge.body.error, /larger than/);
    assert.deepEqual(await tree(dir), ["big.md"]);
    const hits = await game.request("GET", "/api/v1/wiki?q=needle", { as: admin });
    assert.deepEqual(hits.body, [{ path: "big", title: "Big", type: "page" }]);
  });
});

Deno.test("wiki REST: assets are stored with PUT, served raw without a token, and deleted", async () => {
  await withWiki(async ({ game, dir, admin, ann }) => {
    const put = await raw(game, "PUT", "/api/v1/wiki/maps/harbour.png", {
      as: admin,
      headers: { "content-type": "image/png" },
      body: PNG,
    });
    assert.equal(put.status, 201);
    assert.deepEqual(await put.json(), {
      path: "maps/harbour.png",
      type: "asset",
      contentType: "image/png",
      size: PNG.length,
    });
    assert.deepEqual(await Deno.readFile(join(dir, "maps/harbour.png")), PNG);
    const replaced = await raw(game, "PUT", "/api/v1/wiki/maps/harbour.png", {
      as: admin,
      headers: { "content-type": "image/png" },
      body: PNG.slice(0, 8),
    });
    assert.equal(replaced.status, 200);
    await replaced.body?.cancel();

    // Read without any token: the raw bytes, their type, and the cache header.
    const got = await raw(game, "GET", "/api/v1/wiki/maps/harbour.png");
    assert.equal(got.status, 200);
    assert.equal(got.headers.get("content-type"), "image/png");
    assert.equal(got.headers.get("cache-control"), "public, max-age=3600");
    assert.equal(got.headers.get("x-content-type-options"), "nosniff");
    assert.deepEqual(new Uint8Array(await got.arrayBuffer()), PNG.slice(0, 8));
    const head = await raw(game, "HEAD", "/api/v1/wiki/maps/harbour.png");
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), "8");
    await head.body?.cancel();
    const missing = await raw(game, "GET", "/api/v1/wiki/maps/none.png");
    assert.deepEqual([missing.status, await missing.json()], [404, { error: "Not found" }]);
    // The listing shows the asset; the page API does not pretend it is a page.
    const listing = await game.request("GET", "/api/v1/wiki/maps", { as: ann });
    assert.deepEqual(listing.body.children, [
      { path: "maps/harbour.png", title: "harbour.png", type: "asset" },
    ]);

    // Every type of the spec with its own Content-Type; a svg is served sandboxed.
    const types: [string, string][] = [
      ["a.jpg", "image/jpeg"],
      ["a.jpeg", "image/jpeg"],
      ["a.gif", "image/gif"],
      ["a.webp", "image/webp"],
      ["a.svg", "image/svg+xml"],
      ["a.pdf", "application/pdf"],
    ];
    for (const [name, type] of types) {
      const r = await raw(game, "PUT", `/api/v1/wiki/files/${name}`, {
        as: admin,
        headers: { "content-type": type },
        body: "<svg/>",
      });
      assert.equal(r.status, 201, name);
      await r.body?.cancel();
      const back = await raw(game, "GET", `/api/v1/wiki/files/${name}`);
      assert.equal(back.headers.get("content-type"), type);
      await back.body?.cancel();
    }
    const svg = await raw(game, "GET", "/api/v1/wiki/files/a.svg");
    assert.match(svg.headers.get("content-security-policy") ?? "", /sandbox/);
    await svg.body?.cancel();

    // Refusals: wrong or missing Content-Type, not an asset path, too large.
    const refuse = async (path: string, init: RequestInit, status: number, error: RegExp) => {
      const r = await raw(game, "PUT", path, { as: admin, ...init });
      const body = await r.json();
      assert.equal(r.status, status, `${path}: ${JSON.stringify(body)}`);
      assert.match(body.error, error);
    };
    const before = await tree(dir);
    await refuse(
      "/api/v1/wiki/b.png",
      { headers: { "content-type": "image/jpeg" }, body: PNG },
      400,
      /does not match image\/png/,
    );
    await refuse("/api/v1/wiki/b.png", { body: PNG }, 400, /Content-Type|does not match/);
    await refuse("/api/v1/wiki/b.png", { headers: { "content-type": "image/png" } }, 400, /empty/);
    await refuse(
      "/api/v1/wiki/b.txt",
      { headers: { "content-type": "text/plain" }, body: "x" },
      400,
      /must end in/,
    );
    await refuse(
      "/api/v1/wiki/page",
      { headers: { "content-type": "image/png" }, body: PNG },
      400,
      /must end in/,
    );
    await refuse(
      "/api/v1/wiki/b.png",
      { headers: { "content-type": "image/png" }, body: new Uint8Array(MB10 + 1) },
      400,
      /larger than 10485760 bytes/,
    );
    // Streamed without a length: the cap is counted while reading, and no partial file stays.
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (sent > MB10 + 1024 * 1024) return ctl.close();
        sent += 256 * 1024;
        ctl.enqueue(new Uint8Array(256 * 1024));
      },
    });
    await refuse(
      "/api/v1/wiki/b.png",
      { headers: { "content-type": "image/png" }, body: stream },
      400,
      /larger than 10485760 bytes/,
    );
    assert.deepEqual(await tree(dir), before);

    const del = await game.request("DELETE", "/api/v1/wiki/maps/harbour.png", { as: admin });
    assert.deepEqual(del.body, { deleted: true });
    assert.ok(!(await tree(dir)).includes("maps/harbour.png"));
    const evs = (await events(game)).filter((e) => e.payload.path === "maps/harbour.png");
    assert.deepEqual(evs.map((e) => [e.event, e.payload.type]), [
      ["wiki:created", "asset"],
      ["wiki:edited", "asset"],
      ["wiki:deleted", "asset"],
    ]);
  });
});

Deno.test("wiki search: from the index, kept current by writes and by edits on disk", async () => {
  await withWiki(async ({ game, dir, admin, ann }) => {
    const search = async (q: string) =>
      (await game.request("GET", `/api/v1/wiki?q=${encodeURIComponent(q)}`, { as: ann })).body;
    const post = (path: string, title: string, body: string, tags: string[] = []) =>
      game.request("POST", "/api/v1/wiki", { as: admin, body: { path, title, body, tags } });
    await post("lore/gods", "The Gods", "Many gods watch the harbour.", ["religion"]);
    await post("lore/harbour", "Harbour Lore", "Stories of ships.");
    await post("people/ann", "Ann", "A sailor who prays.", ["sailor"]);
    // Title matches rank first, then by path; every word must match somewhere.
    assert.deepEqual(await search("harbour"), [
      { path: "lore/harbour", title: "Harbour Lore", type: "page" },
      { path: "lore/gods", title: "The Gods", type: "page" },
    ]);
    assert.deepEqual((await search("RELIGION")).map((h: { path: string }) => h.path), [
      "lore/gods",
    ]);
    assert.deepEqual((await search("sailor prays")).map((h: { path: string }) => h.path), [
      "people/ann",
    ]);
    assert.deepEqual(await search("sailor harbour"), []);
    // Without q: every page, paged with limit/offset.
    assert.equal((await search("")).length, 3);
    const paged = await game.request("GET", "/api/v1/wiki?limit=1&offset=1", { as: ann });
    assert.equal(paged.body.length, 1);
    const badPage = await game.request("GET", "/api/v1/wiki?limit=-1", { as: ann });
    assert.equal(badPage.status, 400);

    // Edits and deletes through the API show at once.
    await game.request("PATCH", "/api/v1/wiki/people/ann", {
      as: admin,
      body: { body: "A smith." },
    });
    assert.deepEqual(await search("prays"), []);
    assert.equal((await search("smith")).length, 1);
    await game.request("DELETE", "/api/v1/wiki/lore/gods", { as: admin });
    assert.deepEqual(await search("religion"), []);

    // Files written, changed and removed on disk (an editor, git pull) are noticed.
    const eventually = async (q: string, want: string[]) => {
      let got: string[] = [];
      for (let i = 0; i < 50; i++) {
        got = (await search(q)).map((h: { path: string }) => h.path);
        if (JSON.stringify(got) === JSON.stringify(want)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(got, want, `search ${q}`);
    };
    await Deno.mkdir(join(dir, "places"), { recursive: true });
    await Deno.writeTextFile(
      join(dir, "places/tavern.md"),
      "---\ntitle: The Tavern\ntags: [drink]\n---\nAle and song.\n",
    );
    await eventually("ale", ["places/tavern"]);
    // The next read sees an edit made on disk, with no wait at all.
    await Deno.writeTextFile(
      join(dir, "places/tavern.md"),
      "---\ntitle: The Inn\ntags: [drink]\n---\nWine now.\n",
    );
    const read = await game.request("GET", "/api/v1/wiki/places/tavern", { as: ann });
    assert.deepEqual([read.body.title, read.body.body], ["The Inn", "Wine now.\n"]);
    await eventually("wine", ["places/tavern"]);
    await eventually("ale", []);
    await Deno.remove(join(dir, "places/tavern.md"));
    await eventually("wine", []);
    // README.md files are not pages: not searched, not listed, not readable.
    await Deno.writeTextFile(join(dir, "README.md"), "# About this repo\nreadme-only-word\n");
    await Deno.writeTextFile(join(dir, "lore/README.md"), "readme-only-word\n");
    await post("marker", "Marker", "marker-word");
    await eventually("marker-word", ["marker"]);
    assert.deepEqual(await search("readme-only-word"), []);
    const lore = await game.request("GET", "/api/v1/wiki/lore", { as: ann });
    assert.deepEqual(lore.body.children.map((c: { path: string }) => c.path), ["lore/harbour"]);
    const readme = await game.request("GET", "/api/v1/wiki/README", { as: ann });
    assert.equal(readme.status, 400);
    // A file with no front matter, or bad YAML, is still a page (all body).
    await Deno.writeTextFile(join(dir, "plain.md"), "Just text, no metadata.");
    await Deno.writeTextFile(join(dir, "broken.md"), "---\ntitle: [unclosed\n---\nBody.");
    const plain = await game.request("GET", "/api/v1/wiki/plain", { as: ann });
    assert.deepEqual(plain.body, {
      title: "plain",
      path: "plain",
      body: "Just text, no metadata.",
    });
    const broken = await game.request("GET", "/api/v1/wiki/broken", { as: ann });
    assert.equal(broken.status, 200);
    assert.equal(broken.body.title, "broken");
    // A body-only edit keeps a hand-written block exactly (comment, quoting, odd keys).
    const block = "---\n# staff only\ntitle: 'Hand'\nweird key: 1\n---\n";
    await Deno.writeTextFile(join(dir, "hand.md"), `${block}\nOld.\n`);
    const hand = await game.request("PATCH", "/api/v1/wiki/hand", {
      as: admin,
      body: { body: "New." },
    });
    assert.deepEqual([hand.status, hand.body.title, hand.body["weird key"]], [
      200,
      "Hand",
      undefined,
    ]);
    assert.equal(await Deno.readTextFile(join(dir, "hand.md")), `${block}\nNew.`);
  });
});

Deno.test("wiki in game: +wiki renders pages and folders to the width, staff create and edit", async () => {
  await withWiki(async ({ game, dir, admin, ann }) => {
    const bob = await game.player("Bob");
    await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: {
        path: "guide/start",
        title: "Getting Started",
        tags: ["newbie"],
        body: [
          "# Welcome",
          "",
          "Read **this** first, then *that*. See [the rules](https://example.com/rules) " +
          "and `+help`. Costs 100% of nothing: %cr no colour codes here.",
          "",
          "- one short item",
          "- a second item that is long enough that it has to wrap onto another line " +
          "when the screen is narrow",
          "",
          "1. first",
          "",
          "> quoted words",
          "",
          "```",
          "code stays as it is",
          "```",
        ].join("\n"),
      },
    });
    const out = (await game.run(ann, "+wiki guide/start")).text("Ann");
    assert.match(out, /Getting Started \(guide\/start\)/);
    assert.match(out, /^Welcome$/m);
    assert.match(out, /Read this first, then that\./);
    assert.match(out, /the rules <https:\/\/example\.com\/rules>/);
    assert.match(out, /Costs 100% of nothing: %cr no colour codes here\./);
    assert.match(out, /^ {2}\* one short item$/m);
    assert.match(out, /^ {2}1\. first$/m);
    assert.match(out, /^\| quoted words$/m);
    assert.match(out, /^ {2}code stays as it is$/m);
    assert.match(out, /Tags: newbie/);
    // Wrapped to the width (78 for the kit's web client): no line is longer.
    for (const line of out.split("\n")) assert.ok(line.length <= 78, line);
    assert.match(out, /^ {4}\S/m); // the long item's continuation hangs under its text

    const folder = (await game.run(ann, "+wiki guide")).text("Ann");
    assert.match(folder, /Wiki: guide\//);
    assert.match(folder, /start\s+Getting Started/);
    const root = (await game.run(ann, "+wiki")).text("Ann");
    assert.match(root, /guide\//);
    assert.match((await game.run(ann, "+wiki nowhere")).text("Ann"), /There is no such wiki page/);
    assert.match((await game.run(ann, "+wiki ../etc")).text("Ann"), /Invalid wiki path/);
    const found = (await game.run(ann, "+wiki/search newbie")).text("Ann");
    assert.match(found, /guide\/start\s+Getting Started/);
    assert.match((await game.run(ann, "+wiki/search zzzz")).text("Ann"), /No wiki pages match/);

    // The help topic comes with the plugin.
    const help = (await game.run(ann, "help wiki")).text("Ann");
    assert.match(help, /@wiki\/fetch <url>=<wiki-path>/);

    // Staff only: create and edit.
    assert.doesNotMatch(
      (await game.run(ann, "@wiki/create x=Title/Body")).text("Ann"),
      /created/,
    );
    assert.deepEqual(await tree(dir), ["guide/start.md"]);
    const made = await game.run(
      admin,
      "@wiki/create lore/moons=The Moons/Two moons.%rThe second is red.",
    );
    assert.match(made.text("Boss"), /Wiki page 'lore\/moons' created\./);
    const page = await game.request("GET", "/api/v1/wiki/lore/moons", { as: bob });
    assert.equal(page.body.title, "The Moons");
    assert.equal(page.body.author, "Boss");
    assert.match(page.body.date, /^\d{4}-\d{2}-\d{2}$/);
    assert.equal(page.body.body, "Two moons.\nThe second is red.");
    assert.match(
      (await game.run(admin, "@wiki/create lore/moons=Again/x")).text("Boss"),
      /already exists/,
    );
    const before = await Deno.readTextFile(join(dir, "lore/moons.md"));
    await game.run(admin, "@wiki/edit lore/moons=Three moons now.");
    const after = await Deno.readTextFile(join(dir, "lore/moons.md"));
    assert.equal(after.split("\n---\n")[0], before.split("\n---\n")[0]);
    assert.match(after, /\n\nThree moons now\.$/);
    assert.match((await game.run(admin, "@wiki/edit nope=x")).text("Boss"), /no such wiki page/);
    assert.match(
      (await game.run(admin, "@wiki/create ../x=T/B")).text("Boss"),
      /Invalid wiki path/,
    );
    assert.match((await game.run(admin, "@wiki/create y")).text("Boss"), /Usage/);
    assert.match((await game.run(admin, "@wiki")).text("Boss"), /Usage/);

    // Events: REST and in-game changes alike, with the page's path (and meta on create).
    const evs = await events(game);
    assert.deepEqual(evs.map((e) => [e.event, e.payload.path]), [
      ["wiki:created", "guide/start"],
      ["wiki:created", "lore/moons"],
      ["wiki:edited", "lore/moons"],
    ]);
    assert.equal((evs[1].payload.meta as { title: string }).title, "The Moons");
    assert.equal(evs[1].payload.actorName, "Boss");
  });
});

Deno.test("wiki paths: hostile paths are refused everywhere and nothing outside is touched", async () => {
  await withWiki(async ({ game, dir, admin, ann }) => {
    const outside = await Deno.makeTempDir({ prefix: "ursamu-outside-" });
    try {
      await Deno.writeTextFile(join(outside, "secret.md"), "---\ntitle: Secret\n---\nkeep out");
      await Deno.writeFile(join(outside, "secret.png"), PNG);
      await Deno.symlink(outside, join(dir, "escape"));
      await Deno.symlink(join(outside, "secret.md"), join(dir, "leak.md"));
      await Deno.symlink(join(outside, "secret.png"), join(dir, "leak.png"));
      const outsideBefore = await tree(outside);

      // Paths in a JSON body (create): the text the client sent, checked as it is.
      const bodyPaths = [
        "../x",
        "../../etc/passwd",
        "a/../../x",
        "a/./b",
        "/etc/passwd",
        "/abs",
        "a//b",
        "a\\..\\b",
        "..\\x",
        "C:\\x",
        ".git/config",
        ".hidden",
        "a/.b",
        "..",
        ".",
        "",
        "x".repeat(101),
        Array(20).fill("d").join("/"),
        "a/b.md",
        "escape/new",
        "escape/secret",
        "leak",
        "a%2f..%2fb",
        "tab\there",
      ];
      for (const path of bodyPaths) {
        const r = await game.request("POST", "/api/v1/wiki", {
          as: admin,
          body: { path, title: "T", body: "x" },
        });
        assert.equal(
          r.status === 400 || r.status === 409,
          true,
          `POST ${JSON.stringify(path)}: ${r.status}`,
        );
        assert.equal(typeof r.body.error, "string");
      }
      const nul = await game.request("POST", "/api/v1/wiki", {
        as: admin,
        body: { path: "a\u0000b", title: "T" },
      });
      // The engine's JSON sanitiser drops NUL before any plugin sees the body: the path is
      // then plain `ab`, inside the wiki.
      assert.deepEqual([nul.status, nul.body.path], [201, "ab"]);
      await game.request("DELETE", "/api/v1/wiki/ab", { as: admin });

      // Paths in URLs: encoded separators, dot segments, NUL, symlinks out.
      const urlPaths = [
        "..%2f..%2fetc%2fpasswd",
        "a%2fb",
        "a%5cb",
        "..%5c..%5cx",
        "%2e%2e%2fx",
        "a%00b",
        "%2fetc",
        ".git",
        ".git/config",
        "escape",
        "escape/secret",
        "escape/secret.png",
        "leak",
        "leak.png",
        "a%zzb",
        "README",
        "x.md",
      ];
      for (const p of urlPaths) {
        const url = `/api/v1/wiki/${p}`;
        for (
          const [method, as, body] of [
            ["GET", ann, undefined],
            ["PATCH", admin, { body: "pwned" }],
            ["DELETE", admin, undefined],
          ] as const
        ) {
          const r = await game.request(method, url, { as, body });
          assert.equal(r.status === 400 || r.status === 404, true, `${method} ${url}: ${r.status}`);
          assert.equal(typeof r.body.error, "string", `${method} ${url}`);
        }
      }
      const putPaths = [
        "..%2fx.png",
        "a%2fb.png",
        "a%5cb.png",
        "%2e%2e%2fx.png",
        "a%00b.png",
        ".git/x.png",
        ".hidden.png",
        "escape/x.png",
        "escape/secret.png",
        "leak.png",
      ];
      for (const p of putPaths) {
        const put = await raw(game, "PUT", `/api/v1/wiki/${p}`, {
          as: admin,
          headers: { "content-type": "image/png" },
          body: PNG,
        });
        assert.equal(put.status, 400, `PUT ${p}`);
        assert.match((await put.json()).error, /Invalid wiki path/);
      }
      const abs = await raw(game, "GET", "/api/v1/wiki//etc/passwd", { as: ann });
      assert.equal(abs.status, 400);
      await abs.body?.cancel();
      // Raw TCP keeps what fetch would normalise away (`..` segments).
      const port = Number(new URL(game.base).port);
      for (const target of ["/api/v1/wiki/../../../etc/passwd", "/api/v1/wiki/a/../../x.png"]) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port });
        await conn.write(new TextEncoder().encode(
          `GET ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ann.token}\r\nConnection: close\r\n\r\n`,
        ));
        const text = new TextDecoder().decode(
          new Uint8Array(await new Response(conn.readable).arrayBuffer()),
        );
        assert.doesNotMatch(text, /root:|HTTP\/1\.1 200/, target);
      }
      // In game too.
      for (const p of ["../x", "escape/secret", "leak", "/etc/passwd", ".git"]) {
        const out = (await game.run(ann, `+wiki ${p}`)).text("Ann");
        assert.match(out, /Invalid wiki path|no such wiki page/, p);
        assert.doesNotMatch(out, /keep out/);
      }
      const fetchOut = (await game.run(admin, "@wiki/fetch http://example.com/a.png=../a.png"))
        .text("Boss");
      assert.match(fetchOut, /Invalid wiki path/);

      // Nothing outside changed; inside, only the links that were already there.
      assert.deepEqual(await tree(outside), outsideBefore);
      assert.equal(
        await Deno.readTextFile(join(outside, "secret.md")),
        "---\ntitle: Secret\n---\nkeep out",
      );
      assert.deepEqual(await Deno.readFile(join(outside, "secret.png")), PNG);
      const inside = await Array.fromAsync(Deno.readDir(dir));
      assert.deepEqual(inside.map((e) => e.name).sort(), ["escape", "leak.md", "leak.png"]);
      // Links out are not listed or searched.
      const root = (await game.run(ann, "+wiki")).text("Ann");
      assert.doesNotMatch(root, /escape|leak/);
      const hits = await game.request("GET", "/api/v1/wiki?q=keep", { as: ann });
      assert.deepEqual(hits.body, []);
    } finally {
      await Deno.remove(outside, { recursive: true });
    }
  });
});

Deno.test("wiki folder missing: an empty wiki until the first write makes it, then watched", async () => {
  const base = await Deno.makeTempDir({ prefix: "ursamu-wiki-" });
  const dir = join(base, "not", "yet");
  const game = await startTestGame({ plugins: ["wiki"], config: { server: { wikiDir: dir } } });
  try {
    const admin = await game.player("Boss", { flags: ["admin"] });
    const root = (await game.run(admin, "+wiki")).text("Boss");
    assert.match(root, /Wiki: \/[\s\S]*\(empty\)/);
    assert.deepEqual((await game.request("GET", "/api/v1/wiki?q=x", { as: admin })).body, []);
    await assert.rejects(Deno.stat(dir)); // reading made no folder
    const made = await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "first", title: "First", body: "hello" },
    });
    assert.equal(made.status, 201);
    assert.equal((await game.request("GET", "/api/v1/wiki?q=hello", { as: admin })).body.length, 1);
    await Deno.writeTextFile(join(dir, "second.md"), "---\ntitle: Second\n---\nwatched-word");
    let hits: unknown[] = [];
    for (let i = 0; i < 50 && hits.length === 0; i++) {
      hits = (await game.request("GET", "/api/v1/wiki?q=watched-word", { as: admin })).body;
      if (!hits.length) await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(hits, [{ path: "second", title: "Second", type: "page" }]);
  } finally {
    await game.close();
    await Deno.remove(base, { recursive: true });
  }
});

Deno.test("wiki writes are atomic: readers see a whole old or new page; racing creates, one wins", async () => {
  await withWiki(async ({ game, dir, admin, ann }) => {
    const size = 512 * 1024;
    const a = "a".repeat(size), b = "b".repeat(size);
    await game.request("POST", "/api/v1/wiki", {
      as: admin,
      body: { path: "big", title: "Big", body: a },
    });
    const writes = Array.from(
      { length: 6 },
      (_, i) =>
        game.request("PATCH", "/api/v1/wiki/big", { as: admin, body: { body: i % 2 ? a : b } }),
    );
    const reads = Array.from(
      { length: 12 },
      () => game.request("GET", "/api/v1/wiki/big", { as: ann }),
    );
    for (const r of await Promise.all(reads)) {
      assert.equal(r.status, 200);
      assert.ok(r.body.body === a || r.body.body === b, "a torn read");
    }
    for (const w of await Promise.all(writes)) assert.equal(w.status, 200);
    const races = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        game.request("POST", "/api/v1/wiki", {
          as: admin,
          body: { path: "race", title: `Racer ${i}`, body: `won by ${i}` },
        })),
    );
    assert.deepEqual(races.map((r) => r.status).sort(), [201, 409, 409, 409, 409]);
    const winner = races.find((r) => r.status === 201)!;
    const page = await game.request("GET", "/api/v1/wiki/race", { as: ann });
    assert.equal(page.body.title, winner.body.title);
    // No temporary file is left behind.
    assert.deepEqual(await tree(dir), ["big.md", "race.md"]);
  });
});
