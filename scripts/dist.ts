/**
 * `deno task dist`: a self-contained archive for Linux x64 that starts a game on a machine with
 * neither Deno nor Node (docs/binaries.md):
 *
 *   ursamu-<version>-linux-x64/
 *     ursamu            the launcher (sh): `./ursamu start`, `./ursamu backup`, ...
 *     bin/deno          the pinned Deno runtime (package.json's `deno`, from node_modules)
 *     app/              the engine, the command line and the plugins (source), text/, help/,
 *                       system/scripts/ (the example system scripts), node_modules/ (the npm
 *                       packages, so it runs offline), telnet.js (the sidecar bundled with
 *                       `deno bundle`)
 *
 * It ships the files git tracks (their working-tree content), so nothing local to the checkout
 * (a config, a database, an untracked plugin) ends up in it.
 *
 * Usage: deno run -A scripts/dist.ts [--out <dir>]; prints the archive's path.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ENGINE_VERSION } from "../src/version.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** What the app needs at run time (tests and benchmarks stay behind). */
const APP_FILES = [
  "src",
  "plugins",
  "main.ts",
  "telnet.ts",
  "deno.json",
  "deno.lock",
  "text",
  "help",
  "web",
  // The example system scripts and the scripts' SDK types (sdk.d.ts).
  "system",
];

async function run(cmd: string, args: string[], opts: Deno.CommandOptions = {}): Promise<string> {
  const out = await new Deno.Command(cmd, { args, stdout: "piped", stderr: "piped", ...opts })
    .output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed:\n${text}`);
  return text;
}

/** The pinned runtime: node_modules' binary, or this Deno when it is the same version. */
async function pinnedDeno(): Promise<string> {
  const pkg = JSON.parse(await Deno.readTextFile(join(ROOT, "package.json")));
  const want: string = pkg.devDependencies?.deno;
  const candidates = [
    join(ROOT, "node_modules", "@deno", "linux-x64-glibc", "deno"),
    join(ROOT, "node_modules", "deno", "deno"),
    Deno.execPath(),
  ];
  for (const c of candidates) {
    try {
      const v = (await run(c, ["--version"])).match(/^deno (\S+)/)?.[1];
      if (v === want) return c;
    } catch { /* not there */ }
  }
  throw new Error(`no Deno ${want} binary found (npm ci installs it in node_modules)`);
}

/**
 * The files under `paths` (relative to `root`) that git tracks, relative to `root`: what the
 * archive ships, never a local config, database, log or untracked plugin of the checkout's.
 * Tests, their helpers and data, and symlinks (plugins' test fixtures) stay behind.
 */
export async function shippedFiles(root: string, paths: readonly string[]): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["-C", root, "ls-files", "-z", "--", ...paths],
    stdout: "piped",
    stderr: "piped",
  }).output().catch((e) => {
    throw new Error(`dist: git is needed to list what to ship (${(e as Error).message})`);
  });
  if (!out.success) {
    throw new Error(
      `dist: ${root} is not a git checkout; the archive ships what git tracks ` +
        `(${new TextDecoder().decode(out.stderr).trim()})`,
    );
  }
  const files: string[] = [];
  for (const f of new TextDecoder().decode(out.stdout).split("\0")) {
    if (!f || isTestFile(f)) continue;
    // Tracked but deleted in the working tree, or a symlink: not shipped.
    const st = await Deno.lstat(join(root, f)).catch(() => null);
    if (st?.isFile) files.push(f);
  }
  return files;
}

/** A test, a test's helper (`_test_util.ts`, `_test_world.ts`, ...) or its data (`testdata/`). */
function isTestFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return base.endsWith("_test.ts") || (base.startsWith("_") && base.includes("test")) ||
    /(?:^|\/)testdata\//.test(path);
}

/** Copies `files` (relative paths) from `from` to `to`, making folders as needed. */
async function copyFiles(from: string, to: string, files: readonly string[]): Promise<void> {
  for (const f of files) {
    await Deno.mkdir(dirname(join(to, f)), { recursive: true });
    await Deno.copyFile(join(from, f), join(to, f));
  }
}

/**
 * Removes from the shipped deno.json the imports no shipped file names (the test suite's
 * browser driver and accessibility checker), so `deno install` leaves their packages out of the
 * archive and its lockfile. An import is kept when any file quotes it, alone or with a subpath.
 */
export async function dropUnusedImports(app: string, files: readonly string[]): Promise<string[]> {
  const path = join(app, "deno.json");
  const config = JSON.parse(await Deno.readTextFile(path));
  const imports: Record<string, string> = config.imports ?? {};
  const unused = new Set(Object.keys(imports));
  for (const f of files) {
    if (!/\.(?:ts|js)$/.test(f) || !unused.size) continue;
    const text = await Deno.readTextFile(join(app, f));
    for (const key of unused) {
      if (text.includes(`"${key}"`) || text.includes(`"${key}/`)) unused.delete(key);
    }
  }
  for (const key of unused) delete imports[key];
  await Deno.writeTextFile(path, JSON.stringify(config, null, 2) + "\n");
  return [...unused];
}

