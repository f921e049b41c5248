import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";

/** A world: a wizard (#1) and Alice in Limbo (#0) with a box; Bob far away in the Hall. */
function world() {
  const t = testSoftcode();
  const alice = t.world.add("Alice", "player", { location: t.room });
  const hall = t.world.add("Hall", "room");
  const bob = t.world.add("Bob", "player", { location: hall, flags: ["dark"] });
  const box = t.world.add("box", "thing", { location: t.room, owner: alice });
  const exit = t.world.add("North;n", "exit", { location: t.room });
  t.world.online.add(t.wiz).add(alice).add(bob);
  return { t, alice, hall, bob, box, exit };
}

Deno.test("softcode objects: names, numbers, places and contents", () => {
  const { t, alice, hall, bob, box, exit } = world();
  const as = (s: string) => t.run(s, alice);
  assert.equal(
    as("[name(me)] [num(me)] [name(box)] [num(box)] [name(n)]"),
    `Alice #${alice} box #${box} North`,
  );
  assert.equal(as("[name(nosuch)]|[num(nosuch)]|[loc(nosuch)]"), "#-1 NOT FOUND|#-1|#-1 NOT FOUND");
  assert.equal(as("[loc(me)] [loc(box)] [room(box)]"), `#${t.room} #${t.room} #${t.room}`);
  assert.equal(as(`[lcon(here)]|[lexits(here)]`), `#${t.wiz} #${alice} #${box}|#${exit}`);
  assert.equal(as(`[type(box)] [type(here)] [type(n)] [hastype(me,player)]`), "THING ROOM EXIT 1");
  // Bob is far away and dark: Alice sees neither into his room (MUX's lcon(): a place she may not
  // examine and is not in is refused) nor him in lwho().
  assert.equal(as(`[lcon(#${hall})]`), "#-1 PERMISSION DENIED");
  assert.equal(as("[lwho()]"), `#${t.wiz} #${alice}`);
  assert.equal(t.run("[lwho()]"), `#${t.wiz} #${alice} #${bob}`);
  assert.equal(t.run(`[loc(*Bob)]`), `#${hall}`);
  // An exit, as MUX keeps it: loc() is where it leads (#-1 unlinked), where() and home() the room
  // it leaves from.
  assert.equal(t.run("[loc(n)] [where(n)] [home(n)]"), `#-1 #${t.room} #${t.room}`);
  const south = t.world.add("South;s", "exit", { location: t.room, data: { destination: hall } });
  assert.equal(
    t.run(`[loc(s)] [where(s)] [home(s)] [loc(#${south})]`),
    `#${hall} #${t.room} #${t.room} #${hall}`,
  );
  // Alice sees where it leads as well (the room it leaves from is hers to see).
  assert.equal(as("[loc(s)]"), `#${hall}`);
  assert.equal(as("[owner(box)] [controls(me,box)] [controls(me,here)]"), `#${alice} 1 0`);
  assert.equal(
    as("[hasflag(me,connected)] [hasflag(*wizard,wizard)] [hasflag(me,wizard)]"),
    "1 1 0",
  );
  assert.equal(as("[pmatch(ali)] [pmatch(nobody)]"), `#${alice} #-1 NO MATCH`);
  // TinyMUX 2.12's words for an object not found, which packages compare against.
  assert.equal(
    as("[controls(nosuch,me)]|[controls(me,nosuch)]|[nearby(nosuch,me)]|[findable(me,nosuch)]"),
    "#-1 NOT FOUND (ARG1)|#-1 NOT FOUND (ARG2)|#-1 NOT FOUND (ARG1)|#-1 NOT FOUND (ARG2)",
  );
  assert.equal(as("[first(version())] [mudname()]"), "MUX TestMUSH");
});

