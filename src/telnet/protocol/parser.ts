/** Incremental telnet command parser: bytes in, data and command events out. */

import { DO, DONT, IAC, SB, SE, type Verb, WILL, WONT } from "./constants.ts";

/** One thing found in the incoming byte stream, in stream order. */
export type ParserEvent =
  /** Plain data with `IAC IAC` already turned back into one 0xFF. */
  | { type: "data"; bytes: Uint8Array }
  /** `IAC WILL|WONT|DO|DONT <option>`. */
  | { type: "negotiation"; verb: Verb; option: number }
  /** `IAC SB <option> ... IAC SE`, payload unescaped. */
  | { type: "subnegotiation"; option: number; data: Uint8Array }
  /** Any other `IAC <code>` (NOP, GA, AYT, BRK, IP, stray SE, ...). */
  | { type: "command"; code: number }
  /** Malformed or oversized input that was dropped; the stream carries on. */
  | { type: "error"; reason: string };

/** Limits for {@linkcode TelnetParser}. */
export interface TelnetParserOptions {
  /** Largest subnegotiation payload kept, in bytes (default 8192); longer ones are discarded. */
  maxSubnegotiation?: number;
}

/** Default cap on one subnegotiation payload. */
export const DEFAULT_MAX_SUBNEGOTIATION = 8192;

const State = {
  Data: 0,
  Iac: 1,
  Verb: 2,
  SbOption: 3,
  SbData: 4,
  SbIac: 5,
  SbDiscard: 6,
  SbDiscardIac: 7,
} as const;
type State = typeof State[keyof typeof State];

const VERBS: Readonly<Record<number, Verb>> = {
  [WILL]: "WILL",
  [WONT]: "WONT",
  [DO]: "DO",
  [DONT]: "DONT",
};

/**
 * Splits a telnet byte stream into events. State carries over between `feed` calls, so a command
 * may be cut anywhere by TCP reads. Memory held between calls is at most the subnegotiation cap.
 */
export class TelnetParser {
  readonly #max: number;
  #state: State = State.Data;
  #verb: Verb = "WILL";
  #sbOption = 0;
  /** An unfinished subnegotiation's payload; only while one is being read (idle players hold none). */
  #sb: Uint8Array | null = null;
  #sbLength = 0;

  /** Creates a parser; see {@linkcode TelnetParserOptions}. */
  constructor(options: TelnetParserOptions = {}) {
    this.#max = Math.max(0, Math.floor(options.maxSubnegotiation ?? DEFAULT_MAX_SUBNEGOTIATION));
  }

  /** Bytes held for an unfinished subnegotiation (never more than the cap). */
  get pendingBytes(): number {
    return this.#sbLength;
  }

  /** True when `chunk` is data alone: no telnet command in it and none under way before it. */
  plain(chunk: Uint8Array): boolean {
    return this.#state === State.Data && chunk.indexOf(IAC) === -1;
  }

  /** Parses one chunk and returns the events it completed; never throws. */
  feed(chunk: Uint8Array): ParserEvent[] {
    // Plain text with no command in it (most reads): the chunk itself, nothing copied.
    if (this.plain(chunk)) {
      return chunk.length === 0 ? [] : [{ type: "data", bytes: chunk }];
    }
    const events: ParserEvent[] = [];
    // Data bytes of this chunk, unescaped; never longer than the chunk itself.
    let data: Uint8Array | null = null;
    let dataStart = 0;
    let dataEnd = 0;
    const flushData = () => {
      if (data !== null && dataEnd > dataStart) {
        events.push({ type: "data", bytes: data.subarray(dataStart, dataEnd) });
        dataStart = dataEnd;
      }
    };
    const pushData = (from: number, to: number) => {
      data ??= new Uint8Array(chunk.length);
      data.set(chunk.subarray(from, to), dataEnd);
      dataEnd += to - from;
    };

    let i = 0;
    while (i < chunk.length) {
      switch (this.#state) {
        case State.Data: {
          // Copy the whole run up to the next IAC at once: most input has no commands at all.
          const next = chunk.indexOf(IAC, i);
          const end = next === -1 ? chunk.length : next;
          if (end > i) pushData(i, end);
          i = end;
          if (next !== -1) {
            this.#state = State.Iac;
            i++;
          }
          continue;
        }
        case State.Iac: {
          const b = chunk[i++];
          if (b === IAC) {
            pushData(i - 1, i);
            this.#state = State.Data;
          } else {
            flushData();
            this.#afterIac(b, events);
          }
          continue;
        }
        case State.Verb: {
          const option = chunk[i++];
          events.push({ type: "negotiation", verb: this.#verb, option });
          this.#state = State.Data;
          continue;
        }
        case State.SbOption: {
          this.#sbOption = chunk[i++];
          this.#sbLength = 0;
          this.#state = State.SbData;
          continue;
        }
        case State.SbData: {
          const b = chunk[i++];
          if (b === IAC) this.#state = State.SbIac;
          else this.#appendSb(b, events);
          continue;
        }
        case State.SbIac: {
          const b = chunk[i++];
          if (b === SE) {
            events.push({
              type: "subnegotiation",
              option: this.#sbOption,
              data: this.#sb?.slice(0, this.#sbLength) ?? new Uint8Array(0),
            });
            this.#resetSb();
            this.#state = State.Data;
          } else if (b === IAC) {
            this.#state = State.SbData;
            this.#appendSb(IAC, events);
          } else {
            // A peer that forgot IAC SE must not swallow the rest of the session: abort the
            // subnegotiation and read this byte as the command it most likely is.
            events.push({
              type: "error",
              reason: `unterminated subnegotiation for option ${this.#sbOption}`,
            });
            this.#resetSb();
            this.#afterIac(b, events);
          }
          continue;
        }
        case State.SbDiscard: {
          const next = chunk.indexOf(IAC, i);
          if (next === -1) {
            i = chunk.length;
          } else {
            i = next + 1;
            this.#state = State.SbDiscardIac;
          }
          continue;
        }
        case State.SbDiscardIac: {
          const b = chunk[i++];
          if (b === SE) this.#state = State.Data;
          else if (b === IAC) this.#state = State.SbDiscard;
          else this.#afterIac(b, events);
          continue;
        }
      }
    }
    flushData();
    return events;
  }

  /** Handles the byte after an IAC that is not another IAC. */
  #afterIac(b: number, events: ParserEvent[]): void {
    const verb = VERBS[b];
    if (verb !== undefined) {
      this.#verb = verb;
      this.#state = State.Verb;
    } else if (b === SB) {
      this.#state = State.SbOption;
    } else {
      events.push({ type: "command", code: b });
      this.#state = State.Data;
    }
  }

  #appendSb(b: number, events: ParserEvent[]): void {
    if (this.#sbLength >= this.#max) {
      events.push({
        type: "error",
        reason: `subnegotiation for option ${this.#sbOption} exceeds ${this.#max} bytes; dropped`,
      });
      this.#resetSb();
      this.#state = State.SbDiscard;
      return;
    }
    this.#sb ??= new Uint8Array(64);
    if (this.#sbLength === this.#sb.length) {
      const grown = new Uint8Array(Math.min(this.#max, this.#sb.length * 2));
      grown.set(this.#sb);
      this.#sb = grown;
    }
    this.#sb[this.#sbLength++] = b;
  }

  #resetSb(): void {
    this.#sbLength = 0;
    // Idle sessions hold no buffer (subnegotiations are rare: at connect, on a resize).
    this.#sb = null;
  }
}
