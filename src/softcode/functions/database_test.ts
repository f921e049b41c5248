/**
 * con(), exit(), next(), visible(), lparent(), lattrp(), lflags(), home(), rloc(), fullname(),
 * valid() and doing() in a small world: what each answers, and what it keeps from whoever may
 * not see it.
 */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";

function world() {
  const t = testSoftcode();
  const alice = t.world.add("Alice", "player", { location: t.room });
  const hall = t.world.add("Hall", "room");
  const box = t.world.add("box", "thing", {
    location: t.wiz,
    owner: t.wiz,
    data: { home: t.room },
  });
  const cup = t.world.add("cup", "thing", { location: t.room, owner: t.wiz });
  const north = t.world.add("North", "exit", {
    location: t.room,
    owner: t.wiz,
    data: { destination: hall, aliases: ["n", "no"] },
  });
  const south = t.world.add("South", "exit", {
    location: t.room,
    owner: t.wiz,
    data: { destination: hall },
  });
  const secret = t.world.add("Secret", "exit", {
    location: t.room,
    owner: t.wiz,
    flags: ["dark"],
    data: { destination: hall },
  });
  const base = t.world.add("Base", "thing", { location: hall, owner: t.wiz });
  const mid = t.world.add("Mid", "thing", { location: hall, owner: t.wiz, data: { parent: base } });
  const leaf = t.world.add("Leaf", "thing", {
    location: hall,
    owner: alice,
    data: { parent: mid },
  });
  t.world.online.add(t.wiz).add(alice);
  return { ...t, alice, hall, box, cup, north, south, secret, base, mid, leaf };
}

Deno.test("con(), exit() and next() walk a place's contents and exits", () => {
  const w = world();
  const contents = w.run("lcon(here)").split(" ");
  assert.equal(w.run("con(here)"), contents[0]);
  assert.equal(w.run(`next(${contents[0]})`), contents[1]);
  assert.equal(w.run(`next(${contents.at(-1)})`), "#-1");
  assert.equal(w.run("con(#99)"), "#-1 NOT FOUND");
  assert.equal(w.run("con(box)"), "#-1");
  const exits = w.run("lexits(here)").split(" ");
  assert.equal(w.run("exit(here)"), exits[0]);
  assert.equal(w.run(`next(${exits[0]})`), exits[1]);
  assert.equal(w.run("exit(box)"), "#-1");
  // Alice does not see the dark exit listed, so next() does not lead her to it.
  const hers = w.run("lexits(here)", w.alice).split(" ");
  assert.ok(!hers.includes(`#${w.secret}`));
  // After the last exit MUX's next() finds none: NOT FOUND (after the last thing, #-1).
  assert.equal(w.run(`next(${hers.at(-1)})`, w.alice), "#-1 NOT FOUND");
  assert.equal(w.run("next(here)"), "#-1");
});

Deno.test("con(), lcon(), next(), room(), hasattr() and elock() refuse as MUX 2.12's do", () => {
  const w = world();
  // Alice stands in Limbo: she lists it, but not the wizard she does not control, nor the Hall.
  assert.notEqual(w.run("lcon(here)", w.alice), "#-1 PERMISSION DENIED");
  for (const f of ["con", "lcon"]) {
    assert.equal(w.run(`${f}(*Wizard)`, w.alice), "#-1 PERMISSION DENIED");
    assert.equal(w.run(`${f}(#${w.hall})`, w.alice), "#-1 PERMISSION DENIED");
    assert.equal(w.run(`${f}(#${w.north})`), "#-1");
  }
  assert.equal(w.run(`next(#${w.mid})`, w.alice), "#-1 PERMISSION DENIED");
  assert.equal(w.run(`lcon(#${w.leaf})`, w.alice), "");
  // An exit's location is its destination (loc()), so its room is the room it leads to.
  assert.equal(w.run(`room(#${w.north})`), `#${w.hall}`);
  w.world.set(w.wiz, "SIZE", "big");
  assert.equal(w.run("hasattr(*Wizard,SIZE)", w.alice), "#-1 PERMISSION DENIED");
  assert.equal(w.run("hasattr(*Wizard,NOPE)", w.alice), "0");
  assert.equal(w.run(`hasattrp(#${w.box},SIZE)`, w.alice), "0");
  // A lock other than the default one that Alice may not read fails for her.
  w.world.objects.get(w.cup)!.data.locks = { use: `#${w.alice}` };
  assert.equal(w.run(`elock(#${w.cup}/use,me)`, w.alice), "0");
  assert.equal(w.run(`elock(#${w.cup}/use,*Alice)`), "1");
});

Deno.test("visible(), lparent() and lattrp() follow who may examine what", () => {
  const w = world();
  assert.equal(w.run(`visible(me,#${w.leaf})`), "1");
  assert.equal(w.run(`visible(*Alice,#${w.mid})`), "0");
  assert.equal(w.run(`visible(*Alice,#${w.leaf})`), "1");
  assert.equal(w.run("visible(#99,me)"), "#-1 NOT FOUND (ARG1)");
  assert.equal(w.run("visible(me,#99)"), "#-1 NOT FOUND (ARG2)");
  assert.equal(w.run(`lparent(#${w.leaf})`), `#${w.leaf} #${w.mid} #${w.base}`);
  // Alice may examine her leaf but not its wizard-owned parent, so the list stops there.
  assert.equal(w.run(`lparent(#${w.leaf})`, w.alice), `#${w.leaf} #${w.mid}`);
  w.world.set(w.base, "COLOUR", "blue");
  w.world.set(w.mid, "SIZE", "big");
  w.world.set(w.leaf, "SIZE", "small");
  assert.equal(w.run(`lattrp(#${w.leaf})`), "SIZE COLOUR");
  assert.equal(w.run(`lattrp(#${w.leaf}/C*)`), "COLOUR");
  assert.equal(w.run("lattrp(#99)"), "#-1 NO MATCH");
});

