/**
 * Supervisor entry (`deno task start`): first-run setup, then the telnet sidecar and the
 * engine under the restart loop. See docs/operations.md.
 *
 * Options (for tests and unusual installs): `--engine <file>` and `--sidecar <file>` replace
 * `main.ts` and `telnet.ts` (paths relative to the repository); `--max-delay <ms>` lowers the
 * restart delay cap below the usual 60 s.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadConfig, openGameStore } from "../cli/game_store.ts";
import { ObjectStore } from "../world/objects.ts";
import { Accounts } from "../auth/accounts.ts";
import { resolveSecret } from "../auth/tokens.ts";
import { newSidecarSecret } from "../hub/sidecar_auth.ts";
import {
  engineRunValue,
  PROCESS_ENV,
  processEnv,
  processEnvironment,
} from "../config/process_env.ts";
import { ensureStartingRoom, startingRoom } from "../world/start.ts";
import { runFirstRunSetup, SetupCancelled, type SetupOptions, type SetupResult } from "./setup.ts";
import { terminalIO } from "./terminal_io.ts";
import { commandFor } from "./run_command.ts";
import { abortableSleep, type Child, EXIT_CONFIG, Supervisor } from "./supervisor.ts";
import { oneLine, StartupError } from "../startup_error.ts";
import { pipeLines, startLogging } from "../logging/setup.ts";
import { prepareLayout } from "../backup/migrate.ts";
import { freeLoopbackPort } from "../tls/link.ts";
import { type Level, type Logger, secretsFrom } from "../logging/logger.ts";
import { discoverPlugins, entryPath } from "../plugins/loader.ts";
import { readManifest } from "../plugins/manifest.ts";
import { childV8Flags, V8_FLAGS_ENV } from "./v8_flags.ts";
import { playLine, ReadyWatch } from "./where_to_play.ts";

/** Where main.ts and telnet.ts live. */
const CODE_ROOT = fileURLToPath(new URL("../..", import.meta.url));

function log(line: string): void {
  console.log(`[supervisor] ${line}`);
}

/** A line the owner must see: error level (stderr, and the log file). */
function alert(line: string): void {
  console.error(`[supervisor] ${line}`);
}

/**
 * The environment every child gets. Without JWT_SECRET one random secret is made here, once,
 * so tokens stay valid across engine restarts and only a full stop ends sessions. The sidecar
 * secret is always new: only our two children know it (an inherited value is replaced).
 */
function childEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {
    ...env,
    // Marks a child as supervised: it exits when its standard input (a pipe from us) closes.
    [PROCESS_ENV.supervised]: "1",
    [PROCESS_ENV.sidecarSecret]: newSidecarSecret(),
  };
  if (!processEnv(env).jwtSecret) {
    out[PROCESS_ENV.jwtSecret] = resolveSecret("", () => {});
    console.warn(
      "[supervisor] WARNING: JWT_SECRET is not set; generated a random secret for this supervisor. Sessions " +
        "survive @reboot but end when the supervisor stops. Set JWT_SECRET to keep them longer.",
    );
  }
  return out;
}

/**
 * Creates the superuser while none exists (interactively when a terminal is attached); also
 * the `setup` command. `memory` when the database is in memory (the engine seeds it from env).
 */
export async function firstRunSetup(
  root: string,
  env: Record<string, string>,
  opts: SetupOptions = {},
): Promise<SetupResult | "memory"> {
  // Quietly: the engine reads the same configuration and reports its problems; once is enough.
  const config = await loadConfig(root, env);
  const db = config.value.server.db;
  // An in-memory database lives and dies with one engine run; the engine seeds it from env.
  if (db === ":memory:") return "memory";
  const kv = await openGameStore(config, root);
  try {
    // Before setup writes: a newer database is refused, an older one migrated (after a backup).
    await prepareLayout(kv, config.value, root);
    const objects = new ObjectStore(kv);
    await ensureStartingRoom(objects);
    const accounts = new Accounts(kv, objects);
    const startRoom = await startingRoom({ config, objects });
    // The engine is not running yet: it announces the new superuser to plugins when it starts.
    return await runFirstRunSetup({ objects, accounts, startRoom }, env, terminalIO(), {
      ...opts,
      announceLater: true,
    });
  } finally {
    kv.close();
  }
}

