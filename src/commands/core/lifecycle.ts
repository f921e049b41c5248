/**
 * Lifecycle commands (docs/operations.md): `@reboot` exits 75 so the supervisor
 * restarts the engine while telnet players stay connected, `@shutdown` exits 0, and
 * `@update [branch]` (alias `@upgrade`) pulls the branch and exits 75. Each is announced to
 * every player first. See docs/operations.md.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { branchProblem, pullBranch } from "../../git_update.ts";
import { EXIT_CLEAN, EXIT_RESTART } from "../../lifecycle.ts";

/** admin, wizard or superuser. */
const STAFF_LOCK = "admin+";

function announce(u: CommandSdk, msg: string, event: string): void {
  u.deliver.toAll({ msg, data: { type: "system", event } });
}

/** Refuses when an exit or an update is already under way. */
function ensureIdle(u: CommandSdk): void {
  const lc = u.engine.lifecycle;
  if (lc.exitCode !== null) {
    throw new CommandError(
      lc.exitCode === EXIT_RESTART
        ? "The server is already restarting."
        : "The server is already shutting down.",
    );
  }
  // Exiting mid-pull would leave git writing the checkout while the next engine starts from it.
  if (lc.task === "update") {
    throw new CommandError("An update is running; wait for it to finish.");
  }
}

function refusal(reason: string): string {
  return `Update refused: ${reason.replace(/\.$/, "")}.`;
}

function who(u: CommandSdk): string {
  return `${u.me.name}(#${u.me.id})`;
}

/** The lifecycle family. */
export const commands: CommandSpec[] = [
  {
    name: "@reboot",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@reboot    restarts the engine

Everyone is told first. Telnet players stay connected and web clients reconnect by
themselves; logged-in players keep their sessions. Under the supervisor (deno task start or
npm start) the engine is back after a second or so. Admin, wizard or superuser.`,
    exec(u) {
      ensureIdle(u);
      announce(
        u,
        `%ch%cy[Reboot]%cn ${u.me.name} is restarting the server. Stay connected; ` +
          `you will be back in a moment.`,
        "reboot",
      );
      void u.engine.lifecycle.exit(EXIT_RESTART, `@reboot by ${who(u)}`);
    },
  },
  {
    name: "@shutdown",
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@shutdown    stops the server

Everyone is told first, then the engine stops and the supervisor stops with it (telnet
players are disconnected). Someone has to start it again with deno task start
(or npm start). Admin, wizard or superuser.`,
    exec(u) {
      ensureIdle(u);
      announce(u, `%ch%cr[Shutdown]%cn ${u.me.name} is shutting down the server.`, "shutdown");
      void u.engine.lifecycle.exit(EXIT_CLEAN, `@shutdown by ${who(u)}`);
    },
  },
  {
    name: "@update",
    aliases: ["@upgrade"],
    lock: STAFF_LOCK,
    category: "Admin",
    help: `@update [<branch>]    pulls the latest code and restarts (also @upgrade)

Pulls <branch> (default main) from the installation's git remote (fast-forward only), then
restarts like @reboot. When the installation is not a git checkout, or the pull fails, the
reason is shown and the server keeps running unchanged. Admin, wizard or superuser.

Example:
  @update
  @update stable`,
    async exec(u) {
      ensureIdle(u);
      const branch = u.cmd.args.trim() || "main";
      // A typo is the caller's business: refused before anything is announced to everyone.
      const bad = branchProblem(branch);
      if (bad) throw new CommandError(refusal(bad));
      const lc = u.engine.lifecycle;
      const busy = lc.begin("update");
      if (busy) throw new CommandError("An update is already running.");
      try {
        let announced = false;
        const outcome = await pullBranch(lc.updateDir, branch, undefined, () => {
          announced = true;
          announce(
            u,
            `%ch%cy[Update]%cn ${u.me.name} is updating the server (branch ${branch}); ` +
              `it restarts if the update succeeds.`,
            "update",
          );
        });
        if (!outcome.ok) {
          if (announced) {
            announce(
              u,
              `%ch%cy[Update]%cn The update did not happen; no restart.`,
              "update-failed",
            );
          }
          throw new CommandError(refusal(outcome.reason));
        }
        announce(
          u,
          `%ch%cy[Update]%cn Pulled ${outcome.remote}/${branch}` +
            `${outcome.summary ? ` (${outcome.summary})` : ""}. Restarting now; stay connected.`,
          "reboot",
        );
      } finally {
        lc.end();
      }
      void lc.exit(EXIT_RESTART, `@update ${branch} by ${who(u)}`);
    },
  },
];
