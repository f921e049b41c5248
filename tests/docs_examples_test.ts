/**
 * Code the docs show as a file "whole" is that file: each block after a
 * `<!-- whole: <path> -->` marker in docs/ equals the file at <path>, so a changed plugin
 * cannot leave its example behind.
 */
import { assert, assertEquals } from "./assert.ts";
import { join } from "node:path";
import { ROOT } from "./harness.ts";

Deno.test("docs: every example marked whole is the file it names", async () => {
  let seen = 0;
  for await (const e of Deno.readDir(join(ROOT, "docs"))) {
    if (!e.name.endsWith(".md")) continue;
    const text = await Deno.readTextFile(join(ROOT, "docs", e.name));
    for (const m of text.matchAll(/<!-- whole: ([^ ]+) -->\n\n```[a-z]*\n([\s\S]*?)\n```\n/g)) {
      const file = await Deno.readTextFile(join(ROOT, m[1]));
      assertEquals(m[2], file.trimEnd(), `docs/${e.name}: the copy of ${m[1]}`);
      seen++;
    }
  }
  assert(seen >= 2, `the marked examples are found (${seen})`);
});
