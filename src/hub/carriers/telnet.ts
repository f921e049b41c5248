/**
 * The carrier of the telnet players the engine serves itself, on sockets the sidecar handed over
 * (src/telnet/handoff/engine_host.ts): nothing crosses between the hub and the player's telnet
 * client but calls. A typed line is `line()`, which answers at once whether the hub read it (the
 * acknowledgement the telnet pacing waits for); what the client knows of its player is
 * `report()`; a frame is offered to the client inside the hub's own call, where a plain line is
 * written to the socket at once (`takeFrame`: the bulk of a room's fan-out), or handed over at
 * the end of the task, in order and a slice at a time, when the client must act on it (a session,
 * colour or closing frame, and whatever is queued behind one), since acting on it may call the
 * hub back, which must never happen from inside the hub's call.
 */
import type { EncodedFrame } from "../protocol.ts";
import type { ClientReport, Session, SessionEnd, SessionHub } from "../session.ts";

/**
 * Deliveries handed over per microtask. A frame's client writes its socket at the end of the
 * microtask queue; slices let those writes start before a large fan-out is all handed over.
 */
const HANDOVER_SLICE = 32;

/** Close code of an engine that is stopping or restarting: the player waits for the next one. */
const RESTART = 1012;

/**
 * What the carrier needs of a telnet client (src/telnet/client/telnet_client.ts): the events of
 * its hub session. Every call but `takeFrame` comes after the hub's own call has returned.
 */
export interface TelnetPeer {
  /** The session is open. */
  hubOpened(): void;
  /**
   * A frame offered from inside the hub's call: true when the client showed it at once (it only
   * wrote its socket), false to get it through `hubFrame` after the call. It must not call the
   * hub back.
   */
  takeFrame(frame: EncodedFrame): boolean;
  /** A frame, in order with the others. */
  hubFrame(frame: EncodedFrame): void;
  /**
   * The engine is going away (`wasOpen`: the session had been open); `unread`: lines the hub
   * had read and not run, for the next engine, before anything the client still holds.
   */
  hubDown(wasOpen: boolean, unread: readonly string[]): void;
  /** The hub ended the session for good. */
  hubEnded(code: number, reason: string): void;
}

/** How a send went: read by the hub, sent with its answer to come later, or not sent. */
export type Sent = "read" | "sent" | "failed";

/** Reports an error as any failed task's is, without stopping the caller's loop. */
function reportLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}

/** A session's close, queued after its last frame. */
class Closing {
  constructor(readonly code: number, readonly reason: string) {}
}

/** States of a held session. */
const NEW = 0, OPEN = 1, CLOSING = 2, ENDED = 3;

/**
 * One telnet player's hub session: the hub's Session for it, and the client's way to the hub
 * (the port src/telnet/client/hub_port.ts describes).
 */
export class HeldSession implements Session {
  /** Frames of this session waiting in the carrier: a frame taken at once must not pass them. */
  queued = 0;
  /** Output is bounded by the client's own transport. */
  readonly buffered = 0;
  #state = NEW;
  #end: SessionEnd | null = null;
  /** Typed lines the hub read and did not run before it closed for a restart. */
  #unread: readonly string[] = [];

  constructor(
    private readonly carrier: TelnetCarrier,
    private readonly peer: TelnetPeer,
    private readonly token: () => string | null,
  ) {}

  /** True while the session is open. */
  get open(): boolean {
    return this.#state === OPEN;
  }

