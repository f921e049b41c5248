import assert from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { CommandRegistry } from "./registry.ts";
import {
  CORE_MODULES,
  engineCommands,
  loadCommandModules,
  loadCoreCommands,
  turnOff,
} from "./load.ts";
import type { CommandSdk } from "./types.ts";

function said(registry: CommandRegistry, name: string): string {
  let out = "";
  registry.get(name)!.exec({ send: (m: string) => out = m } as unknown as CommandSdk);
  return out;
}

Deno.test("load: every core family loads, and reloads fresh with a version", async () => {
  const r = new CommandRegistry();
  const first = await loadCoreCommands(r);
  assert.deepEqual(first.failed, []);
  assert.ok(first.loaded >= 20);
  for (
    const name of ["look", "say", "who", "home", "get", "examine", "@describe", "@set", "@site"]
  ) {
    assert.equal(r.get(name)?.owner, "core", name);
  }
  assert.ok(r.list().every((c) => c.help && CORE_MODULES.includes(c.source!)));
  const again = await loadCoreCommands(r, "reload-1");
  assert.equal(again.loaded, first.loaded);
  assert.equal(r.list().length, first.loaded);
});

Deno.test("load: a broken module is reported and keeps its previous commands", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-load-" });
  try {
    const write = (file: string, text: string) => Deno.writeTextFile(`${dir}/${file}`, text);
    const cmd = (name: string, reply: string) =>
      `export const commands = [{ name: "${name}", help: "x", exec(u) { u.send("${reply}"); } }];\n`;
    await write("good.ts", cmd("+good", "v1"));
    await write("other.ts", cmd("+other", "o1"));
    await write("badspec.ts", `export const commands = [{ name: "two words", exec() {} }];\n`);
    await write("syntax.ts", "export const commands = [;\n");
    const set = {
      owner: "test",
      base: new URL(pathToFileURL(dir).href + "/"),
      modules: ["good.ts", "other.ts", "badspec.ts", "syntax.ts", "missing.ts"],
    };
    const r = new CommandRegistry();
    const one = await loadCommandModules(r, set);
    assert.equal(one.loaded, 2);
    assert.deepEqual(one.failed.map((f) => f.module), ["badspec.ts", "syntax.ts", "missing.ts"]);
    assert.match(one.failed[0].error, /bad command name/);

    await write("good.ts", cmd("+good", "v2"));
    await write("other.ts", "export const commands = [ oops\n");
    const two = await loadCommandModules(r, set, "2");
    assert.equal(two.loaded, 1);
    assert.equal(two.kept, 1);
    assert.equal(said(r, "+good"), "v2", "the fixed file is re-imported fresh");
    assert.equal(said(r, "+other"), "o1", "the broken file's old command stays");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("load: commands.disabled turns a core command off whole, and back on without an import", async () => {
  const r = new CommandRegistry();
  let disabled: string[] = ["+WHERE", "w", "quit", "@reload", "+nosuch"];
  const core = engineCommands(r, () => disabled);
  const first = await core.loadCore();
  assert.deepEqual(first.failed, []);
  assert.equal(r.get("+where"), undefined);
  // `w` is whisper's alias: the whole command goes, its name with it.
  assert.equal(r.get("whisper"), undefined);
  assert.deepEqual(core.turnedOff(), ["+where", "w", "whisper"]);
  assert.equal(r.get("@reload")?.owner, "core", "@reload stays on");
  const problems = first.turnedOff!.problems.join("\n");
  assert.match(problems, /'quit' stays on; the game cannot run without it \(players leave/);
  assert.match(problems, /'@reload' stays on; the game cannot run without it/);
  assert.match(problems, /'\+nosuch' is no core command; nothing was turned off/);
  assert.equal(r.get("say")?.owner, "core");

  disabled = ["who"];
  const again = core.applyDisabled();
  assert.deepEqual(again.names, ["who"]);
  assert.deepEqual(again.problems, []);
  assert.equal(r.get("+where")?.owner, "core", "back on at once");
  assert.equal(r.get("w")?.name, "whisper");
  assert.equal(r.get("who"), undefined);
  // A reload of the files keeps applying the list.
  const reloaded = await core.reloadCore();
  assert.equal(reloaded.loaded, first.loaded);
  assert.equal(r.get("who"), undefined);
});

Deno.test("load: turnOff takes a command's name/switch registrations with it", () => {
  const spec = (name: string, aliases: string[] = []) => ({
    spec: { name, aliases, exec() {} },
    source: "x.ts",
  });
  const { specs, off } = turnOff(
    [spec("+job"), spec("+job/assign"), spec("+jobs"), spec("@reload", ["@rl"])],
    ["+JOB", "@rl"],
  );
  assert.deepEqual(specs.map((s) => s.spec.name), ["+jobs", "@reload"]);
  assert.deepEqual(off.names, ["+job"]);
  assert.match(off.problems[0], /'@rl' stays on; it is '@reload'/);
});
