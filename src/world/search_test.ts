import assert from "node:assert/strict";
import { LiveWorld } from "./live_world.ts";
import {
  runSearch,
  type SearchClass,
  searchClass,
  type SearchQuery,
  splitSearch,
} from "./search.ts";
import type { DbObject } from "./types.ts";

function obj(id: string, name: string, extra: Partial<DbObject> = {}): DbObject {
  return {
    id,
    name,
    flags: ["thing"],
    location: "1",
    owner: "2",
    data: {},
    createdAt: 0,
    updatedAt: 0,
    ...extra,
  };
}

const V = (n: number) => String(n).padStart(20, "0");

const ANY: SearchQuery = {
  owner: null,
  type: null,
  name: null,
  flags: [],
  parent: null,
  zone: null,
  evaluate: null,
  low: 0,
  high: Infinity,
};

const tests = { connected: () => false, staff: () => false };

Deno.test("search: a query splits as MUX's search_setup splits it", () => {
  assert.deepEqual(splitSearch(""), {
    player: "me",
    cls: "",
    restriction: "",
    low: 0,
    high: Infinity,
  });
  assert.deepEqual(splitSearch("Bob"), {
    player: "bob",
    cls: "",
    restriction: "",
    low: 0,
    high: Infinity,
  });
  // A player written *Name, as elsewhere (MUX's lookup_player drops the stars); a lone * stays.
  assert.equal((splitSearch("*Alice type=things") as { player: string }).player, "alice");
  assert.equal((splitSearch("**Alice") as { player: string }).player, "alice");
  assert.equal((splitSearch("*") as { player: string }).player, "*");
  assert.deepEqual(splitSearch("Bob type=room,#10,20"), {
    player: "bob",
    cls: "type",
    restriction: "room",
    low: 10,
    high: 20,
  });
  // Commas inside a function call belong to the code.
  assert.deepEqual(splitSearch("eval=gt(words(lcon(##)),10),5"), {
    player: "",
    cls: "eval",
    restriction: "gt(words(lcon(##)),10)",
    low: 5,
    high: Infinity,
  });
  assert.deepEqual(splitSearch("type=room,x"), {
    error: "The range must be dbrefs: <class>=<restriction>,<low>,<high>.",
  });
});

Deno.test("search: classes by any prefix, MUX's order and errors", () => {
  const c = (cls: string, r: string) => searchClass(cls, r);
  const ok = (cls: string, r: string): SearchClass => {
    const got = searchClass(cls, r);
    if ("error" in got) throw new Error(got.error);
    return got;
  };
  assert.equal(ok("t", "r").type, "room");
  assert.equal(ok("e", "north").type, "exit");
  assert.equal(ok("ev", "1").evaluate, "1");
  assert.deepEqual(c("flags", "PWc"), {
    type: "player",
    name: null,
    flags: ["wizard", "connected"],
    evaluate: null,
    parent: null,
    zone: null,
    anyOwner: true,
  });
  assert.deepEqual(ok("flags", "builder dark").flags, ["builder", "dark"]);
  assert.deepEqual(c("flags", "PR"), { error: "R: Conflicting type specifications." });
  assert.deepEqual(c("type", "blob"), { error: "blob: unknown type" });
  assert.deepEqual(c("power", "x"), { error: "power: unknown class" });
});

Deno.test("search: candidates come from the narrowest index, tested at most `cap`", () => {
  const w = new LiveWorld();
  w.put(obj("1", "Limbo", { flags: ["room"], location: "", owner: "" }), V(1));
  w.put(obj("2", "Bob", { flags: ["player"], owner: "2" }), V(1));
  for (let i = 10; i < 40; i++) w.put(obj(String(i), i % 2 ? "Odd" : "Even"), V(1));
  w.put(obj("50", "Kid", { data: { parent: "10" } }), V(1));
  const found = runSearch(w, { ...ANY, owner: "2", name: "od" }, tests, 1000);
  assert.equal(found.ids.length, 15);
  assert.equal(found.candidates, 32, "Bob's objects and Bob");
  const capped = runSearch(w, { ...ANY, owner: "2", name: "od" }, tests, 10);
  // The first ten in the index's order (ids as text: 10 to 19).
  assert.deepEqual(capped.ids, ["11", "13", "15", "17", "19"]);
  assert.equal(capped.tested, 10);
  const kids = runSearch(w, { ...ANY, parent: "10" }, tests, 1);
  assert.deepEqual([kids.ids, kids.candidates], [["50"], 1]);
  const ranged = runSearch(w, { ...ANY, type: "thing", low: 12, high: 13 }, tests, 1000);
  assert.deepEqual(ranged.ids, ["12", "13"]);
  // An evaluation that runs out of time stops the search where it is.
  let calls = 0;
  const stopped = runSearch(w, { ...ANY, type: "thing", evaluate: "##" }, {
    ...tests,
    evaluate: (code) => (++calls > 3 ? null : code === "#10"),
  }, 1000);
  assert.deepEqual([stopped.ids, stopped.tested, stopped.stopped], [["10"], 3, true]);
});
