/** The shipped screens in text/: every line fits a 78-column client once colour codes are gone. */
import { assert } from "../../tests/assert.ts";
import { stripColour } from "./colour.ts";

Deno.test("text/: the shipped screens' lines fit 78 columns", async () => {
  const dir = new URL("../../text/", import.meta.url);
  let files = 0;
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile || !e.name.endsWith(".txt")) continue;
    files++;
    const text = await Deno.readTextFile(new URL(e.name, dir));
    for (const line of stripColour(text).split("\n")) {
      assert(line.length <= 78, `${e.name}: ${line.length} columns: ${line}`);
    }
  }
  assert(files >= 4, "connect, motd, welcome and guest screens");
});
