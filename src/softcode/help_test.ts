/**
 * Every function's help, the one source of `help <function>` and docs/softcode.md: each
 * built-in has one, each example shows what its help says (run in the examples' world), and
 * the reference in docs/softcode.md is what the functions' help makes (run
 * `deno run -A scripts/softcode_docs.ts` after changing a function's help).
 */
import assert from "node:assert/strict";
import { builtinFunctions } from "./functions/mod.ts";
import { FUNCTION_FAMILIES } from "./types.ts";
import { documented, functionReference, functionTopics, spliceReference } from "./help.ts";
import { examplesWorld } from "./_examples_world.ts";
import { formatMarkdown } from "../../scripts/softcode_docs.ts";

const table = builtinFunctions();

Deno.test("softcode help: every built-in function has its help", () => {
  const missing: string[] = [];
  for (const name of table.names()) {
    const def = table.get(name)!;
    const h = def.help;
    if (!h) {
      missing.push(`${name}: no help`);
      continue;
    }
    const lower = def.name.toLowerCase();
    if (!(h.family in FUNCTION_FAMILIES)) missing.push(`${name}: unknown family ${h.family}`);
    if (!h.args.toLowerCase().startsWith(lower + "(")) {
      missing.push(`${name}: args must show the call, "${lower}(...)"`);
    }
    if (!h.summary.trim() || h.summary.includes("\n")) {
      missing.push(`${name}: the summary is one line`);
    }
    if (!h.example.think.trim()) missing.push(`${name}: no example`);
  }
  assert.deepEqual(missing, []);
  // Aliases lead to their function's help.
  const strtrunc = documented(table).find((f) => f.name === "strtrunc")!;
  assert.deepEqual(strtrunc.aliases, ["left"]);
});

Deno.test("softcode help: each example shows what its help says", () => {
  const wrong: string[] = [];
  for (const f of documented(table)) {
    const ex = f.help.example;
    const got = examplesWorld().run(ex);
    if (ex.varies) {
      // One possible result: it must at least not be an error the help does not show.
      if (got.startsWith("#-1") && !ex.gives.startsWith("#-1")) {
        wrong.push(`${f.name}: think ${ex.think} gave ${JSON.stringify(got)}`);
      }
    } else if (got !== ex.gives) {
      wrong.push(
        `${f.name}: think ${ex.think}\n    help says ${JSON.stringify(ex.gives)}\n    it gives  ${
          JSON.stringify(got)
        }`,
      );
    }
  }
  assert.equal(wrong.length, 0, `${wrong.length} examples differ:\n${wrong.join("\n")}`);
});

Deno.test("softcode help: topics for the help plugin, and the index by family", () => {
  const topics = functionTopics(table);
  const add = topics.find((t) => t.name === "add()")!;
  assert.match(add.content, /^# ADD\(\)/);
  assert.match(add.content, /> think add\(1,2,3\.5\)\n {4}6\.5/);
  assert.match(add.content, /Family: arithmetic/);
  const left = topics.find((t) => t.name === "strtrunc()")!;
  assert.deepEqual(left.aliases, ["left()"]);
  // A literal % is doubled, so the colour renderer shows it as written.
  const u = topics.find((t) => t.name === "u()")!;
  assert.match(u.content, /&DOUBLE me=mul\(%%0,2\)/);
  const index = topics.find((t) => t.name === "functions")!;
  assert.match(index.content, /\*\*Arithmetic\*\*: Numbers/);
  assert.match(index.content, /\n {2}abs acos add /);
  assert.ok(index.content.indexOf("**Arithmetic**") < index.content.indexOf("**Logic**"));
});

Deno.test("softcode help: docs/softcode.md holds the reference the functions' help makes", async () => {
  const path = new URL("../../docs/softcode.md", import.meta.url);
  const doc = await Deno.readTextFile(path);
  const spliced = spliceReference(doc, functionReference(table));
  assert.ok(spliced, "docs/softcode.md has the reference markers");
  const want = await formatMarkdown(spliced);
  assert.ok(
    want === doc,
    "docs/softcode.md's function reference is out of date: run " +
      "`DENO_NO_PACKAGE_JSON=1 deno run -A scripts/softcode_docs.ts`",
  );
});
