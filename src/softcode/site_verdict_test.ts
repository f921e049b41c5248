/**
 * A u() call's kept verdict (AttrSite.seen: the attribute and who may read it, kept while the
 * world's change count stays the same) over the engine's own stores, changed by the commands
 * that change them: each write that can change what the call runs or whether its reader may run
 * it must show at the next call of the same parsed call.
 */
import assert from "node:assert/strict";
import { testWorld } from "../commands/_test_util.ts";
import { stripMarkup } from "./markup.ts";

type W = Awaited<ReturnType<typeof testWorld>>;

/** What `text` gives `executor`, evaluated three times (kept parsed from the second on). */
function reads(w: W, executor: string, text: string): string {
  const sc = w.ports.softcode;
  const first = stripMarkup(sc.evaluate(text, { executor }));
  for (let i = 0; i < 2; i++) {
    assert.equal(stripMarkup(sc.evaluate(text, { executor })), first, "the same twice");
  }
  return first;
}

/** Runs a command line and fails when it was refused (it must change the world). */
async function must(w: W, conn: Parameters<W["run"]>[0], line: string): Promise<void> {
  const out = (await w.run(conn, line)).join("\n");
  assert.ok(!/denied|can't|cannot|not found|I don't see/i.test(out), `${line}: ${out}`);
}

const DENIED = "#-1 PERMISSION DENIED";