Deno.test("softcode objects: attributes follow who may read and change them", () => {
  const { t, alice, box } = world();
  const as = (s: string) => t.run(s, alice);
  t.world.set(box, "NOTE", "mine");
  t.world.set(t.wiz, "SECRET", "wizard only", ["hidden"]);
  t.world.set(t.wiz, "PUBLIC", "anyone", ["visual"]);
  t.world.set(t.wiz, "PRIVATE", "owner only");
  assert.equal(as("[get(box/NOTE)] [hasattr(box,NOTE)]"), "mine 1");
  assert.equal(
    as("[get(*wizard/PUBLIC)]|[get(*wizard/PRIVATE)]|[get(*wizard/SECRET)]"),
    "anyone|#-1 PERMISSION DENIED|#-1 PERMISSION DENIED",
  );
  assert.equal(as("[lattr(*wizard)]"), "PUBLIC");
  assert.equal(as("[lattr(nosuch)]|[lattr(nosuch/*)]|[lattr(me/)]"), "#-1 NO MATCH|#-1 NO MATCH|");
  assert.equal(t.run("[lattr(me)]"), "PRIVATE PUBLIC SECRET");
  assert.equal(as("[set(box,NOTE:changed)][get(box/NOTE)]"), "changed");
  assert.equal(as("[set(*wizard,PUBLIC:defaced)]"), "#-1 PERMISSION DENIED");
  assert.equal(t.run("[get(me/PUBLIC)]"), "anyone");
  assert.equal(as("[set(box,bad name:x)]"), "#-1 BAD ATTRIBUTE NAME");
});

Deno.test("softcode objects: pemit, remit and oemit deliver in wire form", () => {
  const { t, alice, bob, box } = world();
  t.run(`[pemit(*Alice,hi [ansi(r,red)] 100%%)]`);
  assert.deepEqual(t.world.sent.pop(), { to: alice, msg: "hi %crred%cn 100%%" });
  t.world.sent.length = 0;
  t.run("[remit(here,rumble)]", alice);
  assert.deepEqual(t.world.sent.map((s) => s.to).sort(), [t.wiz, alice].sort());
  assert.ok(!t.world.sent.some((s) => s.to === box), "things hear nothing yet");
  t.world.sent.length = 0;
  t.run("[oemit(me,psst)]", alice);
  assert.ok(!t.world.sent.some((s) => s.to === alice || s.to === bob));
});

Deno.test("softcode objects: pemit() and oemit() reach no further than @pemit and @oemit", () => {
  const { t, alice, bob, box } = world();
  const far = t.world.add("ear", "thing", { location: t.world.objects.get(bob)!.location });
  const mine = t.world.add("kite", "thing", {
    location: t.world.objects.get(bob)!.location,
    owner: alice,
  });
  const to = () => t.world.sent.splice(0).map((s) => `${s.to}:${s.msg}`);
  // Alice in Limbo: the box and the wizard are here, Bob and the ear are in the Hall.
  t.run(`[pemit(#${box} *Wizard,near)]`, alice);
  assert.deepEqual(to(), [`${box}:near`, `${t.wiz}:near`]);
  t.run(`[pemit(*Bob,far)]`, alice);
  assert.deepEqual(to(), [`${alice}:You are too far away to do that.`]);
  t.run(`[pemit(#${far} #${mine},far)]`, alice);
  assert.deepEqual(to(), [`${alice}:You are too far away to do that.`, `${mine}:far`]);
  // oemit() too: nothing said around Bob in the Hall from Limbo.
  t.run(`[oemit(*Bob,spoofed)]`, alice);
  assert.deepEqual(to(), [`${alice}:You are too far away to do that.`]);
  // Staff control everything: no reach limits a wizard's.
  t.run(`[pemit(*Bob,from a wizard)]`);
  assert.deepEqual(to(), [`${bob}:from a wizard`]);
});

Deno.test("softcode objects: search() reads @search's query: classes, ranges, a player", () => {
  const { t, alice, bob, box } = world();
  const attic = t.world.add("Attic", "room", { owner: alice });
  const ball = t.world.add("ball", "thing", { owner: alice, data: { parent: box } });
  const ids = (...xs: string[]) => xs.map((x) => `#${x}`).join(" ");
  const as = (s: string) => t.run(s, alice);
  // No argument: what the executor owns (itself too), in dbref order.
  assert.equal(as("[search()]"), ids(alice, box, attic, ball));
  assert.equal(as("[search(type=thing)] [lsearch(t=r)]"), ids(box, ball, attic));
  // Names by their start; classes and types by any prefix.
  assert.equal(
    as("[search(things=b)]|[search(o=bo)]|[search(name=a)]"),
    `${ids(box, ball)}|${ids(box)}|${ids(alice, attic)}`,
  );
  // A range of dbrefs, with or without #.
  assert.equal(
    as(`[search(type=thing,#${ball},#${ball})]|[search(type=thing,,${box})]`),
    `${ids(ball)}|${ids(box)}`,
  );
  // Lists of players and children are anyone's; an evaluation sees ## as each dbref.
  assert.equal(as("[search(type=player)]"), ids(t.wiz, alice, bob));
  assert.equal(as("[search(players=a)]"), ids(alice));
  assert.equal(as("[search(parent=box)]"), ids(ball));
  assert.equal(as(`[search(ething=\\[strmatch(name(##),b*)\\])]`), ids(box, ball));
  assert.equal(t.run(`[search(eplayer=\\[strmatch(name(##),A*)\\])]`), ids(alice));
  // Flag letters: Bob is dark, so connected only to whoever may see him.
  assert.equal(t.run("[search(flags=PD)]"), ids(bob));
  assert.equal(as("[search(flags=Pc)]"), ids(t.wiz, alice));
  assert.equal(t.run("[search(flags=Pc)]"), ids(t.wiz, alice, bob));
  // A player named: staff search anyone's, by name or dbref; `me` is the executor's.
  assert.equal(t.run("[search(Alice type=thing)]"), ids(box, ball));
  assert.equal(t.run(`[search(#${alice} rooms=a)]`), ids(attic));
  assert.equal(as("[search(me type=room)]"), ids(attic));
});

