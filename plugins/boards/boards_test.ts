/**
 * The boards plugin through the real engine (the plugin test kit): every REST endpoint and
 * its refusals, locks, post numbers after deletes, unread counts for two readers, and the
 * in-game commands with the new-post notice.
 */
import assert from "node:assert/strict";
import {
  memoryPluginKv,
  startTestGame,
  type TestGame,
  type TestPlayer,
} from "../../src/plugins/testing.ts";
import { BoardStore } from "./store.ts";
import { seedBoards } from "./defaults.ts";

const B = "/api/v1/boards";
/** A game without the default boards: these tests number the boards they make from 1. */
const NO_DEFAULTS = { plugins: { boards: { defaultBoards: [] } } };

async function withGame(
  fn: (g: TestGame, staff: TestPlayer) => Promise<void>,
  config?: Record<string, unknown>,
) {
  const game = await startTestGame({ plugins: ["boards"], config: { ...NO_DEFAULTS, ...config } });
  try {
    await fn(game, await game.player("Wiz", { flags: ["wizard"] }));
  } finally {
    await game.close();
  }
}

Deno.test("boards: staff create, list, get by id or slug, update, delete; refusals", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann");
    const req = (m: string, p: string, as: TestPlayer, body?: unknown) =>
      game.request(m, p, { as, body });
    const made = await req("POST", B, wiz, { name: "  Staff   News ", description: "From staff" });
    assert.equal(made.status, 201);
    assert.deepEqual(
      [made.body.id, made.body.name, made.body.slug, made.body.posts, made.body.unread],
      ["1", "Staff News", "staff-news", 0, 0],
    );
    assert.equal((await req("POST", B, ann, { name: "Mine" })).status, 403);
    assert.equal((await game.request("GET", B)).status, 401);
    const bad = async (body: unknown, re: RegExp, status = 400) => {
      const r = await req("POST", B, wiz, body);
      assert.equal(r.status, status, JSON.stringify(body));
      assert.match(r.body.error, re);
    };
    await bad({}, /name is required/);
    await bad({ name: "   " }, /name is required/);
    await bad({ name: "123" }, /only digits/);
    await bad({ name: "007" }, /only digits/);
    await bad({ name: "x".repeat(33) }, /32 characters/);
    await bad({ name: "a/b" }, /only letters/);
    await bad({ name: "unread" }, /reserved/);
    await bad({ name: "Ok", description: "d".repeat(501) }, /500 characters/);
    await bad({ name: "Ok", readLock: "(((" }, /readLock: Lock syntax error/);
    await bad({ name: "STAFF news" }, /already exists/, 409);
    await bad("not json", /JSON|body/i);
    // None of the refusals wrote a board.
    assert.equal((await req("GET", B, wiz)).body.length, 1);

    const one = await req("GET", `${B}/1`, ann);
    assert.equal(one.body.name, "Staff News");
    assert.equal(one.body.readLock, undefined, "players do not see locks");
    assert.equal((await req("GET", `${B}/staff-news`, ann)).body.id, "1");
    assert.equal((await req("GET", `/api/v1/bbs/staff-news`, ann)).body.id, "1");
    assert.equal((await req("GET", `${B}/99`, ann)).status, 404);
    assert.equal((await req("GET", `${B}/nope`, ann)).status, 404);

    assert.equal((await req("PATCH", `${B}/1`, ann, { description: "x" })).status, 403);
    const up = await req("PATCH", `${B}/1`, wiz, { name: "News", description: "All news" });
    assert.deepEqual([up.status, up.body.slug, up.body.description], [200, "news", "All news"]);
    assert.equal((await req("GET", `${B}/staff-news`, ann)).status, 404, "old slug is free");
    assert.equal((await req("GET", `${B}/news`, ann)).body.id, "1");
    const odd = await req("PATCH", `${B}/1`, wiz, { owner: "2" });
    assert.deepEqual([odd.status, odd.body.error.startsWith("unknown field 'owner'")], [400, true]);
    assert.equal((await req("PATCH", `${B}/1`, wiz, {})).status, 400);
    await req("POST", B, wiz, { name: "Other" });
    assert.equal((await req("PATCH", `${B}/1`, wiz, { name: "other" })).status, 409);

    await req("POST", `${B}/1/posts`, ann, { subject: "Hi", body: "Hello" });
    assert.equal((await req("DELETE", `${B}/1`, ann)).status, 403);
    assert.deepEqual((await req("DELETE", `${B}/1`, wiz)).body, { deleted: true });
    assert.equal((await req("GET", `${B}/1`, wiz)).status, 404);
    assert.equal((await req("GET", `${B}/1/posts/1`, wiz)).status, 404);
    // The name is free again and the new board starts empty, with a new number.
    const again = await req("POST", B, wiz, { name: "News" });
    assert.deepEqual([again.body.id, again.body.posts], ["3", 0]);
    assert.deepEqual((await req("GET", `${B}/news/posts`, ann)).body, []);
  });
});

