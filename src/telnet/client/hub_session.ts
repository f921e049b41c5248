/**
 * One telnet player's hub session across engine restarts: the session token and player, the
 * resume (the hub's output is held until it confirms, since on success that output is the login
 * screen the player skips), and what the player is told when the hub goes away, comes back or
 * ends the session. Which hub frames reach the player is decided here; how they look is not.
 */
import type { HubFrame, HubInput } from "./hub_frames.ts";
import { NOTICES } from "./notices.ts";

/** Frames held while a resume waits for the hub's answer. */
const MAX_HELD = 32;

/** Longest a resume waits while the hub is still answering other sessions', in timeouts. */
const MAX_BUSY_WAITS = 6;

/** Where the session stands: hub away, resume sent and not yet answered, or taking lines. */
export type SessionPhase = "waiting" | "resuming" | "ready";

/** A logged-in player as the hub named them. */
export interface SessionPlayer {
  id: string;
  name: string;
}

/** What the session needs of its telnet client. */
export interface SessionHost {
  /** Shows a notice (or the hub's own closing line) to the player. */
  say(msg: string): void;
  /** The session takes lines now: send what waits. */
  ready(): void;
  /** A `session` frame arrived (its colour setting); `player` is the player it names, if any. */
  session(data: Record<string, unknown>, player: SessionPlayer | null): void;
  /** The resume was refused: input typed for the old session must not reach a login prompt. */
  resumeRefused(): void;
  /** A frame held during a refused resume, to be handled as if it just arrived. */
  replay(frame: HubInput): void;
  /** The hub announced the end of this session: the close that follows is final. */
  expectEnd(): void;
  /** The player logged out (MUX's LOGOUT): the connection goes on at the connect screen. */
  loggedOut(): void;
  /**
   * When the hub last answered any session's resume (ms since epoch; shared by the sidecar's
   * sessions), and the call that records such an answer. A reboot resumes every session in one
   * exchange, and the hub answers them one after another: with 10,000 on a busy machine the last
   * answer came more than 10 s after the first, so a resume only times out once the hub has
   * answered nobody for the timeout.
   */
  resumeProgress?: ResumeProgress;
}

/** When the hub last answered any session's resume, shared by a sidecar's sessions. */
export interface ResumeProgress {
  /** The last answer's time, ms since epoch (0: none yet). */
  last(): number;
  /** Records an answer now. */
  answered(): void;
}

/** The hub-side state of one telnet player. */
export class HubSession {
  readonly #host: SessionHost;
  readonly #resumeTimeoutMs: number;
  #phase: SessionPhase = "waiting";
  #token: string | null = null;
  #player: SessionPlayer | null = null;
  #held: HubInput[] = [];
  #resumeTimer: ReturnType<typeof setTimeout> | undefined;
  #resumeStarted = 0;
  /** The player was told the hub is away and has not yet been told it is back. */
  #wasDown = false;
  /** What the player was told then was the hub's own line that it is stopping for good. */
  #toldStopping = false;
  /** This connection's close reason from the hub, shown if the close turns out final. */
  #lastWords: string | null = null;
  /** The hub said it is stopping, not restarting (`restart: false` on its disconnect frame). */
  #hubStopping = false;

  /**
   * With `carried` (the token and player of a session another process served), the session is
   * resumed at the first open, and the player, told then that the server was away, is told when
   * it is back.
   */
  constructor(
    host: SessionHost,
    resumeTimeoutMs: number,
    carried: { token: string | null; player: SessionPlayer | null } | null = null,
  ) {
    this.#host = host;
    this.#resumeTimeoutMs = resumeTimeoutMs;
    if (carried) {
      this.#token = carried.token;
      this.#player = carried.token === null ? null : carried.player;
      this.#wasDown = true;
    }
  }

  /**
   * The session token, or null before a login: the next connection resumes with it (the hub
   * logs the player in silently, and shows the connect screen only if that fails).
   */
  get token(): string | null {
    return this.#token;
  }

  /** Where the session stands. */
  get phase(): SessionPhase {
    return this.#phase;
  }

  /** The logged-in player, or null. */
  get player(): SessionPlayer | null {
    return this.#player;
  }

  /**
   * True when a frame that is neither the session's nor its closing one would be shown as it
   * is, with nothing held and nothing to tell the player before it (see `admit`).
   */
  get quiet(): boolean {
    return this.#phase === "ready" && !this.#wasDown && this.#lastWords === null;
  }

  /** True when the player's last word from the hub was that it stops for good (not restarts). */
  get toldStopping(): boolean {
    return this.#wasDown && this.#toldStopping;
  }