Deno.test("u() verdict: an attribute set, cleared or flagged, on the object or its parent", async () => {
  const w = await testWorld();
  try {
    const alice = await w.player("Alice");
    const bob = await w.player("Bob");
    const t = await w.services.objects.create({
      name: "Lib",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    const p = await w.services.objects.create({
      name: "Par",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    const u = `[u(#${t.id}/fn,x)]`;
    await must(w, alice.conn, `&fn #${t.id}=one:%0`);
    await must(w, alice.conn, `@set #${t.id}/fn=visual`);
    assert.equal(reads(w, bob.obj.id, u), "one:x");
    // Set again, on the object.
    await must(w, alice.conn, `&fn #${t.id}=two:%0`);
    assert.equal(reads(w, bob.obj.id, u), "two:x");
    // Its flag: no longer visual to Bob.
    await must(w, alice.conn, `@set #${t.id}/fn=!visual`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    await must(w, alice.conn, `@set #${t.id}/fn=visual`);
    assert.equal(reads(w, bob.obj.id, u), "two:x");
    // Cleared: nothing; then found on a parent, set there, shadowed by the object's own.
    await must(w, alice.conn, `&fn #${t.id}=`);
    assert.equal(reads(w, bob.obj.id, u), "");
    await must(w, alice.conn, `&fn #${p.id}=parent:%0`);
    await must(w, alice.conn, `@set #${p.id}/fn=visual`);
    assert.equal(reads(w, bob.obj.id, u), "");
    await must(w, alice.conn, `@parent #${t.id}=#${p.id}`);
    assert.equal(reads(w, bob.obj.id, u), "parent:x");
    await must(w, alice.conn, `&fn #${p.id}=changed:%0`);
    assert.equal(reads(w, bob.obj.id, u), "changed:x");
    await must(w, alice.conn, `&fn #${t.id}=own:%0`);
    assert.equal(reads(w, bob.obj.id, u), DENIED, "the object's own, not visual");
    await must(w, alice.conn, `&fn #${t.id}=`);
    assert.equal(reads(w, bob.obj.id, u), "changed:x");
    // The parent's attribute's flag.
    await must(w, alice.conn, `@set #${p.id}/fn=!visual`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    await must(w, alice.conn, `@set #${p.id}/fn=visual`);
    assert.equal(reads(w, bob.obj.id, u), "changed:x");
    // Unparented.
    await must(w, alice.conn, `@parent #${t.id}=`);
    assert.equal(reads(w, bob.obj.id, u), "");
  } finally {
    await w.close();
  }
});

Deno.test("u() verdict: the object's flags, owner, zone and zone lock, and its destruction", async () => {
  const w = await testWorld();
  try {
    const alice = await w.player("Alice");
    const bob = await w.player("Bob");
    const root = await w.player("Root", { flags: ["superuser"] });
    const t = await w.services.objects.create({
      name: "Lib",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    const z = await w.services.objects.create({
      name: "Zone",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    const u = `[u(#${t.id}/fn)]`;
    await must(w, alice.conn, `&fn #${t.id}=secret`);
    // Locked, so an @chown leaves the attribute's owner as it is: only the object changes.
    await must(w, alice.conn, `@lock #${t.id}/fn`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    // The object's flag.
    await must(w, alice.conn, `@set #${t.id}=visual`);
    assert.equal(reads(w, bob.obj.id, u), "secret");
    await must(w, alice.conn, `@set #${t.id}=!visual`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    // Its owner: Bob controls what he owns.
    await must(w, root.conn, `@chown #${t.id}=Bob`);
    assert.equal(reads(w, bob.obj.id, u), "secret");
    await must(w, root.conn, `@chown #${t.id}=Alice`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    // Its zone: whoever passes the zone master's enter lock controls it.
    await must(w, alice.conn, `@lock/enter #${z.id}=#${bob.obj.id}`);
    await must(w, alice.conn, `@chzone #${t.id}=#${z.id}`);
    assert.equal(reads(w, bob.obj.id, u), "secret");
    // The zone master's lock changed.
    await must(w, alice.conn, `@lock/enter #${z.id}=#${alice.obj.id}`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    await must(w, alice.conn, `@lock/enter #${z.id}=#${bob.obj.id}`);
    assert.equal(reads(w, bob.obj.id, u), "secret");
    // Out of the zone.
    await must(w, alice.conn, `@chzone #${t.id}=none`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    // Destroyed: nothing (as a `#123` that names nothing), also where the attribute came from
    // a parent (no attribute of the object's own goes with it).
    await must(w, root.conn, `@set #${t.id}/fn=visual`);
    assert.equal(reads(w, bob.obj.id, u), "secret");
    const kid = await w.services.objects.create({
      name: "Kid",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    await must(w, alice.conn, `@parent #${kid.id}=#${t.id}`);
    const uk = `[u(#${kid.id}/fn)]`;
    assert.equal(reads(w, bob.obj.id, uk), "secret");
    await w.services.objects.delete(kid.id);
    assert.equal(reads(w, bob.obj.id, uk), "");
    await w.services.objects.delete(t.id);
    assert.equal(reads(w, bob.obj.id, u), "");
  } finally {
    await w.close();
  }
});

Deno.test("u() verdict: each reader's own, and the reader's powers", async () => {
  const w = await testWorld();
  try {
    const alice = await w.player("Alice");
    const bob = await w.player("Bob");
    const root = await w.player("Root", { flags: ["superuser"] });
    const t = await w.services.objects.create({
      name: "Lib",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    await must(w, alice.conn, `&fn #${t.id}=secret`);
    const u = `[u(#${t.id}/fn)]`;
    // One parsed call, two readers in turn: each gets its own verdict.
    for (let i = 0; i < 3; i++) {
      assert.equal(reads(w, alice.obj.id, u), "secret");
      assert.equal(reads(w, bob.obj.id, u), DENIED);
    }
    // A bare name is the reader's own attribute.
    await must(w, alice.conn, `&mine me=alice's`);
    await must(w, bob.conn, `&mine me=bob's`);
    for (let i = 0; i < 2; i++) {
      assert.equal(reads(w, alice.obj.id, "[u(mine)]"), "alice's");
      assert.equal(reads(w, bob.obj.id, "[u(mine)]"), "bob's");
      assert.equal(reads(w, alice.obj.id, "[u(me/mine)]"), "alice's");
      assert.equal(reads(w, bob.obj.id, "[u(me/mine)]"), "bob's");
    }
    // Powers: staff read what they do not control.
    await must(w, root.conn, `@set *Bob=wizard`);
    assert.equal(reads(w, bob.obj.id, u), "secret");
    await must(w, root.conn, `@set *Bob=!wizard`);
    assert.equal(reads(w, bob.obj.id, u), DENIED);
    // An inherit object of Bob's acts with Bob's powers: a staff Bob's reads; then not.
    const o = await w.services.objects.create({
      name: "Gadget",
      type: "thing",
      owner: bob.obj.id,
      location: "1",
    });
    await must(w, bob.conn, `@set #${o.id}=inherit`);
    await must(w, bob.conn, `&go #${o.id}=${u}`);
    const go = `[u(#${o.id}/go)]`;
    assert.equal(reads(w, bob.obj.id, go), DENIED);
    await must(w, root.conn, `@set *Bob=wizard`);
    assert.equal(reads(w, bob.obj.id, go), "secret");
    await must(w, root.conn, `@set *Bob=!wizard`);
    assert.equal(reads(w, bob.obj.id, go), DENIED);
  } finally {
    await w.close();
  }
});

Deno.test("u() verdict: not kept when a zone's lock evaluated softcode to decide it", async () => {
  const w = await testWorld();
  try {
    const alice = await w.player("Alice");
    const bob = await w.player("Bob");
    const t = await w.services.objects.create({
      name: "Lib",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    const z = await w.services.objects.create({
      name: "Zone",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    await must(w, alice.conn, `&fn #${t.id}=secret`);
    // An evaluation key that reads who is connected: no write of the world changes it.
    await must(w, alice.conn, `&check #${z.id}=[gte(conn(%#),0)]`);
    await must(w, alice.conn, `@lock/enter #${z.id}=check/1`);
    await must(w, alice.conn, `@chzone #${t.id}=#${z.id}`);
    const u = `[u(#${t.id}/fn)]`;
    assert.equal(reads(w, bob.obj.id, u), "secret");
    w.hub.disconnect(bob.obj.id, "gone");
    assert.equal(reads(w, bob.obj.id, u), DENIED);
  } finally {
    await w.close();
  }
});

Deno.test("u() verdict: a change softcode makes in memory shows at the same call's next run", async () => {
  const w = await testWorld();
  try {
    const alice = await w.player("Alice");
    const bob = await w.player("Bob");
    const t = await w.services.objects.create({
      name: "Lib",
      type: "thing",
      owner: alice.obj.id,
      location: "1",
    });
    // Bob's zone master, whose enter lock Bob's own softcode sets (lock(): in memory at once).
    const z = await w.services.objects.create({
      name: "Zone",
      type: "thing",
      owner: bob.obj.id,
      location: "1",
    });
    await must(w, alice.conn, `&fn #${t.id}=secret`);
    await must(w, bob.conn, `@lock/enter #${z.id}=#${bob.obj.id}`);
    await w.services.objects.update(t.id, (o) => void (o.data.zone = z.id));
    // One call, run for each item of one evaluation, the lock changed between the two.
    const keys = `#${alice.obj.id} #${bob.obj.id}`;
    const line = `[null(lock(#${z.id}/enter,#${bob.obj.id}))]` +
      `[iter(${keys},[u(#${t.id}/fn)][null(lock(#${z.id}/enter,##))],,|)]`;
    assert.equal(reads(w, bob.obj.id, line), `secret|${DENIED}`);
  } finally {
    await w.close();
  }
});

Deno.test("u() verdict: not kept when a zone's evaluation key was refused for lock nesting depth", async () => {
  const w = await testWorld();
  try {
    const alice = await w.player("Alice");
    const bob = await w.player("Bob");
    const make = (name: string, owner: string) =>
      w.services.objects.create({ name, type: "thing", owner, location: "1" });
    const t = await make("Lib", alice.obj.id);
    const z = await make("Zone", alice.obj.id);
    // Bob's thing reads Alice's attribute through the zone: it passes the zone's evaluation key.
    const l = await make("Nest", bob.obj.id);
    await must(w, alice.conn, `&fn #${t.id}=secret`);
    await must(w, alice.conn, `&check #${z.id}=1`);
    await must(w, alice.conn, `@lock/enter #${z.id}=check/1`);
    await must(w, alice.conn, `@chzone #${t.id}=#${z.id}`);
    // TOP's call of Lib/fn runs at each level of a nest of Nest's own lock, checked from its
    // evaluation key (elock()) until the lock world refuses the next at MAX_LOCK_NESTING: there
    // the zone's key is refused too, and the call is denied. Each level counts itself first (a
    // write: the innermost level's denial is found after the last one).
    await must(w, bob.conn, `&top #${l.id}=[u(#${t.id}/fn)]`);
    await must(
      w,
      bob.conn,
      `&rec #${l.id}=[set(me,N:[add(get(me/N),1)])][u(me/top)][elock(me,me)]`,
    );
    await must(w, bob.conn, `@lock #${l.id}=rec/1`);
    const run = (text: string) => stripMarkup(w.ports.softcode.evaluate(text, { executor: l.id }));
    assert.equal(run("[u(me/top)]"), "secret");
    // The same parsed call from the top after the nest, nothing changed since its innermost
    // level: found again, not that level's denial.
    assert.equal(run("[elock(me,me)] [get(me/N)] [u(me/top)]"), "0 20 secret");
  } finally {
    await w.close();
  }
});
