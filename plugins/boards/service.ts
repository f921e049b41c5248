/**
 * The boards' rules, shared by REST and the in-game commands: who sees and posts where
 * (read and post locks; staff pass every lock), names and slugs, limits, unread counts,
 * and telling online readers of a new post.
 */
import {
  counted,
  type DbObject,
  type Delivery,
  ForbiddenError,
  isStaff,
  NotFoundError,
  type NoticeBatch,
  type NoticeOptions,
  type PlayerLookup,
  type PluginNotices,
  type PluginQuota,
  type PluginWorld,
  requiredText,
  stripColour,
  ValidationError,
  validLock,
} from "../../src/plugins/mod.ts";
import { type Board, type BoardStore, isRead, type Post, type ReadState } from "./store.ts";

/** Longest board name, in characters. */
export const MAX_NAME = 32;
/** Longest board description. */
export const MAX_DESCRIPTION = 500;
/** Longest post subject. */
export const MAX_SUBJECT = 100;
/** Longest post body. */
export const MAX_BODY = 8000;
/** Default of `plugins.boards.postsPerDay`: posts one player makes on one board a day. */
export const DEFAULT_POSTS_PER_DAY = 25;

/** A board with the caller's counts, as lists show it. */
export interface BoardView {
  id: string;
  name: string;
  slug: string;
  description: string;
  posts: number;
  unread: number;
  /** Locks are shown to staff only. */
  readLock?: string;
  postLock?: string;
  createdAt: number;
}

/** A post with whether the caller has read it. */
export interface PostView extends Post {
  read: boolean;
}

/** The slug of a name: trimmed, lower-cased, runs of spaces as one dash. */
export function slugOf(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, "-");
}

