/**
 * `passwd <player>`: sets a player's password from the shell, for the day every admin is locked
 * out. Asks twice on a terminal, or reads one line from standard input. Works while the game runs
 * (the password is read from the database at each login); logged in the security log.
 */
import { resolve } from "node:path";
import { Accounts } from "../auth/accounts.ts";
import { passwordProblem, sentence } from "../auth/passwords.ts";
import { SecurityLog, securityLogLimits } from "../auth/security_log.ts";
import { ObjectStore } from "../world/objects.ts";
import { LineReader, terminalIO } from "../supervisor/terminal_io.ts";
import { loadConfig, openGameStore } from "./game_store.ts";
import { refuseNewer } from "../storage/layout.ts";

/** The new password: asked twice on a terminal, else the first line of standard input. */
async function readPassword(name: string): Promise<string | null> {
  if (Deno.stdin.isTerminal()) {
    const io = terminalIO();
    const first = await io.ask(`New password for ${name}: `, true);
    if (first === null) return null;
    const again = await io.ask("Again: ", true);
    if (again !== first) throw new Error("the two passwords differ; nothing was changed");
    return first;
  }
  const reader = new LineReader((into) => Deno.stdin.read(into), () => Promise.resolve());
  return await reader.readLine(true);
}

/** Runs the command; returns the exit code. */
export async function passwdCommand(
  root: string,
  env: Record<string, string>,
  name: string,
): Promise<number> {
  const config = await loadConfig(root, env);
  const kv = await openGameStore(config, root);
  try {
    await refuseNewer(kv);
    const objects = new ObjectStore(kv);
    const ref = name.replace(/^\*/, "");
    const player = /^#\d+$/.test(ref)
      ? await objects.get(ref.slice(1))
      : await objects.playerByName(ref);
    if (!player || !player.flags.includes("player")) {
      console.error(`passwd: no player named ${name}`);
      return 1;
    }
    const password = await readPassword(player.name);
    if (password === null) {
      console.error("passwd: no password given; nothing was changed");
      return 1;
    }
    const problem = passwordProblem(password);
    if (problem) {
      console.error(`passwd: ${sentence(problem)} Nothing was changed.`);
      return 1;
    }
    await new Accounts(kv, objects).setPassword(player.id, password);
    const log = new SecurityLog(resolve(root, config.value.logging.dir, "security.log"), {
      limits: () => securityLogLimits(config.value),
    });
    await log.write("ADMIN_NEWPASSWORD", { actor: "shell", target: player.id, detail: "passwd" });
    console.log(`passwd: the password of ${player.name}(#${player.id}) is changed.`);
    return 0;
  } finally {
    kv.close();
  }
}
