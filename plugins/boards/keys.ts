/**
 * The boards plugin's keys, relative to its own KV space (`ctx.kv` adds
 * `["plugin", "boards"]`). Boards and their posts are numbered; every index holds a
 * record key, never a copy.
 */
export const boardKeys = {
  /** A board by id (its number, as a string). */
  board: (id: string) => ["board", id],
  /** Unique index: a board's slug → its record key. */
  bySlug: (slug: string) => ["board_slug", slug],
  /** Every board in creation order: id number → record key. */
  order: (n: number) => ["board_order", n],
  /** Prefix of the board order index. */
  allOrder: () => ["board_order"],
  /** Counter that numbers boards. */
  boardCounter: "board",
  /** Counter that numbers a board's posts (never reset, so numbers are never reused). */
  postCounter: (boardId: string) => `post-${boardId}`,
  /** A post by board and number. */
  post: (boardId: string, num: number) => ["post", boardId, num],
  /** Index of a board's posts in number order: number → number (small values for paging). */
  postNum: (boardId: string, num: number) => ["post_num", boardId, num],
  /** Prefix of a board's post index. */
  postNums: (boardId: string) => ["post_num", boardId],
  /** How many posts a board holds (a KvU64 kept by sum mutations). */
  postCount: (boardId: string) => ["post_count", boardId],
  /** What one player has read of one board (see docs/boards.md). */
  read: (boardId: string, playerId: string) => ["read", boardId, playerId],
  /** Prefix of every player's read state of one board. */
  readOf: (boardId: string) => ["read", boardId],
  /** Set once a game's boards were first looked at, so a destroyed default stays destroyed. */
  seeded: () => ["seeded"],
};
