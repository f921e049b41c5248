/**
 * How one telnet client reaches the hub, whatever carries it: in the sidecar, a reconnecting
 * session over the sidecar's link or a WebSocket of its own (src/telnet/sidecar/hub_link.ts); in
 * the engine, the hub's own session for it (src/hub/carriers/telnet.ts), which the engine wires
 * in. The client is told what happens through {@linkcode HubEvents}.
 */
import type { FrameObject, HubInput } from "./hub_frames.ts";

/**
 * How a send went: `read` the hub has read it already (in memory: the line's acknowledgement),
 * `sent` it is on its way and its `ack` comes as a frame, `failed` nothing went (not open).
 */
export type Sent = "read" | "sent" | "failed";

/** What a telnet client tells the hub of its player (see the hub's ClientReport). */
export interface PlayerReport {
  ip?: string | null;
  ttype?: string | null;
  connectedAt?: number | null;
  lastInput?: number | null;
  /** Colours the terminal shows (TTYPE, MTTS): 0, 16, 256 or 16777216. */
  colourDepth?: number | null;
  width?: number | null;
  height?: number | null;
  /**
   * GMCP is on (null: off): the packages the client announced (`Core.Supports`, lower-cased), or null when
   * it never announced any (it gets every package). Sent whenever it changes and on every open.
   */
  gmcp?: { supports: string[] | null } | null;
}

/** One telnet client's hub session. */
export interface HubPort {
  /** True while the session is open. */
  readonly open: boolean;
  /** Opens the session (later, as a socket opens after its dial returns). */
  connect(): void;
  /** Sends a typed line with its pacing id (null: none). */
  line(text: string, id: number | null): Sent;
  /** Asks the hub to confirm everything sent before this ping `id`. */
  ping(id: number): Sent;
  /** Tells the hub what the client knows of its player (address, terminal, times, window). */
  report(report: PlayerReport): void;
  /** Passes on a GMCP message the client sent that is not the Core package's (a plugin's). */
  gmcp(pkg: string, data: unknown): void;
  /**
   * The hub announced the end of this session (its closing `disconnect` frame): the close that
   * follows is final even if it arrives without a final code.
   */
  expectEnd(): void;
  /** While waiting to retry, dials after `ms` instead (the hub was seen coming back). */
  retrySoon(ms: number): void;
  /** Ends the session for good (the player left, or the client is closing). */
  end(): void;
}

/** What happens to a client's hub session, as its port reports it. */
export interface HubEvents {
  /** The session is open (again, after a restart: the client resumes with its token). */
  hubOpened(): void;
  /** A frame from the hub: its text over a wire, or the hub's frame itself in memory. */
  hubFrame(frame: HubInput): void;
  /**
   * A frame offered from inside the hub's own call (in memory only): true when the client
   * showed it at once, which only writes its socket; false to get it through `hubFrame` after
   * the call. It must not call the hub back.
   */
  takeFrame(frame: FrameObject): boolean;
  /**
   * The hub is away (an engine restarting, a failed dial); `wasOpen`: it had been up. `unread`:
   * lines it had read and not run, handed back for the next engine (oldest first).
   */
  hubDown(wasOpen: boolean, unread?: readonly string[]): void;
  /** The hub ended the session for good (quit, `@boot`, idle, a cap). */
  hubEnded(code: number, reason: string): void;
}

/**
 * Opens a client's hub session: `events` hears what happens, `token` is asked at each
 * connection (the session token to resume with, or null for the connect screen).
 */
export type HubDialer = (events: HubEvents, token: () => string | null) => HubPort;
