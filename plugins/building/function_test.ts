import assert from "node:assert/strict";
import { startTestGame } from "../../src/plugins/testing.ts";

/** Waits until `probe` answers true (the destroy runs after the evaluation), at most 5 s. */
async function until(probe: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("timed out");
}

Deno.test("building: destroy() runs @destroy's rules once the evaluation is done", async () => {
  const game = await startTestGame({ plugins: ["building"] });
  try {
    const alice = await game.player("Alice", { flags: ["builder"] });
    const bob = await game.player("Bob");
    const think = async (who: typeof alice, expr: string) =>
      (await game.run(who, `think ${expr}`)).text(who.name);
    const box = (await think(alice, "[create(box,10)]")).trim();
    // The rest of the evaluation still sees it, as MUX's destroy() only marks it (@destroy's
    // words may follow on the next line, or later).
    const said = await think(alice, `[destroy(${box})][name(${box})]`);
    assert.equal(said.split("\n")[0], "box");
    // Its words come once the destroy has run, sweep and all; a later line must not catch them.
    let heard = said;
    await until(async () => {
      heard += (await game.received()).text("Alice");
      return /Destroyed box\(#\d+\)\./.test(heard);
    });
    assert.equal(await think(alice, `[type(${box})]`), "#-1 NOT FOUND");
    // Not a builder: refused before anything is matched; hostile arguments change nothing.
    const jar = (await think(alice, "[create(jar,10)]")).trim();
    assert.equal(await think(bob, `[destroy(${jar})]`), "#-1 PERMISSION DENIED");
    for (const arg of ["", "%b", "x".repeat(8000), "日本語", "#-1", "#99999999", "me/x", "here"]) {
      await think(alice, `[destroy(${arg})]`);
    }
    // A safe thing is refused, with @destroy's words, told once the destroy has run (after the
    // ones asked before it: destroys are done in order).
    await game.run(alice, `@set ${jar}=safe`);
    let told = (await game.run(alice, `think [destroy(${jar})]`)).text("Alice");
    await until(async () => {
      told += (await game.received()).text("Alice");
      return /that object is protected/.test(told);
    });
    assert.equal(await think(alice, `[name(${jar})] [type(me)] [type(here)]`), "jar PLAYER ROOM");
  } finally {
    await game.close();
  }
});
