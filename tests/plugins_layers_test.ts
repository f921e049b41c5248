/**
 * Names across layers (docs/plugins.md, "Names across layers"): a plugin's `+dice` written and
 * tested alone works, but the game ships the system script `+roll` whose alias is `+dice`, and a
 * script's name or alias wins over a plugin's. The test kit loads the shipped scripts on request
 * (`scripts: true`), so a plugin's test sees what players would get.
 */
import { assertEquals, assertMatch } from "./assert.ts";
import { join } from "node:path";
import { startTestGame } from "../src/plugins/testing.ts";

async function dicePlugin(): Promise<string> {
  const dir = join(await Deno.makeTempDir({ prefix: "ursamu-dice-" }), "dice");
  await Deno.mkdir(dir);
  const sdk = new URL("../src/plugins/mod.ts", import.meta.url).href;
  await Deno.writeTextFile(
    join(dir, "ursamu.plugin.json"),
    JSON.stringify({ name: "dice", version: "1.0.0", description: "a +dice plugin" }),
  );
  await Deno.writeTextFile(
    join(dir, "mod.ts"),
    `import type { PluginModule } from ${JSON.stringify(sdk)};
const plugin: PluginModule = {
  name: "dice",
  init(ctx) {
    ctx.commands.add({ name: "+dice", help: "+dice: the plugin's dice.", exec(u) { u.send("plugin dice: 4"); } });
    return true;
  },
};
export default plugin;
`,
  );
  return dir;
}

Deno.test("layers: a plugin's +dice alone, and under the shipped +roll script's alias", async () => {
  const dir = await dicePlugin();
  try {
    const alone = await startTestGame({ plugins: [dir] });
    try {
      const ann = await alone.player("Ann");
      assertEquals((await alone.run(ann, "+dice")).text("Ann"), "plugin dice: 4");
      assertEquals(alone.command("+dice")?.owner, "dice");
    } finally {
      await alone.close();
    }
    const shipped = await startTestGame({ plugins: [dir], scripts: true });
    try {
      const ann = await shipped.player("Ann");
      // The script's alias wins: the plugin's command never runs.
      const info = shipped.command("+dice");
      assertEquals([info?.owner, info?.name], ["system/scripts", "+roll"]);
      assertMatch((await shipped.run(ann, "+dice 1d6")).text("Ann"), /rolls? 1d6/i);
      // Staff still reach the plugin's command past the script layer.
      const root = await shipped.player("Root", { flags: ["superuser"] });
      assertEquals((await shipped.run(root, "@plugin/+dice")).text("Root"), "plugin dice: 4");
    } finally {
      await shipped.close();
    }
  } finally {
    await Deno.remove(join(dir, ".."), { recursive: true });
  }
});
