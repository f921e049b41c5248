/**
 * The merged view of the help sources. On the same slug the higher priority wins: database
 * 100, files 50, command help 10, softcode functions 5. Files are indexed once and re-indexed
 * on `+help/reload` or when plugins add or drop help. Function topics (`add()`) come from each
 * function's own help; `help functions` lists them by family, the index does not.
 */
import {
  checkLock,
  type FunctionHelpView,
  type HelpSourcesView,
  isGuest,
  type LockSubject,
} from "../../src/plugins/mod.ts";
import type { HelpDb } from "./store.ts";
import { type HelpFolder, readHelpFolder } from "./files.ts";
import { toSection, toSlug } from "./slug.ts";

/** Where a topic came from. */
export type HelpSource = "database" | "file" | "command" | "function";

/** Priority of each source. */
export const PRIORITY: Readonly<Record<HelpSource, number>> = {
  database: 100,
  file: 50,
  command: 10,
  function: 5,
};

/** A resolved topic. */
export interface HelpEntry {
  name: string;
  section: string;
  content: string;
  source: HelpSource;
  priority: number;
  aliases: string[];
}

/** What the merged view needs of a registered command. */
export interface CommandHelp {
  name: string;
  aliases?: string[];
  category?: string;
  help?: string;
  /** Who may run it (default `connected`, as the dispatcher reads it). */
  lock?: string;
  /** What guests may run of it (absent: nothing), as the dispatcher reads it. */
  guests?: true | readonly string[];
}

/**
 * Who reads the help: a player as lock subject. An anonymous web reader sees what an ordinary
 * player sees.
 */
export type HelpReader = LockSubject;

/** The reader for callers without a login: an ordinary connected player. */
export const ANONYMOUS_READER: HelpReader = Object.freeze({
  id: "#-1",
  flags: Object.freeze(["player"]) as readonly string[],
  connected: true,
});

/** The index as one reader sees it. */
export interface HelpIndex {
  /** Section → visible topic names (commands and other topics), sorted. */
  sections: Record<string, string[]>;
  /** The visible names that are not commands (overviews such as `channels`), sorted. */
  topics: string[];
}

/** Sources of the merged view. */
export interface TopicSources {
  db: HelpDb;
  /** The game's own help folder (read first, so it wins over plugin files). */
  mainFolder: () => HelpFolder;
  registry: HelpSourcesView;
  commands: () => readonly CommandHelp[];
  /** Core commands turned off (`commands.disabled`): help files named after them are hidden. */
  turnedOff?: () => readonly string[];
  /** Softcode functions' topics (`add()` and the index `functions`). */
  functions: FunctionHelpView;
  warn: (m: string) => void;
}

/** True for a function's topic (`add()`): listed by `help functions`, not in the index. */
export function isFunctionTopic(name: string): boolean {
  return name.endsWith("()");
}

/** Result of an in-game search. */
export type FindResult = { entry: HelpEntry } | { ambiguous: string[] } | null;

