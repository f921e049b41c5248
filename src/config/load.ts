/**
 * Layered configuration: defaults < file < programmatic < environment.
 * Every leaf is validated against the type of its default; an invalid value
 * logs a warning naming the key and the default is used instead.
 */
import { resolve } from "node:path";
import {
  defaultConfig,
  type EngineConfig,
  ENUM_KEYS,
  MAX_VALUES,
  NON_NEGATIVE_KEYS,
  PORT_KEYS,
  RETIRED_KEYS,
  VALUE_RULES,
} from "./defaults.ts";

type Tree = Record<string, unknown>;

/** Where the layers come from. */
export interface ConfigSources {
  /** Path of the JSON file; a missing file is fine, a broken one warns. */
  file?: string;
  /** Environment to read `URSAMU_*` variables from. */
  env?: Record<string, string>;
  /** Values set programmatically, as dotted keys (`"game.name"`) or nested objects. */
  overrides?: Tree;
  /** Receives warnings; defaults to console.warn. */
  warn?: (message: string) => void;
  /**
   * The end of a broken file's warning: by default, that the defaults are used and that
   * `check-config` lists every problem; `check-config` itself (what the reader ran) says less.
   */
  brokenFileAdvice?: string;
}

/** What a start or a reload does with a broken file, and where to see every problem at once. */
const CHECK_CONFIG_ADVICE =
  "using defaults. Fix the file (the command line's `check-config` lists every problem).";

const ENV_PREFIX = "URSAMU_";

/** The game's configuration file under `root`: `URSAMU_CONFIG`, else config/config.json. */
export function configFile(root: string, env: Record<string, string>): string {
  return resolve(root, env["URSAMU_CONFIG"] ?? "config/config.json");
}