Deno.test("boards: posts numbered per board, never reused, paged, edited by author or staff", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const req = (m: string, p: string, as: TestPlayer, body?: unknown) =>
      game.request(m, p, { as, body });
    await req("POST", B, wiz, { name: "General" });
    await req("POST", B, wiz, { name: "Ads" });
    for (let i = 1; i <= 4; i++) {
      const r = await req("POST", `${B}/general/posts`, ann, { subject: `S${i}`, body: `B${i}` });
      assert.deepEqual([r.status, r.body.num, r.body.board], [201, i, "1"]);
    }
    assert.equal(
      (await req("POST", `${B}/ads/posts`, bob, { subject: "A", body: "a" })).body.num,
      1,
    );
    assert.equal((await req("DELETE", `${B}/general/posts/4`, bob)).status, 403);
    assert.deepEqual((await req("DELETE", `${B}/general/posts/4`, ann)).body, { deleted: true });
    assert.equal((await req("DELETE", `${B}/general/posts/2`, wiz)).status, 200);
    assert.equal((await req("DELETE", `${B}/general/posts/2`, wiz)).status, 404);
    const next = await req("POST", `${B}/general/posts`, bob, { subject: "S5", body: "B5" });
    assert.equal(next.body.num, 5, "4 was deleted but is never given out again");
    const nums = async (q = "") =>
      (await req("GET", `${B}/general/posts${q}`, ann)).body.map((p: { num: number }) => p.num);
    assert.deepEqual(await nums(), [1, 3, 5]);
    assert.deepEqual(await nums("?limit=1&offset=1"), [3]);
    assert.deepEqual(await nums("?offset=3"), []);
    assert.equal((await req("GET", `${B}/general/posts?limit=0`, ann)).status, 400);
    assert.equal((await req("GET", `${B}/general`, ann)).body.posts, 3);

    // Refusals change nothing.
    const refuse = async (body: unknown, re: RegExp) => {
      const r = await req("POST", `${B}/general/posts`, ann, body);
      assert.equal(r.status, 400, JSON.stringify(body).slice(0, 80));
      assert.match(r.body.error, re);
    };
    await refuse({ subject: " ", body: "x" }, /subject is required/);
    await refuse({ subject: "x", body: "" }, /body is required/);
    await refuse({ subject: "x".repeat(101), body: "x" }, /100 characters/);
    await refuse({ subject: "x", body: "y".repeat(8001) }, /8000 characters/);
    await refuse({ subject: 5, body: "y" }, /subject must be a string/);
    assert.deepEqual(await nums(), [1, 3, 5]);
    assert.equal(
      (await req("POST", `${B}/nope/posts`, ann, { subject: "a", body: "b" })).status,
      404,
    );
    assert.equal((await req("GET", `${B}/general/posts/0`, ann)).status, 404);
    assert.equal((await req("GET", `${B}/general/posts/x`, ann)).status, 404);

    const edit = (as: TestPlayer, body: unknown) => req("PATCH", `${B}/general/posts/5`, as, body);
    assert.equal((await edit(ann, { body: "mine now" })).status, 403);
    const ok = await edit(bob, { body: "  edited  " });
    assert.deepEqual([ok.status, ok.body.body, ok.body.subject], [200, "edited", "S5"]);
    assert.equal(typeof ok.body.editedAt, "number");
    assert.equal((await edit(wiz, { subject: "Staff fix" })).body.subject, "Staff fix");
    assert.equal((await edit(bob, { subject: "" })).status, 400);
    assert.equal((await edit(bob, { author: "1" })).status, 400);
    const read = await req("GET", `${B}/general/posts/5`, ann);
    assert.deepEqual([read.body.body, read.body.author, read.body.authorName], [
      "edited",
      bob.id,
      "Bob",
    ]);
  });
});