/** The merged help topics. */
export class HelpTopics {
  #files = new Map<string, HelpEntry>();
  #fileAliases = new Map<string, string>();
  #indexedVersion = -1;
  #indexing: Promise<number> | null = null;
  #functionsMade: {
    version: number;
    byName: Map<string, HelpEntry>;
    byAlias: Map<string, string>;
  } | null = null;

  constructor(private readonly src: TopicSources) {}

  /** Re-reads every help folder; returns how many file topics there are. */
  reloadFiles(): Promise<number> {
    this.#indexing ??= this.#index().finally(() => this.#indexing = null);
    return this.#indexing;
  }

  async #index(): Promise<number> {
    const version = this.src.registry.version;
    const files = new Map<string, HelpEntry>();
    const aliases = new Map<string, string>();
    const folders: HelpFolder[] = [
      this.src.mainFolder(),
      ...this.src.registry.dirs().map((d) => ({
        dir: d.dir,
        defaultSection: toSection(d.section) ?? toSection(d.owner) ?? "general",
      })),
    ];
    for (const folder of folders) {
      for (const t of await readHelpFolder(folder, this.src.warn)) {
        if (files.has(t.slug)) continue;
        files.set(t.slug, {
          name: t.slug,
          section: t.section,
          content: t.content,
          source: "file",
          priority: PRIORITY.file,
          aliases: t.aliases,
        });
        for (const a of t.aliases) if (!aliases.has(a)) aliases.set(a, t.slug);
      }
    }
    for (const t of this.src.registry.topics()) {
      const slug = toSlug(t.name);
      if (!slug || files.has(slug)) continue;
      files.set(slug, {
        name: slug,
        section: toSection(t.section) ?? toSection(t.owner) ?? "general",
        content: t.content,
        source: "file",
        priority: PRIORITY.file,
        aliases: [],
      });
    }
    this.#files = files;
    this.#fileAliases = aliases;
    this.#indexedVersion = version;
    return files.size;
  }

  async #fresh(): Promise<void> {
    if (this.#indexedVersion !== this.src.registry.version) await this.reloadFiles();
  }

  /** Command help by name and by alias, built fresh (commands come and go with reloads). */
  #commandHelp(): { byName: Map<string, HelpEntry>; byAlias: Map<string, HelpEntry> } {
    const byName = new Map<string, HelpEntry>();
    const byAlias = new Map<string, HelpEntry>();
    for (const c of this.src.commands()) {
      if (typeof c.help !== "string" || !c.help.trim()) continue;
      const slug = toSlug(c.name);
      if (!slug || byName.has(slug)) continue;
      const aliases = (c.aliases ?? []).map(toSlug).filter((a): a is string => !!a);
      const entry: HelpEntry = {
        name: slug,
        section: toSection(c.category) ?? "commands",
        content: c.help.trim(),
        source: "command",
        priority: PRIORITY.command,
        aliases,
      };
      byName.set(slug, entry);
      for (const a of aliases) if (!byAlias.has(a)) byAlias.set(a, entry);
    }
    return { byName, byAlias };
  }

  /** Function topics by name and by alias, made again when the function table changes. */
  #functionHelp(): { byName: Map<string, HelpEntry>; byAlias: Map<string, string> } {
    const version = this.src.functions.version;
    if (this.#functionsMade?.version === version) return this.#functionsMade;
    const byName = new Map<string, HelpEntry>();
    const byAlias = new Map<string, string>();
    for (const t of this.src.functions.topics()) {
      byName.set(t.name, {
        name: t.name,
        section: "functions",
        content: t.content,
        source: "function",
        priority: PRIORITY.function,
        aliases: [...t.aliases],
      });
      for (const a of t.aliases) byAlias.set(a, t.name);
    }
    this.#functionsMade = { version, byName, byAlias };
    return this.#functionsMade;
  }

  /**
   * Names of core commands turned off that no other layer registers again: a help file of such
   * a name is left out, so a softcode package's command of that name shows no stale help.
   */
  #offNames(): ReadonlySet<string> {
    const off = this.src.turnedOff?.() ?? [];
    if (!off.length) return new Set();
    const registered = new Set<string>();
    for (const c of this.src.commands()) {
      for (const n of [c.name, ...(c.aliases ?? [])]) registered.add(n.toLowerCase());
    }
    return new Set(off.filter((n) => !registered.has(n)));
  }

  /** A help file's topic unless it names a turned-off core command. */
  #file(slug: string, off: ReadonlySet<string>): HelpEntry | undefined {
    return off.has(slug) ? undefined : this.#files.get(slug);
  }

  /** The winning entry of a slug (exact names first, then aliases), or null. */
  async get(slug: string): Promise<HelpEntry | null> {
    await this.#fresh();
    return this.#getNow(slug);
  }

  /** get() from the topics as last read. */
  #getNow(slug: string): HelpEntry | null {
    const db = this.src.db.get(slug);
    if (db) return this.#fromDb(db);
    const off = this.#offNames();
    const file = this.#file(slug, off);
    if (file) return file;
    const commands = this.#commandHelp();
    const cmd = commands.byName.get(slug);
    if (cmd) return cmd;
    const functions = this.#functionHelp();
    const fn = functions.byName.get(slug);
    if (fn) return fn;
    const viaAlias = off.has(slug) ? undefined : this.#fileAliases.get(slug);
    if (viaAlias && !off.has(viaAlias)) return this.#getNow(viaAlias);
    const cmdAlias = commands.byAlias.get(slug);
    // A command alias leads to whichever source wins for the command's own name.
    if (cmdAlias) return this.#getNow(cmdAlias.name);
    const fnAlias = functions.byAlias.get(slug);
    return fnAlias ? this.#getNow(fnAlias) : null;
  }

  /** The entry a given source holds for a slug (ignoring priority), or null. */
  async fromSource(slug: string, source: HelpSource): Promise<HelpEntry | null> {
    await this.#fresh();
    if (source === "database") {
      const db = this.src.db.get(slug);
      return db ? this.#fromDb(db) : null;
    }
    if (source === "file") return this.#file(slug, this.#offNames()) ?? null;
    if (source === "function") return this.#functionHelp().byName.get(slug) ?? null;
    return this.#commandHelp().byName.get(slug) ?? null;
  }

  /**
   * Locks of the commands each lower-cased name or alias runs. A topic named like a command is
   * that command's help, readable by whoever may run it; any other topic is for everyone.
   */
  #commandLocks(): Map<string, string[]> {
    const locks = new Map<string, string[]>();
    for (const c of this.src.commands()) {
      const lock = typeof c.lock === "string" ? c.lock : "connected";
      for (const n of [c.name, ...(c.aliases ?? [])]) {
        const key = n.toLowerCase();
        const list = locks.get(key);
        if (list) list.push(lock);
        else locks.set(key, [lock]);
      }
    }
    return locks;
  }

  /** True when `entry` names a command (its help is that command's help). */
  #isCommand(entry: HelpEntry, locks: Map<string, string[]>): boolean {
    return entry.source === "command" || locks.has(entry.name);
  }

  /** True when `reader` may see `entry`: any topic that is no command, or a command it may run. */
  #visible(entry: HelpEntry, reader: HelpReader, locks: Map<string, string[]>): boolean {
    const list = locks.get(entry.name);
    if (!list) return true;
    return list.some((lock) => checkLock(lock, reader));
  }

  /** The winning entry of a slug if `reader` may see it, else null (as if it did not exist). */
  async getFor(slug: string, reader: HelpReader): Promise<HelpEntry | null> {
    const e = await this.get(slug);
    return e && this.#visible(e, reader, this.#commandLocks()) ? e : null;
  }

  /** getFor() from the topics as last read. */
  #getForNow(slug: string, reader: HelpReader, locks: Map<string, string[]>): HelpEntry | null {
    const e = this.#getNow(slug);
    return e && this.#visible(e, reader, locks) ? e : null;
  }

  /** Lower-cased names and aliases of the commands guests may run (some form of). */
  #guestCommands(): Set<string> {
    const open = new Set<string>();
    for (const c of this.src.commands()) {
      if (c.guests === true || (Array.isArray(c.guests) && c.guests.length)) {
        for (const n of [c.name, ...(c.aliases ?? [])]) open.add(n.toLowerCase());
      }
    }
    return open;
  }

  /**
   * The index `reader` sees: only commands it may run, and every other topic but the
   * functions' (`help functions` lists those). A guest's index lists only the commands guests
   * may use; the others' help can still be read by name.
   */
  async index(reader: HelpReader): Promise<HelpIndex> {
    const locks = this.#commandLocks();
    const guestOnly = isGuest(reader.flags) ? this.#guestCommands() : null;
    const sections: Record<string, string[]> = {};
    const topics: string[] = [];
    for (const e of await this.all()) {
      if (!this.#visible(e, reader, locks) || isFunctionTopic(e.name)) continue;
      if (guestOnly && this.#isCommand(e, locks) && !guestOnly.has(e.name)) continue;
      (sections[e.section] ??= []).push(e.name);
      if (!this.#isCommand(e, locks)) topics.push(e.name);
    }
    return {
      sections: Object.fromEntries(
        Object.entries(sections).sort(([a], [b]) => a.localeCompare(b)),
      ),
      topics,
    };
  }

  /** Every visible topic, winners only, sorted by name. */
  async all(): Promise<HelpEntry[]> {
    await this.#fresh();
    return this.#allNow();
  }

  /** all() from the topics as last read. */
  #allNow(): HelpEntry[] {
    const merged = new Map<string, HelpEntry>();
    for (const [k, e] of this.#functionHelp().byName) merged.set(k, e);
    for (const [k, e] of this.#commandHelp().byName) merged.set(k, e);
    const off = this.#offNames();
    for (const [k, e] of this.#files) if (!off.has(k)) merged.set(k, e);
    for (const t of this.src.db.all()) merged.set(t.slug, this.#fromDb(t));
    return [...merged.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /**
   * In-game search among what `reader` may see: the exact slug, then with an `@` or `+` in
   * front, then as a function (`help add` finds `add()`), then a unique prefix of a topic name.
   */
  async find(typed: string, reader: HelpReader): Promise<FindResult> {
    await this.#fresh();
    return this.findNow(typed, reader);
  }

  /**
   * find() at once, from the topics as last read (softcode's textfile(), which cannot wait): a
   * help folder changed by a plugin's reload is read again behind it, for the next call.
   */
  findNow(typed: string, reader: HelpReader): FindResult {
    if (this.#indexedVersion !== this.src.registry.version) {
      this.reloadFiles().catch((e) => this.src.warn(`help files not read again: ${e}`));
    }
    const slug = toSlug(typed);
    if (!slug) return null;
    const locks = this.#commandLocks();
    for (const s of [slug, `@${slug}`, `+${slug}`, `${slug}()`]) {
      const e = toSlug(s) ? this.#getForNow(s, reader, locks) : null;
      if (e) return { entry: e };
    }
    const names = this.#allNow().filter((e) => this.#visible(e, reader, locks))
      .map((e) => e.name);
    const hits = names.filter((n) => n.startsWith(slug) || n.replace(/^[@+]/, "").startsWith(slug));
    if (hits.length === 1) return { entry: this.#getNow(hits[0])! };
    if (hits.length > 1) return { ambiguous: hits.slice(0, 20) };
    return null;
  }

  #fromDb(t: { slug: string; section: string; content: string }): HelpEntry {
    return {
      name: t.slug,
      section: t.section,
      content: t.content,
      source: "database",
      priority: PRIORITY.database,
      aliases: [],
    };
  }
}
