/**
 * The game's news (MUX's `news`, its news.txt): topics in the game's `server.newsDir`, one file
 * a topic in the help files' format (Markdown or text, optional front matter), read at start and
 * on `+help/reload`, never per command.
 */
import { type HelpFolder, readHelpFolder } from "./files.ts";
import { toSlug } from "./slug.ts";

/** One news topic. */
export interface NewsTopic {
  name: string;
  content: string;
}

/** What `news <topic>` finds: the topic, the names that match the typed text, or nothing. */
export type NewsFound = { topic: NewsTopic } | { matches: string[] } | null;

/** Most names listed for a typed text that names no topic. */
const MAX_MATCHES = 50;

/** The news topics of a game, held in memory. */
export class NewsTopics {
  #topics = new Map<string, NewsTopic>();
  #aliases = new Map<string, string>();

  constructor(
    private readonly folder: () => HelpFolder,
    private readonly warn: (m: string) => void,
  ) {}

  /** Re-reads the news folder (absent: no news); returns how many topics there are. */
  async reload(): Promise<number> {
    const topics = new Map<string, NewsTopic>();
    const aliases = new Map<string, string>();
    for (const t of await readHelpFolder(this.folder(), this.warn)) {
      if (topics.has(t.slug)) continue;
      topics.set(t.slug, { name: t.slug, content: t.content });
      for (const a of t.aliases) if (!aliases.has(a)) aliases.set(a, t.slug);
    }
    this.#topics = topics;
    this.#aliases = aliases;
    return topics.size;
  }

  /**
   * A topic by name or alias, else the one whose name starts with the typed text; several such
   * names are listed (as MUX lists the entries a pattern matches), none is null.
   */
  find(typed: string): NewsFound {
    const slug = toSlug(typed);
    if (!slug) return null;
    const exact = this.#topics.get(slug) ?? this.#topics.get(this.#aliases.get(slug) ?? "");
    if (exact) return { topic: exact };
    const hits = [...this.#topics.keys()].filter((n) => n.startsWith(slug)).sort();
    if (hits.length === 1) return { topic: this.#topics.get(hits[0])! };
    return hits.length ? { matches: hits.slice(0, MAX_MATCHES) } : null;
  }
}
