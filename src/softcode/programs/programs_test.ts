/** $-commands and listening over the real object and attribute stores (in memory). */
import assert from "node:assert/strict";
import { ObjectStore } from "../../world/objects.ts";
import { AttributeStore } from "../../world/attributes/store.ts";
import { openStore } from "../../storage/kv.ts";
import type { DbObject } from "../../world/types.ts";
import { type ProgramJob, Programs } from "./mod.ts";
import { RegexpCache } from "../regexp_cache.ts";

interface Fixture {
  kv: Deno.Kv;
  objects: ObjectStore;
  attrs: AttributeStore;
  programs: Programs;
  jobs: ProgramJob[];
  master: { id: string };
  wiz: DbObject;
  alice: DbObject;
  room: DbObject;
  close(): Promise<void>;
}

async function fixture(): Promise<Fixture> {
  const kv = await openStore(":memory:");
  const objects = new ObjectStore(kv, { live: true });
  await objects.load();
  const attrs = new AttributeStore(kv, objects, { live: true, quotaBytes: 0 });
  await attrs.load();
  const room = await objects.create({ name: "Hall", type: "room" });
  const masterRoom = await objects.create({ name: "Master Room", type: "room" });
  const wiz = await objects.create({
    name: "Wiz",
    type: "player",
    location: room.id,
    flags: ["wizard"],
  });
  const alice = await objects.create({ name: "Alice", type: "player", location: room.id });
  const master = { id: masterRoom.id };
  const jobs: ProgramJob[] = [];
  const programs = new Programs({
    world: () => objects.world,
    attributes: attrs,
    masterRoom: () => master.id,
    regexps: new RegexpCache(() => 200),
    locks: null,
  });
  return {
    kv,
    objects,
    attrs,
    programs,
    jobs,
    master,
    wiz,
    alice,
    room,
    async close() {
      programs.close();
      await attrs.close();
      kv.close();
    },
  };
}

/** Matches a typed line as dispatch does; answers how many matched (their jobs in `f.jobs`). */
function command(f: Fixture, actor: DbObject, line: { raw: string; evaluated: string }): number {
  const found = f.programs.match(actor, f.room, line);
  f.jobs.push(...f.programs.jobs(actor, found));
  return found.length;
}

function hear(f: Fixture, from: string, msg: string, exclude: string[] = []): void {
  f.jobs.push(...f.programs.heard(f.room.id, from, msg, exclude));
}

function typed(line: string) {
  return { raw: line, evaluated: line };
}

async function thing(f: Fixture, name: string, location: string, flags: string[] = []) {
  return await f.objects.create({ name, type: "thing", location, owner: f.wiz.id, flags });
}

function ran(f: Fixture): string[] {
  const out = f.jobs.map((j) => `#${j.executor}:${j.action}(${j.args.join("|")})`);
  f.jobs.length = 0;
  return out;
}

Deno.test("$-commands: wildcards fill %0-%9; every match on every local object runs, in MUX's order", async () => {
  const f = await fixture();
  try {
    const box = await thing(f, "Box", f.room.id);
    const bag = await thing(f, "Bag", f.alice.id);
    f.attrs.setNow(f.wiz, box.id, "CMD_GREET", "$greet * from *:@pemit %#=hi %0/%1");
    f.attrs.setNow(f.wiz, box.id, "CMD_ANY", "$greet *:@pemit %#=any %0");
    f.attrs.setNow(f.wiz, bag.id, "CMD", "$greet *:@pemit %#=bag");
    f.attrs.setNow(f.wiz, f.room.id, "CMD", "$greet *:@pemit %#=room");
    assert.equal(command(f, f.alice, typed("GREET alice from bob")), 4);
    assert.deepEqual(ran(f), [
      `#${box.id}:@pemit %#=any %0(alice from bob)`,
      `#${box.id}:@pemit %#=hi %0/%1(alice|bob)`,
      `#${f.room.id}:@pemit %#=room(alice from bob)`,
      `#${bag.id}:@pemit %#=bag(alice from bob)`,
    ]);
    assert.equal(f.jobs.length, 0);
    // Not a $-command here: nothing runs.
    assert.equal(command(f, f.alice, typed("say greet x")), 0);
  } finally {
    await f.close();
  }
});

