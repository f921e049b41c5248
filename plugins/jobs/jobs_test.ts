/**
 * The jobs plugin through the real engine (the plugin test kit): REST with its filters,
 * enums and stats, who sees what (a player never sees another's job or any staff note),
 * sequential numbers under concurrency, the in-game commands and their notices, and mail
 * through the mail plugin's exported API.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  memoryPluginKv,
  startTestGame,
  type TestGame,
  type TestPlayer,
} from "../../src/plugins/testing.ts";
import type { KeyParts } from "../../src/plugins/mod.ts";
import { JobStore } from "./store.ts";

const J = "/api/v1/jobs";
const MAIL_FIXTURE = fileURLToPath(
  new URL("../../tests/fixtures/plugins/mailbag", import.meta.url),
);

async function withGame(
  fn: (g: TestGame, staff: TestPlayer) => Promise<void>,
  opts: { plugins?: string[]; config?: Record<string, unknown> } = {},
) {
  const game = await startTestGame({ plugins: opts.plugins ?? ["jobs"], config: opts.config });
  try {
    await fn(game, await game.player("Wiz", { flags: ["wizard"] }));
  } finally {
    await game.close();
  }
}

function client(game: TestGame) {
  return (m: string, p: string, as?: TestPlayer, body?: unknown) =>
    game.request(m, p, { as, body });
}

Deno.test("jobs: submit, see only your own, staff see all, by number or id", async () => {
  await withGame(async (game, wiz) => {
    const req = client(game);
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const a = await req("POST", J, ann, { title: " Fix the door ", description: "It sticks." });
    assert.equal(a.status, 201);
    assert.deepEqual(
      [a.body.number, a.body.title, a.body.status, a.body.category, a.body.priority],
      [1, "Fix the door", "new", "request", "normal"],
    );
    assert.equal(a.body.submitter, ann.id);
    assert.ok(a.body.id.startsWith("job-") && !/^[0-9]+$/.test(a.body.id));
    assert.equal(a.body.staffNotes, undefined, "a player is not told of staff notes");
    const b = await req("POST", J, bob, {
      title: "Bug",
      description: "x",
      category: "BUG",
      priority: "high",
    });
    assert.deepEqual([b.body.number, b.body.category, b.body.priority], [2, "bug", "high"]);

    const nums = async (as: TestPlayer, q = "") =>
      (await req("GET", J + q, as)).body.map((j: { number: number }) => j.number);
    assert.deepEqual(await nums(ann), [1]);
    assert.deepEqual(await nums(bob), [2]);
    assert.deepEqual(await nums(wiz), [2, 1], "staff see all, newest first");
    assert.equal((await req("GET", `${J}/1`, ann)).body.title, "Fix the door");
    assert.equal((await req("GET", `${J}/${a.body.id}`, ann)).body.number, 1);
    assert.equal((await req("GET", `${J}/%231`, wiz)).body.number, 1);
    for (const path of [`${J}/1`, `${J}/${a.body.id}`, `${J}/99`, `${J}/job-nope`, `${J}/x`]) {
      const r = await req("GET", path, bob);
      assert.deepEqual([r.status, r.body], [404, { error: "Job not found" }], path);
    }
    // Another player's job takes no comment either, and says no more than a missing one.
    const c = await req("POST", `${J}/1/comment`, bob, { text: "me too" });
    assert.deepEqual([c.status, c.body], [404, { error: "Job not found" }]);
    assert.equal((await req("GET", J)).status, 401);
    assert.equal((await req("POST", J, undefined, { title: "x", description: "y" })).status, 401);
  });
});

Deno.test("jobs: exact enums and limits, 400 naming the allowed values, nothing written", async () => {
  await withGame(async (game, wiz) => {
    const req = client(game);
    const ann = await game.player("Ann");
    const bad = async (m: string, p: string, as: TestPlayer, body: unknown, error: string) => {
      const r = await req(m, p, as, body);
      assert.deepEqual([r.status, r.body], [400, { error }], `${m} ${p} ${JSON.stringify(body)}`);
    };
    const ok = { title: "t", description: "d" };
    await bad(
      "POST",
      J,
      ann,
      { ...ok, priority: "urgent" },
      "priority must be one of: low, normal, high, critical",
    );
    await bad(
      "POST",
      J,
      ann,
      { ...ok, category: "rp " + "x" },
      "category must be one of: ooc, bug, staff",
    );
    await bad(
      "POST",
      J,
      ann,
      { ...ok, category: "request" },
      "category must be one of: ooc, bug, staff",
    );
    await bad("POST", J, ann, { description: "d" }, "title is required");
    await bad("POST", J, ann, { title: "  ", description: "d" }, "title is required");
    await bad("POST", J, ann, { title: "t" }, "description is required");
    await bad("POST", J, ann, { title: 5, description: "d" }, "title must be a string");
    await bad(
      "POST",
      J,
      ann,
      { title: "t".repeat(101), description: "d" },
      "title must be 100 characters or fewer",
    );
    await bad(
      "POST",
      J,
      ann,
      { title: "t", description: "d".repeat(8001) },
      "description must be 8000 characters or fewer",
    );
    assert.equal((await req("POST", J, ann, "nope")).status, 400);
    assert.deepEqual((await req("GET", J, wiz)).body, [], "no refusal wrote a job");

    const job = await req("POST", J, ann, { ...ok, category: "ooc" });
    assert.equal(job.body.category, "ooc");
    const p = `${J}/${job.body.number}`;
    await bad(
      "PATCH",
      p,
      wiz,
      { status: "done" },
      "status must be one of: new, open, pending, in-progress, resolved, closed",
    );
    await bad(
      "PATCH",
      p,
      wiz,
      { status: "open", priority: 3 },
      "priority must be one of: low, normal, high, critical",
    );
    await bad("PATCH", p, wiz, { category: "bugs" }, "category must be one of: ooc, bug, staff");
    await bad("PATCH", p, wiz, { assignee: "Ann" }, "Ann is not staff.");
    await bad("PATCH", p, wiz, { assignee: "Nobody99" }, "No player named 'Nobody99'.");
    await bad(
      "PATCH",
      p,
      wiz,
      { submitter: "1" },
      "unknown field 'submitter'; allowed: status, priority, category, assignee, resolution",
    );
    await bad(
      "PATCH",
      p,
      wiz,
      {},
      "nothing to change; allowed: status, priority, category, assignee, resolution",
    );
    await bad(
      "GET",
      `${J}?status=closedd`,
      wiz,
      undefined,
      "status must be one of: new, open, pending, in-progress, resolved, closed",
    );
    await bad(
      "GET",
      `${J}?priority=x`,
      wiz,
      undefined,
      "priority must be one of: low, normal, high, critical",
    );
    await bad(
      "GET",
      `${J}?category=rp`,
      wiz,
      undefined,
      "category must be one of: ooc, bug, staff",
    );
    await bad(
      "GET",
      `${J}?colour=red`,
      wiz,
      undefined,
      "unknown query 'colour'; allowed: status, category, priority, assignee, limit, offset",
    );
    const same = await req("GET", p, wiz);
    assert.deepEqual(
      [same.body.status, same.body.priority, same.body.category, same.body.assignee],
      ["new", "normal", "ooc", null],
      "no refused PATCH changed anything",
    );
    await bad("POST", `${p}/comment`, ann, { text: "" }, "text is required");
    await bad(
      "POST",
      `${p}/comment`,
      ann,
      { text: "x".repeat(4001) },
      "text must be 4000 characters or fewer",
    );
    await bad(
      "POST",
      `${p}/comment`,
      wiz,
      { text: "x", staffOnly: "yes" },
      "staffOnly must be true or false",
    );
    assert.equal((await req("GET", p, wiz)).body.commentList.length, 0);
  }, {
    config: { plugins: { jobs: { categories: ["OOC", "bug", "bug", "staff", 7, "no way"] } } },
  });
});

Deno.test("jobs: staff PATCH, DELETE, filters and stats; players refused", async () => {
  await withGame(async (game, wiz) => {
    const req = client(game);
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const adm = await game.player("Adm", { flags: ["admin"] });
    const mk = (as: TestPlayer, category: string, priority: string) =>
      req("POST", J, as, {
        title: `${category} ${priority}`,
        description: "d",
        category,
        priority,
      });
    await mk(ann, "bug", "high"); // 1
    await mk(ann, "build", "low"); // 2
    await mk(bob, "bug", "critical"); // 3
    await mk(bob, "rp", "high"); // 4
    await mk(ann, "bug", "normal"); // 5

    assert.deepEqual((await req("PATCH", `${J}/1`, ann, { status: "open" })).body, {
      error: "Only staff may change jobs.",
    });
    assert.equal((await req("PATCH", `${J}/1`, ann, { status: "open" })).status, 403);
    assert.equal((await req("DELETE", `${J}/1`, ann)).status, 403);
    assert.equal((await req("GET", `${J}/stats`, ann)).status, 403);
    assert.equal((await req("PATCH", `${J}/77`, wiz, { status: "open" })).status, 404);
    assert.equal((await req("DELETE", `${J}/77`, wiz)).status, 404);

    const up = await req("PATCH", `${J}/1`, wiz, { status: "in-progress", assignee: "Adm" });
    assert.deepEqual(
      [up.status, up.body.status, up.body.assignee, up.body.assigneeName],
      [200, "in-progress", adm.id, "Adm"],
    );
    await req("PATCH", `${J}/3`, wiz, { assignee: "Adm", priority: "low", category: "code" });
    await req("PATCH", `${J}/5`, adm, { status: "closed" });
    await req("PATCH", `${J}/2`, wiz, { assignee: "Wiz" });
    const un = await req("PATCH", `${J}/2`, wiz, { assignee: "" });
    assert.deepEqual([un.body.assignee, un.body.assigneeName], [null, null]);

    const nums = async (q: string, as = wiz) =>
      (await req("GET", J + q, as)).body.map((j: { number: number }) => j.number);
    assert.deepEqual(await nums("?status=new"), [4, 3, 2]);
    assert.deepEqual(await nums("?category=bug"), [5, 1]);
    assert.deepEqual(await nums("?category=code"), [3]);
    assert.deepEqual(await nums("?priority=high"), [4, 1]);
    assert.deepEqual(await nums("?assignee=adm"), [3, 1]);
    assert.deepEqual(await nums(`?assignee=${adm.id}&status=in-progress`), [1]);
    assert.deepEqual(await nums("?category=bug&priority=normal&status=closed"), [5]);
    assert.deepEqual(await nums("?limit=2"), [5, 4]);
    assert.deepEqual(await nums("?limit=2&offset=2"), [3, 2]);
    assert.deepEqual(await nums("?status=new", ann), [2], "players filter their own");
    assert.deepEqual(await nums("?category=rp", ann), []);

    const stats = await req("GET", `${J}/stats`, wiz);
    assert.deepEqual(stats.body, {
      total: 5,
      status: { new: 3, open: 0, pending: 0, "in-progress": 1, resolved: 0, closed: 1 },
      category: { request: 0, bug: 2, build: 1, code: 1, rp: 1 },
      priority: { low: 2, normal: 1, high: 2, critical: 0 },
    });
    assert.deepEqual((await req("DELETE", `${J}/4`, wiz)).body, { deleted: true });
    assert.equal((await req("GET", `${J}/4`, wiz)).status, 404);
    const after = (await req("GET", `${J}/stats`, wiz)).body;
    assert.deepEqual([after.total, after.status.new, after.category.rp, after.priority.high], [
      4,
      2,
      0,
      1,
    ]);
    assert.deepEqual(await nums("?priority=high"), [1]);
    // A new job after the delete takes the next number; 4 is not reused.
    assert.equal((await mk(bob, "rp", "low")).body.number, 6);
  });
});

Deno.test("jobs: staff notes never reach a player; comments are their own keys", async () => {
  await withGame(async (game, wiz) => {
    const req = client(game);
    const ann = await game.player("Ann");
    await req("POST", J, ann, { title: "Help", description: "Please" });
    const c1 = await req("POST", `${J}/1/comment`, ann, { text: "More detail" });
    assert.deepEqual([c1.status, c1.body.text, c1.body.staffOnly], [201, "More detail", false]);
    const note = await req("POST", `${J}/1/comment`, wiz, { text: "SECRET-NOTE", staffOnly: true });
    assert.equal(note.body.staffOnly, true);
    await req("POST", `${J}/1/comment`, wiz, { text: "Working on it" });
    const refused = await req("POST", `${J}/1/comment`, ann, { text: "x", staffOnly: true });
    assert.deepEqual([refused.status, refused.body], [403, {
      error: "Only staff may write staff notes.",
    }]);

    const mine = await req("GET", `${J}/1`, ann);
    assert.deepEqual(mine.body.commentList.map((c: { text: string }) => c.text), [
      "More detail",
      "Working on it",
    ]);
    assert.equal(mine.body.comments, 2);
    for (const r of [mine, await req("GET", J, ann), await req("GET", `${J}?status=new`, ann)]) {
      const text = JSON.stringify(r.body);
      assert.ok(!text.includes("SECRET-NOTE"), "no note text");
      assert.ok(!text.includes("staffNotes"), "not even their count");
    }
    const staff = await req("GET", `${J}/1`, wiz);
    assert.deepEqual(staff.body.commentList.map((c: { text: string }) => c.text), [
      "More detail",
      "SECRET-NOTE",
      "Working on it",
    ]);
    assert.deepEqual([staff.body.comments, staff.body.staffNotes], [2, 1]);
    // Deleting the job removes its comments with it.
    await req("DELETE", `${J}/1`, wiz);
    assert.equal((await req("POST", `${J}/1/comment`, wiz, { text: "late" })).status, 404);
  });
});

Deno.test("jobs: numbers are sequential and atomic under concurrent submits", async () => {
  await withGame(async (game, wiz) => {
    const req = client(game);
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    const made = await Promise.all(
      Array.from(
        { length: 30 },
        (_, i) => req("POST", J, i % 2 ? ann : bob, { title: `t${i}`, description: "d" }),
      ),
    );
    const numbers = made.map((r) => r.body.number).sort((a, b) => a - b);
    assert.deepEqual(numbers, Array.from({ length: 30 }, (_, i) => i + 1));
    assert.equal((await req("GET", `${J}/stats`, wiz)).body.total, 30);
    assert.equal((await req("GET", `${J}?limit=200`, ann)).body.length, 15);
  });
});

Deno.test("jobs: +request and +job in game, with the notices", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann"), bob = await game.player("Bob");
    await game.connect(wiz);
    await game.connect(bob);
    const filed = await game.run(ann, "+request Broken exit=The north exit loops.");
    assert.equal(
      filed.text("Ann"),
      "Your request #1 (request) is filed: Broken exit. Staff will answer; see it with +request 1.",
    );
    assert.equal(filed.text("Wiz"), "[Jobs] New job #1 (request) from Ann: Broken exit");
    assert.equal(filed.text("Bob"), "", "players are not told of others' jobs");
    assert.match((await game.run(ann, "+request/bug Typo=In the hall.")).text("Ann"), /#2 \(bug\)/);
    assert.match(
      (await game.run(ann, "+request/nope x=y")).text("Ann"),
      /switch|nope/i,
    );
    assert.equal(
      (await game.run(ann, "+request Only a title")).text("Ann"),
      "Usage: +request <title>=<text>, or +request <#>",
    );
    assert.equal((await game.run(ann, "+request =text")).text("Ann"), "title is required");

    const list = (await game.run(ann, "+requests")).text("Ann");
    assert.match(list, /#1 +new +normal +request +Broken exit/);
    assert.match(list, /#2 +new +normal +bug +Typo/);
    assert.equal((await game.run(bob, "+requests")).text("Bob"), "You have no requests.");
    assert.equal((await game.run(bob, "+request 1")).text("Bob"), "Job not found");
    assert.match((await game.run(bob, "+job 1")).text("Bob"), /^(Permission denied|Huh)/);

    // Staff work the job; the submitter hears of comments and status changes, never of notes.
    await game.connect(ann);
    const note = await game.run(wiz, "+job/staffnote 1=Ann-is-SECRET");
    assert.equal(note.text("Wiz"), "Staff note added to job #1.");
    assert.equal(note.text("Ann"), "");
    const comment = await game.run(wiz, "+job/comment 1=Looking now.");
    assert.equal(comment.text("Ann"), "[Jobs] Wiz commented on your request #1: Looking now.");
    const status = await game.run(wiz, "+job/status 1=in-progress");
    assert.equal(status.text("Wiz"), "Job #1 status set to in-progress.");
    assert.equal(status.text("Ann"), "[Jobs] Your request #1 (Broken exit) is now in-progress.");
    assert.equal(
      (await game.run(wiz, "+job/status 1=done")).text("Wiz"),
      "status must be one of: new, open, pending, in-progress, resolved, closed",
    );
    assert.equal(
      (await game.run(wiz, "+job/priority 1=urgent")).text("Wiz"),
      "priority must be one of: low, normal, high, critical",
    );
    assert.equal(
      (await game.run(wiz, "+job/priority 1=high")).text("Wiz"),
      "Job #1 priority set to high.",
    );
    assert.equal((await game.run(wiz, "+job/assign 1=Bob")).text("Wiz"), "Bob is not staff.");
    assert.equal(
      (await game.run(wiz, "+job/assign 1=Nobody99")).text("Wiz"),
      "No player named 'Nobody99'.",
    );
    const adm = await game.player("Adm", { flags: ["admin"] });
    await game.connect(adm);
    const assigned = await game.run(wiz, "+job/assign 1=Adm");
    assert.equal(assigned.text("Wiz"), "Job #1 assigned to Adm.");
    assert.equal(assigned.text("Adm"), "[Jobs] Wiz assigned job #1 to you: Broken exit");
    assert.equal(assigned.text("Ann"), "");
    assert.equal((await game.run(wiz, "+job/assign 1=none")).text("Wiz"), "Job #1 unassigned.");
    assert.equal((await game.run(wiz, "+job/assign 1=me")).text("Wiz"), "Job #1 assigned to Wiz.");
    assert.equal(
      (await game.run(wiz, "+job/status 1")).text("Wiz"),
      "Usage: +job/status <#>=<new|open|pending|in-progress|resolved|closed>",
    );
    assert.equal((await game.run(wiz, "+job/status 99=open")).text("Wiz"), "Job not found");
    const playerComment = await game.run(ann, "+request/comment 1=Thanks!");
    assert.equal(playerComment.text("Ann"), "You comment on request #1.");
    assert.equal(playerComment.text("Wiz"), "[Jobs] Ann commented on job #1: Thanks!");

    const seen = (await game.run(ann, "+request 1")).text("Ann");
    assert.match(seen, /Job #1: Broken exit/);
    assert.match(seen, /Status: in-progress {2}Priority: high {2}Category: request/);
    assert.match(seen, /Wiz: Looking now\./);
    assert.match(seen, /Ann: Thanks!/);
    assert.doesNotMatch(seen, /SECRET|staff note/);
    const staffView = (await game.run(wiz, "+job 1")).text("Wiz");
    assert.match(staffView, /Wiz \(staff note\): Ann-is-SECRET/);
    assert.match(staffView, /Assigned to: Wiz/);

    // +jobs: not-done jobs, newest activity first.
    await game.run(wiz, "+job/comment 2=On it.");
    assert.match((await game.run(wiz, "+jobs")).text("Wiz"), /#2 [^\n]*\n#1 /);
    await game.run(wiz, "+job/comment 1=Nearly.");
    assert.match((await game.run(wiz, "+jobs")).text("Wiz"), /#1 [^\n]*\n#2 /);

    assert.equal(
      (await game.run(wiz, "+job/reopen 1")).text("Wiz"),
      "Job #1 is in-progress; only a closed or resolved job can be reopened.",
    );
    const done = await game.run(wiz, "+job/complete 1=Fixed the loop.");
    assert.equal(done.text("Wiz"), "Job #1 resolved.");
    assert.equal(
      done.text("Ann"),
      "[Jobs] Your request #1 (Broken exit) is now resolved. Resolution: Fixed the loop.",
    );
    assert.doesNotMatch((await game.run(wiz, "+jobs")).text("Wiz"), /#1 /);
    await game.run(wiz, "+job/status 1=closed");
    const reopened = await game.run(wiz, "+job/reopen 1");
    assert.equal(reopened.text("Wiz"), "Job #1 reopened.");
    assert.equal(reopened.text("Ann"), "[Jobs] Your request #1 (Broken exit) is now open.");
    assert.match((await game.run(ann, "+request 1")).text("Ann"), /Resolution: Fixed the loop\./);
    assert.match((await game.run(wiz, "+jobs")).text("Wiz"), /#1 +open/);
    assert.equal((await game.run(wiz, "+job/delete 2")).text("Wiz"), "Job #2 deleted.");
    assert.doesNotMatch((await game.run(ann, "+requests")).text("Ann"), /#2/);
    assert.equal((await game.run(wiz, "+job x")).text("Wiz"), "Usage: +job <#>");
  });
});

Deno.test("jobs: the submitter gets mail through the mail plugin's API when it is loaded", async () => {
  await withGame(async (game, wiz) => {
    const req = client(game);
    const ann = await game.player("Ann");
    await req("POST", J, ann, { title: "Help", description: "Please" });
    await req("POST", `${J}/1/comment`, wiz, { text: "A note", staffOnly: true });
    await req("POST", `${J}/1/comment`, ann, { text: "My own comment" });
    await req("POST", `${J}/1/comment`, wiz, { text: "Answer" });
    await req("PATCH", `${J}/1`, wiz, { status: "resolved", resolution: "Done." });
    await req("PATCH", `${J}/1`, wiz, { priority: "low" });
    const mail = (await req("GET", "/api/v1/mailbag", wiz)).body;
    assert.deepEqual(mail, [
      {
        from: wiz.id,
        to: [ann.id],
        subject: "Request #1: Help",
        body: "Wiz commented on your request #1 (Help):\n\nAnswer",
      },
      {
        from: wiz.id,
        to: [ann.id],
        subject: "Request #1: Help",
        body: "Wiz set your request #1 (Help) to resolved.\n\nResolution: Done.",
      },
    ]);
  }, { plugins: ["jobs", MAIL_FIXTURE] });
});

Deno.test("jobs: a REST title is one line, so the staff notice cannot forge a line", async () => {
  await withGame(async (game, wiz) => {
    const req = client(game);
    const ann = await game.player("Ann");
    await game.connect(wiz);
    await game.received(); // the login's look
    const a = await req("POST", J, ann, {
      title: "Broken door\r\n[Jobs] Job #1 was resolved by Wiz.",
      description: "Line one.\nLine two.",
    });
    assert.equal(a.status, 201);
    assert.equal(a.body.title, "Broken door [Jobs] Job #1 was resolved by Wiz.");
    assert.equal(a.body.description, "Line one.\nLine two.", "a description keeps its lines");
    const heard = (await game.received()).text("Wiz").split("\n").filter((l) => l.trim());
    assert.equal(heard.length, 1, heard.join(" | "));
    assert.match(heard[0], /New job #1 .*Broken door \[Jobs\] Job #1 was resolved/);
  });
});

Deno.test("jobs: every filter is an index: one that matches nothing reads no job", async () => {
  const { kv, close } = await memoryPluginKv("jobs");
  try {
    const store = new JobStore(kv);
    const base = {
      title: "t",
      description: "d",
      priority: "normal" as const,
      submitterName: "Ann",
      assignee: null,
      assigneeName: null,
      resolution: null,
    };
    for (let i = 0; i < 120; i++) {
      await store.create({ ...base, category: "request", status: "new", submitter: "7" });
    }
    const bug = await store.create({ ...base, category: "bug", status: "new", submitter: "8" });
    let reads = 0;
    const getMany = kv.getMany.bind(kv);
    kv.getMany = <T>(keys: KeyParts[]) => {
      reads += keys.length;
      return getMany<T>(keys);
    };
    const page = { limit: 50, offset: 0 };
    assert.deepEqual(await store.list({ status: "new", category: "code" }, page), []);
    assert.deepEqual(await store.list({ submitter: "7", category: "bug" }, page), []);
    assert.equal(reads, 0, "no job record is read for a filter that matches nothing");
    const found = await store.list({ status: "new", category: "bug", priority: "normal" }, page);
    assert.deepEqual(found.map((j) => j.number), [bug.number]);
    assert.equal(reads, 1, "only the page's own records are read");
    // A change moves the job between combinations in the same commit.
    await store.update(bug.number, (j) => void (j.status = "open"));
    assert.deepEqual(await store.list({ status: "new", category: "bug" }, page), []);
    assert.equal((await store.list({ status: "open", category: "bug" }, page)).length, 1);
    await store.delete((await store.get(bug.number))!);
    assert.deepEqual(await store.list({ status: "open", category: "bug" }, page), []);
  } finally {
    close();
  }
});

Deno.test("jobs: jobs stored before the combined index get it at start", async () => {
  const { kv, close } = await memoryPluginKv("jobs");
  try {
    const store = new JobStore(kv);
    const job = await store.create({
      title: "t",
      description: "d",
      priority: "high",
      category: "bug",
      status: "new",
      submitter: "7",
      submitterName: "Ann",
      assignee: null,
      assigneeName: null,
      resolution: null,
    });
    // As an older version left it: no combined entries, no marker.
    await kv.deletePrefix(["by_filter"]);
    const page = { limit: 50, offset: 0 };
    assert.deepEqual(await store.list({ status: "new", category: "bug" }, page), []);
    assert.equal(await store.fillComboIndex(), 1);
    assert.equal(await store.fillComboIndex(), 0, "once only");
    const found = await store.list({ submitter: "7", priority: "high", category: "bug" }, page);
    assert.deepEqual(found.map((j) => j.number), [job.number]);
  } finally {
    close();
  }
});

Deno.test("jobs: a thing's request is its owner's, on the owner's open requests", async () => {
  // Before: a thing filed as itself, so each of a player's thousand things had maxOpenJobs open
  // requests of its own (s53probe).
  await withGame(async (game) => {
    const bea = await game.player("Bea", { flags: ["builder"] });
    await game.run(bea, "@create Box");
    await game.run(bea, "@force Box=+request From the box=please");
    await game.run(bea, "@force Box=+request Again=please");
    const mine = async (n: number) => {
      for (let i = 0; i < 50; i++) {
        const got = (await game.request("GET", J, { as: bea })).body as { submitter: string }[];
        if (got.length >= n) return got;
        await game.received();
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.fail(`Bea never had ${n} requests`);
    };
    assert.deepEqual((await mine(2)).map((j) => j.submitter), [bea.id, bea.id]);
    assert.match((await game.run(bea, "+request Mine=please")).text("Bea"), /You have 2 open/);
  }, {
    plugins: ["jobs", "building"],
    config: { plugins: { jobs: { maxOpenJobs: 2 } }, game: { restWritesPerMinute: 0 } },
  });
});

Deno.test("jobs: a player has at most plugins.jobs.maxOpenJobs open; staff hear a burst as one line", async () => {
  await withGame(async (game, wiz) => {
    const ann = await game.player("Ann");
    await game.connect(wiz);
    await game.received();
    const file = (title: string) =>
      game.request("POST", J, { as: ann, body: { title, description: "d" } });
    const made = await Promise.all([1, 2, 3, 4, 5].map((i) => file(`Job ${i}`)));
    assert.deepEqual(made.map((r) => r.status).sort(), [201, 201, 201, 409, 409]);
    assert.deepEqual(made.find((r) => r.status === 409)!.body, {
      error: "You have 3 open requests, the most a player may. Wait until staff resolve one.",
    });
    const staffHeard = (await game.received()).of("Wiz").filter((h) => h.data.type === "job");
    assert.equal(staffHeard.length, 1, "one line for the burst, the rest wait for the minute");
    assert.match(staffHeard[0].text, /^\[Jobs\] New job #\d+ \(request\) from Ann: Job \d$/);
    assert.match(
      (await game.run(ann, "+request More=please")).text("Ann"),
      /You have 3 open requests/,
    );
    // A resolved job gives its place back; reopening counts it again, never refused for staff.
    const first = made.find((r) => r.status === 201)!.body;
    const done = await game.request("PATCH", `${J}/${first.number}`, {
      as: wiz,
      body: { status: "resolved" },
    });
    assert.equal(done.status, 200);
    assert.equal((await file("Next")).status, 201);
    assert.equal((await file("Too many")).status, 409);
    const reopened = await game.request("PATCH", `${J}/${first.number}`, {
      as: wiz,
      body: { status: "open" },
    });
    assert.equal(reopened.status, 200);
    assert.equal((await game.request("DELETE", `${J}/${first.number}`, { as: wiz })).status, 200);
    assert.equal((await file("Too many still")).status, 409, "four open, one deleted: three");
  }, { config: { plugins: { jobs: { maxOpenJobs: 3 } }, game: { restWritesPerMinute: 0 } } });
});
