/**
 * The hub's carrier for the telnet players the engine serves itself (src/telnet/handoff/engine_host.ts):
 * what the sidecar link does across a socket, done in memory. Each session is a pair: the hub's
 * {@linkcode MuxSocket}, which a Connection uses like a WebSocket of its own, and a
 * {@linkcode LocalSocket}, which the player's telnet client dials and uses like one too. So
 * logins, limits, pacing and resumes stay exactly those of the sidecar's sessions, and nothing a
 * telnet client sends can name another session.
 *
 * A client's frames reach the hub at once (the hub queues its own work). The hub's frames are
 * gathered and handed over at the end of the current task, in order and a slice at a time: a
 * command's replies then reach its player's socket together (unless a slice ends between them),
 * a large fan-out's first writes go out while the rest are handed over, and the hub is never
 * re-entered from its own send. A client may take a frame object at once instead (`taker`:
 * a plain line for a session with nothing else to do first, the bulk of a fan-out), when
 * nothing of its session waits here to go before it; it must not call the hub back while
 * doing so.
 */
import { type MuxOpen, MuxSocket, type SessionCarrier } from "./mux_link.ts";
import { type EncodedFrame, TypedLine } from "./protocol.ts";
import type { FrameSink } from "./connection.ts";
import type { FrameTaker } from "../telnet/sidecar/hub_link.ts";

/**
 * Deliveries handed over per microtask. A frame's client writes its socket at the end of the
 * microtask queue; slices let those writes start before a large fan-out is all handed over.
 */
const HANDOVER_SLICE = 32;

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

/**
 * The hub's end of a local session: frames go over as they are (the telnet client reads their
 * parts; no JSON is written or read), shared by every player of a fan-out.
 */
class LocalHubSocket extends MuxSocket implements FrameSink {
  /** The client's end, set as the pair is made: a fan-out reaches it without a lookup. */
  client: LocalSocket | null = null;

  constructor(private readonly local: LocalLink, sid: number) {
    super(local, sid);
  }

  /** Queues a frame itself for this session. */
  deliverFrame(frame: EncodedFrame): void {
    const client = this.client;
    if (this.readyState !== 1 || client === null) return;
    if (!client.direct(frame)) this.local.deliverTo(client, frame);
  }

  /** Hands the client its line's `ack` at once, when it takes them so (see FrameSink). */
  acknowledge(id: number): boolean {
    const client = this.client;
    if (this.readyState !== 1 || client === null) return true;
    return client.acknowledge(id);
  }
}

