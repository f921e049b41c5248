/** A bench tool's command line: its usage text is its module comment, so it lives in one place. */
import { parseArgs } from "node:util";

/** The first doc comment of the module at `url`, without its comment marks. */
export async function moduleUsage(url: string | URL): Promise<string> {
  const src = await Deno.readTextFile(new URL(url));
  return src.slice(src.indexOf("/**") + 3, src.indexOf("*/")).replace(/^ \* ?/gm, "").trim();
}

/**
 * The tool's options, each taking a value, from `args`; null after printing the module's usage
 * when `--help` is among them.
 */
export async function toolOptions(
  url: string | URL,
  names: readonly string[],
  args: string[] = Deno.args,
): Promise<Record<string, string | undefined> | null> {
  if (args.includes("--help")) {
    console.log(await moduleUsage(url));
    return null;
  }
  const { values } = parseArgs({
    args,
    options: Object.fromEntries(names.map((k) => [k, { type: "string" as const }])),
  });
  return values;
}
