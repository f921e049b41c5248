/** A bench tool's usage text: its module comment, so the text lives in one place. */

/** The first doc comment of the module at `url`, without its comment marks. */
export async function moduleUsage(url: string | URL): Promise<string> {
  const src = await Deno.readTextFile(new URL(url));
  return src.slice(src.indexOf("/**") + 3, src.indexOf("*/")).replace(/^ \* ?/gm, "").trim();
}