Deno.test("$-commands: an exit in the room or carried offers none, as MUX's contents hold no exit", async () => {
  const f = await fixture();
  try {
    const door = await f.objects.create({ name: "Door", type: "exit", location: f.room.id });
    const held = await f.objects.create({ name: "Hatch", type: "exit", location: f.alice.id });
    const box = await thing(f, "Box", f.room.id);
    for (const o of [door, held, box]) {
      f.attrs.setNow(f.wiz, o.id, "CMD", `$knock:@pemit %#=${o.name}`);
    }
    // Among 30 players, as SGP's +who bench has them, with their flags in any case.
    for (let i = 0; i < 30; i++) {
      await f.objects.create({
        name: `P${i}`,
        type: "player",
        location: f.room.id,
        flags: ["DARK"],
      });
    }
    assert.equal(command(f, f.alice, typed("knock")), 1);
    assert.deepEqual(ran(f), [`#${box.id}:@pemit %#=Box()`]);
  } finally {
    await f.close();
  }
});

Deno.test("$-commands: the master room answers only when nothing local matched", async () => {
  const f = await fixture();
  try {
    const global = await thing(f, "Globals", f.master.id);
    f.attrs.setNow(f.wiz, global.id, "PING", "$+ping:@pemit %#=pong");
    f.attrs.setNow(f.wiz, global.id, "WHO", "$+who:@pemit %#=global who");
    // A thousand other global commands, none of which a plain line can match.
    for (let i = 0; i < 1000; i++) {
      f.attrs.setNow(f.wiz, global.id, `CMD${i}`, `$+cmd${i} *:@pemit %#=${i}`);
    }
    assert.equal(command(f, f.alice, typed("+ping")), 1);
    assert.deepEqual(ran(f), [`#${global.id}:@pemit %#=pong()`]);
    assert.equal(command(f, f.alice, typed("+cmd512 x")), 1);
    // The index offers a line only the patterns with its literal prefix: one of the thousand.
    assert.equal(f.programs.index.masterCommands("+cmd512 x").length, 1);
    assert.equal(f.programs.index.masterCommands("say hello").length, 0);
    assert.deepEqual(ran(f), [`#${global.id}:@pemit %#=512(x)`]);
    const local = await thing(f, "Local", f.room.id);
    f.attrs.setNow(f.wiz, local.id, "WHO", "$+who:@pemit %#=local who");
    command(f, f.alice, typed("+who"));
    assert.deepEqual(ran(f), [`#${local.id}:@pemit %#=local who()`]);
    // Leaving the master room takes its commands along; coming back brings them.
    await f.objects.update(global.id, (o) => (o.location = f.room.id));
    f.attrs.setNow(f.wiz, local.id, "WHO", "");
    command(f, f.alice, typed("+ping"));
    assert.deepEqual(ran(f), [`#${global.id}:@pemit %#=pong()`]); // now local
    const other = await f.objects.create({ name: "Elsewhere", type: "room" });
    await f.objects.update(global.id, (o) => (o.location = other.id));
    assert.equal(command(f, f.alice, typed("+ping")), 0);
    await f.objects.update(global.id, (o) => (o.location = f.master.id));
    assert.equal(command(f, f.alice, typed("+ping")), 1);
    ran(f);
    // Another master room (the configuration changed).
    f.master.id = other.id;
    assert.equal(command(f, f.alice, typed("+ping")), 0);
  } finally {
    await f.close();
  }
});

