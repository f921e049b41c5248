import assert from "node:assert/strict";
import { createEngine, type Engine } from "../engine.ts";
import { Connection } from "../hub/connection.ts";
import { FakeSession, idleHooks } from "../hub/_test_session.ts";
import { CHANGED_ELSEWHERE, changeOwnPassword, endSessions } from "./revoke.ts";
import type { DbObject } from "../world/types.ts";

/** An in-memory engine (real hub, real token service) for one test. */
async function withEngine(fn: (engine: Engine) => Promise<void>): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "ursamu-revoke-" });
  const engine = await createEngine({
    root,
    env: { URSAMU_SERVER_DB: ":memory:", JWT_SECRET: "unit-test-secret" },
  });
  try {
    await fn(engine);
  } finally {
    await engine.close();
    await Deno.remove(root, { recursive: true }).catch(() => {});
  }
}

let seq = 0;

/** A web connection of the engine's hub, logged in as `player`; its socket keeps what it got. */
async function online(engine: Engine, player: DbObject) {
  const socket = new FakeSession();
  const conn = new Connection(`t${++seq}`, "web", "127.0.0.1", socket as never, idleHooks(), 0);
  assert.ok(await engine.hub.login(conn, player, false));
  const frames = () =>
    socket.sent.map((t) =>
      JSON.parse(t) as { msg: string; data?: { type: string; token?: string } }
    );
  const token = () => frames().findLast((f) => f.data?.type === "session")?.data?.token;
  return { conn, socket, frames, token };
}

Deno.test("revoke: ending a player's sessions ends its tokens and closes its connections", async () => {
  await withEngine(async (engine) => {
    const s = engine.services;
    const alice = await s.accounts.register("Alice", "password123", { location: "1" });
    const bob = await s.accounts.register("Bobby", "password123", { location: "1" });
    const a = await online(engine, alice);
    const b = await online(engine, bob);
    const aliceToken = a.token()!;
    assert.equal(await s.tokens.verify(aliceToken), alice.id);
    await endSessions(s, alice.id, "You have been booted.");
    assert.ok(a.socket.closedWith, "her connection closed");
    assert.ok(a.frames().some((f) => f.msg === "You have been booted."));
    assert.equal(await s.tokens.verify(aliceToken), null);
    assert.ok(a.conn.closed);
    assert.equal(b.socket.closedWith, null, "his goes on");
    assert.equal(await s.tokens.verify(b.token()!), bob.id);
    // A login proven before the revoke (a token of the old generation) is refused at attach.
    const late = new Connection(
      "late",
      "web",
      "127.0.0.1",
      new FakeSession() as never,
      idleHooks(),
      0,
    );
    assert.equal(await engine.hub.login(late, alice, false, 0), false);
    assert.equal(late.playerId, null);
  });
});

Deno.test("revoke: an own password change keeps its session with a token of the new generation", async () => {
  await withEngine(async (engine) => {
    const s = engine.services;
    const alice = await s.accounts.register("Alice", "password123", { location: "1" });
    const here = await online(engine, alice);
    const there = await online(engine, alice);
    const oldHere = here.token()!;
    const oldThere = there.token()!;

    // A wrong old password changes nothing and counts as a failed login of the address.
    assert.equal(
      await changeOwnPassword(s, here.conn, "brand-new-pass", "not-my-password"),
      "wrong",
    );
    assert.equal(await s.tokens.verify(oldHere), alice.id);
    assert.equal(s.loginFailures.count("127.0.0.1"), 1);

    assert.equal(await changeOwnPassword(s, here.conn, "brand-new-pass", "password123"), "changed");
    assert.equal(s.loginFailures.count("127.0.0.1"), 1, "a right password is not a failure");
    assert.ok(there.socket.closedWith, "the other session closed");
    assert.ok(there.frames().some((f) => f.msg === CHANGED_ELSEWHERE));
    assert.equal(here.socket.closedWith, null, "this one goes on");
    assert.equal(s.presence.isOnline(alice.id), true);
    const renewed = here.token()!;
    assert.notEqual(renewed, oldHere);
    assert.deepEqual(await s.tokens.session(renewed), { id: alice.id, generation: 1 });
    assert.equal(await s.tokens.verify(oldHere), null);
    assert.equal(await s.tokens.verify(oldThere), null);
    assert.equal((await s.accounts.authenticate("Alice", "brand-new-pass"))?.id, alice.id);
    assert.equal(await s.accounts.authenticate("Alice", "password123"), null);

    // The renewed token resumes (as the telnet sidecar does after @reboot) on a new connection.
    const resumed = new Connection(
      "r",
      "web",
      "127.0.0.1",
      new FakeSession() as never,
      idleHooks(),
      0,
    );
    const session = await s.tokens.session(renewed);
    assert.ok(await engine.hub.login(resumed, alice, true, session!.generation));

    // Without an old password (staff on themselves) it changes at once.
    assert.equal(await changeOwnPassword(s, here.conn, "third-password", null), "changed");
    assert.ok(resumed.closed, "the resumed session was another one: it closed");
    assert.equal((await s.tokens.session(here.token()!))?.generation, 2);
  });
});

Deno.test("revoke: wrong old passwords are held to the failed-login limit, reserved before bcrypt", async () => {
  await withEngine(async (engine) => {
    const s = engine.services;
    const alice = await s.accounts.register("Alice", "password123", { location: "1" });
    const here = await online(engine, alice);
    const tries = await Promise.all(
      Array.from(
        { length: 14 },
        () => changeOwnPassword(s, here.conn, "whatever-new", "wrong-one"),
      ),
    );
    assert.equal(tries.filter((t) => t === "wrong").length, 10);
    assert.equal(tries.filter((t) => t === "limited").length, 4);
    assert.equal(await s.tokens.verify(here.token()!), alice.id, "nothing changed");
  });
});