  /**
   * Opens the session with the hub (once; a session ends with its engine), resuming with the
   * client's token when it has one. After this call, as a socket opens after its dial returns.
   */
  connect(): void {
    if (this.#state !== NEW) return;
    queueMicrotask(() => {
      if (this.#state !== NEW) return;
      this.#state = OPEN;
      const token = this.token();
      this.#end = this.carrier.hub.connect(this, {
        kind: "telnet",
        ip: "127.0.0.1",
        // The sidecar proved itself on the channel the socket came through.
        trusted: true,
        token,
        resume: token !== null,
      });
      if (this.#state === OPEN) this.peer.hubOpened();
    });
  }

  /** A typed line: read by the hub at once, or dropped (its answer never comes). */
  line(text: string): Sent {
    const end = this.#end;
    // A stopping hub reads nothing more: the line stays with the client for the next engine.
    if (this.#state !== OPEN || end === null || this.carrier.hub.stopping) return "failed";
    return end.line(text) ? "read" : "sent";
  }

  /** A pacing ping: the hub has read everything sent before it. */
  ping(): Sent {
    return this.#state === OPEN ? "read" : "failed";
  }

  /** What the client knows of its player. */
  report(report: ClientReport): void {
    if (this.#state === OPEN) this.#end?.report(report);
  }

  /** A GMCP message from the client, for the plugin that handles its package. */
  gmcp(pkg: string, data: unknown): void {
    if (this.#state === OPEN) this.#end?.gmcp(pkg, data);
  }

  /** Nothing to expect: closes in memory carry their codes as they are. */
  expectEnd(): void {}

  /** Nothing to redial: a held session ends with its engine. */
  retrySoon(): void {}

  /** The client leaves: the hub lets go of the session after the client's call. */
  end(): void {
    if (this.#state === ENDED) return;
    this.#state = ENDED;
    this.carrier.forget(this);
    const end = this.#end;
    if (end !== null) queueMicrotask(() => end.ended());
  }

  /** A frame from the hub: shown at once when the client can, else after the hub's call. */
  deliver(frame: EncodedFrame): void {
    if (this.#state !== OPEN) return;
    if (this.queued === 0) {
      try {
        if (this.peer.takeFrame(frame)) return;
      } catch (error) {
        // This client loses this frame, as through the queue; the hub's loop goes on.
        reportLater(error);
        return;
      }
    }
    this.carrier.later(this, frame);
  }

  /** Lines read and not run when the hub closes for a restart: the client sends them again. */
  unread(lines: string[]): void {
    if (this.#state === OPEN) this.#unread = lines;
  }

  /** The hub closes the session: the client hears it after its last frames. */
  close(code: number, reason: string): void {
    if (this.#state !== OPEN) return;
    this.#state = CLOSING;
    this.carrier.later(this, new Closing(code, reason));
  }

  /** Handed over at the end of the task (see TelnetCarrier). */
  handOver(what: EncodedFrame | Closing): void {
    if (what instanceof Closing) {
      if (this.#state === ENDED) return;
      this.#state = ENDED;
      this.carrier.forget(this);
      this.#end?.ended();
      if (what.code === RESTART) this.peer.hubDown(true, this.#unread);
      else this.peer.hubEnded(what.code, what.reason);
      return;
    }
    if (this.#state !== ENDED) this.peer.hubFrame(what);
  }
}

/** The engine's telnet sessions: it opens them, and hands over what waits for the end of a task. */
export class TelnetCarrier {
  readonly #sessions = new Set<HeldSession>();
  /** Deliveries waiting for the end of this task, as two parallel lists (no object each). */
  #to: HeldSession[] = [];
  #what: (EncodedFrame | Closing)[] = [];
  /** Where handing over goes on (deliveries before it are done). */
  #next = 0;
  #scheduled = false;
  readonly #flushNow = (): void => this.#flush();

  constructor(readonly hub: SessionHub) {}

  /** Sessions open. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /**
   * A session for a telnet client: `peer` gets its events, `token` is asked at connect (the
   * client's session token, to resume with, or null).
   */
  open(peer: TelnetPeer, token: () => string | null): HeldSession {
    const session = new HeldSession(this, peer, token);
    this.#sessions.add(session);
    return session;
  }

  /** Drops a finished session. */
  forget(session: HeldSession): void {
    this.#sessions.delete(session);
  }

  /** Queues a frame or a close for the end of the task. */
  later(session: HeldSession, what: EncodedFrame | Closing): void {
    session.queued++;
    this.#to.push(session);
    this.#what.push(what);
    if (this.#scheduled) return;
    this.#scheduled = true;
    queueMicrotask(this.#flushNow);
  }

  /**
   * Hands over what is queued, a slice at a time: between slices the sockets written so far go
   * out (their flush was queued first), so a fan-out's first players get their line while the
   * last are still being served, instead of every write waiting for the whole room.
   */
  #flush(): void {
    const to = this.#to;
    const what = this.#what;
    const end = Math.min(to.length, this.#next + HANDOVER_SLICE);
    for (let i = this.#next; i < end; i++) {
      const session = to[i];
      session.queued--;
      try {
        session.handOver(what[i]);
      } catch (error) {
        // A client that throws loses its own frame only; the rest are still handed over.
        reportLater(error);
      }
    }
    if (end < to.length) {
      this.#next = end;
      queueMicrotask(this.#flushNow);
    } else {
      this.#to = [];
      this.#what = [];
      this.#next = 0;
      this.#scheduled = false;
    }
  }
}
