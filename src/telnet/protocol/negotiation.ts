/** Per-connection telnet option state, RFC 1143 "Q method" with its one-slot queue. */

import { negotiationBytes } from "./bytes.ts";
import type { Verb } from "./constants.ts";

/** Which end performs the option: `local` is this server (WILL/WONT), `remote` the client (DO/DONT). */
export type Side = "local" | "remote";

/** RFC 1143 state of one side of one option. */
export type QState = "no" | "yes" | "wantno" | "wantyes";

/** Options this end agrees to when the peer asks for them unprompted. */
export interface NegotiationPolicy {
  /** Options the server will perform when the client sends DO. */
  local: ReadonlySet<number>;
  /** Options the server lets the client perform when the client sends WILL. */
  remote: ReadonlySet<number>;
}

/** An option that became enabled or disabled. */
export interface OptionChange {
  /** Which end performs it. */
  side: Side;
  /** The option code. */
  option: number;
  /** Its new effective state. */
  enabled: boolean;
}

/** What to send back and what changed after one received verb or one local request. */
export interface NegotiationResult {
  /** Bytes to write to the peer, or null. */
  reply: Uint8Array | null;
  /** The option's effective change, or null when it is unchanged. */
  change: OptionChange | null;
}

const NO = 0;
const YES = 1;
const WANTNO = 2;
const WANTYES = 3;
const STATES: readonly QState[] = ["no", "yes", "wantno", "wantyes"];

/**
 * One side's options, a byte each: the RFC 1143 state (bits 0-1), the queue bit (bit 2: the
 * opposite of the pending request is wanted once it is answered), and the answers given to
 * peer-initiated changes (bits 3-7). Even two correct Q-method ends can ping-pong forever once
 * one end has sent an unpaired on/off burst; the cap on answers is what ends that. Every telnet
 * player holds two of these, in one 512-byte buffer shared by both sides, rather than three
 * arrays each (six buffers, ~5 KiB of the sidecar's memory per player).
 */
class SideTable {
  readonly #cells: Uint8Array;
  readonly #at: number;

  /** The side whose bytes are `cells[at .. at + 255]`. */
  constructor(cells: Uint8Array, at: number) {
    this.#cells = cells;
    this.#at = at;
  }

  state(o: number): number {
    return this.#cells[this.#at + o] & 3;
  }

  setState(o: number, state: number): void {
    const i = this.#at + o;
    this.#cells[i] = (this.#cells[i] & ~3) | state;
  }

  opposite(o: number): boolean {
    return (this.#cells[this.#at + o] & 4) !== 0;
  }

  setOpposite(o: number, wanted: boolean): void {
    const i = this.#at + o;
    this.#cells[i] = wanted ? this.#cells[i] | 4 : this.#cells[i] & ~4;
  }

  answers(o: number): number {
    return this.#cells[this.#at + o] >> 3;
  }

  /** Counts one answer (callers stop at {@linkcode MAX_ANSWERS}, well below the 31 that fit). */
  answered(o: number): void {
    this.#cells[this.#at + o] += 8;
  }
}

/** Size of a table's state: a byte per option and side. */
export const TABLE_BYTES = 512;

/** Answers to peer-initiated changes of one option before further ones are ignored. */
const MAX_ANSWERS = 16;

/**
 * Tracks both sides of every option and answers the peer's verbs. It never answers a verb that
 * matches the current state, and answers at most 16 peer-initiated changes per option, so no peer,
 * however broken, can keep it negotiating in a loop.
 */
export class OptionTable {
  readonly #policy: NegotiationPolicy;
  readonly #local: SideTable;
  readonly #remote: SideTable;

  readonly #cells: Uint8Array;

  /**
   * Creates a table with every option off, or with the state `cells` holds (a copy of another
   * table's {@linkcode OptionTable.cells}, carried over from another process).
   */
  constructor(policy: NegotiationPolicy, cells?: Uint8Array) {
    this.#policy = policy;
    this.#cells = new Uint8Array(TABLE_BYTES);
    if (cells?.length === TABLE_BYTES) this.#cells.set(cells);
    this.#local = new SideTable(this.#cells, 0);
    this.#remote = new SideTable(this.#cells, 256);
  }

