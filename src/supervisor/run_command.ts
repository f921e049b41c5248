/**
 * The command an operator types for one of the project's tasks, in the form they used: npm
 * users have `npm start` and `npm run setup` (package.json), Deno users `deno task start`.
 */

import { processEnv } from "../config/process_env.ts";

/** Tasks that both deno.json and package.json offer. */
export type Task = "start" | "setup" | "test" | "check" | "bench";

/** The package manager that started us through package.json, or null for `deno task`. */
function packageManager(env: Record<string, string>): string | null {
  // npm, pnpm, yarn and bun set these for every script they run; `deno task` sets neither.
  const { script, command, agent: userAgent } = processEnv(env).launcher;
  if (!script && !command) return null;
  const agent = userAgent.split("/")[0];
  return ["npm", "pnpm", "yarn", "bun"].includes(agent) ? agent : "npm";
}

/** `deno task <task>`, or the package-manager form (`npm start`, `npm run setup`) when run so. */
export function commandFor(task: Task, env: Record<string, string>): string {
  const pm = packageManager(env);
  if (!pm) return `deno task ${task}`;
  if (pm === "yarn") return `yarn ${task}`;
  return task === "start" || task === "test" ? `${pm} ${task}` : `${pm} run ${task}`;
}