Deno.test("$-commands: the index follows writes, clears, flags (no_command, regexp) and object flags", async () => {
  const f = await fixture();
  try {
    const box = await thing(f, "Box", f.room.id);
    assert.equal(command(f, f.alice, typed("+roll 3")), 0);
    f.attrs.setNow(f.wiz, box.id, "ROLL", "$+roll *:@pemit %#=rolled %0");
    assert.equal(command(f, f.alice, typed("+roll 3")), 1);
    f.attrs.setNow(f.wiz, box.id, "ROLL", "$+throw *:@pemit %#=thrown %0");
    assert.equal(command(f, f.alice, typed("+roll 3")), 0);
    assert.equal(command(f, f.alice, typed("+throw 3")), 1);
    f.attrs.setFlagNow(f.wiz, box.id, "ROLL", "no_command", true);
    assert.equal(command(f, f.alice, typed("+throw 3")), 0);
    f.attrs.setFlagNow(f.wiz, box.id, "ROLL", "no_command", false);
    assert.equal(command(f, f.alice, typed("+throw 3")), 1);
    await f.objects.update(box.id, (o) => o.flags.push("halt"));
    assert.equal(command(f, f.alice, typed("+throw 3")), 0);
    await f.objects.update(box.id, (o) => (o.flags = o.flags.filter((x) => x !== "halt")));
    await f.objects.update(box.id, (o) => o.flags.push("no_command"));
    assert.equal(command(f, f.alice, typed("+throw 3")), 0);
    await f.objects.update(box.id, (o) => (o.flags = ["thing"]));
    ran(f);
    // A regular expression: %0 the whole match, %1... its groups; in any case unless `case`
    // (MUX 2.12 compiles it PCRE_CASELESS without AF_CASE).
    f.attrs.setNow(f.wiz, box.id, "RE", "$^\\+dice (\\d+)d(\\d+)$:@pemit %#=%1 %2");
    f.attrs.setFlagNow(f.wiz, box.id, "RE", "regexp", true);
    assert.equal(command(f, f.alice, typed("+dice 3d6")), 1);
    assert.deepEqual(ran(f), [`#${box.id}:@pemit %#=%1 %2(+dice 3d6|3|6)`]);
    assert.equal(command(f, f.alice, typed("+DICE 3d6")), 1);
    ran(f);
    f.attrs.setFlagNow(f.wiz, box.id, "RE", "case", true);
    assert.equal(command(f, f.alice, typed("+DICE 3d6")), 0);
    assert.equal(command(f, f.alice, typed("+dice 3d6")), 1);
    ran(f);
    // An invalid expression never matches (and never throws).
    f.attrs.setNow(f.wiz, box.id, "RE", "$(((:think x");
    assert.equal(command(f, f.alice, typed("(((")), 0);
    // The use lock: an actor who fails it gets none of the object's commands.
    await f.objects.update(box.id, (o) => (o.data.locks = { use: "wizard" }));
    assert.equal(command(f, f.alice, typed("+throw 1")), 0);
    assert.equal(command(f, f.wiz, typed("+throw 1")), 1);
    // Destroyed: gone from the index.
    await f.objects.delete(box.id);
    assert.equal(command(f, f.wiz, typed("+throw 1")), 0);
  } finally {
    await f.close();
  }
});

Deno.test("$-commands: parents' commands count; a child's attribute of the name hides one; no_inherit", async () => {
  const f = await fixture();
  try {
    const parent = await thing(f, "Parent", f.wiz.id);
    const child = await thing(f, "Child", f.room.id);
    await f.objects.update(child.id, (o) => (o.data.parent = parent.id));
    f.attrs.setNow(f.wiz, parent.id, "HELLO", "$hello:@pemit %#=parent hello");
    f.attrs.setNow(f.wiz, parent.id, "BYE", "$bye:@pemit %#=parent bye");
    f.attrs.setNow(f.wiz, parent.id, "SECRET", "$secret:@pemit %#=secret");
    f.attrs.setFlagNow(f.wiz, parent.id, "SECRET", "no_inherit", true);
    f.attrs.setNow(f.wiz, child.id, "BYE", "just data");
    assert.equal(command(f, f.alice, typed("hello")), 1);
    // Runs as the child, as MUX.
    assert.deepEqual(ran(f), [`#${child.id}:@pemit %#=parent hello()`]);
    assert.equal(command(f, f.alice, typed("bye")), 0);
    assert.equal(command(f, f.alice, typed("secret")), 0);
    // A loop of parents ends.
    await f.objects.update(parent.id, (o) => (o.data.parent = child.id));
    assert.equal(command(f, f.alice, typed("hello")), 1);
  } finally {
    await f.close();
  }
});

Deno.test("$-commands: matched against the evaluated line, or as typed with no_parse", async () => {
  const f = await fixture();
  try {
    const box = await thing(f, "Box", f.room.id);
    f.attrs.setNow(f.wiz, box.id, "SUM", "$+sum 3:@pemit %#=three");
    f.attrs.setNow(f.wiz, box.id, "RAW", "$+raw \\[*\\]:@pemit %#=raw %0");
    f.attrs.setFlagNow(f.wiz, box.id, "RAW", "no_parse", true);
    const line = { raw: "+sum [add(1,2)]", evaluated: "+sum 3" };
    assert.equal(command(f, f.alice, line), 1);
    assert.equal(
      command(f, f.alice, { raw: "+raw [x]", evaluated: "+raw " }),
      1,
    );
    assert.deepEqual(ran(f), [`#${box.id}:@pemit %#=three()`, `#${box.id}:@pemit %#=raw %0(x)`]);
  } finally {
    await f.close();
  }
});

