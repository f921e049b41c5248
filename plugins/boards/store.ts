/**
 * Boards, posts and read state in the plugin's KV space. Permission checks live in the
 * service; this module only keeps the records and their indexes consistent.
 */
import {
  ConflictError,
  type Page,
  type PluginAtomic,
  type PluginKv,
} from "../../src/plugins/mod.ts";
import { boardKeys as K } from "./keys.ts";

/** A board as stored. */
export interface Board {
  /** The board's number as a string (`"3"`); never reused. */
  id: string;
  name: string;
  /** The name lower-cased with spaces as dashes; unique, never all digits. */
  slug: string;
  description: string;
  /** Lock expression a reader must pass ("" for everyone). */
  readLock: string;
  /** Lock expression a poster must pass, besides the read lock ("" for everyone). */
  postLock: string;
  createdAt: number;
  createdBy: string;
}

/** A post as stored. */
export interface Post {
  board: string;
  /** Per-board number, never reused after a delete. */
  num: number;
  subject: string;
  body: string;
  author: string;
  authorName: string;
  createdAt: number;
  editedAt: number | null;
}

/**
 * What one player has read of one board: every post numbered up to `hw` and each number in
 * `above` (all greater than `hw`, ascending). One value, so a read is one write.
 */
export interface ReadState {
  hw: number;
  above: number[];
}

/** Most boards a game holds (the list is read whole). */
export const MAX_BOARDS = 200;
/** Most read numbers kept above the high-water mark; beyond it the oldest are folded in. */
export const MAX_ABOVE = 1000;

const ONE = new Deno.KvU64(1n);
/** Adding 2^64 - 1 wraps around: a sum mutation that subtracts one. */
const MINUS_ONE = new Deno.KvU64(0xffff_ffff_ffff_ffffn);

/** True when `num` counts as read in `state`. */
export function isRead(state: ReadState | null, num: number): boolean {
  return !!state && (num <= state.hw || state.above.includes(num));
}

/** Persistent boards and posts. */
export class BoardStore {
  constructor(private readonly kv: PluginKv) {}

  /** Every board in creation order. */
  async boards(): Promise<Board[]> {
    return (await this.kv.page<Board>(K.allOrder(), { limit: MAX_BOARDS })).items;
  }

  /** True when the default boards were made (or the game had boards of its own before). */
  async seeded(): Promise<boolean> {
    return (await this.kv.get<boolean>(K.seeded())) === true;
  }

  /** Records that the default boards are done with. */
  async markSeeded(): Promise<void> {
    await this.kv.set(K.seeded(), true);
  }

  /** One board by id, or null. */
  board(id: string): Promise<Board | null> {
    return this.kv.get<Board>(K.board(id));
  }

  /** One board by slug, or null. */
  async boardBySlug(slug: string): Promise<Board | null> {
    const ref = await this.kv.get<Deno.KvKeyPart[]>(K.bySlug(slug));
    return ref ? await this.kv.get<Board>(ref) : null;
  }

  /** Creates a board with the next number; a taken slug is a ConflictError (409). */
  async createBoard(input: Omit<Board, "id">): Promise<Board> {
    // The order index alone answers how many there are: no board record is read.
    const count = (await this.kv.values(K.allOrder(), MAX_BOARDS)).length;
    if (count >= MAX_BOARDS) throw new ConflictError(`A game holds at most ${MAX_BOARDS} boards.`);
    if (await this.kv.get(K.bySlug(input.slug))) throw slugTaken(input.slug);
    let board: Board | null = null;
    await this.kv.next(K.boardCounter, async (n, op) => {
      board = { id: String(n), ...input };
      const slug = await this.kv.getEntry(K.bySlug(input.slug));
      if (slug.versionstamp) throw slugTaken(input.slug);
      op.check({ key: this.kv.key(...K.board(board.id)), versionstamp: null })
        .check(slug)
        .set(this.kv.key(...K.board(board.id)), board)
        .set(this.kv.key(...K.bySlug(input.slug)), K.board(board.id))
        .set(this.kv.key(...K.order(n)), K.board(board.id));
    });
    return board!;
  }