/** Builds the archive into `outDir`; returns its path. */
export async function buildDist(outDir: string): Promise<string> {
  if (Deno.build.os !== "linux" || Deno.build.arch !== "x86_64") {
    throw new Error("the dist archive is built for Linux x64, on Linux x64");
  }
  const name = `ursamu-${ENGINE_VERSION}-linux-x64`;
  const stage = await Deno.makeTempDir({ prefix: "ursamu-dist-" });
  try {
    const top = join(stage, name);
    const app = join(top, "app");
    await Deno.mkdir(join(top, "bin"), { recursive: true });
    await Deno.copyFile(await pinnedDeno(), join(top, "bin", "deno"));
    await Deno.chmod(join(top, "bin", "deno"), 0o755);
    const files = await shippedFiles(ROOT, APP_FILES);
    await copyFiles(ROOT, app, files);
    await dropUnusedImports(app, files);
    const env = {
      ...Deno.env.toObject(),
      DENO_NO_PACKAGE_JSON: "1",
      DENO_DIR: join(stage, "cache"),
    };
    const plugins = [...Deno.readDirSync(join(app, "plugins"))]
      .filter((e) => e.isDirectory)
      .map((e) => join("plugins", e.name, "mod.ts"))
      .filter((f) => {
        try {
          return Deno.statSync(join(app, f)).isFile;
        } catch {
          return false;
        }
      });
    // The npm packages into app/node_modules, so the game starts offline.
    await run(Deno.execPath(), [
      "install",
      "--node-modules-dir=auto",
      "--entrypoint",
      "src/cli/main.ts",
      "main.ts",
      "telnet.ts",
      ...plugins,
    ], { cwd: app, env });
    // The sidecar holds no plugin and shares no class with them: it ships as one bundle.
    await run(Deno.execPath(), [
      "bundle",
      "--node-modules-dir=manual",
      "-o",
      join(app, "telnet.js"),
      "telnet.ts",
    ], { cwd: app, env });
    await Deno.copyFile(join(ROOT, "scripts", "dist_launcher.sh"), join(top, "ursamu"));
    await Deno.chmod(join(top, "ursamu"), 0o755);
    await Deno.copyFile(join(ROOT, "README.md"), join(top, "README.md"));
    await copyFiles(ROOT, top, await shippedFiles(ROOT, ["docs"]));
    await Deno.mkdir(resolve(outDir), { recursive: true });
    const archive = join(resolve(outDir), `${name}.tar.gz`);
    await run("tar", ["-czf", archive, "-C", stage, name]);
    return archive;
  } finally {
    await Deno.remove(stage, { recursive: true });
  }
}

if (import.meta.main) {
  const { out } =
    parseArgs({ args: Deno.args, options: { out: { type: "string", default: "dist" } } })
      .values;
  try {
    const archive = await buildDist(resolve(ROOT, out!));
    console.log(`dist: ${archive} (${(await Deno.stat(archive)).size} bytes)`);
  } catch (e) {
    console.error(`dist: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