Deno.test("boards: unread counts after reads by two players, one write per read", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const req = (m: string, p: string, as: TestPlayer, body?: unknown) =>
      game.request(m, p, { as, body });
    await req("POST", B, wiz, { name: "General" });
    await req("POST", B, wiz, { name: "Ads" });
    for (let i = 1; i <= 5; i++) {
      await req("POST", `${B}/general/posts`, wiz, { subject: `S${i}`, body: "b" });
    }
    await req("POST", `${B}/ads/posts`, wiz, { subject: "A1", body: "b" });
    const unread = async (as: TestPlayer) =>
      Object.fromEntries(
        (await req("GET", B, as)).body.map((b: { slug: string; unread: number }) => [
          b.slug,
          b.unread,
        ]),
      );
    assert.deepEqual(await unread(ann), { general: 5, ads: 1 });
    assert.deepEqual(await unread(wiz), { general: 0, ads: 0 }, "the author has read them");

    // HEAD answers like GET (200, JSON) and marks nothing read.
    const head = await req("HEAD", `${B}/general/posts/1`, ann);
    assert.deepEqual([head.status, head.body], [200, ""]);
    assert.match(head.headers.get("content-type") ?? "", /application\/json/);
    assert.deepEqual(await unread(ann), { general: 5, ads: 1 }, "a HEAD reads nothing");

    // Ann reads 1, 3 and 5; Bob reads 2.
    for (const n of [1, 3, 5]) await req("GET", `${B}/general/posts/${n}`, ann);
    await req("GET", `${B}/1/posts/2`, bob);
    assert.deepEqual(await unread(ann), { general: 2, ads: 1 });
    assert.deepEqual(await unread(bob), { general: 4, ads: 1 });
    const marks = (await req("GET", `${B}/general/posts`, ann)).body.map((p: { read: boolean }) =>
      p.read
    );
    assert.deepEqual(marks, [true, false, true, false, true]);

    // Reading again changes nothing; deleting an unread post takes it out of the count.
    await req("GET", `${B}/general/posts/1`, ann);
    await req("DELETE", `${B}/general/posts/2`, wiz);
    assert.deepEqual(await unread(ann), { general: 1, ads: 1 });
    assert.deepEqual(await unread(bob), { general: 4, ads: 1 }, "Bob's one read post is gone");
    await req("GET", `${B}/general/posts/4`, ann);
    assert.deepEqual(await unread(ann), { general: 0, ads: 1 });

    const summary = await req("GET", `${B}/unread`, bob);
    assert.deepEqual(summary.body, {
      unread: 5,
      total: 5,
      boards: [
        { id: "1", name: "General", slug: "general", unread: 4 },
        { id: "2", name: "Ads", slug: "ads", unread: 1 },
      ],
    });
    assert.deepEqual((await req("POST", `${B}/general/read`, bob)).body, { id: "1", unread: 0 });
    assert.deepEqual(await unread(bob), { general: 0, ads: 1 });
    assert.deepEqual((await req("GET", `/api/v1/bbs/unread`, bob)).body.total, 1);
    // A new post is unread again for both, read for its author.
    await req("POST", `${B}/general/posts`, ann, { subject: "New", body: "b" });
    assert.deepEqual(await unread(bob), { general: 1, ads: 1 });
    assert.deepEqual(await unread(ann), { general: 0, ads: 1 });
    assert.equal((await req("POST", `${B}/nope/read`, bob)).status, 404);
  });
});

