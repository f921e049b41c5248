/**
 * The command registry: who registered which command, and the matcher that turns a
 * parsed line into a command. Lookups are a map hit first, then pattern commands in
 * registration order, then unique prefixes of `@` and plain-word commands.
 *
 * Three layers may register the same name; the highest runs: a system script (owner
 * SCRIPT_OWNER) over a plugin's command over a core command. `match` takes an optional
 * filter so the layers below stay reachable (`@core/who`, see dispatch.ts).
 */
import type { CommandSpec, RegisteredCommand } from "./types.ts";
import type { ParsedLine } from "./parser.ts";
import type { DbObject } from "../world/types.ts";
import { LockSyntaxError, parseLock } from "../world/locks.ts";

/** A registry entry: the validated spec, its owner and, for core commands, its source file. */
export interface CommandEntry extends RegisteredCommand {
  /** Module the command came from (core families), so a reload can keep a broken file's commands. */
  source?: string;
  /** Order of registration; later registrations win over earlier ones of other owners. */
  readonly seq: number;
  /** The pattern, compiled case-insensitive and stateless (no `g`/`y`). */
  readonly matcher?: RegExp;
}

/** The result of matching a line: the command, the line it sees, and its pattern groups. */
export interface CommandMatch {
  command: CommandEntry;
  /** The parsed line with any switch consumed by a `name/switch` registration removed. */
  cmd: ParsedLine;
  args: string[];
}

/** Several commands start with what was typed. */
export interface AmbiguousMatch {
  ambiguous: string[];
}

/** What each layer of the registry answers for one line (`CommandRegistry.layers`). */
export interface CommandLayers {
  script: CommandEntry | null;
  builtin: CommandEntry | null;
  /** Every command registered under the typed word (or `word/switch`), of any layer. */
  named: CommandEntry[];
  prefix: CommandEntry | AmbiguousMatch | null;
}

/** Owner of the commands of system scripts (no plugin name can contain a `/`). */
export const SCRIPT_OWNER = "system/scripts";

/** Which entries a match may pick: all of them when absent. */
export type EntryFilter = (e: CommandEntry) => boolean;