/**
 * Loads every module the engine, the sidecar and the plugins import (downloading them on a fresh
 * machine), before anything starts: no download progress is drawn over a setup prompt, and the
 * children never fetch while they start (Deno reports each download on stderr, which the log
 * would show as an error).
 */
export async function cacheModules(files: string[]): Promise<void> {
  if (Deno.build.standalone) return; // a compiled binary holds every module
  // The dist launcher runs offline from the modules it ships (`--cached-only`, which `deno
  // cache` does not take): there is nothing to fetch.
  if (runFlags().includes("--cached-only")) return;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["cache", ...runFlags(), ...files],
    cwd: Deno.cwd(),
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!out.success) log("could not load every module (see above); carrying on");
}

/**
 * The entry modules of the plugins in `pluginsDir` (each folder's manifest `main`); a folder
 * without a readable manifest or entry is left to the engine, which reports it.
 */
export async function pluginEntries(pluginsDir: string): Promise<string[]> {
  const out: string[] = [];
  for (const folder of await discoverPlugins(pluginsDir)) {
    try {
      out.push(await entryPath(folder.dir, (await readManifest(folder.dir)).main));
    } catch { /* the engine says why it cannot load it */ }
  }
  return out;
}

/**
 * Flags every `deno` the supervisor runs gets: the project's deno.json (the game directory need
 * not hold it) and, from the dist launcher, `URSAMU_RUN_FLAGS` (offline: the shipped packages).
 */
function runFlags(): string[] {
  return ["--config", resolve(CODE_ROOT, "deno.json"), ...processEnv().runFlags];
}

/** The sidecar entry: the bundle a dist archive ships (telnet.js), else the source. */
function defaultSidecar(): string {
  try {
    Deno.statSync(resolve(CODE_ROOT, "telnet.js"));
    return "telnet.js";
  } catch {
    return "telnet.ts";
  }
}

/**
 * How a child starts: `deno run` from source or the dist archive; from a compiled binary
 * (`deno task compile`), the binary itself (`ursamu __engine`) and the sidecar binary beside it
 * (`ursamu-telnet`, else `ursamu __telnet`).
 */
function childCommand(kind: "engine" | "telnet", denoArgs: string[]): [string, string[]] {
  if (!Deno.build.standalone) return [Deno.execPath(), denoArgs];
  if (kind === "telnet") {
    const sibling = join(dirname(Deno.execPath()), "ursamu-telnet");
    try {
      if (Deno.statSync(sibling).isFile) return [sibling, []];
    } catch { /* not shipped: the binary runs the sidecar too */ }
  }
  return [Deno.execPath(), [kind === "engine" ? "__engine" : "__telnet"]];
}

/**
 * The level of a child's stderr line: an error, but for Deno's own note that it fetched a module
 * (`Download https://...`), which is news, not a failure.
 */