Deno.test("boards: read locks hide a board (404), post locks refuse posting (403)", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann"), bld = await game.player("Bld", { flags: ["builder"] });
    const req = (m: string, p: string, as: TestPlayer, body?: unknown) =>
      game.request(m, p, { as, body });
    await req("POST", B, wiz, { name: "Builders", readLock: "builder+" });
    await req("POST", B, wiz, { name: "Announcements", postLock: "admin+" });
    await req("POST", `${B}/builders/posts`, wiz, { subject: "Build", body: "secret" });
    const slugs = async (as: TestPlayer, path = B) =>
      (await req("GET", path, as)).body.map((b: { slug: string }) => b.slug);
    assert.deepEqual(await slugs(ann), ["announcements"]);
    assert.deepEqual(await slugs(bld), ["builders", "announcements"]);
    assert.deepEqual(await slugs(wiz), ["builders", "announcements"]);
    assert.deepEqual((await req("GET", `${B}/unread`, ann)).body, {
      unread: 0,
      total: 0,
      boards: [],
    });
    for (
      const [m, p] of [
        ["GET", `${B}/builders`],
        ["GET", `${B}/1`],
        ["GET", `${B}/builders/posts`],
        ["GET", `${B}/builders/posts/1`],
        ["POST", `${B}/builders/read`],
        ["DELETE", `${B}/builders/posts/1`],
      ]
    ) {
      const r = await req(m, p, ann, m === "POST" ? {} : undefined);
      assert.deepEqual([r.status, r.body], [404, { error: "Board not found" }], `${m} ${p}`);
    }
    const post = await req("POST", `${B}/builders/posts`, ann, { subject: "x", body: "y" });
    assert.equal(post.status, 404);
    assert.equal((await req("GET", `${B}/builders/posts/1`, bld)).body.body, "secret");

    const refused = await req("POST", `${B}/announcements/posts`, ann, { subject: "x", body: "y" });
    assert.deepEqual([refused.status, refused.body], [403, {
      error: "You may not post on that board.",
    }]);
    assert.equal((await req("GET", `${B}/announcements`, ann)).body.posts, 0);
    const staff = await req("POST", `${B}/announcements/posts`, wiz, { subject: "Hi", body: "y" });
    assert.equal(staff.status, 201);
    // Locks are changed with PATCH; a bad lock is a 400 that changes nothing.
    assert.equal((await req("PATCH", `${B}/builders`, wiz, { readLock: "|" })).status, 400);
    assert.deepEqual(await slugs(ann), ["announcements"]);
    await req("PATCH", `${B}/builders`, wiz, { readLock: "" });
    assert.deepEqual(await slugs(ann), ["builders", "announcements"]);
    assert.equal((await req("GET", `${B}/builders`, wiz)).body.readLock, "");
  });
});

