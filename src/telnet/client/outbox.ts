/**
 * One telnet player's lines on their way to the hub: kept in order (bounded) while the engine
 * is away or the player types faster than the hub reads, and sent as fast as the pacer allows
 * while the hub session is ready (see pacer.ts for why lines wait for the hub's acks).
 */
import { pingFrame } from "./hub_frames.ts";
import { HubPacer } from "./pacer.ts";
import { utf8Length } from "../../text/utf8.ts";

/** Where the lines go: the player's hub link. */
export interface OutboxLink {
  /** True while the socket is open. */
  readonly open: boolean;
  /** Sends one frame; false when it could not go (the socket just closed). */
  send(text: string): boolean;
  /** Sends one line with its pacing id (null: none); false when it could not go. */
  sendLine(text: string, ack: number | null): boolean;
}

/** Settings for {@linkcode HubOutbox}. */
export interface OutboxOptions {
  /** Most lines kept. */
  maxLines: number;
  /** Most bytes (UTF-8) kept. */
  maxBytes: number;
  /** Lines the hub may read from this connection in any second. */
  perSecond: number;
  /** True while lines may go (the hub session is ready and the client not closed). */
  ready(): boolean;
  /** A line was refused because the outbox is full; called once until it drains or is reset. */
  full(): void;
  /** Clock in ms (tests pass their own). */
  now?: () => number;
}

/** The bounded, paced queue of one player's lines for the hub. */
export class HubOutbox {
  readonly #link: OutboxLink;
  readonly #o: OutboxOptions;
  readonly #pacer: HubPacer;
  readonly #now: () => number;
  /** Lines waiting for the hub, in order, each with its UTF-8 size. */
  #lines: { text: string; bytes: number }[] = [];
  #bytes = 0;
  #fullNoticed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** A pump is queued for the end of this task (see `confirmLater`). */
  #pumpQueued = false;
  /** The clock reading of the pump under way, or null when none is. */
  #pumpingAt: number | null = null;

  constructor(link: OutboxLink, opts: OutboxOptions) {
    this.#link = link;
    this.#o = opts;
    this.#pacer = new HubPacer({ perWindow: opts.perSecond });
    this.#now = opts.now ?? (() => performance.now());
  }

  /** Lines waiting. */
  get length(): number {
    return this.#lines.length;
  }

  /** The lines waiting, in order (to carry them to another process). */
  lines(): string[] {
    return this.#lines.map((l) => l.text);
  }

  /** Queues a line (blank ones are not sent) and sends what the pace allows. */
  push(line: string): void {
    if (line.trim() === "") return;
    const bytes = utf8Length(line);
    if (this.#lines.length >= this.#o.maxLines || this.#bytes + bytes > this.#o.maxBytes) {
      if (!this.#fullNoticed) this.#o.full();
      this.#fullNoticed = true;
      return;
    }
    this.#lines.push({ text: line, bytes });
    this.#bytes += bytes;
    this.pump();
  }

  /** Sends queued lines while the hub is ready, as fast as the pacer allows. */
  pump(): void {
    this.stop();
    if (!this.#o.ready() || !this.#link.open) return;
    const now = this.#now();
    this.#pumpingAt = now;
    try {
      while (this.#lines.length > 0 && this.#pacer.mayShip(now)) {
        const line = this.#lines[0];
        // Not sent: the hub just went away (its pacing state is reset then); the line stays
        // first in line for after the resume.
        if (!this.#link.sendLine(line.text, this.#pacer.ship(now))) return;
        this.#lines.shift();
        this.#bytes -= line.bytes;
      }
    } finally {
      this.#pumpingAt = null;
    }
    const ping = this.#pacer.ping(now, this.#lines.length > 0);
    if (ping !== null) this.#link.send(pingFrame(ping));
    if (this.#lines.length === 0) {
      this.#fullNoticed = false;
      return;
    }
    // Otherwise a confirmation, or the time the pacer names, lets more go.
    const wait = this.#pacer.wait(now);
    if (wait !== null) this.#timer = setTimeout(() => this.pump(), wait);
  }

  /** The hub read frame `id` (its `ack` or `pong`; null: a pong without one); sends more. */
  confirm(id: number | null): void {
    this.#pacer.confirm(id, this.#now());
    this.pump();
  }

  /**
   * Like `confirm`, from inside the hub's own call (an in-memory link's ack): what it lets go
   * is sent once that call is over, never from inside it.
   */
  confirmLater(id: number): void {
    const pumping = this.#pumpingAt;
    // An in-memory link answers a line while it is being sent: the pump under way takes the
    // confirmation into account itself, so nothing more is needed.
    this.#pacer.confirm(id, pumping ?? this.#now());
    if (pumping !== null || this.#lines.length === 0 || this.#pumpQueued) return;
    this.#pumpQueued = true;
    queueMicrotask(() => {
      this.#pumpQueued = false;
      this.pump();
    });
  }

  /** The hub went away: lines stay for the next session, pacing starts over. */
  reset(): void {
    this.#fullNoticed = false;
    this.#pacer.reset(this.#now());
    this.stop();
  }

  /** Forgets every waiting line (they were meant for a session that could not be resumed). */
  drop(): void {
    this.#lines = [];
    this.#bytes = 0;
    this.#fullNoticed = false;
    this.stop();
  }

  /** Stops the pacing timer (the client is closing). */
  stop(): void {
    // Most lines find no timer: no call into the runtime's timers for them.
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