Deno.test("listening: ^-patterns on monitor objects, never their own output; @listen and @a*hear", async () => {
  const f = await fixture();
  try {
    const parrot = await thing(f, "Parrot", f.room.id, ["monitor"]);
    f.attrs.setNow(f.wiz, parrot.id, "HEAR", '^* says, "*":@emit Squawk! %1');
    hear(f, f.alice.id, 'Alice says, "%chhello%cn"');
    assert.deepEqual(ran(f), [`#${parrot.id}:@emit Squawk! %1(Alice|hello)`]);
    // Its own output: not heard by its ^-patterns.
    hear(f, parrot.id, 'Parrot says, "hi"');
    assert.deepEqual(ran(f), []);
    // Without monitor, ^-patterns hear nothing; halted, nothing at all.
    await f.objects.update(parrot.id, (o) => (o.flags = ["thing"]));
    hear(f, f.alice.id, 'Alice says, "x"');
    assert.deepEqual(ran(f), []);
    // @listen: @ahear for others, @amhear for itself, @aahear for both.
    f.attrs.setNow(f.wiz, parrot.id, "LISTEN", "* waves*");
    f.attrs.setNow(f.wiz, parrot.id, "AHEAR", "@emit other %0");
    f.attrs.setNow(f.wiz, parrot.id, "AMHEAR", "@emit self %0");
    f.attrs.setNow(f.wiz, parrot.id, "AAHEAR", "@emit any %0");
    hear(f, f.alice.id, "Alice waves.");
    assert.deepEqual(ran(f), [
      `#${parrot.id}:@emit other %0(Alice|.)`,
      `#${parrot.id}:@emit any %0(Alice|.)`,
    ]);
    hear(f, parrot.id, "Parrot waves.");
    assert.deepEqual(ran(f), [
      `#${parrot.id}:@emit self %0(Parrot|.)`,
      `#${parrot.id}:@emit any %0(Parrot|.)`,
    ]);
    hear(f, f.alice.id, "Alice waves.", [parrot.id]);
    assert.deepEqual(ran(f), []);
    await f.objects.update(parrot.id, (o) => o.flags.push("halt"));
    hear(f, f.alice.id, "Alice waves.");
    assert.deepEqual(ran(f), []);
    // A monitor room hears what is said in it.
    await f.objects.update(f.room.id, (o) => o.flags.push("monitor"));
    f.attrs.setNow(f.wiz, f.room.id, "ECHO", "^*:@pemit %#=echo");
    hear(f, f.alice.id, "Alice waves.");
    assert.deepEqual(ran(f), [`#${f.room.id}:@pemit %#=echo(Alice waves.)`]);
  } finally {
    await f.close();
  }
});

Deno.test("listening: @ahear and its kin are read through the parent chain", async () => {
  const f = await fixture();
  try {
    const parent = await thing(f, "Parrot Parent", f.master.id);
    const parrot = await thing(f, "Parrot", f.room.id);
    await f.objects.update(parrot.id, (o) => (o.data.parent = parent.id));
    f.attrs.setNow(f.wiz, parrot.id, "LISTEN", "* waves*");
    f.attrs.setNow(f.wiz, parent.id, "AHEAR", "@emit parent heard %0");
    f.attrs.setNow(f.wiz, parent.id, "AAHEAR", "@emit parent any");
    f.attrs.setNow(f.wiz, parent.id, "AMHEAR", "@emit hidden");
    f.attrs.setFlagNow(f.wiz, parent.id, "AMHEAR", "no_inherit", true);
    hear(f, f.alice.id, "Alice waves.");
    assert.deepEqual(ran(f), [
      `#${parrot.id}:@emit parent heard %0(Alice|.)`,
      `#${parrot.id}:@emit parent any(Alice|.)`,
    ]);
    // no_inherit keeps the parent's AMHEAR from the child; the child's own wins.
    hear(f, parrot.id, "Parrot waves.");
    assert.deepEqual(ran(f), [`#${parrot.id}:@emit parent any(Parrot|.)`]);
    f.attrs.setNow(f.wiz, parrot.id, "AHEAR", "@emit own %0");
    hear(f, f.alice.id, "Alice waves.");
    assert.deepEqual(ran(f), [
      `#${parrot.id}:@emit own %0(Alice|.)`,
      `#${parrot.id}:@emit parent any(Alice|.)`,
    ]);
  } finally {
    await f.close();
  }
});