Deno.test("boards: +bb commands in game, the new-post notice, staff commands", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const cy = await game.player("Cy");
    await game.connect(bob);
    await game.connect(cy);
    assert.match(
      (await game.run(ann, "+bbcreate General=Chat")).text("Ann"),
      /^(Permission denied|Huh)/,
    );
    assert.equal(
      (await game.run(wiz, "+bbcreate General=Chat")).text("Wiz"),
      "Board 1 'General' created.",
    );
    assert.match((await game.run(wiz, "+bbcreate 42")).text("Wiz"), /only digits/);
    assert.equal((await game.run(wiz, "+bbcreate Staff")).text("Wiz"), "Board 2 'Staff' created.");
    assert.equal(
      (await game.run(wiz, "+bblock Staff=admin+")).text("Wiz"),
      "Staff: read lock set to admin+.",
    );
    assert.match((await game.run(wiz, "+bblock/post General=((")).text("Wiz"), /Lock syntax error/);
    assert.equal(
      (await game.run(wiz, "+bblock General")).text("Wiz"),
      "General: read lock (none); post lock (none)",
    );

    const posted = await game.run(ann, "+bbpost General/Meeting=Tonight at eight.");
    assert.equal(posted.text("Ann"), "You post message 1/1 to General: Meeting");
    assert.equal(
      posted.text("Bob"),
      "(New BB message (1/1) posted to 'General' by Ann: Meeting)",
    );
    assert.equal(posted.of("Bob")[0].data.type, "bbpost");
    const hidden = await game.run(wiz, "+bbpost Staff/Secret=Only staff.");
    assert.equal(hidden.text("Bob"), "", "a reader locked out hears nothing");
    assert.equal(hidden.text("Ann"), "");
    assert.match((await game.run(ann, "+bbpost Staff/x=y")).text("Ann"), /Board not found/);
    assert.match((await game.run(ann, "+bbpost General/=y")).text("Ann"), /subject is required/);
    assert.match((await game.run(ann, "+bbpost General")).text("Ann"), /Usage/);
    assert.match((await game.run(ann, "+bbpost General/x=")).text("Ann"), /body is required/);
    await game.run(ann, "+bbpost General/Second=More.");

    const boards = (await game.run(bob, "+bbread")).text("Bob");
    assert.match(boards, /1 {2}General +2 +2 {2}Chat/);
    assert.doesNotMatch(boards, /Staff/);
    const list = (await game.run(bob, "+bbread general")).text("Bob");
    assert.match(list, /1\/1 +\* Meeting +Ann/);
    assert.match(list, /1\/2 +\* Second +Ann/);
    const read = (await game.run(bob, "+bbread 1/1")).text("Bob");
    assert.match(read, /Subject: Meeting/);
    assert.match(read, /Tonight at eight\./);
    assert.match((await game.run(bob, "+bbread general")).text("Bob"), /1\/1 {7}Meeting/);
    assert.match((await game.run(bob, "+bbscan")).text("Bob"), /General \(1\): 1 unread \(2\)/);
    assert.match((await game.run(bob, "+bbnew")).text("Bob"), /1\/2 +General +Second +Ann/);
    assert.match((await game.run(bob, "+bbnext")).text("Bob"), /Subject: Second/);
    assert.equal((await game.run(bob, "+bbnext")).text("Bob"), "You have no unread posts.");
    assert.equal((await game.run(bob, "+bbscan")).text("Bob"), "You have no unread posts.");
    assert.match((await game.run(bob, "+bbread 1/9")).text("Bob"), /Post not found/);
    assert.match((await game.run(bob, "+bbread 2/1")).text("Bob"), /Board not found/);

    // Edits and removals: the author or staff only.
    assert.match((await game.run(bob, "+bbedit 1/1=eight/nine")).text("Bob"), /Only the author/);
    assert.equal(
      (await game.run(ann, "+bbedit 1/1=eight/nine")).text("Ann"),
      "Message 1/1 edited.",
    );
    assert.match((await game.run(ann, "+bbedit 1/1=zebra/x")).text("Ann"), /not in the post/);
    assert.match((await game.run(bob, "+bbread 1/1")).text("Bob"), /Tonight at nine\./);
    assert.match((await game.run(bob, "+bbremove 1/1")).text("Bob"), /Only the author/);
    assert.equal(
      (await game.run(ann, "+bbremove 1/2")).text("Ann"),
      "Message 1/2 removed from General.",
    );
    await game.run(ann, "+bbpost General/Third=Again.");
    assert.match((await game.run(cy, "+bbread 1")).text("Cy"), /1\/3 +\* Third/);
    assert.doesNotMatch((await game.run(cy, "+bbread 1")).text("Cy"), /1\/2/);

    assert.equal((await game.run(cy, "+bbcatchup all")).text("Cy"), "All boards marked read.");
    assert.equal((await game.run(cy, "+bbnext")).text("Cy"), "You have no unread posts.");
    assert.equal((await game.run(cy, "+bbcatchup")).text("Cy"), "Usage: +bbcatchup <board>|all");
    assert.match(
      (await game.run(ann, "+bbdestroy General")).text("Ann"),
      /^(Permission denied|Huh)/,
    );
    assert.equal(
      (await game.run(wiz, "+bbdestroy General")).text("Wiz"),
      "Board 1 'General' destroyed with its posts.",
    );
    assert.equal((await game.run(bob, "+bbread")).text("Bob"), "There are no boards.");
    const help = await game.request("GET", "/api/v1/help/boards");
    assert.ok(help.status === 200 || help.status === 404);
  });
});

