/**
 * pfind(), entrances(), lrooms(), lattrcmds(), lcmds(), lock() and hasquota() in a small world:
 * what each finds, and what it keeps from whoever may not examine it. Their error forms are
 * compared with TinyMUX 2.12's in testdata/mux_cases_s45fnb.txt.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";

/** Limbo (#0) -> Hall -> Cellar -> Vault, Hall -> Attic; Alice's Den off Limbo, hers alone. */
function world() {
  const t = testSoftcode();
  const w = t.world;
  const alice = w.add("Alice", "player", { location: t.room, data: { home: t.room } });
  const hall = w.add("Hall", "room", { owner: t.wiz });
  const cellar = w.add("Cellar", "room", { owner: t.wiz });
  const vault = w.add("Vault", "room", { owner: t.wiz });
  const attic = w.add("Attic", "room", { owner: t.wiz });
  const den = w.add("Den", "room", { owner: alice });
  const exit = (name: string, from: string, to: string, owner = t.wiz, flags: string[] = []) =>
    w.add(name, "exit", { location: from, owner, flags, data: { destination: to } });
  const toHall = exit("Hall", t.room, hall);
  exit("Down", hall, cellar);
  exit("Up", hall, attic);
  exit("Back", hall, t.room);
  exit("Deeper", cellar, vault);
  const toDen = exit("Den", t.room, den, alice);
  const box = w.add("box", "thing", { location: t.wiz, owner: t.wiz, data: { home: hall } });
  const cup = w.add("cup", "thing", { location: alice, owner: alice, data: { home: hall } });
  return { ...t, alice, hall, cellar, vault, attic, den, toHall, toDen, box, cup };
}

Deno.test("pfind(): players by name, alias or *name; a dbref as it is", () => {
  const t = world();
  assert.equal(t.run("[pfind(alice)] [pfind(*ALICE)] [pfind(me)]"), `#${t.alice} #${t.alice} #1`);
  assert.equal(
    t.run(`[pfind(#${t.box})] [pfind(#999)] [pfind(box)]`),
    `#${t.box} #-1 #-1 NO MATCH`,
  );
});

Deno.test("entrances(): exits leading here and what makes its home here, by type and range", () => {
  const t = world();
  assert.equal(t.run(`entrances(#${t.hall})`), `#${t.toHall} #${t.box} #${t.cup}`);
  assert.equal(t.run(`entrances(#${t.hall},e)`), `#${t.toHall}`);
  assert.equal(t.run(`entrances(#${t.hall},t)`), `#${t.box} #${t.cup}`);
  assert.equal(t.run(`entrances(#${t.hall},a,#${t.box},#${t.box})`), `#${t.box}`);
  assert.equal(t.run(`entrances(,p)`), `#${t.alice}`, "empty: the executor's location");
  assert.equal(t.run(`entrances(#${t.hall},r)`), "", "rooms link nowhere (no droptos)");
  // Alice may examine only what she controls, unless she may examine the place.
  assert.equal(t.run(`entrances(#${t.hall})`, t.alice), `#${t.cup}`);
  assert.equal(t.run(`entrances(#${t.den})`, t.alice), `#${t.toDen}`);
  assert.equal(t.run(`entrances(#${t.hall},z)`), "#-1 INVALID TYPE");
  t.world.sent.length = 0;
  assert.equal(t.run("entrances(nowhere)"), "#-1");
  assert.deepEqual(t.world.sent.map((m) => m.msg), ["I don't see that here."]);
});

Deno.test("lrooms(): the rooms around, to a depth, each once, only those one may examine", () => {
  const t = world();
  assert.equal(t.run("lrooms(here)"), `#${t.hall} #${t.den}`);
  assert.equal(t.run("lrooms(here,2)"), `#${t.hall} #${t.cellar} #${t.attic} #${t.den}`);
  assert.equal(
    t.run("lrooms(here,3)"),
    `#${t.hall} #${t.cellar} #${t.vault} #${t.attic} #${t.den}`,
  );
  assert.equal(t.run("lrooms(here,2,0)"), `#${t.cellar} #${t.attic}`, "that level alone");
  assert.equal(t.run("lrooms(here,50)"), t.run("lrooms(here,3)"), "a loop back ends");
  // Alice examines her Den alone (Limbo, where she stands, is the start and not listed).
  assert.equal(t.run("lrooms(here,3)", t.alice), `#${t.den}`);
  assert.equal(t.run(`lrooms(#${t.toHall})`), "#-1 FIRST ARGUMENT MUST BE A ROOM");
});

