/**
 * One telnet player's lines on their way to the hub: kept in order (bounded) while the engine
 * is away or the player types faster than the hub reads, and sent as fast as the pacer allows
 * while the hub session is ready (see pacer.ts for why lines wait for the hub's acks).
 */
import type { HubPort } from "./hub_port.ts";
import { HubPacer } from "./pacer.ts";
import { utf8Length } from "../../text/utf8.ts";

/** Where the lines go: the player's hub session. */
export type OutboxLink = Pick<HubPort, "open" | "line" | "ping">;

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

  constructor(link: OutboxLink, opts: OutboxOptions) {
    this.#link = link;
    this.#o = opts;
    this.#pacer = new HubPacer({ perWindow: opts.perSecond });
    // The hub counts its rate window by the wall clock (src/hub/inbound.ts): the pacer's window
    // follows the same clock, which is also the cheaper one to read for every line.
    this.#now = opts.now ?? Date.now;
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
    // Nothing waiting (a player's usual line): straight to the hub when the pace allows.
    if (this.#lines.length === 0 && this.#o.ready() && this.#link.open) {
      const now = this.#now();
      if (this.#pacer.mayShip(now) && this.#ship(line, now)) {
        this.#fullNoticed = false;
        return;
      }
    }
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

  /**
   * Puts the client's own settings before every waiting line (OUTPUTPREFIX and OUTPUTSUFFIX, which
   * a new hub session must hear first after a restart). Outside the limits: at most two short
   * lines the client makes itself, never anything the player typed (see `putBack`).
   */
  first(lines: readonly string[]): void {
    const fresh = lines.filter((l) => l.trim() !== "").map((text) => ({
      text,
      bytes: utf8Length(text),
    }));
    if (!fresh.length) return;
    this.#lines = [...fresh, ...this.#lines];
    for (const l of fresh) this.#bytes += l.bytes;
    this.pump();
  }

  /**
   * Takes back typed lines the hub had read and not run when it went away (a restart), oldest
   * first. They were typed before every line waiting here, so they go first; but they are the
   * player's lines like any other, under the same bounds: when the whole no longer fits, the
   * newest lines are not kept (as a line typed into a full outbox is not) and the player is told
   * once, and blank lines are not sent.
   */
  putBack(lines: readonly string[]): void {
    const back = lines.filter((l) => l.trim() !== "").map((text) => ({
      text,
      bytes: utf8Length(text),
    }));
    if (!back.length) return;
    const all = [...back, ...this.#lines];
    let kept = 0, bytes = 0;
    while (
      kept < all.length && kept < this.#o.maxLines && bytes + all[kept].bytes <= this.#o.maxBytes
    ) bytes += all[kept++].bytes;
    if (kept < all.length && !this.#fullNoticed) {
      this.#fullNoticed = true;
      this.#o.full();
    }
    this.#lines = all.slice(0, kept);
    this.#bytes = bytes;
    this.pump();
  }

  /** Sends queued lines while the hub is ready, as fast as the pacer allows. */
  pump(): void {
    this.stop();
    if (!this.#o.ready() || !this.#link.open) return;
    const now = this.#now();
    while (this.#lines.length > 0 && this.#pacer.mayShip(now)) {
      const line = this.#lines[0];
      // Not sent: the hub just went away (its pacing state is reset then); the line stays
      // first in line for after the resume.
      if (!this.#ship(line.text, now)) return;
      this.#lines.shift();
      this.#bytes -= line.bytes;
    }
    const ping = this.#pacer.ping(now, this.#lines.length > 0);
    if (ping !== null && this.#link.ping(ping) === "read") this.#pacer.confirm(ping, now);
    if (this.#lines.length === 0) {
      this.#fullNoticed = false;
      return;
    }
    // Otherwise a confirmation, or the time the pacer names, lets more go.
    const wait = this.#pacer.wait(now);
    if (wait !== null) this.#timer = setTimeout(() => this.pump(), wait);
  }

  /** Sends one line the pace allows; false when the hub session was not open to take it. */
  #ship(text: string, now: number): boolean {
    const id = this.#pacer.ship(now);
    const sent = this.#link.line(text, id);
    if (sent === "failed") return false;
    // In memory the hub has read it already: its acknowledgement is the answer itself.
    if (sent === "read" && id !== null) this.#pacer.confirm(id, now);
    return true;
  }

  /** The hub read frame `id` (its `ack` or `pong`; null: a pong without one); sends more. */
  confirm(id: number | null): void {
    this.#pacer.confirm(id, this.#now());
    this.pump();
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