export function stderrLevel(line: string): Level {
  // deno-lint-ignore no-control-regex
  return /^(?:\x1b\[[0-9;]*m)*Download(?:\x1b\[[0-9;]*m)*\s+\S+:\/\//.test(line) ? "info" : "error";
}

function spawnDeno(
  denoArgs: string[],
  env: Record<string, string>,
  logger: Logger,
  subsystem: "engine" | "telnet",
  tap: (line: string) => void,
): Child {
  const [cmd, args] = childCommand(subsystem, denoArgs);
  const child = new Deno.Command(cmd, {
    args,
    cwd: Deno.cwd(),
    env,
    clearEnv: true,
    // A pipe we never write to: the child sees end-of-file when the supervisor dies, however.
    stdin: "piped",
    // Its lines come to us: the supervisor is the one writer of the log file.
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const output = Promise.all([
    pipeLines(child.stdout, logger, "info", subsystem, tap),
    pipeLines(child.stderr, logger, stderrLevel, subsystem),
  ]);
  return {
    pid: child.pid,
    // Its last lines are passed on before the loop reports the exit.
    exited: child.status.then(async (s) => {
      await output;
      return s.code;
    }),
    kill: (signal) => child.kill(signal),
  };
}

/** Runs the supervisor until the engine stops for good or a signal arrives; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const flags = parseArgs({
    args,
    options: {
      engine: { type: "string", default: "main.ts" },
      sidecar: { type: "string", default: defaultSidecar() },
      "max-delay": { type: "string" },
    },
  }).values;
  const env = processEnvironment();
  const engine = resolve(CODE_ROOT, flags.engine);
  const sidecar = resolve(CODE_ROOT, flags.sidecar);
  try {
    const { server } = (await loadConfig(Deno.cwd(), env)).value;
    await cacheModules([
      engine,
      sidecar,
      ...await pluginEntries(resolve(Deno.cwd(), server.pluginsDir)),
    ]);
    await firstRunSetup(Deno.cwd(), env);
  } catch (e) {
    if (e instanceof SetupCancelled) {
      log("first-run setup cancelled (Ctrl-C); nothing was started");
      return 130;
    }
    if (e instanceof StartupError) {
      log(e.message);
      return EXIT_CONFIG;
    }
    log(`first-run setup failed: ${oneLine(e)}`);
    return 1;
  }
  const config = await loadConfig(Deno.cwd(), env);
  // After setup, whose prompts are not log lines.
  const logger = startLogging(config.value, Deno.cwd(), "supervisor", env, true);
  const children = childEnv(env);
  logger.addSecrets(secretsFrom(children));
  // Under TLS the sidecar reaches the engine over a plain loopback link (src/tls/link.ts).
  if (config.value.server.ssl.enabled) {
    children[PROCESS_ENV.hubLinkPort] = String(freeLoopbackPort());
  }
  // Each child its own V8 flags (src/supervisor/v8_flags.ts).
  const engineEnv = { ...children, [V8_FLAGS_ENV]: childV8Flags("engine", env) };
  const sidecarEnv = { ...children, [V8_FLAGS_ENV]: childV8Flags("telnet", env) };
  // Once per run, when both listen: where to play (the owner's first question).
  const ready = new ReadyWatch(() => log(playLine(config.value)));
  const tap = (line: string) => ready.line(line);
  // Each run is told how many came before it, when the first began and when it began: the loop
  // starts another only after an exit that asks for a restart, so every run after the first is
  // a restart (softcode's restarts(), starttime() and restarttime()).
  let runs = 0, firstStartedAt = 0;
  const engineRun = () => {
    const startedAt = Date.now();
    if (runs === 0) firstStartedAt = startedAt;
    return engineRunValue({ restarts: runs++, firstStartedAt, startedAt });
  };
  const supervisor = new Supervisor({
    spawnEngine: () =>
      spawnDeno(
        ["run", ...runFlags(), "--unstable-kv", "-A", engine],
        { ...engineEnv, [PROCESS_ENV.engineRun]: engineRun() },
        logger,
        "engine",
        tap,
      ),
    spawnSidecar: () =>
      spawnDeno(["run", ...runFlags(), "-A", sidecar], sidecarEnv, logger, "telnet", tap),
    log,
    alert,
    now: () => Math.round(performance.now()),
    sleep: abortableSleep,
    maxDelayMs: flags["max-delay"] ? Number(flags["max-delay"]) : undefined,
    startCommand: commandFor("start", env),
  });
  // A Ctrl-C reaches us twice (from the terminal and passed on by `deno task`): one stop, one line.
  let signalled = false;
  const onSignal = (name: string) => () => {
    if (!signalled) log(`${name} received; stopping the engine and the telnet sidecar`);
    signalled = true;
    supervisor.stop(true);
  };
  const onInt = onSignal("SIGINT");
  const onTerm = onSignal("SIGTERM");
  Deno.addSignalListener("SIGINT", onInt);
  Deno.addSignalListener("SIGTERM", onTerm);
  try {
    return await supervisor.run();
  } finally {
    Deno.removeSignalListener("SIGINT", onInt);
    Deno.removeSignalListener("SIGTERM", onTerm);
  }
}

if (import.meta.main) {
  const code = await main(Deno.args);
  log(`exiting with code ${code}`);
  Deno.exit(code);
}