  /** The hub socket opened: resume the session, or take lines at once when there is none. */
  opened(): void {
    if (this.#token !== null) {
      this.#phase = "resuming";
      this.#held = [];
      clearTimeout(this.#resumeTimer);
      this.#resumeStarted = Date.now();
      this.#resumeTimer = setTimeout(() => this.#resumeTimedOut(), this.#resumeTimeoutMs);
      return;
    }
    // "Back" waits for the hub's first frame: an engine still stopping accepts and refuses.
    this.#ready();
  }

  /** The hub went away (`wasOpen`: it had been up); the player is told once per outage. */
  down(wasOpen: boolean): void {
    // On a restart our notice says more than the hub's own line; on a stop only its line is true.
    const stopping = this.#hubStopping && this.#lastWords !== null;
    const notice = stopping ? this.#lastWords! : wasOpen ? NOTICES.restarting : NOTICES.starting;
    this.#lastWords = null;
    this.#hubStopping = false;
    this.#phase = "waiting";
    clearTimeout(this.#resumeTimer);
    // Once per outage, however many attempts reach an engine that is still going away.
    if (!this.#wasDown) {
      this.#host.say(notice);
      this.#toldStopping = stopping;
    }
    this.#wasDown = true;
  }

  /** The hub ended the session for good: its close reason, if it gave one, is shown. */
  final(): void {
    if (this.#lastWords !== null) this.#host.say(this.#lastWords);
    this.#lastWords = null;
  }

  /**
   * A frame from the hub (its text, and read into its parts): true when the player should see
   * it, false when it was held, consumed or is this connection's close reason.
   */
  admit(text: HubInput, f: HubFrame): boolean {
    const closing = f.type === "disconnect" && f.data.player === undefined;
    if (this.#phase === "resuming") {
      if (f.type === "session") {
        this.#host.resumeProgress?.answered();
        this.#session(f.data);
        this.#held = [];
        if (f.data.resumed === true) this.#host.say(NOTICES.resumed);
        this.#wasDown = false;
        this.#ready();
        if (f.data.resumed === true) return false;
      } else if (f.type === "error") {
        this.#held.push(text);
        this.#resumeFailed();
        return false;
      } else {
        // Until the hub confirms, output is held: on success it is the login screen we skip.
        if (this.#held.length < MAX_HELD) this.#held.push(text);
        return false;
      }
    } else if (f.type === "session") {
      this.#session(f.data);
    } else if (f.type === "logout") {
      // The session is over: a restart must not bring the character back.
      this.#token = null;
      this.#player = null;
      this.#host.loggedOut();
    }
    if (this.#wasDown && !closing) {
      this.#host.say(NOTICES.back);
      this.#wasDown = false;
    }
    if (this.#lastWords !== null) {
      this.#host.say(this.#lastWords);
      this.#lastWords = null;
      this.#hubStopping = false;
    }
    if (closing) {
      // This connection's close reason (others leaving carry `player`). Shown only if the
      // close that follows is final (quit, @boot), or when the engine stops for good.
      this.#lastWords = f.msg;
      this.#hubStopping = f.data.restart === false;
      // Without `restart` it ends this session for good (quit, @boot, idle, a cap).
      if (f.data.restart === undefined) this.#host.expectEnd();
      return false;
    }
    return true;
  }

  /** Stops the resume timer (the client is closing). */
  stop(): void {
    clearTimeout(this.#resumeTimer);
  }

  #ready(): void {
    clearTimeout(this.#resumeTimer);
    this.#phase = "ready";
    this.#host.ready();
  }

  /** The wait ran out: fails, unless the hub is still answering other sessions' resumes. */
  #resumeTimedOut(): void {
    const now = Date.now();
    const quiet = now - (this.#host.resumeProgress?.last() ?? 0);
    const waited = now - this.#resumeStarted;
    if (quiet < this.#resumeTimeoutMs && waited < MAX_BUSY_WAITS * this.#resumeTimeoutMs) {
      this.#resumeTimer = setTimeout(() => this.#resumeTimedOut(), this.#resumeTimeoutMs - quiet);
      return;
    }
    this.#resumeFailed();
  }

  #resumeFailed(): void {
    if (this.#phase !== "resuming") return;
    clearTimeout(this.#resumeTimer);
    this.#token = null;
    this.#player = null;
    // What was typed was meant for the logged-in player; it must not reach a login prompt.
    this.#host.resumeRefused();
    this.#host.say(NOTICES.resumeFailed);
    const held = this.#held;
    this.#held = [];
    this.#phase = "ready";
    this.#wasDown = false;
    for (const frame of held) this.#host.replay(frame);
  }

  #session(data: Record<string, unknown>): void {
    if (typeof data.token === "string") this.#token = data.token;
    const p = data.player as Record<string, unknown> | undefined;
    const named = p && typeof p.id === "string" && typeof p.name === "string"
      ? { id: p.id, name: p.name }
      : null;
    if (named) this.#player = named;
    this.#host.session(data, named);
  }
}
