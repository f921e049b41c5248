/** `@password`: a player changes their own password, knowing the current one. */
import type { CommandSpec } from "../types.ts";
import { changeOwnPassword } from "../../auth/revoke.ts";
import { passwordProblem } from "../../auth/passwords.ts";
import { CommandError } from "../errors.ts";
import { needConnection } from "../sdk.ts";

/** The password family. */
export const commands: CommandSpec[] = [
  {
    name: "@password",
    category: "General",
    help: `@password <old password>=<new password>

Changes your password (8 to 512 characters). Your other sessions end (their connections
close and their saved logins stop working); this one goes on. A wrong old password counts
as a failed login: after too many, wait a minute.`,
    async exec(u) {
      const conn = needConnection(u);
      const { lhs, rhs } = u.cmd;
      if (rhs === null || !lhs || !rhs) {
        throw new CommandError("Usage: @password <old password>=<new password>");
      }
      const problem = passwordProblem(rhs);
      if (problem) throw new CommandError(`That password won't do: ${problem}.`);
      const { accounts, loginFailures, accountFailures, securityLog, tokens } = u.engine;
      const outcome = await changeOwnPassword(
        { accounts, loginFailures, accountFailures, securityLog, tokens, presence: u.presence },
        conn,
        rhs,
        lhs,
      );
      if (outcome === "limited") {
        throw new CommandError("Too many wrong passwords. Try again in a minute.");
      }
      if (outcome === "wrong") throw new CommandError("That is not your current password.");
      void securityLog.write("PASSWORD_CHANGED", {
        actor: u.me.id,
        target: u.me.id,
        ip: conn.ip,
      });
      u.send("Password changed. Your other sessions have ended.");
    },
  },
];
