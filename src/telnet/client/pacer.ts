/**
 * Closed-loop pacing of one telnet player's lines to the hub.
 *
 * The hub drops a player's commands beyond 10 in any second, counted when they arrive. Pacing by
 * send time alone is not enough: when the engine stalls (a loaded machine, a just-started engine,
 * a long garbage collection) lines sent a second apart are read together and the excess is lost
 * without a word. So a line counts against the window until the hub has provably read it: each
 * line goes out as `{"msg": ..., "ack": id}` and the hub answers `ack` with that id as it reads the
 * frame, which confirms that frame and every earlier one (the telnet players the engine serves
 * hand the hub the line itself, and the call's answer is the acknowledgement:
 * src/hub/carriers/telnet.ts). A confirmed frame counts from the moment its confirmation arrived
 * (no earlier than the hub read it); an unconfirmed one counts as if it arrived just now, for as
 * long as it stays unconfirmed.
 *
 * Confirmations can be missing: the hub does not answer a frame it dropped (the player's other
 * connections used up the limit), and an older engine answers none. While lines wait and the
 * newest frame has gone unconfirmed for `retryMs`, a `ping` with an id asks again (even over the
 * budget: this hub bounds pings apart from commands, so the worst an extra ping costs is itself
 * being dropped). Pings still count in this window, since an older hub counts them as commands.
 * A hub that confirms nothing at all within `giveUpMs` makes the connection fall back to pacing
 * by send time.
 */

/** Settings for {@linkcode HubPacer}. */
export interface PacerOptions {
  /** Frames the hub may read from this connection in any window. */
  perWindow: number;
  /** Length of the hub's rate window in ms (default 1000). */
  windowMs?: number;
  /** Unconfirmed this long while lines wait, a ping asks again (default 3000 ms). */
  retryMs?: number;
  /** Without any confirmation this long, pace by send time instead (default 10 000 ms). */
  giveUpMs?: number;
}

/** Extra wait past the window, for clock rounding between our process and the engine's. */
const MARGIN_MS = 5;

/** A frame sent and not yet confirmed. */
interface Sent {
  id: number;
  ping: boolean;
  at: number;
}

/** The pacing state of one hub connection (pure: the caller supplies the clock). */
export class HubPacer {
  readonly #perWindow: number;
  readonly #windowMs: number;
  readonly #retryMs: number;
  readonly #giveUpMs: number;
  /** When confirmed frames were confirmed (or, blind, sent), oldest first. */
  #confirmed: number[] = [];
  /** Frames sent and not yet confirmed, oldest first. */
  #out: Sent[] = [];
  /** Ids only grow, so a late answer from a lost connection never confirms newer frames. */
  #nextId = 1;
  /** Some confirmation has arrived on this connection. */
  #heard = false;
  /** The hub confirms nothing: lines count from when they were sent. */
  #blind = false;

  constructor(opts: PacerOptions) {
    this.#perWindow = Math.max(1, Math.floor(opts.perWindow));
    this.#windowMs = opts.windowMs ?? 1000;
    this.#retryMs = opts.retryMs ?? 3000;
    this.#giveUpMs = opts.giveUpMs ?? 10_000;
  }

  /** Frames that may count in the hub's window right now. */
  #used(now: number): number {
    const cutoff = now - this.#windowMs - MARGIN_MS;
    while (this.#confirmed.length > 0 && this.#confirmed[0] <= cutoff) this.#confirmed.shift();
    return this.#confirmed.length + this.#out.length;
  }

  /** True when a line may be sent now. */
  mayShip(now: number): boolean {
    return this.#used(now) < this.#perWindow;
  }

  /** Records one line sent; returns the `ack` id to send with it (null: send it without). */
  ship(now: number): number | null {
    if (this.#blind) {
      this.#confirmed.push(now);
      return null;
    }
    const id = this.#nextId++;
    this.#out.push({ id, ping: false, at: now });
    return id;
  }

  /**
   * The id of a ping to send now, or null: only while lines wait, when the newest frame has gone
   * unconfirmed for `retryMs`. Gives up on confirmations after `giveUpMs` without any.
   */
  ping(now: number, linesWaiting: boolean): number | null {
    const oldest = this.#out[0];
    if (this.#blind || oldest === undefined || !linesWaiting) return null;
    if (!this.#heard && now - oldest.at >= this.#giveUpMs) {
      this.#confirmAll(now);
      this.#blind = true;
      return null;
    }
    if (now - this.#out[this.#out.length - 1].at < this.#retryMs) return null;
    const id = this.#nextId++;
    this.#out.push({ id, ping: true, at: now });
    return id;
  }

  /**
   * The hub read frame `id` (its `ack` or `pong`): that frame and every earlier one are read.
   * A pong without an id (an engine that does not echo it) confirms the oldest ping and what was
   * sent before it: answers come in order, so that much is certain.
   */
  confirm(id: number | null, now: number): void {
    this.#heard = true;
    const upTo = id ?? this.#out.find((s) => s.ping)?.id;
    if (upTo === undefined) return;
    while (this.#out.length > 0 && this.#out[0].id <= upTo) {
      this.#out.shift();
      this.#confirmed.push(now);
    }
  }

  /**
   * Ms until time alone may let more go (a frame leaves the window, a ping or the give-up is
   * due); null when only a confirmation can help.
   */
  wait(now: number): number | null {
    let at = Infinity;
    this.#used(now);
    if (this.#confirmed.length > 0) at = this.#confirmed[0] + this.#windowMs + MARGIN_MS;
    const oldest = this.#out[0];
    if (oldest !== undefined && !this.#blind) {
      at = Math.min(at, this.#out[this.#out.length - 1].at + this.#retryMs);
      if (!this.#heard) at = Math.min(at, oldest.at + this.#giveUpMs);
    }
    return at === Infinity ? null : Math.max(1, Math.ceil(at - now));
  }

  /** The connection to the hub was lost: what was unconfirmed counts as read just now. */
  reset(now: number): void {
    this.#confirmAll(now);
    // The next connection may reach an engine that does confirm.
    this.#heard = false;
    this.#blind = false;
  }

  #confirmAll(now: number): void {
    for (let i = 0; i < this.#out.length; i++) this.#confirmed.push(now);
    this.#out = [];
  }
}
