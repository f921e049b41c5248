import assert from "node:assert/strict";
import { pluginFunction } from "./functions.ts";
import { testSoftcode } from "../softcode/_test_world.ts";

const HELP = {
  family: "game" as const,
  args: "greet(<player>)",
  summary: "A greeting.",
  example: { think: "greet(me)", gives: "hi" },
};

Deno.test("plugin functions: called with the caller and a player lookup; faults become errors", () => {
  const t = testSoftcode();
  const alice = t.world.add("Alice", "player", { location: t.room });
  t.functions.add(pluginFunction({
    name: "greet",
    minArgs: 1,
    maxArgs: 1,
    help: HELP,
    call: ({ caller, player }, [who]) => `${caller.name} greets ${player(who)?.name ?? "nobody"}`,
  }, "test"));
  t.functions.add(pluginFunction({
    name: "broken",
    minArgs: 0,
    maxArgs: 0,
    help: HELP,
    call: () => {
      throw new Error("boom");
    },
  }, "test"));
  assert.equal(t.run("[greet(*Alice)]"), "Wizard greets Alice");
  assert.equal(t.run(`[greet(#${alice})]`), "Wizard greets Alice");
  assert.equal(t.run("[greet(here)]"), "Wizard greets nobody", "a room is no player");
  assert.equal(t.run("[greet(*Nobody)]"), "Wizard greets nobody");
  assert.equal(t.run("[greet(a,b)]"), "#-1 FUNCTION (GREET) EXPECTS 1 ARGUMENTS");
  assert.equal(t.run("[broken()]"), "#-1 FUNCTION (BROKEN) FAILED");
});

Deno.test("plugin functions: bad specs are refused by name", () => {
  const ok = { name: "x", minArgs: 0, maxArgs: 1, help: HELP, call: () => "" };
  assert.throws(() => pluginFunction({ ...ok, name: "two words" }, "t"), /bad name/);
  assert.throws(() => pluginFunction({ ...ok, name: "1abc" }, "t"), /bad name/);
  assert.throws(() => pluginFunction({ ...ok, minArgs: 2 }, "t"), /bad argument counts/);
  // deno-lint-ignore no-explicit-any
  assert.throws(() => pluginFunction({ ...ok, call: "no" as any }, "t"), /call must be/);
});