  /** Replaces a board's record (moving its slug index when the slug changed). */
  async updateBoard(before: Board, after: Board): Promise<Board> {
    const entry = await this.kv.getEntry<Board>(K.board(before.id));
    if (!entry.value) throw new ConflictError("The board changed; try again.");
    const op = this.kv.atomic().check(entry).set(this.kv.key(...K.board(after.id)), after);
    if (after.slug !== before.slug) {
      const taken = await this.kv.getEntry(K.bySlug(after.slug));
      if (taken.versionstamp) throw slugTaken(after.slug);
      op.check(taken)
        .delete(this.kv.key(...K.bySlug(before.slug)))
        .set(this.kv.key(...K.bySlug(after.slug)), K.board(after.id));
    }
    if (!(await op.commit()).ok) throw new ConflictError("The board changed; try again.");
    return after;
  }

  /** Drops what a removed player had read of every board (the boards are at most MAX_BOARDS). */
  async forgetReader(playerId: string): Promise<void> {
    const boards = await this.boards();
    for (let i = 0; i < boards.length; i += 50) {
      const op = this.kv.atomic();
      for (const b of boards.slice(i, i + 50)) op.delete(this.kv.key(...K.read(b.id, playerId)));
      await op.commit();
    }
  }

  /**
   * Deletes a board: first the record and its indexes (so no new post can land), then its
   * posts, post index, count, counter and everyone's read state.
   */
  async deleteBoard(board: Board): Promise<void> {
    await this.kv.atomic()
      .delete(this.kv.key(...K.board(board.id)))
      .delete(this.kv.key(...K.bySlug(board.slug)))
      .delete(this.kv.key(...K.order(Number(board.id))))
      .commit();
    await this.kv.deletePrefix(["post", board.id]);
    await this.kv.deletePrefix(K.postNums(board.id));
    await this.kv.deletePrefix(K.readOf(board.id));
    await this.kv.delete(K.postCount(board.id));
    await this.kv.delete(["counter", K.postCounter(board.id)]);
  }

  /** Post counts of several boards, in the same order. */
  async postCounts(boardIds: readonly string[]): Promise<number[]> {
    const vals = await this.kv.getMany<Deno.KvU64>(boardIds.map((id) => K.postCount(id)));
    return vals.map((v) => (v ? Number(v.value) : 0));
  }

  /** The highest post number a board ever gave out (0 before its first post). */
  async lastNumber(boardId: string): Promise<number> {
    return (await this.kv.get<number>(["counter", K.postCounter(boardId)])) ?? 0;
  }

  /**
   * Adds a post with the board's next number, in the same commit as its index entry and
   * count, and only while the board record is unchanged (a deleted board takes no post);
   * `reserve` adds to that commit.
   */
  async createPost(
    board: Board,
    input: Omit<Post, "board" | "num" | "createdAt" | "editedAt">,
    reserve?: (op: PluginAtomic) => Promise<void>,
  ): Promise<Post> {
    let post: Post | null = null;
    await this.kv.next(K.postCounter(board.id), async (n, op) => {
      const current = await this.kv.getEntry<Board>(K.board(board.id));
      if (!current.value) throw new ConflictError("The board is gone.");
      // The author's posts today on this board, in the same commit (may refuse).
      await reserve?.(op);
      post = { board: board.id, num: n, ...input, createdAt: Date.now(), editedAt: null };
      op.check(current)
        .check({ key: this.kv.key(...K.post(board.id, n)), versionstamp: null })
        .set(this.kv.key(...K.post(board.id, n)), post)
        .set(this.kv.key(...K.postNum(board.id, n)), n)
        .sum(this.kv.key(...K.postCount(board.id)), ONE.value);
    });
    return post!;
  }

  /** One post, or null. */
  post(boardId: string, num: number): Promise<Post | null> {
    return this.kv.get<Post>(K.post(boardId, num));
  }

  /** One page of a board's posts, oldest first, cut from the number index. */
  posts(boardId: string, page: Page): Promise<Post[]> {
    return this.kv.slicePage<Post>(K.postNums(boardId), page, {
      record: (n) => K.post(boardId, n as number),
    });
  }

  /** Numbers of a board's posts above `after`, ascending, at most `limit`. */
  async numbersAfter(boardId: string, after: number, limit = 10_000): Promise<number[]> {
    const out: number[] = [];
    const iter = this.kv.range<number>(
      K.postNum(boardId, after + 1),
      K.postNum(boardId, Number.MAX_SAFE_INTEGER),
      { limit, batchSize: 500 },
    );
    for await (const e of iter) out.push(e.value);
    return out;
  }