Deno.test("listening: the room's hearers are kept per room, and follow moves, flags and LISTEN", async () => {
  const f = await fixture();
  try {
    // Many things that cannot hear, one that can.
    for (let i = 0; i < 20; i++) await thing(f, `Rock ${i}`, f.room.id);
    const parrot = await thing(f, "Parrot", f.room.id, ["monitor"]);
    f.attrs.setNow(f.wiz, parrot.id, "HEAR", "^*:@emit heard");
    hear(f, f.alice.id, "hello");
    assert.deepEqual(ran(f), [`#${parrot.id}:@emit heard(hello)`]);
    // A new hearer in the room (a LISTEN of its own), heard at once.
    const owl = await thing(f, "Owl", f.room.id);
    hear(f, f.alice.id, "hello");
    assert.equal(ran(f).length, 1);
    f.attrs.setNow(f.wiz, owl.id, "LISTEN", "*");
    f.attrs.setNow(f.wiz, owl.id, "AHEAR", "@emit hoot");
    hear(f, f.alice.id, "hello");
    assert.deepEqual(
      ran(f).sort(),
      [`#${owl.id}:@emit hoot(hello)`, `#${parrot.id}:@emit heard(hello)`].sort(),
    );
    // Moved out: no longer heard here. Monitor cleared: its ^-patterns stop.
    await f.objects.update(owl.id, (o) => (o.location = f.master.id));
    await f.objects.update(parrot.id, (o) => (o.flags = ["thing"]));
    hear(f, f.alice.id, "hello");
    assert.deepEqual(ran(f), []);
    // LISTEN cleared on a thing that comes back: it hears nothing.
    await f.objects.update(owl.id, (o) => (o.location = f.room.id));
    f.attrs.setNow(f.wiz, owl.id, "LISTEN", "");
    hear(f, f.alice.id, "hello");
    assert.deepEqual(ran(f), []);
  } finally {
    await f.close();
  }
});

Deno.test("$-commands: what could offer one is kept per place and follows creates, moves, parents, attributes, flags, destroys", async () => {
  const f = await fixture();
  try {
    // Many players and things that offer nothing: each line looks at what could offer alone.
    for (let i = 0; i < 20; i++) await thing(f, `Rock ${i}`, f.room.id);
    const poke = () => command(f, f.alice, typed("poke"));
    assert.equal(poke(), 0);
    // Created in the room, then given a command: offered at once.
    const box = await thing(f, "Box", f.room.id);
    assert.equal(poke(), 0);
    f.attrs.setNow(f.wiz, box.id, "CMD", "$poke:@pemit %#=box");
    assert.equal(poke(), 1);
    // A thing already counted out (it held nothing) comes to hold one.
    const rock = (await f.objects.contents(f.room.id)).find((o) => o.name === "Rock 3")!;
    f.attrs.setNow(f.wiz, rock.id, "CMD", "$poke:@pemit %#=rock");
    assert.equal(poke(), 2);
    // A thing with no attribute of its own gets a parent holding one.
    const kid = await thing(f, "Kid", f.room.id);
    assert.equal(poke(), 2);
    await f.objects.update(kid.id, (o) => (o.data = { ...o.data, parent: box.id }));
    assert.equal(poke(), 3);
    // Shown before its commit (softcode's create() with a parent, tel()): counted at once.
    const twin = f.objects.createNow({
      name: "Twin",
      type: "thing",
      location: f.room.id,
      owner: f.wiz.id,
      data: { parent: box.id },
    });
    assert.equal(poke(), 4);
    f.objects.updateNow(twin.id, (o) => (o.location = f.master.id));
    assert.equal(poke(), 3);
    await f.objects.flush();
    // Halted: offers none; cleared, offers again.
    await f.objects.update(rock.id, (o) => (o.flags = [...o.flags, "halt"]));
    assert.equal(poke(), 2);
    await f.objects.update(rock.id, (o) => (o.flags = o.flags.filter((x) => x !== "halt")));
    assert.equal(poke(), 3);
    // Moved out of the room, and into the actor's hands.
    await f.objects.update(box.id, (o) => (o.location = f.alice.id));
    ran(f);
    assert.equal(poke(), 3);
    assert.ok(ran(f).includes(`#${box.id}:@pemit %#=box()`));
    await f.objects.update(box.id, (o) => (o.location = f.wiz.id));
    assert.equal(poke(), 2);
    // The parent gone: the child offers nothing. The holder destroyed: nothing is left.
    await f.objects.update(kid.id, (o) => (o.data = {}));
    assert.equal(poke(), 1);
    await f.objects.delete(rock.id);
    ran(f);
    assert.equal(poke(), 0);
    assert.deepEqual(ran(f), []);
  } finally {
    await f.close();
  }
});
