/**
 * What there is to fuzz, read from the source tree so that a new route, plugin or command is
 * fuzzed without editing this file: core routes from the Hono registrations in
 * src/http/routes, plugin routes from each plugin's `PREFIX` and the paths its routes file
 * names, in-game commands (names, aliases, switches) from every command module.
 */
import { join } from "node:path";

/** One route: a method (or `*` for any) and a path template with `:param` slots. */
export interface RouteTemplate {
  method: string;
  path: string;
  /** Plugin name, or `core`. */
  owner: string;
}

/** One in-game command: its names and the switches it declares. */
export interface CommandInfo {
  names: string[];
  switches: string[];
}

/** Everything the generators draw from. */
export interface Catalog {
  routes: RouteTemplate[];
  commands: CommandInfo[];
}

/** Commands that end or restart the engine on purpose: not fuzzed (the oracle would call it a crash). */
export const ENGINE_ENDING = new Set(["@shutdown", "@reboot", "@update", "@upgrade"]);

async function readIf(path: string): Promise<string> {
  try {
    return await Deno.readTextFile(path);
  } catch {
    return "";
  }
}

async function sourceFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
        out.push(join(dir, e.name));
      }
    }
  } catch { /* no such folder */ }
  return out.sort();
}

async function pluginDirs(root: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(root, "plugins"))) {
    if (e.isDirectory) out.push(e.name);
  }
  return out.sort();
}

/** Core routes: `r.get("/x/:id", ...)` in src/http/routes, mounted under /api/v1, and /health. */
async function coreRoutes(root: string): Promise<RouteTemplate[]> {
  const routes: RouteTemplate[] = [{ method: "GET", path: "/health", owner: "core" }];
  for (const f of await sourceFiles(join(root, "src/http/routes"))) {
    const text = await Deno.readTextFile(f);
    for (const m of text.matchAll(/\br\.(get|post|patch|put|delete)\(\s*"([^"]+)"/g)) {
      routes.push({ method: m[1].toUpperCase(), path: "/api/v1" + m[2], owner: "core" });
    }
  }
  return routes;
}

/** Plugin routes: the prefix, every `/api/v1/...` path its routes file names, any method. */
async function pluginRoutes(root: string): Promise<RouteTemplate[]> {
  const routes: RouteTemplate[] = [];
  for (const name of await pluginDirs(root)) {
    const text = await readIf(join(root, "plugins", name, "routes.ts"));
    const prefix = text.match(/PREFIX\s*=\s*"([^"]+)"/)?.[1];
    if (!prefix) continue;
    const paths = new Set([prefix, `${prefix}/:any`, `${prefix}/:any/:any`]);
    for (const m of text.matchAll(/\/api\/v1\/[A-Za-z0-9_:/.-]+/g)) {
      paths.add(m[0].replace(/[.]+$/, ""));
    }
    for (const path of paths) routes.push({ method: "*", path, owner: name });
  }
  return routes;
}

/** Command names, aliases and switches of the core modules and the plugins' command files. */
async function commands(root: string): Promise<CommandInfo[]> {
  const files = [
    ...await sourceFiles(join(root, "src/commands/core")),
    ...(await pluginDirs(root)).map((p) => join(root, "plugins", p, "commands.ts")),
  ];
  const out: CommandInfo[] = [];
  for (const f of files) {
    const text = await readIf(f);
    // A spec starts at `name: "..."`; its aliases and switches follow before the next spec.
    const starts = [...text.matchAll(/\bname:\s*"([^"]+)"/g)];
    starts.forEach((m, i) => {
      const body = text.slice(m.index!, starts[i + 1]?.index ?? text.length);
      const list = (key: string) => {
        const inner = body.match(new RegExp(`\\b${key}:\\s*\\[([^\\]]*)\\]`))?.[1] ?? "";
        return [...inner.matchAll(/"([^"]+)"/g)].map((x) => x[1]);
      };
      const names = [m[1], ...list("aliases")].filter((n) => /^[@+&]?[a-z][\w/.?!'-]*$/i.test(n));
      if (names.length) out.push({ names, switches: list("switches") });
    });
  }
  // The hub's own lines, and channel talk (`pub` is the default alias of Public).
  out.push({ names: ["connect", "co", "create", "cr"], switches: [] });
  out.push({ names: ["pub", "public"], switches: [] });
  return out.filter((c) => !c.names.some((n) => ENGINE_ENDING.has(n.toLowerCase())));
}

/** Reads the catalog from the repository at `root`. */
export async function loadCatalog(root: string): Promise<Catalog> {
  return {
    routes: [...await coreRoutes(root), ...await pluginRoutes(root)],
    commands: await commands(root),
  };
}
