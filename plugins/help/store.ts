/** Help topics written in game or over REST, kept in KV and cached in memory. */
import { type PluginKv, ValidationError } from "../../src/plugins/mod.ts";
import { helpKeys } from "./keys.ts";

/** A database help topic. */
export interface DbTopic {
  slug: string;
  section: string;
  content: string;
  updatedAt: number;
  /** Player id of the last writer. */
  updatedBy: string;
}

/**
 * Longest database topic, in characters (UTF-16 units). A topic is one KV value, which
 * must stay under 64 KiB; a string holding any character beyond Latin-1 is stored at two
 * bytes per unit, so 30 000 units is the most that always fits.
 */
export const MAX_CONTENT = 30_000;

/** Most database topics loaded (each is its own key). */
const MAX_TOPICS = 10_000;

/** The database source: every topic is read once at start, then served from memory. */
export class HelpDb {
  readonly #cache = new Map<string, DbTopic>();

  constructor(private readonly kv: PluginKv) {}

  /** Loads every topic into memory. */
  async load(): Promise<void> {
    this.#cache.clear();
    for await (const e of this.kv.list<DbTopic>(helpKeys.topics(), { limit: MAX_TOPICS })) {
      if (e.value?.slug) this.#cache.set(e.value.slug, e.value);
    }
  }

  /** One topic, or undefined. */
  get(slug: string): DbTopic | undefined {
    return this.#cache.get(slug);
  }

  /** Every topic. */
  all(): DbTopic[] {
    return [...this.#cache.values()];
  }

  /** Creates or replaces a topic; true when it was new. */
  async set(topic: DbTopic): Promise<boolean> {
    if (topic.content.length > MAX_CONTENT) {
      throw new ValidationError(`content must be ${MAX_CONTENT} characters or fewer`);
    }
    const created = !this.#cache.has(topic.slug);
    await this.kv.set(helpKeys.topic(topic.slug), topic);
    this.#cache.set(topic.slug, topic);
    return created;
  }

  /** Deletes a topic; false when there was none. */
  async delete(slug: string): Promise<boolean> {
    if (!this.#cache.has(slug)) return false;
    await this.kv.delete(helpKeys.topic(slug));
    this.#cache.delete(slug);
    return true;
  }
}
