import assert from "node:assert/strict";
import { CommandRegistry, layerOf, SCRIPT_OWNER } from "./registry.ts";
import { parseLine } from "./parser.ts";

const noop = () => {};

function owner(r: CommandRegistry, line: string, only?: Parameters<CommandRegistry["match"]>[2]) {
  const m = r.match(parseLine(line)!, undefined, only);
  return m && "command" in m ? m.command.owner : null;
}

Deno.test("registry layers: a script wins over a plugin, a plugin over core, whatever the order", () => {
  const r = new CommandRegistry();
  r.add({ name: "who", exec: noop }, SCRIPT_OWNER);
  r.add({ name: "who", exec: noop }, "fancy");
  r.add({ name: "who", exec: noop }, "core");
  assert.equal(owner(r, "who"), SCRIPT_OWNER);
  assert.equal(r.get("WHO")?.owner, SCRIPT_OWNER);
  // The layers below stay reachable by filter (what @core/ and @plugin/ use).
  assert.equal(owner(r, "who", (e) => layerOf(e) === 0), "core");
  assert.equal(owner(r, "who", (e) => layerOf(e) === 1), "fancy");
  // Prefixes respect the filter too.
  assert.equal(owner(r, "wh", (e) => layerOf(e) === 0), null); // too short to prefix-match
  r.add({ name: "whisper", exec: noop }, "core");
  assert.equal(owner(r, "whis", (e) => layerOf(e) === 2), null);
  assert.equal(owner(r, "whis", (e) => layerOf(e) === 0), "core");
  // Removing the script layer gives the name back.
  r.replaceOwner(SCRIPT_OWNER, []);
  assert.equal(owner(r, "who"), "fancy");
  r.removeOwner("fancy");
  assert.equal(owner(r, "who"), "core");
});

Deno.test("registry layers: the layer of an owner", () => {
  assert.deepEqual(
    ["core", "channels", SCRIPT_OWNER].map((o) => layerOf({ owner: o })),
    [0, 1, 2],
  );
});