Deno.test("boards: a REST subject is one line, so the new-post notice cannot forge a line", async () => {
  const game = await startTestGame({ plugins: ["boards"], config: NO_DEFAULTS });
  try {
    const wiz = await game.player("Wiz", { flags: ["wizard"] });
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    await game.request("POST", "/api/v1/boards", { as: wiz, body: { name: "News" } });
    await game.connect(bob);
    await game.received(); // the login's look
    const forged = "Hello\n%ch(New BB message (1/2) posted to 'News' by Wiz: Free items)%cn";
    const p = await game.request("POST", "/api/v1/boards/1/posts", {
      as: ann,
      body: { subject: forged, body: "First.\nSecond." },
    });
    assert.equal(p.status, 201);
    assert.equal(p.body.subject, forged.replace("\n", " "));
    assert.equal(p.body.body, "First.\nSecond.", "a body keeps its lines");
    const heard = (await game.received()).text("Bob").split("\n").filter((l) => l.trim());
    assert.equal(heard.length, 1, heard.join(" | "));
    const edited = await game.request("PATCH", "/api/v1/boards/1/posts/1", {
      as: ann,
      body: { subject: "A\r\nB" },
    });
    assert.deepEqual([edited.status, edited.body.subject], [200, "A B"]);
  } finally {
    await game.close();
  }
});

Deno.test("boards: a burst of posts reaches each reader as one line, not one per post", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    await game.request("POST", B, { as: wiz, body: { name: "General" } });
    await game.request("POST", B, { as: wiz, body: { name: "Trade" } });
    await game.connect(bob);
    await game.received();
    for (let i = 1; i <= 6; i++) {
      const r = await game.request("POST", `${B}/general/posts`, {
        as: ann,
        body: { subject: `Post ${i}`, body: "b" },
      });
      assert.equal(r.status, 201);
    }
    await game.request("POST", `${B}/trade/posts`, {
      as: ann,
      body: { subject: "Sale", body: "b" },
    });
    const heard = (await game.received()).of("Bob").filter((h) => h.data.type === "bbpost");
    assert.deepEqual(heard.map((h) => h.text), [
      "(New BB message (1/1) posted to 'General' by Ann: Post 1)",
      "(New BB message (2/1) posted to 'Trade' by Ann: Sale)",
    ], "the rest of the minute's posts on General wait for one line");
  }, { game: { restWritesPerMinute: 0 } });
});

Deno.test("boards: a player posts at most plugins.boards.postsPerDay a board a day; staff are not held", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann");
    await game.request("POST", B, { as: wiz, body: { name: "General" } });
    await game.request("POST", B, { as: wiz, body: { name: "Trade" } });
    const post = (as: TestPlayer, board: string) =>
      game.request("POST", `${B}/${board}/posts`, { as, body: { subject: "s", body: "b" } });
    const made = await Promise.all([1, 2, 3, 4].map(() => post(ann, "general")));
    assert.deepEqual(made.map((r) => r.status).sort(), [201, 201, 429, 429]);
    assert.deepEqual(made.find((r) => r.status === 429)!.body, {
      error: "You have posted 2 times on that board today, the most a day.",
    });
    assert.equal((await post(ann, "trade")).status, 201, "each board counts apart");
    assert.match((await game.run(ann, "+bbpost general/s=b")).text("Ann"), /posted 2 times/);
    for (let i = 0; i < 3; i++) assert.equal((await post(wiz, "general")).status, 201);
    assert.equal((await game.request("GET", `${B}/general`, { as: ann })).body.posts, 5);
  }, { plugins: { boards: { postsPerDay: 2, defaultBoards: [] } } });
});

