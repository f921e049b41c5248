/** The help plugin's keys, relative to its KV space (`["plugin", "help", ...]`). */
export const helpKeys = {
  /** A database topic by slug. */
  topic: (slug: string) => ["topic", slug],
  /** Prefix of every database topic. */
  topics: () => ["topic"],
};