/** A board name checked and trimmed; its slug is never all digits (those address ids). */
export function checkName(raw: unknown): { name: string; slug: string } {
  if (typeof raw !== "string" || !raw.trim()) throw new ValidationError("name is required");
  const name = raw.trim().replace(/\s+/g, " ");
  if (name.length > MAX_NAME) {
    throw new ValidationError(`name must be ${MAX_NAME} characters or fewer`);
  }
  if (!/^[A-Za-z0-9][A-Za-z0-9 _'.-]*$/.test(name)) {
    throw new ValidationError(
      "name must start with a letter or digit and hold only letters, digits, spaces, _ ' . -",
    );
  }
  const slug = slugOf(name);
  // `/boards/unread` is the unread summary, so no board may take that slug.
  if (slug === "unread") throw new ValidationError("name 'unread' is reserved");
  if (/^[0-9]+$/.test(slug)) {
    throw new ValidationError("name must not be only digits (board numbers use them)");
  }
  return { name, slug };
}

/**
 * A lock field of the game's configuration: a string that parses as a lock ("" for none); names
 * no object by name (no one sets it to see from: boards set in game or REST take names, lockAs).
 */
export function lockField(raw: unknown, field: string): string {
  if (typeof raw !== "string") throw new ValidationError(`${field} must be a string`);
  try {
    return validLock(raw);
  } catch (e) {
    throw new ValidationError(`${field}: ${(e as Error).message}`);
  }
}

/** What the service needs of the engine. */
export interface BoardDeps {
  store: BoardStore;
  deliver: Delivery;
  players: PlayerLookup;
  world: Pick<PluginWorld, "getMany" | "owningPlayer" | "passes" | "settableLock">;
  /** Posts per player, board and day (staff are not held to it). */
  postsPerDay: PluginQuota;
  /** Collapsing notices (`ctx.notices`): one line per board a minute, however many posts. */
  notices(opts: NoticeOptions<Post>): PluginNotices<Post>;
}

/** Board rules over a store. */
export class BoardService {
  readonly #news: PluginNotices<Post>;

  constructor(private readonly d: BoardDeps) {
    this.#news = d.notices({ deliver: (b) => this.#announce(b) });
  }

  get store(): BoardStore {
    return this.d.store;
  }

  /**
   * A lock `actor` sets on a board (`field` names it in a refusal): `@lock`'s keys, names as the
   * actor sees them turned into dbrefs (PluginWorld.settableLock); "" for none.
   */
  async lockAs(actor: DbObject, raw: unknown, field: string): Promise<string> {
    try {
      return await this.d.world.settableLock(actor, raw as string);
    } catch (e) {
      if (e instanceof ValidationError) throw new ValidationError(`${field}: ${e.message}`);
      throw e;
    }
  }

  /** True when `p` may read `board` (staff always may). */
  canRead(board: Board, p: DbObject): boolean {
    return isStaff(p.flags) || this.d.world.passes(board.readLock, subject(p));
  }

  /** True when `p` may post on `board`: reads it and passes the post lock (staff always may). */
  canPost(board: Board, p: DbObject): boolean {
    return isStaff(p.flags) ||
      (this.d.world.passes(board.readLock, subject(p)) &&
        this.d.world.passes(board.postLock, subject(p)));
  }

  /** True when `p` may change or remove `post`: its author or staff. */
  canChange(post: Post, p: DbObject): boolean {
    return post.author === p.id || isStaff(p.flags);
  }

  /** The boards `p` may read, in order. */
  async visible(p: DbObject): Promise<Board[]> {
    return (await this.d.store.boards()).filter((b) => this.canRead(b, p));
  }

  /**
   * A board by id (all digits) or by name/slug that `p` may read; 404 otherwise (a board the
   * caller may not read does not exist for them).
   */
  async find(ref: string, p: DbObject): Promise<Board> {
    const r = String(ref ?? "").trim().replace(/^#/, "");
    let board: Board | null = null;
    if (/^[0-9]{1,15}$/.test(r)) board = await this.d.store.board(String(Number(r)));
    else if (r && r.length <= 200) board = await this.d.store.boardBySlug(slugOf(r));
    if (!board || !this.canRead(board, p)) throw new NotFoundError("Board not found");
    return board;
  }

  /** A post of a readable board; 404 when either is missing. */
  async findPost(board: Board, rawNum: string): Promise<Post> {
    const n = postNumber(rawNum);
    const post = n === null ? null : await this.d.store.post(board.id, n);
    if (!post) throw new NotFoundError("Post not found");
    return post;
  }

  /** Boards with post and unread counts for `p`. */
  async views(boards: Board[], p: DbObject): Promise<BoardView[]> {
    const ids = boards.map((b) => b.id);
    const [counts, states] = await Promise.all([
      this.d.store.postCounts(ids),
      this.d.store.readStates(ids, p.id),
    ]);
    const staff = isStaff(p.flags);
    return await Promise.all(boards.map(async (b, i) => {
      const unread = await this.d.store.unread(b.id, states[i], counts[i]);
      return {
        id: b.id,
        name: b.name,
        slug: b.slug,
        description: b.description,
        posts: counts[i],
        unread: typeof unread === "number" ? unread : unread.length,
        ...(staff ? { readLock: b.readLock, postLock: b.postLock } : {}),
        createdAt: b.createdAt,
      };
    }));
  }

  /** The unread post numbers of one board for `p`, ascending, at most `limit`. */
  async unreadNumbers(board: Board, p: DbObject, limit = 10_000): Promise<number[]> {
    const [state] = await this.d.store.readStates([board.id], p.id);
    if (!state) return await this.d.store.numbersAfter(board.id, 0, limit);
    // Read numbers above the mark come first in the walk, so these many cover `limit` unread.
    const nums = await this.d.store.numbersAfter(board.id, state.hw, state.above.length + limit);
    return nums.filter((n) => !state.above.includes(n)).slice(0, limit);
  }

  /** Posts with their read mark for `p`. */
  async postViews(board: Board, posts: Post[], p: DbObject): Promise<PostView[]> {
    const [state] = await this.d.store.readStates([board.id], p.id);
    return posts.map((x) => withRead(x, state));
  }

  /** Posts on a board after the checks; tells online readers (but the author). */
  async post(board: Board, p: DbObject, subjectRaw: unknown, bodyRaw: unknown): Promise<Post> {
    if (!this.canPost(board, p)) throw new ForbiddenError("You may not post on that board.");
    const subjectText = requiredText(subjectRaw, "subject", MAX_SUBJECT, { oneLine: true });
    const body = requiredText(bodyRaw, "body", MAX_BODY);
    // A thing's posts are its owning player's to count (MUX's Owner(), as its objects and mail
    // are): counted as its own, each of a player's thousand things had the day's posts of a board.
    const payer = await this.#owner(p);
    const post = await this.d.store.createPost(
      board,
      { subject: subjectText, body, author: p.id, authorName: p.name },
      (op) =>
        this.d.postsPerDay.take(op, payer.id, { scope: board.id, exempt: isStaff(payer.flags) }),
    );
    // The author has read what they wrote.
    await this.d.store.markRead(board.id, p.id, post.num);
    await this.#news.add(board.id, post);
    return post;
  }

  /** `p` when it is a player, else the player owning it (refused when there is none). */
  async #owner(p: DbObject): Promise<DbObject> {
    const owner = await this.d.world.owningPlayer(p);
    if (!owner) throw new ForbiddenError("Only an object with an owner may post.");
    return owner;
  }

  /** Reads a post for `p`: marks it read (one write at most). */
  async read(board: Board, post: Post, p: DbObject): Promise<PostView> {
    await this.d.store.markRead(board.id, p.id, post.num);
    return { ...post, read: true };
  }

  /**
   * Tells every online player who may read the board of new posts: the first of a burst alone
   * (not to its author), then the rest of each minute in one line.
   */
  async #announce(batch: NoticeBatch<Post>): Promise<void> {
    const last = batch.items[batch.items.length - 1];
    const board = await this.d.store.board(last.board);
    if (!board) return;
    const authors = new Set(batch.items.map((x) => x.author));
    // Nobody is told of only their own posts.
    const mine = authors.size === 1 && batch.count === batch.items.length ? last.author : null;
    const online = this.d.players.online().filter((id) => id !== mine);
    if (!online.length) return;
    const readers = (await this.d.world.getMany(online))
      .filter((o) => this.canRead(board, o)).map((o) => o.id);
    if (!readers.length) return;
    const by = stripColour(last.authorName);
    const msg = batch.first
      ? `%ch(New BB message (${board.id}/${last.num}) posted to '${board.name}' by ${by}: ${last.subject})%cn`
      : `%ch(${counted(batch.count, "more new BB message")} posted to '${board.name}' ` +
        `up to ${board.id}/${last.num}, the latest by ${by}: ${last.subject})%cn`;
    this.d.deliver.toPlayers(readers, {
      msg,
      data: {
        type: "bbpost",
        board: board.id,
        boardName: board.name,
        num: last.num,
        subject: last.subject,
        author: last.author,
        authorName: last.authorName,
        count: batch.count,
      },
    });
  }
}

/** A post number from text, or null. */
export function postNumber(raw: string): number | null {
  const r = String(raw ?? "").trim();
  if (!/^[0-9]{1,15}$/.test(r)) return null;
  const n = Number(r);
  return n >= 1 ? n : null;
}

/** A post with its read mark. */
export function withRead(post: Post, state: ReadState | null): PostView {
  return { ...post, read: isRead(state, post.num) };
}

function subject(p: DbObject) {
  // An acting caller counts as connected (REST callers too): a board lock is about who.
  return { id: `#${p.id}`, flags: p.flags, connected: true };
}
