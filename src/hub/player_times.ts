/**
 * A logged-in player's two times over all its connections, as MUX's idle() and conn() read them
 * (TinyMUX's fetch_idle: the least idle connection; fetch_connect: the oldest one): the latest
 * input and the earliest connection. Kept current as they change (each connection writes its
 * own times through to its player's record), so a listing's idle() and conn() of every row read
 * two numbers instead of walking the player's connections.
 */

/** What the record reads of a connection. */
export interface TimedConnection {
  readonly lastInput: number;
  readonly connectedAt: number;
}

/** One player's times over its live connection set (owned by the session registry). */
export class PlayerTimes {
  /** The latest input over the player's connections (ms). */
  lastInput = -Infinity;
  /** The earliest opening over the player's connections (ms). */
  connectedAt = Infinity;
  readonly #conns: ReadonlySet<TimedConnection>;

  /** Over `conns`, the registry's live set of the player's connections. */
  constructor(conns: ReadonlySet<TimedConnection>) {
    this.#conns = conns;
  }

  /**
   * A connection's input time changed: a later one is the player's latest at once; an earlier
   * one (a telnet client's report of its own, older input, before any input here) may have been
   * it, so the set is read again (rare: never on a typed line).
   */
  input(at: number): void {
    if (at >= this.lastInput) this.lastInput = at;
    else this.recount();
  }

  /** A connection's opening time changed (see `input`; a client's report moves it earlier). */
  opened(at: number): void {
    if (at <= this.connectedAt) this.connectedAt = at;
    else this.recount();
  }

  /** Both times read again over the connections (a connection came or went). */
  recount(): void {
    let last = -Infinity, first = Infinity;
    for (const c of this.#conns) {
      if (c.lastInput > last) last = c.lastInput;
      if (c.connectedAt < first) first = c.connectedAt;
    }
    this.lastInput = last;
    this.connectedAt = first;
  }
}
