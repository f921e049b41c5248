/**
 * The command line (`ursamu` from the binary, `deno task cli` from source): start, setup,
 * backup, restore, check-config, version, passwd and help. Each misuse is one line and exit 2. See docs/cli.md.
 */
import { basename } from "node:path";
import { EXIT_CONFIG } from "../lifecycle.ts";
import { oneLine, StartupError } from "../startup_error.ts";
import { ENGINE_VERSION } from "../version.ts";
import { LAYOUT_VERSION } from "../storage/layout.ts";
import { checkConfigCommand } from "./check_config.ts";
import { passwdCommand } from "./passwd.ts";
import { backupCommand, restoreCommand } from "./backup_commands.ts";
import { EXIT_USAGE, helpText, UsageError } from "./usage.ts";
import { useEmbeddedFiles } from "../config/embedded.ts";
import { processEnv, processEnvironment } from "../config/process_env.ts";

/** How the operator runs the command line: the binary's name, or `deno task cli` from source. */
export function programName(env: Record<string, string> = {}): string {
  const exe = basename(Deno.execPath());
  if (!/^deno(\.exe)?$/.test(exe)) return exe.replace(/\.exe$/, "");
  // `npm run cli -- <command>` sets this for the script it runs; `deno task` does not.
  return processEnv(env).launcher.script === "cli" ? "npm run cli --" : "deno task cli";
}

/** Refuses arguments a command does not take; returns the positional ones. */
function positional(cmd: string, args: string[], min: number, max: number, what = ""): string[] {
  const flag = args.find((a) => a.startsWith("-"));
  if (flag) throw new UsageError(`${cmd}: unknown option '${flag}'`);
  if (args.length < min) throw new UsageError(`${cmd}: missing ${what}`);
  if (args.length > max) throw new UsageError(`${cmd}: unexpected argument '${args[max]}'`);
  return args;
}

/** Runs one command; returns the exit code. */
export async function cli(args: string[], env: Record<string, string>): Promise<number> {
  const prog = programName(env);
  const [cmd = "start", ...rest] = args;
  const root = Deno.cwd();
  if (Deno.build.standalone) useEmbeddedFiles(root, env);
  try {
    switch (cmd) {
      // A compiled binary starts its own children through these (src/supervisor/main.ts).
      case "__engine":
        await (await import("../../main.ts")).runEngine();
        return await new Promise<number>(() => {}); // the engine ends the process itself
      case "__telnet":
        await (await import("../../telnet.ts")).runSidecar();
        return await new Promise<number>(() => {});
      case "help":
      case "--help":
      case "-h":
        positional(cmd, rest, 0, 0);
        console.log(helpText(prog));
        return 0;
      case "version":
      case "--version":
        positional(cmd, rest, 0, 0);
        console.log(
          `ursamu ${ENGINE_VERSION} (deno ${Deno.version.deno}, database layout ${LAYOUT_VERSION})`,
        );
        return 0;
      case "start": {
        // Options of the supervisor (--max-delay, ...) pass through; it names its own misuse.
        const { main } = await import("../supervisor/main.ts");
        return await main(rest);
      }
      case "setup": {
        positional(cmd, rest, 0, 0);
        const { setupCommand } = await import("../supervisor/setup_command.ts");
        return await setupCommand(env);
      }
      case "check-config":
        positional(cmd, rest, 0, 0);
        return await checkConfigCommand(root, env);
      case "backup": {
        const [file] = positional(cmd, rest, 0, 1);
        return await backupCommand(root, env, file);
      }
      case "restore": {
        const force = rest.includes("--force");
        const [file] = positional(
          cmd,
          rest.filter((a) => a !== "--force"),
          1,
          1,
          "the backup file (restore <file> [--force])",
        );
        return await restoreCommand(root, env, file, force);
      }
      case "passwd": {
        const [name] = positional(cmd, rest, 1, 1, "the player's name (passwd <player>)");
        return await passwdCommand(root, env, name);
      }
      default:
        throw new UsageError(`unknown command '${cmd}'`);
    }
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`${prog}: ${e.message}; see \`${prog} --help\``);
      return EXIT_USAGE;
    }
    if (e instanceof StartupError) {
      console.error(`${prog}: ${e.message}`);
      return EXIT_CONFIG;
    }
    console.error(`${prog} ${cmd}: ${oneLine(e)}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await cli(Deno.args, processEnvironment()));