const NAME_RE = /^[@+&]?[a-z0-9_][a-z0-9_.?!'-]*(?:\/[a-z0-9_-]+)?$|^[@+&]$|^@@$/;
const SWITCH_RE = /^[a-z0-9_-]+$/;
const MAX_NAME = 64;
/** Typed words shorter than this never prefix-match (`ex` could be anything). */
const MIN_PREFIX = 3;

/** Validates a spec and returns why it is unusable, or null. */
function specProblem(spec: CommandSpec): string | null {
  if (!spec || typeof spec !== "object") return "command spec must be an object";
  if (typeof spec.name !== "string" || !spec.name) return "command name is required";
  const names = [spec.name, ...(spec.aliases ?? [])];
  if (spec.aliases !== undefined && !Array.isArray(spec.aliases)) return "aliases must be an array";
  for (const n of names) {
    if (typeof n !== "string" || n.length > MAX_NAME || !NAME_RE.test(n.toLowerCase())) {
      return `bad command name '${String(n).slice(0, MAX_NAME)}'`;
    }
  }
  if (typeof spec.exec !== "function") return `command '${spec.name}' has no exec function`;
  if (spec.accepts !== undefined && typeof spec.accepts !== "function") {
    return `accepts of '${spec.name}' must be a function`;
  }
  if (spec.pattern !== undefined && !(spec.pattern instanceof RegExp)) {
    return `pattern of '${spec.name}' must be a RegExp`;
  }
  if (spec.lock !== undefined) {
    if (typeof spec.lock !== "string") return `lock of '${spec.name}' must be a string`;
    try {
      if (spec.lock.trim()) parseLock(spec.lock);
    } catch (e) {
      if (e instanceof LockSyntaxError) return `lock of '${spec.name}': ${e.message}`;
      throw e;
    }
  }
  if (spec.switches !== undefined) {
    if (!Array.isArray(spec.switches)) return `switches of '${spec.name}' must be an array`;
    for (const s of spec.switches) {
      if (typeof s !== "string" || !SWITCH_RE.test(s.toLowerCase())) {
        return `bad switch '${String(s)}' on '${spec.name}'`;
      }
    }
  }
  if (spec.help !== undefined && typeof spec.help !== "string") return "help must be a string";
  if (
    spec.guests !== undefined && spec.guests !== true &&
    !(Array.isArray(spec.guests) && spec.guests.every((s) => typeof s === "string"))
  ) return `guests of '${spec.name}' must be true or a list of switches`;
  return null;
}

/** Registered in-game commands and the matcher over them. */
export class CommandRegistry {
  /** Lower-cased name or alias → entries registered under it, oldest first. */
  #byName = new Map<string, CommandEntry[]>();
  #entries: CommandEntry[] = [];
  #patterns: CommandEntry[] = [];
  /** The system scripts' pattern commands (a subset of `#patterns`, in the same order). */
  #scriptPatterns: CommandEntry[] = [];
  /** Sorted names/aliases of prefix-matchable commands, rebuilt lazily after changes. */
  #sorted: string[] | null = null;
  #seq = 0;
  /** Commands of system scripts registered (most games have none: no line looks for one). */
  #scripts = 0;

  /** Validates and registers a command; throws a TypeError naming the problem. */
  add(spec: CommandSpec, owner: string, source?: string): CommandEntry {
    const entry = this.#prepare(spec, owner, source);
    this.#insert(entry);
    return entry;
  }

  /** Removes everything an owner registered; returns how many commands went. */
  removeOwner(owner: string): number {
    const gone = this.#entries.filter((e) => e.owner === owner);
    if (gone.length) this.#rebuild(this.#entries.filter((e) => e.owner !== owner));
    return gone.length;
  }

  /**
   * Replaces every command of `owner` by `specs` in one step: all specs are validated
   * first, so on any problem nothing changes and the error is thrown.
   */
  replaceOwner(owner: string, specs: readonly { spec: CommandSpec; source?: string }[]): number {
    const fresh = specs.map((s) => this.#prepare(s.spec, owner, s.source));
    this.#rebuild([...this.#entries.filter((e) => e.owner !== owner), ...fresh]);
    return fresh.length;
  }

  /**
   * What each layer of the registry answers for a line (`@commands`): the system script's
   * command, the built-in (core or plugin) one, every command registered under the typed word
   * (the ones not picked are shadowed), and the unique-prefix match.
   */
  layers(cmd: ParsedLine, me?: DbObject): CommandLayers {
    const script = this.matchExact(cmd, me, isScript)?.command ?? null;
    const builtin = this.matchExact(cmd, me, (e) => layerOf(e) < 2)?.command ?? null;
    const named = [
      ...(cmd.switches.length ? this.#byName.get(`${cmd.name}/${cmd.switches[0]}`) ?? [] : []),
      ...(this.#byName.get(cmd.name) ?? []),
    ];
    const prefix = this.matchPrefix(cmd, me);
    return {
      script,
      builtin,
      named: [...new Set(named)],
      prefix: prefix && "command" in prefix ? prefix.command : prefix,
    };
  }

  /** Every registered command, in registration order. */
  list(): readonly CommandEntry[] {
    return this.#entries;
  }

  /** The command a name or alias runs (case-insensitive), or undefined. */
  get(name: string): CommandEntry | undefined {
    return pick(this.#byName.get(String(name).toLowerCase()));
  }

  /**
   * Finds the command for a parsed line: exact name or alias (a `name/switch`
   * registration first), then pattern commands, then a unique prefix of an `@` or
   * plain-word command. Returns null when nothing matches. With `me`, a pattern
   * command's `accepts` may decline a line it matched (another player's channel alias).
   */
  match(cmd: ParsedLine, me?: DbObject, only?: EntryFilter): CommandMatch | AmbiguousMatch | null {
    return this.matchExact(cmd, me, only) ?? this.matchPrefix(cmd, me, only);
  }

  /**
   * The first half of `match`: a command registered under the typed word (a `name/switch`
   * registration first), then a pattern command. Dispatch tries `$-commands` after it and the
   * unique prefix (`matchPrefix`) last (docs/commands.md, "Which command runs").
   */
  matchExact(cmd: ParsedLine, me?: DbObject, only?: EntryFilter): CommandMatch | null {
    return this.#matchIn(cmd, this.#patterns, me, only);
  }

  /** `matchExact` over the given pattern commands (all of them, or the scripts' alone). */
  #matchIn(
    cmd: ParsedLine,
    patterns: readonly CommandEntry[],
    me?: DbObject,
    only?: EntryFilter,
  ): CommandMatch | null {
    const line = cmd.raw.trimStart();
    if (cmd.switches.length) {
      const sub = pick(this.#byName.get(`${cmd.name}/${cmd.switches[0]}`), only);
      if (sub) {
        const rest = { ...cmd, switches: cmd.switches.slice(1) };
        const m = tryEntry(sub, rest, line, me);
        if (m) return m;
      }
    }
    const exact = pick(this.#byName.get(cmd.name), only);
    if (exact) {
      const m = tryEntry(exact, cmd, line, me);
      if (m) return m;
    }
    for (const e of patterns) {
      if (only && !only(e)) continue;
      const m = tryEntry(e, cmd, line, me);
      if (m) return m;
    }
    return null;
  }

  /**
   * A system script's command for the line (by name, `name/switch` or pattern), or null: the
   * first layer a typed line is matched against, ahead of exits (docs/commands.md).
   */
  matchScript(cmd: ParsedLine, me?: DbObject): CommandMatch | null {
    // Every typed line asks: only the scripts' own patterns are tried, not every command's.
    return this.#scripts === 0 ? null : this.#matchIn(cmd, this.#scriptPatterns, me, isScript);
  }

  /**
   * The last half of `match`: the one `@` or plain-word command whose name starts with the
   * typed word (three characters at least), or the ambiguous names.
   */
  matchPrefix(
    cmd: ParsedLine,
    me?: DbObject,
    only?: EntryFilter,
  ): CommandMatch | AmbiguousMatch | null {
    const line = cmd.raw.trimStart();
    const word = cmd.name;
    if (word.length < MIN_PREFIX || word[0] === "+" || word[0] === "&") return null;
    const sorted = this.#sortedNames();
    let lo = 0, hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (sorted[mid] < word) lo = mid + 1;
      else hi = mid;
    }
    const found = new Map<CommandEntry, string>();
    for (let i = lo; i < sorted.length && sorted[i].startsWith(word); i++) {
      const e = pick(this.#byName.get(sorted[i]), only);
      if (e && !e.matcher && !found.has(e)) found.set(e, e.name);
    }
    if (found.size === 1) {
      const [e] = found.keys();
      return tryEntry(e, cmd, line, me);
    }
    if (found.size > 1) return { ambiguous: [...found.values()].sort() };
    return null;
  }

  #sortedNames(): string[] {
    if (!this.#sorted) {
      this.#sorted = [...this.#byName.keys()]
        .filter((k) => !k.includes("/") && k[0] !== "+" && k[0] !== "&")
        .sort();
    }
    return this.#sorted;
  }

  #prepare(spec: CommandSpec, owner: string, source?: string): CommandEntry {
    const problem = specProblem(spec);
    if (problem) throw new TypeError(`command registry: ${problem}`);
    if (typeof owner !== "string" || !owner) {
      throw new TypeError("command registry: owner required");
    }
    const flags = spec.pattern ? spec.pattern.flags.replace(/[gy]/g, "") : "";
    return {
      ...spec,
      name: spec.name.toLowerCase(),
      aliases: (spec.aliases ?? []).map((a) => a.toLowerCase()),
      switches: spec.switches?.map((s) => s.toLowerCase()),
      owner,
      source,
      seq: ++this.#seq,
      matcher: spec.pattern
        ? new RegExp(spec.pattern.source, flags.includes("i") ? flags : flags + "i")
        : undefined,
    };
  }

  #insert(e: CommandEntry): void {
    this.#entries.push(e);
    if (isScript(e)) this.#scripts++;
    for (const n of new Set([e.name, ...(e.aliases ?? [])])) {
      const list = this.#byName.get(n);
      if (list) list.push(e);
      else this.#byName.set(n, [e]);
    }
    if (e.matcher) {
      this.#patterns.push(e);
      if (isScript(e)) this.#scriptPatterns.push(e);
    }
    this.#sorted = null;
  }

  #rebuild(entries: CommandEntry[]): void {
    this.#byName = new Map();
    this.#entries = [];
    this.#patterns = [];
    this.#scriptPatterns = [];
    this.#scripts = 0;
    for (const e of entries.sort((a, b) => a.seq - b.seq)) this.#insert(e);
  }
}

/** The layer of an entry: core 0, plugin 1, system script 2; the highest wins a name. */
export function layerOf(e: Pick<CommandEntry, "owner">): number {
  return e.owner === "core" ? 0 : e.owner === SCRIPT_OWNER ? 2 : 1;
}

/** A system script's command (the first layer a typed line is matched against). */
function isScript(e: CommandEntry): boolean {
  return layerOf(e) === 2;
}

/**
 * Of several commands under one name (those `only` allows), a script's wins over a plugin's,
 * a plugin's over core, and a later one over an earlier one of the same layer.
 */
function pick(list: CommandEntry[] | undefined, only?: EntryFilter): CommandEntry | undefined {
  if (!list || list.length === 0) return undefined;
  let best: CommandEntry | undefined;
  for (const e of list) {
    if (only && !only(e)) continue;
    if (
      !best || layerOf(e) > layerOf(best) || (layerOf(e) === layerOf(best) && e.seq > best.seq)
    ) best = e;
  }
  return best;
}

/** A command with a pattern matches only when the pattern does; one without always does. */
function tryEntry(
  e: CommandEntry,
  cmd: ParsedLine,
  line: string,
  me?: DbObject,
): CommandMatch | null {
  if (!e.matcher) return { command: e, cmd, args: [] };
  const groups = e.matcher.exec(line);
  if (!groups) return null;
  const args = groups.slice(1).map((g) => g ?? "");
  return !me || !e.accepts || accepted(e, me, args) ? { command: e, cmd, args } : null;
}

function accepted(e: CommandEntry, me: DbObject, args: string[]): boolean {
  try {
    return e.accepts!(me, args) === true;
  } catch (err) {
    console.error(`commands: accepts() of '${e.name}' failed:`, err);
    return false;
  }
}
