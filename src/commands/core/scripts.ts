/** Owner tools for system scripts: @script/list, @script/show, @script/check (staff). */
import type { CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import type { ScriptStatus } from "../../scripts/types.ts";

const STAFF_LOCK = "admin+";
/** Lines of source @script/show prints at most. */
const MAX_SHOWN_LINES = 200;

function when(ms: number | null): string {
  return ms === null ? "-" : new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}

function statusLine(s: ScriptStatus): string {
  if (s.disabled) return `${s.name.padEnd(16)} %choff%cn (scripts.disabled) ${s.file}`;
  const state = s.loaded ? "%cgloaded%cn" : "%crnot loaded%cn";
  const over = s.replaces ? ` (replaces ${s.replaces}'s ${s.name})` : "";
  const err = s.lastError ? ` %cy! ${s.lastError.message.split("\n")[0].slice(0, 100)}%cn` : "";
  return `${s.name.padEnd(16)} ${state}${over} ${s.file}${err}`;
}

function nameArg(args: string): string {
  const name = args.trim().toLowerCase();
  if (!name) throw new CommandError("Which script? (@script/list shows them.)");
  if (name.length > 64) throw new CommandError("There is no script by that name.");
  return name;
}

/** The @script family. */
export const commands: CommandSpec[] = [
  {
    name: "@script/list",
    lock: STAFF_LOCK,
    category: "Administration",
    help: `@script/list
@script/show <name>
@script/check <name>
@core/<command line>
@plugin/<command line>

System scripts are commands written as files in the game's system/scripts folder (one
<command>.ts or .js each). Each runs in a sandbox of its own and is used from its next run
after a change, without @reload. A script named like a core or plugin command replaces it; staff
reach the replaced command with @core/<command> or @plugin/<command> (for example
@core/who). See docs/scripts.md.

@script/list shows every script, whether it is loaded, what it replaces and its last error.
@script/show prints a script's status and source. @script/check loads it in the sandbox and
type-checks it against the SDK (system/scripts/sdk.d.ts).`,
    async exec(u) {
      const list = await u.engine.scripts.list();
      const lines = [`%chSystem scripts%cn in ${u.engine.scripts.dir}:`];
      if (!list.length) lines.push("  (none)");
      for (const s of list) lines.push(`  ${statusLine(s)}`);
      const boxes = u.engine.scripts.sandboxes;
      lines.push(
        `${list.length} script(s); ${boxes.count} sandbox(es) holding ${
          (boxes.bytes / 1048576).toFixed(0)
        } MB of WebAssembly memory.`,
      );
      u.send(lines.join("\n"), { type: "scripts", scripts: list });
    },
  },
  {
    name: "@script/show",
    lock: STAFF_LOCK,
    category: "Administration",
    help: "@script/show <name>\n\nShows a system script's status and source. See @script/list.",
    async exec(u) {
      const name = nameArg(u.cmd.args);
      const found = await u.engine.scripts.show(name);
      if (!found) throw new CommandError(`There is no script named '${name.slice(0, 40)}'.`);
      const s = found.status;
      const src = found.source.split("\n");
      const shown = src.slice(0, MAX_SHOWN_LINES).map((l) => l.replaceAll("%", "%%"));
      const lines = [
        `%chScript ${s.name}%cn: ${s.file}`,
        `Loaded: ${s.loaded ? `yes, version ${s.version} since ${when(s.loadedAt)}` : "no"}` +
        (s.replaces ? `; replaces the ${s.replaces} command ${s.name}` : ""),
        `Runs: ${s.runs}, failures: ${s.failures}`,
        `Last error: ${s.lastError ? `${when(s.lastError.at)} ${s.lastError.message}` : "none"}`,
        "-".repeat(40),
        ...shown,
        ...(src.length > MAX_SHOWN_LINES
          ? [`... (${src.length - MAX_SHOWN_LINES} more lines)`]
          : []),
      ];
      u.send(lines.join("\n"), { type: "script", status: s, source: found.source });
    },
  },
  {
    name: "@script/check",
    lock: STAFF_LOCK,
    category: "Administration",
    help: `@script/check <name>

Loads a system script in the sandbox (a syntax error or a bad export shows here) and
type-checks it with the SDK types of system/scripts/sdk.d.ts. A script that loads cleanly
becomes the running version. See @script/list.`,
    async exec(u) {
      const name = nameArg(u.cmd.args);
      u.send(`Checking ${name}...`);
      const result = await u.engine.scripts.check(name);
      if (!result) throw new CommandError(`There is no script named '${name.slice(0, 40)}'.`);
      const head = result.ok ? `%cg${name}: ok.%cn` : `%cr${name}: problems found.%cn`;
      const body = result.lines.map((l) => `  ${l.replaceAll("%", "%%")}`);
      u.send([head, ...body].join("\n"), { type: "script-check", name, ...result });
    },
  },
];
