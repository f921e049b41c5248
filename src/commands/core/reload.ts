/**
 * Hot reload: `@reload` and its switches re-read configuration, text files, core
 * command modules and plugins inside the running engine; nobody is disconnected. The reply
 * lists every subsystem with its status, partial failures included. See docs/operations.md.
 */
import type { CommandSdk, CommandSpec, EngineControl } from "../types.ts";
import { CommandError } from "../errors.ts";
import type { PluginStatus } from "../../engine_admin.ts";

/** One line of the reply. */
interface Outcome {
  subsystem: string;
  status: "ok" | "partial" | "failed";
  detail: string;
}

const SUBSYSTEMS = ["config", "text", "cmds", "plugins"] as const;

function failure(subsystem: string, e: unknown): Outcome {
  const message = e instanceof Error ? e.message : String(e);
  return { subsystem, status: "failed", detail: message.split("\n")[0].slice(0, 200) };
}

/** What `commands.disabled` turned off, in words for a reply's detail ("" when nothing). */
function turnedOffText(t: { names: string[]; problems: string[] } | undefined): string {
  if (!t) return "";
  const parts = t.names.length ? [`core commands off: ${t.names.join(", ")}`] : [];
  return [...parts, ...t.problems].join("; ");
}

async function reloadConfig(s: EngineControl): Promise<Outcome> {
  try {
    const warnings = await s.config.reload();
    // The core commands follow commands.disabled at once: no import needed.
    const off = s.commands.applyDisabled();
    // And the scripts follow scripts.disabled: a look at their folder reads it again.
    await s.scripts.rescan();
    const extra = turnedOffText(off);
    if (warnings.length === 0 && off.problems.length === 0) {
      return {
        subsystem: "config",
        status: "ok",
        detail: ["configuration re-read", extra].filter(Boolean).join("; "),
      };
    }
    const keys = warnings.map((w) => /'([^']+)'/.exec(w)?.[1] ?? w);
    const ignored = keys.length
      ? `; invalid values ignored (defaults used): ${keys.join(", ")}`
      : "";
    return {
      subsystem: "config",
      status: "partial",
      detail: `re-read${ignored}${extra ? `; ${extra}` : ""}`.slice(0, 600),
    };
  } catch (e) {
    return failure("config", e);
  }
}

async function reloadText(s: EngineControl): Promise<Outcome> {
  try {
    const missing = await s.texts.load();
    return {
      subsystem: "text",
      status: "ok",
      detail: missing.length
        ? `text files re-read (built-in text used for: ${missing.join(", ")})`
        : "text files re-read",
    };
  } catch (e) {
    return failure("text", e);
  }
}

async function reloadCommands(s: EngineControl): Promise<Outcome> {
  try {
    const r = await s.commands.reloadCore();
    const off = turnedOffText(r.turnedOff);
    if (r.failed.length === 0) {
      return {
        subsystem: "cmds",
        status: "ok",
        detail: `${r.loaded} core commands loaded${off ? `; ${off}` : ""}`,
      };
    }
    const broken = r.failed.map((f) => `${f.module}: ${f.error}`).join("; ");
    return {
      subsystem: "cmds",
      status: r.loaded > 0 ? "partial" : "failed",
      detail: `${r.loaded} loaded, ${r.kept} kept from before; failed ${broken}`,
    };
  } catch (e) {
    return failure("cmds", e);
  }
}

function pluginOutcome(subsystem: string, reports: PluginStatus[]): Outcome {
  const bad = reports.filter((r) => !r.ok);
  const detail = reports.length === 0
    ? "no plugins found"
    : reports.map((r) => `${r.name} ${r.ok ? "ok" : `FAILED (${r.message})`}`).join(", ");
  const status = bad.length === 0 ? "ok" : bad.length < reports.length ? "partial" : "failed";
  return { subsystem, status, detail };
}

async function reloadPlugins(s: EngineControl): Promise<Outcome> {
  try {
    return pluginOutcome("plugins", await s.plugins.reloadAll());
  } catch (e) {
    return failure("plugins", e);
  }
}

function render(title: string, outcomes: Outcome[]): string {
  const colour = { ok: "%cg", partial: "%cy", failed: "%cr" } as const;
  const lines = outcomes.map((o) =>
    `  ${o.subsystem.padEnd(8)} ${colour[o.status]}${o.status}%cn  ${o.detail}`
  );
  return [`%ch${title}%cn`, ...lines].join("\n");
}

function reply(u: CommandSdk, title: string, outcomes: Outcome[]): void {
  u.send(render(title, outcomes), { type: "reload", results: outcomes });
}

/** `@reload/plugin [<name>]`: reloads one plugin, or lists them. */
async function onePlugin(u: CommandSdk): Promise<void> {
  const p = u.engine.plugins;
  const name = u.cmd.args.trim();
  if (!name) {
    const list = p.list();
    const lines = list.length === 0
      ? ["  (no plugins found)"]
      : list.map((r) =>
        `  ${r.name.padEnd(16)} ${r.loaded ? "%cgloaded%cn" : "%cynot loaded%cn"}` +
        `${r.version ? `  ${r.version}` : ""}${r.ok ? "" : `  ${r.message}`}`
      );
    return u.send(["%chPlugins:%cn", ...lines].join("\n"), { type: "plugins", plugins: list });
  }
  try {
    const r = await p.reload(name);
    reply(u, "Reload:", [pluginOutcome(`plugin`, [r])]);
  } catch (e) {
    reply(u, "Reload:", [failure("plugin", e)]);
  }
}

/** The reload family. */
export const commands: CommandSpec[] = [
  {
    name: "@reload",
    lock: "admin+",
    switches: [...SUBSYSTEMS, "plugin"],
    category: "Admin",
    help: `@reload                  reloads everything below, in this order
@reload/config           re-reads the configuration file and environment
@reload/text             re-reads the connect screen, motd and welcome texts
@reload/cmds             re-imports the core command files
@reload/plugins          reloads every plugin (new ones are loaded, removed ones unloaded)
@reload/plugin <name>    reloads one plugin (case-insensitive); with no name, lists them

Nobody is disconnected. The reply shows each part's status: ok, partial or failed with
the reason. A command file that fails to load is reported and its old commands stay in
service. Admin, wizard or superuser.`,
    async exec(u) {
      const sw = u.cmd.switches;
      if (sw.length > 1) throw new CommandError("Use one switch at a time, or none for all.");
      const s = u.engine;
      switch (sw[0]) {
        case undefined: {
          if (u.cmd.args.trim()) throw new CommandError("Usage: @reload[/<part>]");
          const outcomes = [
            await reloadConfig(s),
            await reloadText(s),
            await reloadCommands(s),
            await reloadPlugins(s),
          ];
          return reply(u, "Reload:", outcomes);
        }
        case "config":
          return reply(u, "Reload:", [await reloadConfig(s)]);
        case "text":
          return reply(u, "Reload:", [await reloadText(s)]);
        case "cmds":
          return reply(u, "Reload:", [await reloadCommands(s)]);
        case "plugins":
          return reply(u, "Reload:", [await reloadPlugins(s)]);
        case "plugin":
          return await onePlugin(u);
      }
    },
  },
];