Deno.test("softcode objects: search()'s evaluation class counts each object's function calls apart, as MUX's", () => {
  // 14 calls an object, 500 for an evaluation: together, 60 objects ran out at the 35th.
  const t = testSoftcode({ functionInvocations: 500 });
  const alice = t.world.add("Alice", "player", { location: t.room });
  const things = Array.from(
    { length: 60 },
    (_, i) => t.world.add(`t${i}`, "thing", { owner: alice }),
  );
  const test = "\\[gt(words(iter(lnum(10),add(##,1))),0)\\]";
  assert.equal(
    t.run(`[search(ething=${test})]`, alice),
    things.map((x) => `#${x}`).join(" "),
  );
  // The search's own count is as before it: the calls after it are not refused.
  assert.equal(t.run(`[words(search(ething=${test}))] [add(1,1)]`, alice), "60 2");
});

Deno.test("softcode objects: children(), the zone lists and search() answer from the whole index, whole dbrefs up to the output limit", () => {
  const t = testSoftcode();
  const zmo = t.world.add("ZMO", "thing", { location: t.room });
  const parent = t.world.add("Parent", "thing", { location: t.room });
  // 2,500 things in the zone, then its 3 exits: past the 2,000 the zone lists stopped at.
  const things = Array.from(
    { length: 2_500 },
    (_, i) => t.world.add(`t${i}`, "thing", { data: { zone: zmo, parent } }),
  );
  const exits = Array.from(
    { length: 3 },
    (_, i) => t.world.add(`e${i}`, "exit", { data: { zone: zmo } }),
  );
  assert.equal(t.run(`[zexits(#${zmo})]`), exits.map((x) => `#${x}`).join(" "));
  // As MUX's ItemToList: dbrefs in order, as many whole ones as the output holds.
  for (const list of [`zthings(#${zmo})`, `children(#${parent})`, "search(type=thing)"]) {
    const out = t.run(`[${list}]`);
    const got = out.split(" ");
    assert.ok(out.length <= 7_999 && out.length > 7_999 - 6, `${list}: ${out.length}`);
    assert.ok(got.every((x) => /^#\d+$/.test(x)), `${list}: whole dbrefs`);
    const from = list === "search(type=thing)" ? [zmo, parent, ...things] : things;
    assert.deepEqual(got, from.slice(0, got.length).map((x) => `#${x}`), list);
  }
});

Deno.test("softcode objects: search() tells its executor when it tested only the first 20,000 of its candidates", () => {
  const t = testSoftcode();
  for (let i = 0; i < 20_001; i++) t.world.add(`t${i}`, "thing");
  const last = t.world.add("Zed", "thing");
  assert.equal(t.run("[search(name=Z)]"), "");
  assert.deepEqual(
    t.world.sent.filter((s) => s.to === t.wiz).map((s) => s.msg),
    [
      `search(): Searched the first 20000 of ${t.world.objects.size} objects; narrow it with a ` +
      "player, a type or a range.",
    ],
  );
  assert.equal(t.run(`[search(name=Z,${last})]`), `#${last}`, "a range narrows it");
});

Deno.test("softcode objects: search() refuses as @search does, with MUX's #-1 and the reason told", () => {
  const { t, alice, hall, box } = world();
  const ERR = "#-1 ERROR DURING SEARCH";
  const told = (s: string, executor = alice) => {
    t.world.sent.length = 0;
    const r = t.run(s, executor);
    return [r, t.world.sent.filter((m) => m.to === executor).map((m) => m.msg).join("|")];
  };
  // A mortal searches only its own, but for players; staff search anything.
  assert.deepEqual(told("[search(Wizard)]"), [ERR, "You need a search warrant to do that!"]);
  assert.deepEqual(told("[search(Wizard type=thing)]"), [
    ERR,
    "You need a search warrant to do that!",
  ]);
  assert.deepEqual(told("[search(Wizard type=player)]"), [`#${t.wiz}`, ""]);
  assert.deepEqual(told(`[search(zone=#${hall})]`), [ERR, "Permission denied."]);
  assert.deepEqual(told("[search(Alice type=thing)]", t.wiz), [`#${box}`, ""]);
  assert.ok(told("[search(type=room)]", t.wiz)[0].split(" ").includes(`#${hall}`));
  assert.deepEqual(told("[search(type=room)]"), ["", ""]);
  // MUX's words for what it cannot read.
  assert.deepEqual(told("[search(Nobody)]"), [ERR, "nobody: No such player"]);
  assert.deepEqual(told(`[search(#${box} type=thing)]`), [ERR, `#${box}: No such player`]);
  assert.deepEqual(told("[search(foo=bar)]"), [ERR, "foo: unknown class"]);
  assert.deepEqual(told("[search(type=nonsense)]"), [ERR, "nonsense: unknown type"]);
  assert.deepEqual(told("[search(flags=PR)]"), [ERR, "R: Conflicting type specifications."]);
  assert.deepEqual(told("[search(parent=nosuch)]"), [ERR, "I don't see that here."]);
  assert.deepEqual(told("[search(type=thing,x)]")[0], ERR);
});

Deno.test("softcode objects: grep, elock and bittype", () => {
  const { t, alice, box } = world();
  t.world.set(box, "A", "the Red fox");
  t.world.set(box, "B", "a blue fox");
  assert.equal(t.run("[grep(box,*,fox)] [grep(box,*,Red)] [grepi(box,*,red)]", alice), "A B A A");
  const boxObj = t.world.objects.get(box)!;
  boxObj.data = { locks: { basic: "wizard", use: "#false" } };
  assert.equal(t.run("[elock(box,me)]", alice), "0");
  assert.equal(t.run("[elock(box,me)]"), "1");
  assert.equal(t.run("[elock(box/use,me)]", alice), "0");
  assert.equal(t.run("[bittype(me)] [bittype(*Alice)]"), "5 1");
});

Deno.test("softcode objects: flags, conn() and idle() read one object at a time as MUX's do", () => {
  const { t, alice, bob, box } = world();
  const su = t.world.add("Root", "player", { location: t.room, flags: ["superuser"] });
  const admin = t.world.add("Ada", "player", { location: t.room, flags: ["admin"] });
  const as = (s: string) => t.run(s, alice);
  // Staff ranks read as MUX's flags; case and spaces around the name do not matter.
  assert.equal(
    as(`[hasflag(#${su},wizard)] [hasflag(#${admin},Royalty)] [hasflag(#${admin}, staff )]`),
    "1 1 1",
  );
  assert.equal(
    as(`[hasflag(#${admin},wizard)] [hasflag(#${su},royalty)] [hasflag(me,STAFF)]`),
    "0 0 0",
  );
  assert.equal(
    as(`[hasflag(#${su},connected)] [hasflag(box,connected)] [hasflag(box,thing)]`),
    "0 0 0",
  );
  // Upper case, as packages write flags (`UNFINDABLE`, `JUMP_OK`): found by the upper-cased
  // name, the derived ones (WIZARD, ROYALTY, STAFF) too, and any other spelling as before.
  const hid = t.world.add("Hideout", "room", { flags: ["unfindable", "jump_ok"] });
  assert.equal(
    as(
      `[hasflag(#${hid},UNFINDABLE)] [hasflag(#${hid},JUMP_OK)] [hasflag(#${hid},Jump_Ok)] ` +
        `[hasflag(#${hid},DARK)] [hasflag(#${hid}, UNFINDABLE )] [hasflag(#${hid},UNFINDABLEX)]`,
    ),
    "1 1 1 0 1 0",
  );
  assert.equal(
    as(
      `[hasflag(#${su},WIZARD)] [hasflag(#${admin},ROYALTY)] [hasflag(#${admin},STAFF)] ` +
        `[hasflag(#${su},CONNECTED)] [hasflag(me,CONNECTED)] [hasflag(#${hid},ROOM)]`,
    ),
    "1 1 1 0 1 0",
  );
  // A letter that asks the game (w staff, c connected) among others that do not.
  assert.equal(
    as(
      `[orflags(#${admin},DHw)] [orflags(#${su},Dc)] [andflags(me,!Dc)] [andflags(#${admin},Z!w)]`,
    ),
    "1 0 1 0",
  );
  // Types are not flags in MUX (hastype() asks for one).
  assert.equal(as(`[hasflag(here,room)] [hasflag(here,player)] [hasflag(me,nosuchflag)]`), "0 0 0");
  // Letters: types by their letter, ! for lacking.
  assert.equal(
    as(`[andflags(me,Pc)] [andflags(me,P!D)] [andflags(box,P)] [orflags(box,!P)]`),
    "1 1 0 1",
  );
  assert.equal(
    as(`[orflags(here,R)] [orflags(#${bob},D)] [andflags(#${su},W!Z)] [orflags(#${admin},W)]`),
    "1 1 1 0",
  );
  // A character beyond the BMP is one letter that names no flag, after `!` too.
  assert.equal(
    as(`[andflags(me,P!\u{1F600})] [orflags(me,!\u{1F600})] [andflags(me,\u{1F600})]`),
    "1 1 0",
  );
  // In MUX's order, its flags' names alphabetical (STAFF before WIZARD).
  assert.equal(as(`[flags(#${su})] [flags(box)]`), "PwW ");
  // conn() and idle() of a dark player: -1 to whoever may not see it, by name or dbref.
  assert.equal(as(`[conn(*Bob)] [idle(#${bob})] [conn(Bob)]`), "-1 -1 -1");
  assert.equal(t.run(`[conn(*Bob)] [idle(#${bob})] [conn(Bob)] [idle(#0${bob})]`), "60 5 60 5");
  // Nor is a dark player connected by its flags (MUX shows no dark wizard connected to mortals).
  const bobFlags = `[flags(#${bob})] [hasflag(#${bob},connected)] [orflags(#${bob},c)] ` +
    `[andflags(#${bob},Pc)] [lflags(#${bob})]`;
  assert.equal(as(bobFlags), "PD 0 0 0 DARK");
  assert.equal(t.run(bobFlags), "PcD 1 1 1 CONNECTED DARK");
  assert.equal(t.run(bobFlags, bob), "PcD 1 1 1 CONNECTED DARK", "it sees itself connected");
  assert.equal(
    as(`[conn(me)] [conn(#${alice})] [idle(Alice)] [conn(#${su})] [conn(nosuch)]`),
    "-1 60 5 -1 -1",
  );
  assert.equal(as(`[conn(#${box})] [idle(#-1)]`), "-1 -1");
  // A dbref with spaces or a leading zero names the same object.
  assert.equal(
    as(`[name(#0${alice})] [name( #${alice} )] [num(#${alice})] [name(#99999)]`),
    `Alice Alice #${alice} #-1 NOT FOUND`,
  );
});

Deno.test("softcode objects: a plain #123 read again names what the world holds at each read", () => {
  const { t, alice, bob, box } = world();
  const ev = t.sc.begin({ executor: t.wiz });
  try {
    const first = ev.objectAt(`#${box}`);
    assert.equal(first?.name, "box");
    // A new record since (renamed), then destroyed: never the record read before.
    t.world.objects.set(box, { ...first!, name: "crate" });
    assert.equal(ev.objectAt(`#${box}`)?.name, "crate");
    t.world.objects.delete(box);
    assert.equal(ev.objectAt(`#${box}`), null);
    assert.equal(ev.objectAt(`#${alice}`)?.id, alice);
    // Texts that are no plain dbref are left to the full match.
    for (const s of ["", "me", `#0${alice}`, ` #${alice}`, "#", "#-1", "*Alice"]) {
      assert.equal(ev.objectAt(s), undefined, s);
    }
    assert.equal(ev.objectAt(`#${bob}`)?.id, bob);
    assert.equal(ev.objectAt(`#${alice}`)?.id, alice);
  } finally {
    t.sc.end(ev);
  }
  // Through the functions, in one evaluation: the object as it is at each call.
  t.world.add("lamp", "thing", { location: t.room });
  const lamp = [...t.world.objects.values()].find((o) => o.name === "lamp")!.id;
  assert.equal(
    t.run(`[name(#${lamp})] [hasflag(#${lamp},dark)] [conn(#${alice})] [name(#${box})]`),
    "lamp 0 60 #-1 NOT FOUND",
  );
});
