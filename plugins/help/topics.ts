/**
 * The merged view of the three help sources. On the same slug the higher
 * priority wins: database 100, files 50, command help 10. Files are indexed
 * once and re-indexed on `+help/reload` or when plugins add or drop help.
 */
import type { HelpRegistry } from "../../src/plugins/mod.ts";
import type { HelpDb } from "./store.ts";
import { type HelpFolder, readHelpFolder } from "./files.ts";
import { toSection, toSlug } from "./slug.ts";

/** Where a topic came from. */
export type HelpSource = "database" | "file" | "command";

/** Priority of each source. */
export const PRIORITY: Readonly<Record<HelpSource, number>> = {
  database: 100,
  file: 50,
  command: 10,
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
}

/** Sources of the merged view. */
export interface TopicSources {
  db: HelpDb;
  /** The game's own help folder (read first, so it wins over plugin files). */
  mainFolder: () => HelpFolder;
  registry: HelpRegistry;
  commands: () => readonly CommandHelp[];
  warn: (m: string) => void;
}

/** Result of an in-game search. */
export type FindResult = { entry: HelpEntry } | { ambiguous: string[] } | null;

/** The merged help topics. */
export class HelpTopics {
  #files = new Map<string, HelpEntry>();
  #fileAliases = new Map<string, string>();
  #indexedVersion = -1;
  #indexing: Promise<number> | null = null;

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

  /** The winning entry of a slug (exact names first, then aliases), or null. */
  async get(slug: string): Promise<HelpEntry | null> {
    await this.#fresh();
    const db = this.src.db.get(slug);
    if (db) return this.#fromDb(db);
    const file = this.#files.get(slug);
    if (file) return file;
    const commands = this.#commandHelp();
    const cmd = commands.byName.get(slug);
    if (cmd) return cmd;
    const viaAlias = this.#fileAliases.get(slug);
    if (viaAlias) return await this.get(viaAlias);
    const cmdAlias = commands.byAlias.get(slug);
    // A command alias leads to whichever source wins for the command's own name.
    return cmdAlias ? await this.get(cmdAlias.name) : null;
  }

  /** The entry a given source holds for a slug (ignoring priority), or null. */
  async fromSource(slug: string, source: HelpSource): Promise<HelpEntry | null> {
    await this.#fresh();
    if (source === "database") {
      const db = this.src.db.get(slug);
      return db ? this.#fromDb(db) : null;
    }
    if (source === "file") return this.#files.get(slug) ?? null;
    return this.#commandHelp().byName.get(slug) ?? null;
  }

  /** Every visible topic, winners only, sorted by name. */
  async all(): Promise<HelpEntry[]> {
    await this.#fresh();
    const merged = new Map<string, HelpEntry>();
    for (const [k, e] of this.#commandHelp().byName) merged.set(k, e);
    for (const [k, e] of this.#files) merged.set(k, e);
    for (const t of this.src.db.all()) merged.set(t.slug, this.#fromDb(t));
    return [...merged.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** `{ section: [topic names] }`, sections and names sorted. */
  async sections(): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const e of await this.all()) (out[e.section] ??= []).push(e.name);
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }

  /**
   * In-game search: the exact slug, then with an `@` or `+` in front, then a
   * unique prefix of a topic name.
   */
  async find(typed: string): Promise<FindResult> {
    const slug = toSlug(typed);
    if (!slug) return null;
    for (const s of [slug, `@${slug}`, `+${slug}`]) {
      const e = toSlug(s) ? await this.get(s) : null;
      if (e) return { entry: e };
    }
    const names = (await this.all()).map((e) => e.name);
    const hits = names.filter((n) => n.startsWith(slug) || n.replace(/^[@+]/, "").startsWith(slug));
    if (hits.length === 1) return { entry: (await this.get(hits[0]))! };
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
