import assert from "node:assert/strict";
import { CommandRegistry } from "./registry.ts";
import { parseLine } from "./parser.ts";
import type { CommandSpec } from "./types.ts";

const noop = () => {};
function spec(name: string, extra: Partial<CommandSpec> = {}): CommandSpec {
  return { name, exec: noop, ...extra };
}
function matchName(r: CommandRegistry, line: string): string | null {
  const m = r.match(parseLine(line)!);
  if (!m) return null;
  return "ambiguous" in m ? `ambiguous:${m.ambiguous.join(",")}` : m.command.name;
}

Deno.test("registry: names and aliases are case-insensitive", () => {
  const r = new CommandRegistry();
  r.add(spec("Look", { aliases: ["L"] }), "core");
  assert.equal(r.get("LOOK")?.name, "look");
  assert.equal(r.get("l")?.name, "look");
  assert.equal(matchName(r, "LoOk here"), "look");
  assert.equal(matchName(r, "L"), "look");
});

Deno.test("registry: exact names win over patterns, patterns run in registration order", () => {
  const r = new CommandRegistry();
  r.add(spec("+first", { pattern: /^\+f(\w+)\s*(.*)$/ }), "p1");
  r.add(spec("+second", { pattern: /^\+f(oo)\s*(.*)$/ }), "p2");
  r.add(spec("+foo"), "p3");
  assert.equal(matchName(r, "+foo x"), "+foo");
  const m = r.match(parseLine("+FXYZ hello there")!);
  assert.ok(m && !("ambiguous" in m));
  assert.equal(m.command.name, "+first");
  assert.deepEqual(m.args, ["XYZ", "hello there"]);
});

Deno.test("registry: a pattern decides the match of its own name and is stateless", () => {
  const r = new CommandRegistry();
  r.add(spec("+job", { pattern: /^\+job(?:\/(\w+))?\s+(\d+)$/g }), "jobs");
  assert.equal(matchName(r, "+job 12"), "+job");
  assert.equal(matchName(r, "+job 12"), "+job"); // a `g` flag would make the second call fail
  assert.equal(matchName(r, "+job abc"), null);
  const m = r.match(parseLine("+job/assign 7")!);
  assert.ok(m && !("ambiguous" in m));
  assert.deepEqual(m.args, ["assign", "7"]);
});

Deno.test("registry: unique prefixes of @ and plain commands match, + commands never", () => {
  const r = new CommandRegistry();
  r.add(spec("@describe"), "core");
  r.add(spec("@destroy"), "building");
  r.add(spec("examine"), "core");
  r.add(spec("+help"), "help");
  assert.equal(matchName(r, "exam me"), "examine");
  assert.equal(matchName(r, "@desc me=x"), "@describe");
  assert.equal(matchName(r, "@de"), "ambiguous:@describe,@destroy");
  assert.equal(matchName(r, "ex"), null, "two letters are too short to guess");
  assert.equal(matchName(r, "+hel"), null);
  assert.equal(matchName(r, "zzz"), null);
});

Deno.test("registry: name/switch registrations match before the bare name", () => {
  const r = new CommandRegistry();
  r.add(spec("+job"), "jobs");
  r.add(spec("+job/assign", { switches: ["quiet"] }), "jobs");
  const m = r.match(parseLine("+job/assign/quiet 3=Bob")!);
  assert.ok(m && !("ambiguous" in m));
  assert.equal(m.command.name, "+job/assign");
  assert.deepEqual(m.cmd.switches, ["quiet"]);
  assert.equal(matchName(r, "+job/list"), "+job");
});

Deno.test("registry: a plugin overrides a core command until it is removed", () => {
  const r = new CommandRegistry();
  const core = r.add(spec("who"), "core");
  const plug = r.add(spec("who"), "fancywho");
  assert.equal(r.get("who"), plug);
  assert.equal(r.removeOwner("fancywho"), 1);
  assert.equal(r.get("who"), core);
  // A core reload re-registers later, yet the plugin's command still wins.
  const again = r.add(spec("who"), "fancywho");
  r.replaceOwner("core", [{ spec: spec("who") }]);
  assert.equal(r.get("who"), again);
});

Deno.test("registry: removeOwner counts and removes everything of that owner", () => {
  const r = new CommandRegistry();
  r.add(spec("+a", { pattern: /^\+a$/ }), "p");
  r.add(spec("+b", { aliases: ["+bb"] }), "p");
  r.add(spec("look"), "core");
  assert.equal(r.removeOwner("p"), 2);
  assert.equal(r.removeOwner("p"), 0);
  assert.equal(matchName(r, "+a"), null);
  assert.equal(matchName(r, "+bb"), null);
  assert.equal(r.list().length, 1);
});

Deno.test("registry: bad specs are refused with a clear reason", () => {
  const r = new CommandRegistry();
  assert.throws(() => r.add(spec(""), "p"), /name is required/);
  assert.throws(() => r.add(spec("two words"), "p"), /bad command name/);
  assert.throws(() => r.add({ name: "x" } as CommandSpec, "p"), /no exec/);
  assert.throws(() => r.add(spec("x", { lock: "admin &" }), "p"), /lock of 'x'/);
  assert.throws(() => r.add(spec("x", { switches: ["ok", "no way"] }), "p"), /bad switch/);
  assert.throws(() => r.add(spec("x", { pattern: "^x" as unknown as RegExp }), "p"), /RegExp/);
  assert.throws(() => r.add(spec("x"), ""), /owner/);
  assert.equal(r.list().length, 0);
});

Deno.test("registry: replaceOwner swaps all or nothing", () => {
  const r = new CommandRegistry();
  r.add(spec("look"), "core");
  assert.throws(() => r.replaceOwner("core", [{ spec: spec("say") }, { spec: spec("bad name") }]));
  assert.ok(r.get("look"));
  assert.equal(r.get("say"), undefined);
  assert.equal(r.replaceOwner("core", [{ spec: spec("say") }]), 1);
  assert.equal(r.get("look"), undefined);
  assert.ok(r.get("say"));
});

Deno.test("registry: a pattern's accepts() may decline a line, which then goes on to prefixes", () => {
  const r = new CommandRegistry();
  r.add(spec("examine"), "core");
  // Channel aliases are per player: 'exa' is Ann's alias, not everybody's.
  const mine: Record<string, string[]> = { "1": ["exa"] };
  r.add(
    spec("+chan-talk", {
      pattern: /^(exa|pub)(?:\s+(.*))?$/,
      accepts: (me, [alias]) => (mine[me.id] ?? []).includes(alias.toLowerCase()),
    }),
    "channels",
  );
  const boom = (): boolean => {
    throw new Error("broken accepts");
  };
  r.add(spec("+broken", { pattern: /^zap$/, accepts: boom }), "x");
  const as = (id: string) => ({ id }) as unknown as Parameters<CommandRegistry["match"]>[1];
  const name = (line: string, id?: string) => {
    const m = r.match(parseLine(line)!, id ? as(id) : undefined);
    return m && !("ambiguous" in m) ? m.command.name : null;
  };
  assert.equal(name("exa hello", "1"), "+chan-talk");
  assert.equal(name("EXA hello", "1"), "+chan-talk");
  assert.equal(name("exa me", "2"), "examine", "someone else's alias does not steal the prefix");
  assert.equal(name("pub hi", "2"), null);
  assert.equal(name("exa me"), "+chan-talk", "without an actor the pattern decides alone");
  assert.equal(name("zap", "1"), null, "a throwing accepts() declines");
  assert.throws(() => r.add(spec("+bad", { accepts: 5 as never }), "x"), /accepts of '\+bad'/);
});