  /** A copy of the whole state (both sides, every option), for {@linkcode OptionTable}'s constructor. */
  cells(): Uint8Array {
    return this.#cells.slice();
  }

  /** True when the option is on for that side (state "yes"). */
  isEnabled(side: Side, option: number): boolean {
    return this.#table(side).state(option & 0xff) === YES;
  }

  /** The RFC 1143 state of one side of an option. */
  state(side: Side, option: number): QState {
    return STATES[this.#table(side).state(option & 0xff)];
  }

  /** Asks to turn an option on or off; returns the verb to send (if any) and the change. */
  request(side: Side, option: number, enable: boolean): NegotiationResult {
    const t = this.#table(side);
    const o = option & 0xff;
    const before = t.state(o);
    const [on, off]: [Verb, Verb] = side === "local" ? ["WILL", "WONT"] : ["DO", "DONT"];
    let reply: Uint8Array | null = null;
    switch (before) {
      case NO:
        if (enable) {
          t.setState(o, WANTYES);
          reply = negotiationBytes(on, o);
        }
        break;
      case YES:
        if (!enable) {
          t.setState(o, WANTNO);
          reply = negotiationBytes(off, o);
        }
        break;
      case WANTNO:
        t.setOpposite(o, enable);
        break;
      case WANTYES:
        t.setOpposite(o, !enable);
        break;
    }
    return { reply, change: this.#change(side, o, before) };
  }

  /** Applies a verb received from the peer; returns the answer (if any) and the change. */
  receive(verb: Verb, option: number): NegotiationResult {
    const o = option & 0xff;
    const side: Side = verb === "DO" || verb === "DONT" ? "local" : "remote";
    const positive = verb === "DO" || verb === "WILL";
    const t = this.#table(side);
    const before = t.state(o);
    const [on, off]: [Verb, Verb] = side === "local" ? ["WILL", "WONT"] : ["DO", "DONT"];
    let reply: Uint8Array | null = null;
    if (positive) {
      switch (before) {
        case NO:
          if (t.answers(o) >= MAX_ANSWERS) break;
          t.answered(o);
          if (this.#policy[side].has(o)) {
            t.setState(o, YES);
            reply = negotiationBytes(on, o);
          } else {
            reply = negotiationBytes(off, o);
          }
          break;
        case YES:
          break;
        case WANTNO:
          // The peer answered our "off" with "on": a protocol error, accept its view and stop.
          t.setState(o, t.opposite(o) ? YES : NO);
          t.setOpposite(o, false);
          break;
        case WANTYES:
          if (t.opposite(o)) {
            t.setState(o, WANTNO);
            t.setOpposite(o, false);
            reply = negotiationBytes(off, o);
          } else {
            t.setState(o, YES);
          }
          break;
      }
    } else {
      switch (before) {
        case NO:
          break;
        case YES:
          t.setState(o, NO);
          if (t.answers(o) < MAX_ANSWERS) {
            t.answered(o);
            reply = negotiationBytes(off, o);
          }
          break;
        case WANTNO:
          if (t.opposite(o)) {
            t.setState(o, WANTYES);
            t.setOpposite(o, false);
            reply = negotiationBytes(on, o);
          } else {
            t.setState(o, NO);
          }
          break;
        case WANTYES:
          t.setState(o, NO);
          t.setOpposite(o, false);
          break;
      }
    }
    return { reply, change: this.#change(side, o, before) };
  }

  #table(side: Side): SideTable {
    return side === "local" ? this.#local : this.#remote;
  }

  #change(side: Side, option: number, before: number): OptionChange | null {
    const wasOn = before === YES;
    const isOn = this.#table(side).state(option) === YES;
    return wasOn === isOn ? null : { side, option, enabled: isOn };
  }
}