/** The client's end of one session, shaped like the WebSocket a HubLink dials. */
export class LocalSocket {
  readyState = 0;
  onopen: ((e: Event) => void) | null = null;
  /** Called with `{ data }` rather than a MessageEvent (see mux_client.ts's VirtualSocket). */
  onmessage: ((e: Pick<MessageEvent, "data">) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  /**
   * Takes frame objects from inside the hub's own call, or declines them (false) to get them
   * the usual way, at the end of the task. Set by the telnet client's link; it must only write
   * the player's socket, never call the hub back. An object rather than a callback: a fan-out
   * reaches a thousand of these, and each hop is a likely cache miss.
   */
  taker: FrameTaker | null = null;
  /** This session's deliveries waiting in the link: a direct frame must not overtake them. */
  queued = 0;

  constructor(private readonly hub: MuxSocket) {}

  /** Sends one frame to the hub. */
  send(text: string): void {
    if (this.readyState !== 1) throw new Error("session is not open");
    this.hub.received(text);
  }

  /** Sends one typed line to the hub as it is, with its pacing id (no JSON frame). */
  sendLine(text: string, ack: number | null): void {
    if (this.readyState !== 1) throw new Error("session is not open");
    this.hub.received(new TypedLine(text, ack));
  }

  /**
   * The hub read the line sent with `id`: handed to the taker at once (dropped once this end is
   * closed); false when it takes no acks so (the `ack` frame then goes the usual way).
   */
  acknowledge(id: number): boolean {
    if (this.readyState !== 1) return true;
    const taker = this.taker;
    if (taker === null || taker.takeAck === undefined) return false;
    try {
      taker.takeAck(id);
    } catch (error) {
      reportLater(error);
    }
    return true;
  }

  /** Ends the session (the hub sees it closed). */
  close(code = 1000, reason = ""): void {
    if (this.readyState >= 2) return;
    this.readyState = 2;
    const hub = this.hub;
    // Not from inside the telnet client's own call: the hub's close handling may send.
    queueMicrotask(() => hub.ended(code, reason));
    this.ended(code, reason);
  }

  /** The hub took the session. */
  opened(): void {
    if (this.readyState !== 0) return;
    this.readyState = 1;
    this.onopen?.(new Event("open"));
  }

  /**
   * The event handed to `onmessage`, filled anew for each frame: a fan-out reaches a thousand
   * of these in one pass, and the telnet client reads `data` at once and keeps nothing.
   */
  readonly #event: { data: string | EncodedFrame } = { data: "" };

  /** A frame object handed over at once; false: it must be queued (see `taker`). */
  direct(frame: EncodedFrame): boolean {
    if (this.queued !== 0 || this.readyState !== 1 || this.taker === null) return false;
    try {
      return this.taker.takeFrame(frame);
    } catch (error) {
      // This client loses this frame, as through the queue; the hub's loop goes on to the rest
      // of the room.
      reportLater(error);
      return true;
    }
  }

  /** A frame from the hub (its text, or the frame itself). */
  received(data: string | EncodedFrame): void {
    if (this.readyState !== 1 || this.onmessage === null) return;
    this.#event.data = data;
    this.onmessage(this.#event);
  }

  /** The session is over. */
  ended(code: number, reason: string): void {
    if (this.readyState === 3) return;
    this.readyState = 3;
    this.onclose?.(new CloseEvent("close", { code, reason, wasClean: true }));
  }
}

/** The engine's own telnet sessions, as a carrier of hub sockets. */
export class LocalLink implements SessionCarrier {
  readonly #open: MuxOpen;
  readonly #clients = new Map<number, LocalSocket>();
  #seq = 0;
  /** Deliveries waiting for the end of this task, as two parallel lists (no object each). */
  #to: LocalSocket[] = [];
  #what: (string | EncodedFrame | Closing)[] = [];
  /** Where handing over goes on (deliveries before it are done). */
  #next = 0;
  #scheduled = false;
  readonly #flushNow = (): void => this.#flush();

  /** `open` attaches each new hub socket to the hub, with the query its client dialed. */
  constructor(open: MuxOpen) {
    this.#open = open;
  }

  /** Sessions carried. */
  get sessions(): number {
    return this.#clients.size;
  }

  /** A new session for `url` (its query, with a resume's token, is what the hub sees). */
  dial(url: string): WebSocket {
    const sid = ++this.#seq;
    const hub = new LocalHubSocket(this, sid);
    const client = new LocalSocket(hub);
    hub.client = client;
    this.#clients.set(sid, client);
    this.#open(hub, new URL(url).searchParams);
    // After the Connection has subscribed (as a WebSocket opens after its upgrade returns).
    queueMicrotask(() => {
      if (hub.readyState !== 0 || client.readyState !== 0) return;
      hub.opened();
      client.opened();
    });
    return client as unknown as WebSocket;
  }

  /** Queues a hub frame for session `sid`. */
  queue(sid: number, frame: string | EncodedFrame): void {
    const socket = this.#clients.get(sid);
    if (socket) this.#deliver(socket, frame);
  }

  /** Queues a hub frame for a session's client end (its hub end holds it; see LocalHubSocket). */
  deliverTo(socket: LocalSocket, frame: EncodedFrame): void {
    this.#deliver(socket, frame);
  }

  /** Queues the session's close, after its frames. */
  closing(sid: number, code: number, reason: string): void {
    const socket = this.#clients.get(sid);
    if (socket) this.#deliver(socket, new Closing(code, reason));
  }

  /** Drops a finished session. */
  forget(sid: number, socket: MuxSocket): void {
    this.#clients.delete(sid);
    // A hub end kept by someone must not keep the client (and its telnet session) alive.
    if (socket instanceof LocalHubSocket) socket.client = null;
  }

  #deliver(socket: LocalSocket, what: string | EncodedFrame | Closing): void {
    socket.queued++;
    this.#to.push(socket);
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
      const socket = to[i];
      const w = what[i];
      socket.queued--;
      try {
        if (w instanceof Closing) socket.ended(w.code, w.reason);
        else socket.received(w);
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
