/**
 * Writes the function reference of docs/softcode.md from each function's own help (the one
 * source `help <function>` reads too), formatted as `deno fmt` formats the docs.
 *
 *   DENO_NO_PACKAGE_JSON=1 deno run -A scripts/softcode_docs.ts
 *
 * src/softcode/help_test.ts fails when the document and the functions' help differ.
 */
import { fileURLToPath } from "node:url";
import { builtinFunctions } from "../src/softcode/functions/mod.ts";
import { functionReference, spliceReference } from "../src/softcode/help.ts";

const ROOT = new URL("../", import.meta.url);

/** Markdown as `deno fmt` leaves it, under the project's configuration. */
export async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--config", fileURLToPath(new URL("deno.json", ROOT)), "--ext", "md", "-"],
    env: { DENO_NO_PACKAGE_JSON: "1", NO_COLOR: "1" },
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

if (import.meta.main) {
  const path = new URL("docs/softcode.md", ROOT);
  const doc = await Deno.readTextFile(path);
  const next = spliceReference(doc, functionReference(builtinFunctions()));
  if (next === null) {
    console.error("docs/softcode.md has no function reference markers");
    Deno.exit(1);
  }
  const formatted = await formatMarkdown(next);
  if (formatted === doc) console.log("docs/softcode.md: the function reference is up to date");
  else {
    await Deno.writeTextFile(path, formatted);
    console.log("docs/softcode.md: the function reference was rewritten");
  }
}
