/**
 * How many lines Discord users may send into the game: a sliding count per user and one for
 * all of them, over one window. The per-user map is bounded: the users idle longest go first.
 */

/** The most Discord users remembered at once. */
const MAX_USERS = 5000;

/** A per-user and total line limit. */
export class LineLimiter {
  readonly #users = new Map<string, number[]>();
  #all: number[] = [];

  constructor(
    private readonly perUser: () => number,
    private readonly total: () => number,
    private readonly windowMs: () => number,
    private readonly now: () => number = Date.now,
  ) {}

  /** True (and counted) when `user` may send a line now. */
  take(user: string): boolean {
    const now = this.now();
    const since = now - this.windowMs();
    this.#all = this.#all.filter((t) => t > since);
    const mine = (this.#users.get(user) ?? []).filter((t) => t > since);
    if (mine.length >= this.perUser() || this.#all.length >= this.total()) {
      this.#touch(user, mine);
      return false;
    }
    mine.push(now);
    this.#all.push(now);
    this.#touch(user, mine);
    return true;
  }

  #touch(user: string, times: number[]): void {
    this.#users.delete(user);
    if (!times.length) return;
    this.#users.set(user, times);
    if (this.#users.size > MAX_USERS) this.#users.delete(this.#users.keys().next().value!);
  }
}
