/**
 * The `setup` shell command (`deno task setup`, `npm run setup`): creates the superuser, by
 * asking in a terminal or from URSAMU_SUPERUSER_*, and only while the game has none. It may run
 * while the game is running; the new superuser joins the default channels at the next engine
 * start. Exit 0 when created, 1 when nothing was created, 130 on Ctrl-C.
 */
import { processEnvironment } from "../config/process_env.ts";
import { fileURLToPath } from "node:url";
import { cacheModules, firstRunSetup } from "./main.ts";
import { SetupCancelled } from "./setup.ts";
import { commandFor } from "./run_command.ts";
import { oneLine } from "../startup_error.ts";

/** Runs the command; returns the exit code. */
export async function setupCommand(env: Record<string, string>): Promise<number> {
  const code = (file: string) => fileURLToPath(new URL(`../../${file}`, import.meta.url));
  try {
    const result = await firstRunSetup(Deno.cwd(), env, {
      beforePrompt: () => cacheModules([code("main.ts"), code("telnet.ts")]),
    });
    switch (result) {
      case "created":
        console.log(`setup: done. Start the game with \`${commandFor("start", env)}\`.`);
        return 0;
      case "has-superuser":
        console.log(
          "setup: this game already has a superuser; nothing was changed. (Staff manage other " +
            "accounts in the game, e.g. @newpassword.)",
        );
        return 1;
      case "memory":
        console.log(
          "setup: server.db is :memory:, which lives only as long as one engine run; set " +
            "URSAMU_SUPERUSER_NAME and URSAMU_SUPERUSER_PASSWORD for the engine instead.",
        );
        return 1;
      default:
        return 1;
    }
  } catch (e) {
    if (e instanceof SetupCancelled) {
      console.log("setup: cancelled (Ctrl-C); nothing was created.");
      return 130;
    }
    console.error(`setup: failed: ${oneLine(e)}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await setupCommand(processEnvironment()));