Deno.test("boards: a thing's posts count against its owner's posts a day", async () => {
  // Before: a thing counted as itself, so each of a player's thousand things had the day's 25
  // posts of a board of its own (s53probe).
  const game = await startTestGame({
    plugins: ["boards", "building"],
    config: { plugins: { boards: { postsPerDay: 2, defaultBoards: [] } } },
  });
  try {
    const wiz = await game.player("Wiz", { flags: ["wizard"] });
    const bea = await game.player("Bea", { flags: ["builder"] });
    await game.request("POST", B, { as: wiz, body: { name: "General" } });
    await game.run(bea, "@create Box");
    await game.run(bea, "@force Box=+bbpost general/From the box=b");
    await game.run(bea, "@force Box=+bbpost general/Again=b");
    for (let i = 0; i < 20; i++) {
      if ((await game.request("GET", `${B}/general`, { as: bea })).body.posts >= 2) break;
      await game.received();
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.match((await game.run(bea, "+bbpost general/Mine=b")).text("Bea"), /posted 2 times/);
    assert.equal((await game.request("GET", `${B}/general`, { as: bea })).body.posts, 2);
  } finally {
    await game.close();
  }
});

Deno.test("boards: a fresh game has Announcements (staff post) and General", async () => {
  const game = await startTestGame({ plugins: ["boards"] });
  try {
    const wiz = await game.player("Wiz", { flags: ["wizard"] });
    const ann = await game.player("Ann");
    const list = (await game.request("GET", B, { as: ann })).body;
    assert.deepEqual(
      list.map((b: { id: string; name: string; description: string }) => [b.id, b.name]),
      [["1", "Announcements"], ["2", "General"]],
    );
    const post = (as: TestPlayer, board: string) =>
      game.request("POST", `${B}/${board}/posts`, { as, body: { subject: "Hi", body: "x" } });
    assert.equal((await post(ann, "announcements")).status, 403);
    assert.equal((await post(wiz, "announcements")).status, 201);
    assert.equal((await post(ann, "general")).status, 201);
    assert.match((await game.run(ann, "+bbread")).text("Ann"), /Announcements[\s\S]*General/);
  } finally {
    await game.close();
  }
});

Deno.test("boards: the defaults are made once, only on a game without boards", async () => {
  const fresh = await memoryPluginKv("boards");
  const older = await memoryPluginKv("boards");
  try {
    const store = new BoardStore(fresh.kv);
    const problems = await seedBoards(store, [
      { name: "News", postLock: "admin+" },
      { name: "x/y" },
      { name: "Bad lock", readLock: "(((" },
    ]);
    assert.deepEqual((await store.boards()).map((b) => [b.name, b.postLock]), [["News", "admin+"]]);
    assert.equal(problems.length, 2);
    assert.match(problems[0], /^default board 'x\/y' not made: name must start/);
    assert.match(problems[1], /^default board 'Bad lock' not made: readLock: Lock syntax/);
    // Destroyed by staff, it stays destroyed: the game was seeded once.
    await store.deleteBoard((await store.boards())[0]);
    assert.deepEqual(await seedBoards(store, [{ name: "News" }]), []);
    assert.deepEqual(await store.boards(), []);
    // A game that had boards before this engine version gets none of the defaults.
    const oldStore = new BoardStore(older.kv);
    await oldStore.createBoard({
      name: "Mine",
      slug: "mine",
      description: "",
      readLock: "",
      postLock: "",
      createdAt: 0,
      createdBy: "1",
    });
    await seedBoards(oldStore, [{ name: "General" }]);
    assert.deepEqual((await oldStore.boards()).map((b) => b.name), ["Mine"]);
  } finally {
    fresh.close();
    older.close();
  }
});
