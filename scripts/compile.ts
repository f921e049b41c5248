/**
 * `deno task compile`: two single-file binaries in dist/bin (docs/binaries.md):
 *   ursamu         the command line, supervisor, first-run setup and engine; it starts its own
 *                  children (`ursamu __engine`), and carries text/, help/ and the plugins
 *   ursamu-telnet  the telnet sidecar
 * `deno compile` takes its runtime (denort) from Deno's servers unless DENORT_BIN names a local
 * copy; where those servers cannot be reached, set DENORT_BIN (a denort of the same version).
 *
 * Usage: deno run -A scripts/compile.ts [--out <dir>]
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

async function compile(args: string[]): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["compile", ...args],
    cwd: ROOT,
    env: { DENO_NO_PACKAGE_JSON: "1" },
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) throw new Error(`deno compile ${args.at(-1)} failed (see above)`);
}

/** Builds both binaries into `outDir`; returns their paths. */
export async function buildBinaries(outDir: string): Promise<string[]> {
  const bin = resolve(outDir);
  await Deno.mkdir(bin, { recursive: true });
  const include = ["main.ts", "telnet.ts", "plugins", "text", "help", "web"].flatMap((f) => [
    "--include",
    f,
  ]);
  await compile([
    "--unstable-kv",
    "-A",
    "--no-check",
    ...include,
    "-o",
    join(bin, "ursamu"),
    "src/cli/main.ts",
  ]);
  await compile(["-A", "--no-check", "-o", join(bin, "ursamu-telnet"), "telnet.ts"]);
  return [join(bin, "ursamu"), join(bin, "ursamu-telnet")];
}

if (import.meta.main) {
  const { out } = parseArgs({
    args: Deno.args,
    options: { out: { type: "string", default: "dist/bin" } },
  }).values;
  if (!Deno.env.get("DENORT_BIN")) {
    console.error(
      "compile: DENORT_BIN is not set. deno compile downloads its runtime (denort) from Deno's " +
        "servers, which this machine may not reach; set DENORT_BIN to a denort " +
        `${Deno.version.deno} binary, or ship with \`deno task dist\` instead.`,
    );
    Deno.exit(1);
  }
  try {
    for (const b of await buildBinaries(resolve(ROOT, out!))) console.log(`compile: ${b}`);
  } catch (e) {
    console.error(`compile: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
