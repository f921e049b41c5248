/**
 * Closed-loop pacing of one telnet player's lines to the hub.
 *
 * The hub drops a player's commands beyond 10 in any second, counted when they arrive. Pacing by
 * send time alone is not enough: when the engine stalls (a loaded machine, a just-started engine,
 * a long garbage collection) lines sent a second apart are read together and the excess is lost
 * without a word. So a line counts against the window until the hub has provably read it: a batch
 * is followed by a `ping` frame with an id, and the `pong` with that id confirms every frame sent
 * before it. A confirmed frame counts from the moment its pong arrived (no earlier than the hub
 * read it); an unconfirmed one counts as if it arrived just now. Pings count too: the hub counts
 * them against the same limit.
 *
 * A ping the hub dropped (the player's other connections used up the limit) is asked again after
 * `retryMs`, even over the budget: the worst an extra ping can cost is itself being dropped. A hub
 * that never answers pings at all (an older engine) makes the connection fall back, after
 * `giveUpMs`, to pacing by send time.
 */

/** Settings for {@linkcode HubPacer}. */
export interface PacerOptions {
  /** Frames (lines and pings) the hub may read from this connection in any window. */
  perWindow: number;
  /** Length of the hub's rate window in ms (default 1000). */
  windowMs?: number;
  /** A ping unanswered this long while lines wait is asked again (default 3000 ms). */
  retryMs?: number;
  /** Without any pong this long, pace by send time instead (default 10 000 ms). */
  giveUpMs?: number;
}

/** Extra wait past the window, for clock rounding between our process and the engine's. */
const MARGIN_MS = 5;

/** The pacing state of one hub connection (pure: the caller supplies the clock). */
export class HubPacer {
  readonly #perWindow: number;
  readonly #windowMs: number;
  readonly #retryMs: number;
  readonly #giveUpMs: number;
  /** When confirmed frames were confirmed (or, blind, sent), oldest first; about `perWindow`. */
  #confirmed: number[] = [];
  /** Pings without a pong yet, oldest first, with the frames each confirms (itself included). */
  #pings: { id: number; frames: number; at: number }[] = [];
  /** Frames sent and not yet confirmed. */
  #unconfirmed = 0;
  /** Lines sent since the last ping. */
  #uncovered = 0;
  /** Ids only grow, so a late pong from a lost connection never confirms newer frames. */
  #nextId = 1;
  /** Pongs seen on this connection. */
  #pongs = 0;
  /** The hub does not answer pings: lines count from when they were sent. */
  #blind = false;

  constructor(opts: PacerOptions) {
    this.#perWindow = Math.max(2, Math.floor(opts.perWindow));
    this.#windowMs = opts.windowMs ?? 1000;
    this.#retryMs = opts.retryMs ?? 3000;
    this.#giveUpMs = opts.giveUpMs ?? 10_000;
  }

  /** Frames that may count in the hub's window right now. */
  #used(now: number): number {
    const cutoff = now - this.#windowMs - MARGIN_MS;
    while (this.#confirmed.length > 0 && this.#confirmed[0] <= cutoff) this.#confirmed.shift();
    return this.#confirmed.length + this.#unconfirmed;
  }

  /** True when a line may be sent now, leaving room for the ping that confirms it. */
  mayShip(now: number): boolean {
    return this.#used(now) + (this.#blind ? 1 : 2) <= this.#perWindow;
  }

  /** Records one line sent. */
  shipped(now: number): void {
    if (this.#blind) {
      this.#confirmed.push(now);
      return;
    }
    this.#unconfirmed++;
    this.#uncovered++;
  }

  /**
   * The id of a ping to send now, or null. One ping is in flight at a time; it follows lines no
   * ping covers yet, or repeats one unanswered for `retryMs` while lines wait (a ping the hub
   * dropped because the player's other connections used up the limit).
   */
  ping(now: number, linesWaiting: boolean): number | null {
    if (this.#blind) return null;
    const oldest = this.#pings[0];
    if (oldest !== undefined && this.#pongs === 0 && now - oldest.at >= this.#giveUpMs) {
      this.#goBlind(now);
      return null;
    }
    const newest = this.#pings[this.#pings.length - 1];
    const stale = newest !== undefined && now - newest.at >= this.#retryMs;
    if (newest !== undefined && !stale) return null;
    if (this.#uncovered === 0 && !(stale && linesWaiting)) return null;
    if (!stale && this.#used(now) + 1 > this.#perWindow) return null;
    const id = this.#nextId++;
    this.#pings.push({ id, frames: this.#uncovered + 1, at: now });
    this.#unconfirmed++;
    this.#uncovered = 0;
    return id;
  }

  /**
   * A pong arrived: every frame sent before ping `id` has been read by the hub. Without an id
   * (an engine that does not echo it) it confirms the oldest ping: pongs come in order, so that
   * much is certain.
   */
  pong(id: number | null, now: number): void {
    this.#pongs++;
    while (this.#pings.length > 0 && (id === null || this.#pings[0].id <= id)) {
      const p = this.#pings.shift()!;
      this.#unconfirmed -= p.frames;
      for (let i = 0; i < p.frames; i++) this.#confirmed.push(now);
      if (id === null) return;
    }
  }

  /**
   * Ms until time alone may let more go (a frame leaves the window, or a ping is due again);
   * null when only a pong can help.
   */
  wait(now: number): number | null {
    let at = Infinity;
    this.#used(now);
    if (this.#confirmed.length > 0) at = this.#confirmed[0] + this.#windowMs + MARGIN_MS;
    const newest = this.#pings[this.#pings.length - 1];
    if (newest !== undefined) at = Math.min(at, newest.at + this.#retryMs);
    const oldest = this.#pings[0];
    if (oldest !== undefined && this.#pongs === 0) at = Math.min(at, oldest.at + this.#giveUpMs);
    return at === Infinity ? null : Math.max(1, Math.ceil(at - now));
  }

  /** The connection to the hub was lost: what was unconfirmed counts as read just now. */
  reset(now: number): void {
    this.#confirmAll(now);
    // The next connection may reach an engine that does answer pings.
    this.#pongs = 0;
    this.#blind = false;
  }

  #goBlind(now: number): void {
    this.#confirmAll(now);
    this.#blind = true;
  }

  #confirmAll(now: number): void {
    for (let i = 0; i < this.#unconfirmed; i++) this.#confirmed.push(now);
    this.#unconfirmed = 0;
    this.#uncovered = 0;
    this.#pings = [];
  }
}
