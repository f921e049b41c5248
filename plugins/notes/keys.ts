/**
 * The notes plugin's keys, relative to its own KV space (`ctx.kv` adds the
 * `["plugin", "notes"]` prefix). One key per note plus an index by author.
 */
export const noteKeys = {
  /** A note by id. */
  note: (id: string) => ["note", id],
  /** Author index entry: numeric id part keeps the index in creation order. */
  byAuthor: (author: string, n: number) => ["by_author", author, n],
  /** Prefix of one author's index. */
  ofAuthor: (author: string) => ["by_author", author],
  /** Counter that numbers notes. */
  counter: "note",
};