Deno.test("lflags(), home(), rloc(), fullname(), valid() and doing()", () => {
  const w = world();
  assert.equal(w.run("lflags(me)"), "CONNECTED STAFF WIZARD");
  assert.equal(w.run(`lflags(#${w.secret})`), "DARK");
  w.world.set(w.wiz, "NOTE", "x", ["visual"]);
  assert.equal(w.run("lflags(me/note)"), "VISUAL");
  assert.equal(w.run("lflags(me/nosuch)"), "");
  assert.equal(w.run("[flags(me/note)]|[flags(me/nosuch)]|[flags(#99/note)]"), "V||#-1 NOT FOUND");
  assert.equal(w.run("home(box)"), `#${w.room}`);
  assert.equal(w.run("home(here)"), "#-1");
  assert.equal(w.run(`home(#${w.north})`), `#${w.room}`);
  assert.equal(w.run("home(box)", w.alice), "#-1 NOT FOUND");
  assert.equal(w.run(`home(#${w.cup})`, w.alice), "#-1 PERMISSION DENIED");
  assert.equal(w.run("rloc(box,0)"), `#${w.box}`);
  assert.equal(w.run("rloc(box,1)"), `#${w.wiz}`);
  assert.equal(w.run("rloc(box,5)"), `#${w.room}`);
  assert.equal(w.run(`rloc(#${w.north},1)`), `#${w.hall}`);
  assert.equal(w.run(`fullname(#${w.north})`), "North;n;no");
  assert.equal(w.run("fullname(me)"), "Wizard");
  assert.equal(
    w.run("[valid(name,Foo)][valid(name,)][valid(playername,Bob)][valid(playername,a b)]"),
    "1010",
  );
  assert.equal(w.run("[valid(attrname,FOO)][valid(attrname,a b)][valid(nosuch,x)]"), "10#-1");
  assert.equal(w.run("[valid(doing,hi)][valid(doing,[repeat(x,61)])]"), "10");
  const a = w.world.objects.get(w.alice)!;
  w.world.objects.set(w.alice, { ...a, data: { doing: "Reading" } });
  assert.equal(w.run("doing(*Alice)"), "Reading");
  w.world.online.delete(w.alice);
  assert.equal(w.run("doing(*Alice)"), "#-1 NOT A CONNECTED PLAYER");
  assert.equal(w.run("doing(*Nobody)"), "#-1 PLAYER DOES NOT EXIST");
});

Deno.test("attrcnt(), eval(), mtime(), restarttime() and emit()", () => {
  const w = world();
  w.world.set(w.wiz, "NOTE", "hello");
  w.world.set(w.wiz, "NICK", "[add(1,2)]");
  assert.equal(w.run("attrcnt(me/N*)"), "2");
  assert.equal(w.run("attrcnt(#99)"), "#-1 NO MATCH");
  // Alice may not read the wizard's attributes, so she counts none.
  assert.equal(w.run(`attrcnt(#${w.wiz})`, w.alice), "0");
  assert.equal(w.run("eval(me,nick)"), "3");
  assert.equal(w.run("eval(me,nosuch)"), "");
  assert.equal(w.run("eval(me/nick)"), "me/nick");
  assert.equal(w.run("eval(\\[add(2,2)\\])"), "4");
  assert.match(w.run("mtime(me)"), /^\w{3} \w{3} \d\d \d\d:\d\d:\d\d\.\d{6} \d{4}$/);
  assert.equal(w.run(`mtime(#${w.wiz})`, w.alice), "#-1 PERMISSION DENIED");
  assert.match(w.run("restarttime()"), /^\w{3} \w{3} \d\d \d\d:\d\d:\d\d \d{4}$/);
  assert.equal(w.run("emit(A bell rings.)"), "");
  assert.ok(w.world.sent.some((s) => s.msg === "A bell rings."), JSON.stringify(w.world.sent));
});

Deno.test("owner() of an attribute, room() of a room, pmatch(me), andflags() of nothing, bittype()", () => {
  const w = world();
  w.world.set(w.base, "COLOUR", "blue");
  w.world.set(w.wiz, "NOTE", "x");
  assert.equal(w.run("owner(me/NOTE)"), `#${w.wiz}`);
  // Inherited from the parent, as MUX's atr_pget_info reads it.
  assert.equal(w.run(`owner(#${w.leaf}/COLOUR)`), `#${w.wiz}`);
  assert.equal(w.run("owner(me/NOSUCH)"), "#-1");
  assert.equal(w.run("owner(#99/NOTE)"), "#-1 NOT FOUND");
  assert.equal(w.run("room(here)"), "#-1");
  assert.equal(w.run("room(box)"), `#${w.room}`);
  assert.equal(w.run("pmatch(me)"), `#${w.wiz}`);
  assert.equal(w.run("[andflags(#99,W)] [orflags(#99,W)]"), "0 0");
  // A wizard's thing ranks as its own flags say, as its owner only when set inherit.
  assert.equal(w.run("[bittype(box)] [bittype(me)]"), "1 5");
  const box = w.world.objects.get(w.box)!;
  w.world.objects.set(w.box, { ...box, flags: [...box.flags, "inherit"] });
  assert.equal(w.run("bittype(box)"), "5");
});