  /** Replaces a post's record (checked against what was read). */
  async updatePost(post: Post): Promise<Post> {
    const entry = await this.kv.getEntry<Post>(K.post(post.board, post.num));
    if (!entry.value) throw new ConflictError("The post is gone.");
    const ok = await this.kv.atomic().check(entry)
      .set(this.kv.key(...K.post(post.board, post.num)), post).commit();
    if (!ok.ok) throw new ConflictError("The post changed; try again.");
    return post;
  }

  /** Deletes a post, its index entry and one from the count (its number stays used). */
  async deletePost(post: Post): Promise<void> {
    const entry = await this.kv.getEntry<Post>(K.post(post.board, post.num));
    if (!entry.value) return;
    await this.kv.atomic().check(entry)
      .delete(this.kv.key(...K.post(post.board, post.num)))
      .delete(this.kv.key(...K.postNum(post.board, post.num)))
      .sum(this.kv.key(...K.postCount(post.board)), MINUS_ONE.value)
      .commit();
  }

  /** Read states of one player on several boards, in the same order. */
  readStates(boardIds: readonly string[], playerId: string): Promise<(ReadState | null)[]> {
    return this.kv.getMany<ReadState>(boardIds.map((b) => K.read(b, playerId)));
  }

  /**
   * Unread posts of a board for a read state: with no state, every post; otherwise the posts
   * above the high-water mark that are not in `above` (a walk over index keys only).
   */
  async unread(
    boardId: string,
    state: ReadState | null,
    total: number,
  ): Promise<number[] | number> {
    if (!state) return total;
    const nums = await this.numbersAfter(boardId, state.hw);
    return nums.filter((n) => !state.above.includes(n));
  }

  /**
   * Marks post `num` read: no write when it already is; otherwise one checked write of the
   * new state, with the high-water mark moved over every read (or deleted) number after it.
   */
  async markRead(boardId: string, playerId: string, num: number): Promise<void> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const entry = await this.kv.getEntry<ReadState>(K.read(boardId, playerId));
      if (isRead(entry.value, num)) return;
      const state = entry.value ?? { hw: 0, above: [] };
      const above = [...state.above, num].sort((a, b) => a - b);
      const next = await this.#advance(boardId, { hw: state.hw, above });
      const ok = await this.kv.atomic().check(entry)
        .set(this.kv.key(...K.read(boardId, playerId)), next).commit();
      if (ok.ok) return;
    }
    throw new ConflictError("Too many reads at once; try again.");
  }

  /** Marks a whole board read: one write setting the mark at the last number given out. */
  async markBoardRead(boardId: string, playerId: string): Promise<void> {
    const hw = await this.lastNumber(boardId);
    await this.kv.set(K.read(boardId, playerId), { hw, above: [] } satisfies ReadState);
  }

  /**
   * Moves the high-water mark over the posts that exist and are read, skipping numbers that
   * no longer exist, until the first unread post; keeps `above` within MAX_ABOVE.
   */
  async #advance(boardId: string, state: ReadState): Promise<ReadState> {
    let hw = state.hw;
    const read = new Set(state.above);
    const existing = this.kv.range<number>(
      K.postNum(boardId, hw + 1),
      K.postNum(boardId, Number.MAX_SAFE_INTEGER),
      { limit: state.above.length + 1 },
    );
    let stopped = false;
    for await (const e of existing) {
      if (!read.has(e.value)) {
        stopped = true;
        break;
      }
      hw = e.value;
    }
    // Every existing post above the mark is read: nothing below the highest read stays unread.
    if (!stopped && state.above.length) hw = Math.max(hw, state.above[state.above.length - 1]);
    let above = state.above.filter((n) => n > hw);
    if (above.length > MAX_ABOVE) {
      // Folding the oldest in marks the few unread posts between them read; documented.
      hw = above[above.length - MAX_ABOVE - 1];
      above = above.slice(-MAX_ABOVE);
    }
    return { hw, above };
  }
}

function slugTaken(slug: string): ConflictError {
  return new ConflictError(`A board named '${slug}' already exists.`);
}