/** True for a plain JSON object (not an array, not null). */
export function isPlainObject(v: unknown): v is Tree {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Reads a dotted path out of a tree. */
export function getPath(tree: unknown, path: string): unknown {
  let cur: unknown = tree;
  for (const seg of path.split(".")) {
    if (!isPlainObject(cur) || !Object.hasOwn(cur, seg)) return undefined;
    cur = cur[seg];
  }
  return cur;
}

/** Writes a dotted path into a tree, creating objects on the way. */
export function setPath(tree: Tree, path: string, value: unknown): void {
  const segs = path.split(".");
  let cur = tree;
  for (const seg of segs.slice(0, -1)) {
    if (!isPlainObject(cur[seg])) cur[seg] = {};
    cur = cur[seg] as Tree;
  }
  cur[segs[segs.length - 1]] = value;
}

/** Every leaf path of the defaults (arrays count as leaves). */
export function leafPaths(tree: Tree, prefix = ""): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${k}` : k;
    if (isPlainObject(v) && k !== "plugins") out.push(...leafPaths(v, path));
    else if (!isPlainObject(v)) out.push(path);
  }
  return out;
}

/** Environment variable name for a config path, e.g. `game.name` → `URSAMU_GAME_NAME`. */
export function envName(path: string): string {
  return ENV_PREFIX + path.split(".").join("_").toUpperCase();
}

/** Converts an environment string to the type of the default, or returns undefined if it cannot. */
function coerceEnv(raw: string, def: unknown): unknown {
  if (typeof def === "number") return raw.trim() === "" ? raw : Number(raw);
  if (typeof def === "boolean") {
    const v = raw.trim().toLowerCase();
    if (["true", "1", "yes", "on"].includes(v)) return true;
    if (["false", "0", "no", "off"].includes(v)) return false;
    return raw;
  }
  if (Array.isArray(def)) {
    const t = raw.trim();
    if (t.startsWith("[")) {
      try {
        return JSON.parse(t);
      } catch {
        return raw;
      }
    }
    return t === "" ? [] : t.split(",").map((s) => s.trim()).filter(Boolean);
  }
  return raw;
}

/** Why a value is invalid for a key, or null when it is fine. */
export function invalidReason(path: string, value: unknown, def: unknown): string | null {
  if (Array.isArray(def)) {
    return Array.isArray(value) && value.every((x) => typeof x === "string")
      ? VALUE_RULES[path]?.(value) ?? null
      : "expected an array of strings";
  }
  if (typeof value !== typeof def) return `expected a ${typeof def}`;
  const words = ENUM_KEYS[path];
  if (words && !words.includes(value as string)) return `expected one of ${words.join(", ")}`;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return "expected a finite number";
    if (PORT_KEYS.includes(path) && (!Number.isInteger(value) || value < 1 || value > 65535)) {
      return "expected a port number from 1 to 65535";
    }
    if (NON_NEGATIVE_KEYS.includes(path) && (!Number.isInteger(value) || value < 0)) {
      return "expected a whole number of 0 or more";
    }
  }
  return VALUE_RULES[path]?.(value) ?? null;
}

/** Expands dotted keys of an overrides object into a nested tree. */
function expand(tree: Tree): Tree {
  const out: Tree = {};
  for (const [k, v] of Object.entries(tree)) {
    if (k.includes(".")) setPath(out, k, v);
    else out[k] = isPlainObject(v) ? expand(v) : v;
  }
  return out;
}

/** `HISTORY_LIMIT` → `historyLimit`: an environment key's segments as a plugin key. */
function camelKey(segments: string[]): string {
  return segments.map((s, i) => {
    const w = s.toLowerCase();
    return i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1);
  }).join("");
}

/** A plugin name as the environment spells it: upper case, `-` as `_`. */
function envPluginName(name: string): string {
  return name.toUpperCase().replace(/-/g, "_");
}

/**
 * Plugin keys from the environment: `URSAMU_PLUGINS_<NAME>_<KEY>`. `..._ENABLED` is the plugin
 * switch (a boolean; the name may hold `_`). For other keys the name is the longest plugin
 * section the file or the program already names (`my-plugin` is `MY_PLUGIN`), else the first
 * segment; the rest is the key in camel case (`URSAMU_PLUGINS_DISCORD_TOKEN` is
 * `plugins.discord.token`, `..._API_BASE` is `apiBase`). A value takes the type of what the lower
 * layers hold for that key (number, boolean); otherwise it is the string as set.
 */
function pluginEnv(env: Record<string, string>, lower: Tree[]): Tree {
  const out: Tree = {};
  const enabledRe = /^URSAMU_PLUGINS_([A-Z0-9]+(?:_[A-Z0-9]+)*)_ENABLED$/;
  const keyRe = /^URSAMU_PLUGINS_([A-Z0-9]+(?:_[A-Z0-9]+)+)$/;
  const known = new Map<string, string>();
  for (const layer of lower) {
    if (!isPlainObject(layer)) continue;
    for (const name of Object.keys(layer)) known.set(envPluginName(name), name.toLowerCase());
  }
  const byLength = [...known.keys()].sort((a, b) => b.length - a.length);
  for (const [k, v] of Object.entries(env)) {
    const en = enabledRe.exec(k);
    if (en) {
      const enabled = coerceEnv(v, true);
      if (typeof enabled === "boolean") setPath(out, `${en[1].toLowerCase()}.enabled`, enabled);
      continue;
    }
    const m = keyRe.exec(k);
    if (!m) continue;
    const rest = m[1];
    const hit = byLength.find((n) => rest.startsWith(`${n}_`));
    const envName = hit ?? rest.split("_")[0];
    const name = hit ? known.get(hit)! : envName.toLowerCase();
    const key = camelKey(rest.slice(envName.length + 1).split("_"));
    const below = lower.map((l) => {
      const section = Object.entries(l).find(([n]) => n.toLowerCase() === name)?.[1];
      return isPlainObject(section) ? section[key] : undefined;
    }).find((x) => x !== undefined);
    const value = typeof below === "number" || typeof below === "boolean" ? coerceEnv(v, below) : v;
    const section = (out[name] ??= {}) as Tree;
    section[key] = value;
  }
  return out;
}

/** The live configuration: merged layers with validation, reloadable and settable. */
export class Config {
  #sources: ConfigSources;
  #file: Tree = {};
  #programmatic: Tree;
  #value: EngineConfig = defaultConfig();
  #warn: (message: string) => void;

  constructor(sources: ConfigSources = {}) {
    this.#sources = sources;
    this.#warn = sources.warn ?? ((m) => console.warn(m));
    this.#programmatic = expand(sources.overrides ?? {});
  }

  /** Loads the file (if any) and merges every layer. */
  async load(): Promise<this> {
    this.#file = await this.#readFile();
    this.#merge();
    return this;
  }

  /**
   * Re-reads the file and re-merges (`@reload/config`); returns the warnings about single values
   * (each falls back to its default). A file that exists but cannot be read or parsed throws and
   * changes nothing: a half-saved edit must not reset a running game to the defaults.
   */
  async reload(): Promise<string[]> {
    const file = await this.#readFile(true);
    const warnings: string[] = [];
    const warn = this.#warn;
    this.#warn = (m) => {
      warnings.push(m);
      warn(m);
    };
    try {
      this.#file = file;
      this.#merge();
    } finally {
      this.#warn = warn;
    }
    return warnings;
  }

  /** The merged configuration. Treat it as read-only. */
  get value(): EngineConfig {
    return this.#value;
  }

  /** One value by dotted path. */
  get(path: string): unknown {
    return getPath(this.#value, path);
  }

  /** Sets a value programmatically; returns the reason it was refused, or null when set. */
  set(path: string, value: unknown): string | null {
    const def = getPath(defaultConfig(), path);
    if (def === undefined || isPlainObject(def)) return `unknown configuration key '${path}'`;
    const reason = invalidReason(path, value, def);
    if (reason) return `invalid value for '${path}': ${reason}`;
    setPath(this.#programmatic, path, value);
    this.#merge();
    return null;
  }

  /** Reads the file; a broken one warns and counts as empty, or with `strict` throws. */
  async #readFile(strict = false): Promise<Tree> {
    const path = this.#sources.file;
    if (!path) return {};
    let problem: string;
    try {
      const parsed = JSON.parse(await Deno.readTextFile(path));
      if (isPlainObject(parsed)) return parsed;
      problem = `${path} is not a JSON object`;
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) return {};
      problem = e instanceof SyntaxError
        ? `${path} is not valid JSON (${e.message})`
        : `cannot read ${path}: ${(e as Error).message}`;
    }
    if (strict) throw new Error(`config: ${problem}; the configuration in use is unchanged`);
    this.#warn(
      `config: ${problem}; ${this.#sources.brokenFileAdvice ?? CHECK_CONFIG_ADVICE}`,
    );
    return {};
  }

  /** Where to correct a value, by the layer it came from. */
  #fixFor(layer: string, path: string): string {
    if (layer === "environment") return `Fix or unset ${envName(path)}.`;
    if (layer === "config file") return `Fix or remove it in ${this.#sources.file}.`;
    return "Fix the value where the program sets it.";
  }

  #merge(): void {
    const defaults = defaultConfig();
    const merged = defaultConfig() as unknown as Tree;
    const env = this.#sources.env ?? {};
    for (const path of leafPaths(defaults as unknown as Tree)) {
      const def = getPath(defaults, path);
      const envRaw = env[envName(path)];
      const candidates: [string, unknown][] = [
        ["environment", envRaw === undefined ? undefined : coerceEnv(envRaw, def)],
        ["programmatic value", getPath(this.#programmatic, path)],
        ["config file", getPath(this.#file, path)],
      ];
      const hit = candidates.find(([, v]) => v !== undefined);
      if (!hit) continue;
      const reason = invalidReason(path, hit[1], def);
      if (reason) {
        this.#warn(
          `config: invalid ${hit[0]} for '${path}' (${reason}); using default ${
            JSON.stringify(def)
          }. ${this.#fixFor(hit[0], path)}`,
        );
        continue;
      }
      const max = MAX_VALUES[path];
      if (max !== undefined && (hit[1] as number) > max) {
        this.#warn(
          `config: ${hit[0]} for '${path}' is ${
            hit[1]
          }; the most it may be is ${max}, so ${max} is used. ${this.#fixFor(hit[0], path)}`,
        );
        setPath(merged, path, max);
        continue;
      }
      setPath(merged, path, hit[1]);
    }
    for (const [path, why] of Object.entries(RETIRED_KEYS)) {
      const layer = env[envName(path)] !== undefined
        ? "environment"
        : getPath(this.#programmatic, path) !== undefined
        ? "programmatic value"
        : getPath(this.#file, path) !== undefined
        ? "config file"
        : null;
      if (layer) {
        this.#warn(
          `config: '${path}' is no longer used (${why}); it is ignored. ${
            this.#fixFor(layer, path)
          }`,
        );
      }
    }
    const plugins: Tree = {};
    const lower = [this.#file.plugins, this.#programmatic.plugins].filter(isPlainObject);
    for (const layer of [...lower, pluginEnv(env, lower)]) {
      if (!isPlainObject(layer)) continue;
      for (const [name, section] of Object.entries(layer)) {
        if (!isPlainObject(section)) {
          this.#warn(`config: 'plugins.${name}' must be an object; ignored`);
          continue;
        }
        plugins[name.toLowerCase()] = {
          ...(plugins[name.toLowerCase()] as Tree ?? {}),
          ...section,
        };
      }
    }
    merged.plugins = plugins;
    const value = merged as unknown as EngineConfig;
    // `database.path` is the older name of the database (docs/backups.md): honoured while
    // server.db is left at its default, so an old configuration keeps its world.
    if (
      value.database.path !== defaults.database.path && value.server.db === defaults.server.db
    ) {
      this.#warn(
        `config: 'database.path' is the older name of 'server.db'; using ${
          JSON.stringify(value.database.path)
        }. Move it to server.db.`,
      );
      value.server.db = value.database.path;
    }
    this.#value = value;
  }
}
