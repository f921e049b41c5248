/**
 * The mail plugin, black-box through the plugin test kit: REST with each recipient's own read
 * state and deletion, every refusal, `@mail` in game (with the at-once and at-login notices),
 * and the exported API as another plugin (the `mailer` fixture) calls it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { startTestGame, type TestGame } from "../src/plugins/testing.ts";
import { ROOT } from "./harness.ts";

const MAILER = join(ROOT, "tests/fixtures/plugins/mailer");

// deno-lint-ignore no-explicit-any
type Json = any;

async function game(config: Record<string, unknown> = {}) {
  const g = await startTestGame({
    plugins: ["mail", "help", MAILER],
    config: { plugins: { mail: config } },
  });
  const ann = await g.player("Ann");
  const bob = await g.player("Bob");
  const cy = await g.player("Cy");
  return { g, ann, bob, cy };
}

/** Waits until `name` has heard something matching `re` (deliveries a hook makes are async). */
async function hears(g: TestGame, name: string, re: RegExp): Promise<string> {
  let text = "";
  for (let i = 0; i < 50; i++) {
    text += (await g.received()).text(name) + "\n";
    if (re.test(text)) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${name} never heard ${re}; heard: ${text}`);
}

Deno.test("mail REST: /unread counts the caller's messages and unread ones, exactly", async () => {
  const { g, ann, bob, cy } = await game();
  try {
    const unread = async (who: typeof ann) => {
      const r = await g.request("GET", "/api/v1/mail/unread", { as: who });
      assert.equal(r.status, 200);
      return r.body;
    };
    assert.deepEqual(await unread(bob), { total: 0, unread: 0 });
    const first = await g.request("POST", "/api/v1/mail", {
      as: ann,
      body: { to: "Bob, Cy", subject: "One", body: "First." },
    });
    await g.request("POST", "/api/v1/mail", {
      as: cy,
      body: { to: "Bob", subject: "Two", body: "Second." },
    });
    assert.deepEqual(await unread(bob), { total: 2, unread: 2 });
    assert.deepEqual(await unread(ann), { total: 0, unread: 0 }, "a sender's count is untouched");
    // A HEAD read leaves it unread; a GET reads it; a delete of a read one keeps unread.
    await g.request("HEAD", `/api/v1/mail/${first.body.id}`, { as: bob });
    assert.deepEqual(await unread(bob), { total: 2, unread: 2 });
    await g.request("GET", `/api/v1/mail/${first.body.id}`, { as: bob });
    assert.deepEqual(await unread(bob), { total: 2, unread: 1 });
    await g.request("DELETE", `/api/v1/mail/${first.body.id}`, { as: bob });
    assert.deepEqual(await unread(bob), { total: 1, unread: 1 });
    assert.deepEqual(await unread(cy), { total: 1, unread: 1 }, "Cy's copy is her own");
    // No token, a bad token, and a write to it: refused, nothing changed.
    const none = await g.request("GET", "/api/v1/mail/unread");
    assert.deepEqual([none.status, typeof none.body.error], [401, "string"]);
    const bad = await g.request("GET", "/api/v1/mail/unread", {
      headers: { authorization: "Bearer nope" },
    });
    assert.equal(bad.status, 401);
    for (const method of ["POST", "DELETE", "PATCH"]) {
      const r = await g.request(method, "/api/v1/mail/unread", { as: bob, body: {} });
      assert.ok(r.status >= 400 && r.status < 500, `${method} /unread: ${r.status}`);
      assert.equal(typeof r.body.error, "string");
    }
    assert.deepEqual(await unread(bob), { total: 1, unread: 1 });
  } finally {
    await g.close();
  }
});

Deno.test("mail REST: send, inbox, read, delete; each recipient owns their copy", async () => {
  const { g, ann, bob, cy } = await game();
  try {
    const sent = await g.request("POST", "/api/v1/mail", {
      as: ann,
      body: { to: "Bob, cy", subject: " Hel\nlo ", body: "Meet at nine." },
    });
    assert.equal(sent.status, 201);
    assert.deepEqual([sent.body.to, sent.body.subject], [["Bob", "Cy"], "Hel lo"], "one line");
    const second = await g.request("POST", "/api/v1/mail", {
      as: cy,
      body: { to: ["Bob"], subject: "Later", body: "Second." },
    });
    assert.equal(second.status, 201);

    const inbox = async (who: typeof ann, q = "") =>
      (await g.request("GET", `/api/v1/mail${q}`, { as: who })).body as Json[];
    // HEAD answers like GET (200, JSON) and leaves the message unread.
    const head = await g.request("HEAD", `/api/v1/mail/${sent.body.id}`, { as: bob });
    assert.deepEqual([head.status, head.body], [200, ""]);
    assert.match(head.headers.get("content-type") ?? "", /application\/json/);
    const bobs = await inbox(bob);
    assert.deepEqual(bobs.map((m) => [m.from, m.subject, m.read]), [
      ["Cy", "Later", false],
      ["Ann", "Hel lo", false],
    ], "newest first");
    for (const m of bobs) {
      assert.deepEqual(Object.keys(m).sort(), ["from", "id", "read", "receivedAt", "subject"]);
    }
    assert.deepEqual((await inbox(bob, "?limit=1&offset=1")).map((m) => m.subject), ["Hel lo"]);
    assert.equal((await g.request("GET", "/api/v1/mail?limit=-1", { as: bob })).status, 400);
    assert.deepEqual(await inbox(ann), []);

    // Bob reads his copy: only his copy is read.
    const id = sent.body.id;
    const read = await g.request("GET", `/api/v1/mail/${id}`, { as: bob });
    assert.equal(read.status, 200);
    assert.deepEqual(Object.keys(read.body).sort(), [
      "body",
      "from",
      "id",
      "read",
      "receivedAt",
      "sentAt",
      "subject",
      "to",
    ]);
    assert.deepEqual([read.body.read, read.body.to, read.body.body], [
      true,
      ["Bob", "Cy"],
      "Meet at nine.",
    ]);
    assert.equal((await inbox(bob)).find((m) => m.id === id).read, true);
    assert.equal(
      (await inbox(cy)).find((m) => m.id === id).read,
      false,
      "Cy's copy is still unread",
    );

    // Another player's mail does not exist for them.
    assert.deepEqual(
      (await g.request("GET", `/api/v1/mail/${second.body.id}`, { as: ann })).body,
      { error: "No such message." },
    );
    assert.equal(
      (await g.request("GET", `/api/v1/mail/${second.body.id}`, { as: ann })).status,
      404,
    );
    assert.equal(
      (await g.request("DELETE", `/api/v1/mail/${second.body.id}`, { as: ann })).status,
      404,
    );
    for (const bad of ["0", "x", "1e3", "99999"]) {
      assert.equal((await g.request("GET", `/api/v1/mail/${bad}`, { as: bob })).status, 404, bad);
    }

    // Cy deletes hers: Bob's copy stays.
    const del = await g.request("DELETE", `/api/v1/mail/${id}`, { as: cy });
    assert.deepEqual([del.status, del.body], [200, { deleted: true }]);
    assert.equal((await g.request("GET", `/api/v1/mail/${id}`, { as: cy })).status, 404);
    assert.equal((await g.request("GET", `/api/v1/mail/${id}`, { as: bob })).status, 200);
    assert.equal((await g.request("GET", "/api/v1/mail")).status, 401);
  } finally {
    await g.close();
  }
});

Deno.test("mail REST: every refusal is { error } and nothing is sent", async () => {
  const { g, ann, bob } = await game({ maxRecipients: 3, sendsPerMinute: 4 });
  try {
    const players = await Promise.all(["D1", "D2", "D3"].map((n) => g.player(n)));
    const send = (body: unknown, as = ann) => g.request("POST", "/api/v1/mail", { as, body });
    const refused = async (body: unknown, status: number, error: string | RegExp) => {
      const r = await send(body);
      assert.equal(r.status, status, JSON.stringify(body).slice(0, 80));
      if (typeof error === "string") assert.deepEqual(r.body, { error });
      else assert.match(r.body.error, error);
    };
    const ok = { to: "Bob", subject: "s", body: "b" };
    await refused({ ...ok, subject: "  " }, 400, "subject is required");
    await refused({ ...ok, subject: undefined }, 400, "subject is required");
    await refused(
      { ...ok, subject: "x".repeat(201) },
      400,
      "subject must be 200 characters or fewer",
    );
    await refused(
      { ...ok, body: "x".repeat(10_001) },
      400,
      "body must be 10000 characters or fewer",
    );
    await refused({ ...ok, body: "" }, 400, "body is required");
    await refused({ ...ok, to: "" }, 400, "to is required");
    await refused({ ...ok, to: 7 }, 400, /to must be/);
    await refused(
      { ...ok, to: "Bob, Nobody, Ghost" },
      400,
      "No such players: Nobody, Ghost. Nothing was sent.",
    );
    await refused({ ...ok, to: "Bob D1 D2 D3" }, 400, "At most 3 recipients per message.");
    await refused("not json", 400, /JSON/);
    for (const who of [bob, ...players]) {
      assert.deepEqual((await g.request("GET", "/api/v1/mail", { as: who })).body, [], who.name);
    }
    // At the limits exactly: accepted.
    const big = await send({ to: "Bob D1 D2", subject: "é".repeat(200), body: "ü".repeat(10_000) });
    assert.equal(big.status, 201);
    assert.equal(
      (await g.request("GET", `/api/v1/mail/${big.body.id}`, { as: bob })).body.body.length,
      10_000,
    );
    // The send rate: 4 a minute (the one above counted), then 429.
    for (let i = 0; i < 3; i++) assert.equal((await send(ok)).status, 201);
    await refused(
      ok,
      429,
      /^You are sending mail too fast: at most 4 messages a minute\. Try again in \d+ seconds?\.$/,
    );
    assert.equal((await send(ok, bob)).status, 201, "the limit is per player");
    assert.equal(
      (await g.request("GET", "/api/v1/mail", { as: bob })).body.length,
      5,
      "4 and his own",
    );
  } finally {
    await g.close();
  }
});

Deno.test("mail: a full mailbox refuses the whole message, in REST and in game; deleting makes room", async () => {
  const { g, ann, bob, cy } = await game({ maxMessages: 2 });
  try {
    const send = (to: string, as = ann) =>
      g.request("POST", "/api/v1/mail", { as, body: { to, subject: "s", body: "b" } });
    assert.equal((await send("Bob")).status, 201);
    assert.equal((await send("Bob", cy)).status, 201);
    const full = await send("Bob");
    assert.deepEqual([full.status, full.body], [409, {
      error: "Bob's mailbox is full (2 messages). Nothing was sent.",
    }]);
    const both = await send("Cy, Bob");
    assert.deepEqual([both.status, both.body.error], [
      409,
      "Bob's mailbox is full (2 messages). Nothing was sent.",
    ]);
    assert.deepEqual((await g.request("GET", "/api/v1/mail", { as: cy })).body, [], "not even Cy");
    await send("Cy");
    await send("Cy");
    assert.equal(
      (await send("Bob Cy")).body.error,
      "The mailboxes of Bob, Cy are full (2 messages each). Nothing was sent.",
    );
    assert.equal(
      (await g.run(ann, "@mail Bob=Again/Still there?")).text("Ann"),
      "Bob's mailbox is full (2 messages). Nothing was sent.",
    );
    assert.equal((await g.request("GET", "/api/v1/mail", { as: bob })).body.length, 2);
    // Room again once Bob deletes one.
    const [newest] = (await g.request("GET", "/api/v1/mail", { as: bob })).body as Json[];
    await g.request("DELETE", `/api/v1/mail/${newest.id}`, { as: bob });
    assert.equal((await send("Bob")).status, 201);
  } finally {
    await g.close();
  }
});

Deno.test("mail in game: @mail send, list, read, unread, reply, forward, delete, notices", async () => {
  const { g, ann, bob, cy } = await game();
  try {
    await g.connect(bob);
    const sent = await g.run(ann, "@mail bob, cy=Tonight/Meet at the docks at nine.");
    assert.equal(sent.text("Ann"), "Mail sent to Bob, Cy: Tonight");
    assert.equal(
      sent.text("Bob"),
      "[Mail] You have new mail (1) from Ann: Tonight",
      "told at once",
    );
    assert.equal(
      (await g.run(ann, "@mail Bob, Nobody=Hi/there")).text("Ann"),
      "No such player: Nobody. Nothing was sent.",
    );
    assert.equal(
      (await g.run(ann, "@mail Bob=no slash")).text("Ann"),
      "Usage: @mail <players>=<subject>/<body>",
    );
    assert.equal((await g.run(ann, "@mail Bob=/body")).text("Ann"), "subject is required");

    const list = (await g.run(bob, "@mail")).text("Bob");
    assert.match(list, /U +1 +Ann +\d{4}-\d\d-\d\d \d\d:\d\d +Tonight/);
    assert.match(list, /1 message, 1 unread/);
    // The header's columns line up with the rows' (the number is right-aligned).
    const [head, row] = list.split("\n");
    for (const [label, value] of [["#", "1"], ["From", "Ann"], ["Subject", "Tonight"]]) {
      assert.equal(head.indexOf(label), row.indexOf(value), `${label}\n${head}\n${row}`);
    }
    const read = (await g.run(bob, "@mail 1")).text("Bob");
    assert.match(
      read,
      /^Message 1\nFrom: +Ann\nTo: +Bob, Cy\nDate: .* UTC\nSubject: Tonight\n\nMeet at the docks at nine\.$/,
    );
    assert.match((await g.run(bob, "@mail")).text("Bob"), /1 message, 0 unread/);
    assert.equal((await g.run(bob, "@mail/unread 1")).text("Bob"), "Message 1 marked unread.");
    assert.match((await g.run(bob, "@mail")).text("Bob"), /U +1 .*\n1 message, 1 unread/);
    assert.equal((await g.run(bob, "@mail 2")).text("Bob"), "You have no message 2.");
    assert.equal((await g.run(bob, "@mail/delete x")).text("Bob"), "Usage: @mail/delete <#>");

    await g.connect(ann);
    const replied = await g.run(bob, "@mail/reply 1=I'll be there.");
    assert.equal(replied.text("Bob"), "Reply sent to Ann: Re: Tonight");
    assert.equal(replied.text("Ann"), "[Mail] You have new mail (1) from Bob: Re: Tonight");
    assert.match(
      (await g.run(ann, "@mail 1")).text("Ann"),
      /Subject: Re: Tonight\n\nI'll be there\./,
    );
    // Replying to a reply keeps one "Re:".
    assert.equal(
      (await g.run(ann, "@mail/reply 1=Good.")).text("Ann"),
      "Reply sent to Bob: Re: Tonight",
    );

    const fwd = await g.run(bob, "@mail/forward 1=Ann");
    assert.equal(fwd.text("Bob"), "Message forwarded to Ann.");
    const forwarded = (await g.run(ann, "@mail 2")).text("Ann");
    assert.match(
      forwarded,
      /Subject: Fwd: Tonight\n\n-+ Forwarded by Bob -+\nFrom: Ann\n.*\nSubject: Tonight\n\nMeet at the docks/,
    );

    assert.equal((await g.run(bob, "@mail/delete 1")).text("Bob"), "Message 1 deleted.");
    assert.match((await g.run(bob, "@mail")).text("Bob"), /1 +Ann .*Re: Tonight\n1 message/);

    // Cy logs in later: told how many unread messages wait.
    await g.connect(cy);
    await hears(g, "Cy", /\[Mail\] You have 1 unread message\. Type @mail to read it\./);
    assert.match((await g.run(cy, "help mail")).text("Cy"), /@mail\/forward/);
  } finally {
    await g.close();
  }
});

Deno.test("mail API: another plugin mails players through ctx.api('mail').send", async () => {
  const { g, ann, bob, cy } = await game({ sendsPerMinute: 1 });
  try {
    await g.connect(bob);
    const call = (body: unknown) => g.request("POST", "/api/v1/mailer", { body });
    const ok = await call({
      from: ann.id,
      to: [bob.id, cy.id],
      subject: "Job #3 updated",
      body: "Staff commented.",
    });
    assert.deepEqual([ok.status, ok.body], [200, { sent: true }]);
    await hears(g, "Bob", /\[Mail\] You have new mail \(1\) from Ann: Job #3 updated/);
    const inbox = (await g.request("GET", "/api/v1/mail", { as: cy })).body as Json[];
    assert.deepEqual(inbox.map((m) => [m.from, m.subject]), [["Ann", "Job #3 updated"]]);
    // Plugin sends are not held to a player's send rate.
    assert.equal(
      (await call({ from: ann.id, to: [bob.id], subject: "again", body: "x" })).status,
      200,
    );
    assert.equal(
      (await call({ from: ann.id, to: [bob.id], subject: "again", body: "x" })).status,
      200,
    );

    const bad = await call({ from: ann.id, to: [bob.id, "999"], subject: "s", body: "b" });
    assert.deepEqual([bad.status, bad.body], [400, {
      error: "No such player: #999. Nothing was sent.",
    }]);
    assert.equal((await call({ from: "999", to: [bob.id], subject: "s", body: "b" })).status, 400);
    assert.equal((await call({ from: ann.id, to: [bob.id], subject: "", body: "b" })).status, 400);
    assert.equal((await g.request("GET", "/api/v1/mail", { as: bob })).body.length, 3);
  } finally {
    await g.close();
  }
});

Deno.test("mail: one sender may leave only so many unread messages in another's mailbox; reading makes room", async () => {
  const { g, ann, bob, cy } = await game({ maxUnreadFromOne: 2, sendsPerMinute: 100 });
  const wiz = await g.player("Wiz", { flags: ["wizard"] });
  try {
    const send = (to: string, as = ann) =>
      g.request("POST", "/api/v1/mail", { as, body: { to, subject: "s", body: "b" } });
    assert.equal((await send("Bob")).status, 201);
    assert.equal((await send("Bob, Cy")).status, 201);
    const over = await send("Cy, Bob");
    assert.deepEqual([over.status, over.body], [409, {
      error: "Bob has 2 unread messages from you already, the most one sender may leave " +
        "waiting. Nothing was sent.",
    }]);
    assert.equal((await g.request("GET", "/api/v1/mail", { as: cy })).body.length, 1, "Cy too");
    // Typed in game (the hub's WebSocket): the same refusal, nothing sent.
    assert.equal(
      (await g.run(ann, "@mail Bob=Again/Still there?")).text("Ann"),
      "Bob has 2 unread messages from you already, the most one sender may leave waiting. " +
        "Nothing was sent.",
    );
    assert.equal((await g.request("GET", "/api/v1/mail", { as: bob })).body.length, 2);
    // Others, staff and Ann's own mailbox are not held by Ann's share.
    assert.equal((await send("Bob", cy)).status, 201);
    assert.equal((await send("Bob", wiz)).status, 201);
    for (let i = 0; i < 3; i++) assert.equal((await send("Ann")).status, 201);
    // Bob reads one of Ann's: room for one more; deleting an unread one makes room too.
    const fromAnn = ((await g.request("GET", "/api/v1/mail", { as: bob })).body as Json[])
      .filter((m) => m.from === "Ann");
    await g.request("GET", `/api/v1/mail/${fromAnn[0].id}`, { as: bob });
    assert.equal((await send("Bob")).status, 201);
    assert.equal((await send("Bob")).status, 409);
    await g.request("DELETE", `/api/v1/mail/${fromAnn[1].id}`, { as: bob });
    assert.equal((await send("Bob")).status, 201);
    assert.equal((await send("Bob")).status, 409);
  } finally {
    await g.close();
  }
});

Deno.test("mail: what a thing sends is its owner's: from the owner, on the owner's send rate", async () => {
  // Before: a thing sent as itself, with a send rate and a share of each mailbox of its own, so
  // a player's thousand things sent 10,000 messages a minute (s53probe). MUX sends as Owner().
  const g = await startTestGame({
    plugins: ["mail", "building"],
    config: { plugins: { mail: { sendsPerMinute: 2 } } },
  });
  const bob = await g.player("Bob");
  const bea = await g.player("Bea", { flags: ["builder"] });
  try {
    await g.run(bea, "@create Box");
    const inbox = async (n: number): Promise<Json[]> => {
      for (let i = 0; i < 100; i++) {
        const got = (await g.request("GET", "/api/v1/mail", { as: bob })).body as Json[];
        if (got.length >= n) return got;
        await g.received();
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.fail(`Bob's mailbox never held ${n}`);
    };
    await g.run(bea, "@force Box=@mail Bob=From the box/hello");
    assert.deepEqual((await inbox(1)).map((m) => [m.from, m.subject]), [["Bea", "From the box"]]);
    assert.equal((await g.run(bea, "@mail Bob=Mine/hello")).text("Bea"), "Mail sent to Bob: Mine");
    // Bea's two sends a minute are spent: the box's third is refused, and says so to it.
    await g.run(bea, "@force Box=@mail Bob=Again/hello");
    await g.run(bea, "@force Box=@mail Bob=Again/hello");
    assert.match(
      (await g.run(bea, "@mail Bob=Third/hello")).text("Bea"),
      /^You are sending mail too fast: at most 2 messages a minute\./,
    );
    await new Promise((r) => setTimeout(r, 500));
    await g.received();
    assert.deepEqual((await inbox(2)).map((m) => m.subject).sort(), ["From the box", "Mine"]);
  } finally {
    await g.close();
  }
});
