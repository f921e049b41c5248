/**
 * The one port between the hub and whatever carries a client (src/hub/carriers/): a carrier
 * implements {@linkcode Session} (frames out, close), opens it with a {@linkcode SessionOpening},
 * and calls the hub's Connection for the rest (a frame as it came, a typed line, which answers
 * with its acknowledgement, what a telnet client reports, the end). docs/architecture.md has the
 * picture of the three carriers.
 */
import type { EncodedFrame } from "./protocol.ts";
import type { ClientKind } from "./types.ts";

/**
 * What a carrier does for the hub, per client. Neither call may call the hub back (a carrier
 * reports what follows from it, such as its transport's end, after the hub's call has returned).
 */
export interface Session {
  /**
   * Sends one frame, in order with the others: the frame is encoded once for all its
   * recipients, and the carrier takes the form its client needs (`frame.for(kind, colour)` for a
   * socket, the frame itself for a telnet client in this process). `colour`: whether plain text
   * for this client gets ANSI colour (decided per connection by the hub). May throw when the
   * transport failed: the hub then drops the connection.
   */
  deliver(frame: EncodedFrame, colour: boolean): void;
  /** Ends the session with a close code of docs/protocol.md; the hub has let go of it already. */
  close(code: number, reason: string): void;
  /**
   * Lines the client typed that the hub had read (acknowledged) and not yet run when it closed
   * the session for a restart, oldest first; called just before that `close`. A carrier that can
   * hands them back to its client, which sends them to the next engine before anything typed
   * later (the engine's own telnet players); others lose them, as before.
   */
  unread?(lines: string[]): void;
  /**
   * Bytes accepted and not yet taken by the client; over the hub's bound the client is dropped
   * as too slow. Carriers that bound their output themselves say 0.
   */
  readonly buffered: number;
}

/**
 * What a telnet client reports of its player (each field only when it knows it): the address
 * and terminal, when the player connected and last typed (so `who` and the idle limit see
 * through engine restarts), and the window size. Believed only from the telnet sidecar's
 * sessions (`trusted`), except the window size.
 */
export interface ClientReport {
  ip?: string | null;
  ttype?: string | null;
  /** When the telnet client connected (ms since epoch). */
  connectedAt?: number | null;
  /** When that player last typed a line (ms since epoch). */
  lastInput?: number | null;
  /** Colours the terminal shows as the client negotiated it (TTYPE, MTTS): 0, 16, 256 or 16777216. */
  colourDepth?: number | null;
  width?: number | null;
  height?: number | null;
  /** GMCP is on (null: off), with the packages the client announced (null: it gets all). */
  gmcp?: { supports: string[] | null } | null;
}

/** How a carrier opens a session. */
export interface SessionOpening {
  kind: ClientKind;
  /** The peer's address (for the sidecar's sessions, its own, until a report names the player's). */
  ip: string;
  /** The telnet sidecar's (its reports are believed; it is not counted under its own address). */
  trusted: boolean;
  /** A session token to log in with at once (`?token=`). */
  token?: string | null;
  /** With `token`: a silent resume (no login messages, nothing announced). */
  resume?: boolean;
}

/** The hub's end of an open session, as its carrier calls it (the hub's Connection). */
export interface SessionEnd {
  /** The connection's id (`c12`), for log lines. */
  readonly id: string;
  /** The client's address as the hub knows it (the one a telnet client reported, if any). */
  readonly ip: string;
  /** True once the hub has closed it or let go of it. */
  readonly closed: boolean;
  /** A frame as the carrier got it (text, or an ArrayBuffer for a binary frame). */
  received(data: unknown): void;
  /**
   * A line the client typed, handed over as it is: true when the hub read it, which is the
   * acknowledgement the telnet pacing rule waits for; false when it was dropped.
   */
  line(text: string): boolean;
  /** What a telnet client reports of its player. */
  report(report: ClientReport): void;
  /** A GMCP message the client sent (a plugin's package; Core's are answered by the client). */
  gmcp(pkg: string, data: unknown): void;
  /**
   * The carrier's transport is gone (closed by either side, or lost). `leaving`: the client said
   * its page is going away (a browser's WebSocket close 1001 on a reload, a new address or a
   * closed tab), so it may well be back in a moment.
   */
  ended(leaving?: boolean): void;
}

/** What carriers open sessions with: the hub. */
export interface SessionHub {
  /**
   * Opens a session once the carrier can send to it; one refused (a cap, the hub stopping) has
   * been told why and closed before this returns.
   */
  connect(session: Session, opening: SessionOpening): SessionEnd;
  /** True once the hub is stopping. */
  readonly stopping: boolean;
  /** Runs `close` when the hub stops, after every session was closed; returns its remover. */
  onStop(close: () => void): () => void;
}