Deno.test("lattrcmds() and lcmds(): $-commands and ^-listens one may read", () => {
  const t = world();
  t.world.set(t.box, "CMD_A", "$Push *:think pushed");
  t.world.set(t.box, "CMD_B", "^* waves:think waved");
  t.world.set(t.box, "NOTE", "plain");
  t.world.set(t.box, "SECRET", "$hidden:think x", ["hidden"]);
  assert.equal(t.run(`lattrcmds(#${t.box})`), "CMD_A SECRET");
  assert.equal(t.run(`lcmds(#${t.box})`), "push * hidden");
  assert.equal(t.run(`lcmds(#${t.box},|,^)`), "* waves");
  assert.equal(t.run(`lcmds(#${t.box}/cmd_*,|)`), "push *");
  // Alice may not read the wizard's box's attributes, nor a hidden one.
  assert.equal(t.run(`lattrcmds(#${t.box})`, t.alice), "");
  t.world.set(t.cup, "CMD", "$drink:think gulp");
  t.world.set(t.cup, "SECRET", "$sip:think x", ["hidden"]);
  assert.equal(t.run(`lcmds(#${t.cup})`, t.alice), "drink");
});

Deno.test("lock(): the lock's text for who may examine the object", () => {
  const t = world();
  t.world.objects.set(t.box, {
    ...t.world.objects.get(t.box)!,
    data: { home: t.hall, locks: { basic: "#1", enter: "builder+" } },
  });
  assert.equal(t.run(`[lock(#${t.box})] [lock(#${t.box}/enterlock)]`), "#1 builder+");
  assert.equal(t.run(`lock(#${t.box})`, t.alice), "");
  assert.equal(t.run(`lock(#${t.box}/nosuch)`), "#-1 LOCK NOT FOUND");
});

Deno.test("hasquota(): the object quota's rule, for oneself or by staff", () => {
  const t = world();
  assert.equal(t.run("hasquota(*alice,1)"), "#-1 Quotas are not enabled.");
  t.world.objectQuota = 3;
  // Alice owns herself, her Den, its exit and the cup: three objects, the whole quota.
  assert.equal(t.run("[hasquota(me,0)] [hasquota(me,1)]", t.alice), "1 0");
  t.world.objectQuota = 5;
  assert.equal(t.run("[hasquota(me,2)] [hasquota(me,3)]", t.alice), "1 0");
  assert.equal(t.run("hasquota(*alice,2)"), "1", "staff ask of anyone");
  assert.equal(t.run("hasquota(me,100000)"), "1", "staff have no quota");
  assert.equal(t.run("hasquota(*wizard,1)", t.alice), "#-1 PERMISSION DENIED");
  assert.equal(t.run("hasquota(nobody,1)"), "#-1 NOT FOUND");
});

Deno.test("entrances(): a place linked from thousands stops cleanly at the evaluation's time limit", () => {
  let clock = 0;
  // A counter clock: each reading is a millisecond, so the limit bounds readings, i.e. work.
  const t = testSoftcode({ evaluationMs: 20, actorMs: Number.MAX_SAFE_INTEGER }, () => clock++);
  const hall = t.world.add("Hall", "room", { owner: t.wiz });
  for (let i = 0; i < 600; i++) {
    t.world.add(`thing${i}`, "thing", { location: t.room, owner: t.wiz, data: { home: hall } });
    t.world.add(`exit${i}`, "exit", {
      location: t.room,
      owner: t.wiz,
      data: { destination: hall },
    });
  }
  const out = t.run(`[entrances(#${hall})]`);
  assert.ok(!/INTERNAL/.test(out), out.slice(0, 80));
  const listed = out.split(" ").filter((w) => w.startsWith("#") && w !== "#-1").length;
  assert.ok(listed < 1200, `listed all ${listed}: the limit was not read inside the call`);
  // Within the limit the whole list comes back.
  clock = 0;
  const wide = testSoftcode({ evaluationMs: 1e9, actorMs: 1e9, gameMs: 1e9 }, () => clock++);
  const room = wide.world.add("Hall", "room", { owner: wide.wiz });
  for (let i = 0; i < 600; i++) {
    wide.world.add(`t${i}`, "thing", {
      location: wide.room,
      owner: wide.wiz,
      data: { home: room },
    });
  }
  assert.equal(wide.run(`[words(entrances(#${room}))]`), "600");
});
