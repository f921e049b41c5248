/**
 * Inbound frames and typed lines, and the limits on them: size and UTF-8 checks, the command
 * rate (10 a second per player), the separate bound on keepalive frames (`ping`, `sync`), what
 * the telnet sidecar reports (`client` frames, or a report in memory), and the ordered run of
 * each connection's queued work.
 */
import type { Config } from "../config/load.ts";
import type { SecurityLog } from "../auth/security_log.ts";
import { CloseCode, type Connection, type Task } from "./connection.ts";
import type { ClientReport } from "./session.ts";
import {
  COMMANDS_PER_WINDOW,
  CONTROL_PER_WINDOW,
  looksLikeIp,
  RATE_KEYS,
  RATE_WINDOW_MS,
} from "./limits.ts";
import { SlidingWindows } from "../rate/sliding.ts";
import { TOO_FAST } from "../rate/too_fast.ts";
import type { AddressCounts } from "../net/address_counts.ts";
import { preLogin } from "./login.ts";
import {
  binaryText,
  commandLine,
  type InboundFrame,
  linesOf,
  MAX_FRAME_BYTES,
  MAX_HEIGHT,
  MAX_WIDTH,
  MIN_HEIGHT,
  MIN_WIDTH,
  parseFrame,
  textTooLarge,
  TOO_LONG,
} from "./protocol.ts";
import { TOO_LONG_LINE } from "../commands/limits.ts";
import { errorOut, type Sessions } from "./sessions.ts";
import { lowerCase } from "../text/lower.ts";
import { outputAffix } from "../text/output_affix.ts";

/**
 * Runs one command line of a logged-in connection (the command engine's `dispatch`); a promise
 * only when the command goes on after the call.
 */
export type Dispatcher = (conn: Connection, line: string) => void | Promise<void>;

/** Hands a logged-in player's GMCP message to whoever handles its package (the engine's GmcpMap). */
export type GmcpReceiver = (
  from: { conn: Connection; player: string },
  pkg: string,
  data: unknown,
) => void;

/** Times the sidecar reports are believed back this far (a year); older ones are ignored. */
const REPORTED_TIME_LIMIT_MS = 365 * 24 * 60 * 60 * 1000;

/** Reads frames and runs queued work for every connection of a hub. */
export class Inbound {
  readonly #commands = new SlidingWindows({
    limit: COMMANDS_PER_WINDOW,
    windowMs: RATE_WINDOW_MS,
    maxKeys: RATE_KEYS,
  });
  /** Keepalive frames: their own bound, so they neither use up commands nor flood replies. */
  readonly #control = new SlidingWindows({
    limit: CONTROL_PER_WINDOW,
    windowMs: RATE_WINDOW_MS,
    maxKeys: RATE_KEYS,
  });

  constructor(
    private readonly deps: { config: Config; securityLog: Pick<SecurityLog, "refused"> },
    /** Connections counted per client IP (the sidecar reports its players' addresses). */
    private readonly ips: AddressCounts,
    private readonly sessions: Sessions,
    private readonly dispatch: Dispatcher,
    private readonly gmcpIn: GmcpReceiver,
  ) {}

  /** A frame arrived (string, or ArrayBuffer for a binary frame). */
  frame(conn: Connection, data: unknown): void {
    if (conn.closed) return;
    if (typeof data !== "string") {
      if (!(data instanceof ArrayBuffer) || data.byteLength > MAX_FRAME_BYTES) {
        return this.#tooLarge(conn);
      }
      // A binary frame is read as UTF-8 text. Text frames never get here with bad UTF-8:
      // the runtime drops such a socket itself (docs/protocol.md).
      const text = binaryText(data);
      if (text === null) return this.#notUtf8(conn);
      return this.#handle(conn, parseFrame(text));
    }
    if (textTooLarge(data)) return this.#tooLarge(conn);
    this.#handle(conn, parseFrame(data));
  }

  /**
   * A line typed by a telnet client in this process, as it is: the same checks as a frame's
   * line. True when it was read (its acknowledgement); false when dropped.
   */
  line(conn: Connection, text: string): boolean {
    if (conn.closed) return false;
    if (textTooLarge(text)) {
      this.#tooLarge(conn);
      return false;
    }
    // A telnet line holds no line break (nearly every one): checked and queued as it is,
    // without the lists a frame's lines are gathered in.
    if (text.includes("\n") || text.includes("\r")) return this.#lines(conn, linesOf(text));
    const line = commandLine(text);
    if (line === null || !this.#admit(conn)) return false;
    if (line !== TOO_LONG) return conn.enqueue(line);
    conn.send(errorOut(TOO_LONG_LINE));
    return true;
  }

  /**
   * Runs one queued task of a connection: a step such as a login, or a line. A promise only
   * when the work goes on after the call (a typed command usually finishes in it).
   */
  run(conn: Connection, task: Task): void | Promise<void> {
    if (typeof task !== "string") return task();
    conn.commands++;
    const affix = outputAffix(task);
    if (affix) {
      // MUX: set before or after login, for this connection alone; an empty text clears it.
      if (affix.which === "prefix") conn.outputPrefix = affix.text;
      else conn.outputSuffix = affix.text;
      return;
    }
    if (!conn.playerId) return preLogin(this.sessions, conn, task);
    if (isQuit(task)) return conn.close("Goodbye!");
    if (isLogout(task)) return this.sessions.logout(conn);
    if (conn.outputPrefix) conn.send({ msg: conn.outputPrefix });
    let ran: void | Promise<void> = undefined;
    try {
      ran = this.dispatch(conn, task);
    } catch (e) {
      commandFailed(conn, e);
    }
    if (ran === undefined) return outputSuffix(conn);
    return ran.then(() => outputSuffix(conn), (e) => {
      commandFailed(conn, e);
      outputSuffix(conn);
    });
  }

  /** A connection logged in: from now on its commands count per player. */
  loggedIn(conn: Connection): void {
    this.#commands.forget(`c:${conn.id}`);
  }

  /** A connection closed: its per-connection counts go. */
  closed(conn: Connection): void {
    this.#commands.forget(`c:${conn.id}`);
    this.#control.forget(`c:${conn.id}`);
  }

  #notUtf8(conn: Connection): void {
    console.warn(`hub: closing ${conn.id} (${conn.ip}): a frame that is not valid UTF-8`);
    conn.close("Frames must be UTF-8 text.", CloseCode.invalidData);
  }

  #tooLarge(conn: Connection): void {
    console.warn(`hub: closing ${conn.id} (${conn.ip}): frame over ${MAX_FRAME_BYTES} bytes`);
    conn.close(`Frame too large (limit ${MAX_FRAME_BYTES} bytes).`, CloseCode.tooBig);
  }

  #handle(conn: Connection, f: InboundFrame): void {
    switch (f.kind) {
      case "lines": {
        // Read (not yet run): what the telnet sidecar paces by. A dropped frame gets no ack.
        if (this.#lines(conn, f) && f.ack !== undefined) {
          conn.send({ msg: "", data: { type: "ack", id: f.ack } });
        }
        return;
      }
      case "auth":
        if (this.#admit(conn)) {
          conn.enqueue(() => this.sessions.tokenLogin(conn, f.token, f.resume, false));
        }
        return;
      case "window":
        return this.report(conn, { width: f.width, height: f.height });
      case "client":
        if (conn.sidecar) return this.report(conn, f);
        if (this.#admit(conn)) {
          conn.send(errorOut("Client frames are accepted only from the telnet sidecar."));
        }
        return;
      case "ping":
        // A keepalive (the hub sends no WebSocket pings): answered on read, but not activity and
        // not a command. The pong echoes the id, so a client (the telnet sidecar's pacing) knows
        // what has been read.
        if (this.#allowControl(conn)) {
          conn.send({
            msg: "",
            data: f.id === null ? { type: "pong" } : { type: "pong", id: f.id },
          });
        }
        return;
      case "sync":
        // Answered once everything the connection sent before it has run: it waits in the
        // same queue as the commands (a full queue drops it, like a command).
        if (this.#allowControl(conn)) {
          const data = f.id === null ? { type: "sync" } : { type: "sync", id: f.id };
          conn.enqueue(() => Promise.resolve(conn.send({ msg: "", data })));
        }
        return;
      case "gmcp":
        return this.gmcp(conn, f.package, f.data);
      case "gmcp-supports":
        return this.report(conn, { gmcp: f.state });
      case "bad":
        if (this.#admit(conn)) conn.send(errorOut(f.error));
        return;
    }
  }

  /**
   * A GMCP message a telnet client sent: for a logged-in player, handed on under the command
   * rate (a request costs the game work, like a command); before login, or over the rate, dropped.
   */
  gmcp(conn: Connection, pkg: string, data: unknown): void {
    const player = conn.playerId;
    if (conn.closed || player === null || conn.kind !== "telnet") return;
    if (this.#commands.take(conn.rateKey()) > 0) return;
    this.gmcpIn({ conn, player }, pkg, data);
  }

  /** Queues a frame's command lines (each counted against the rate limit); true when any was read. */
  #lines(conn: Connection, f: { lines: string[]; tooLong: number }): boolean {
    let admitted = false;
    for (const line of f.lines) {
      if (this.#admit(conn)) admitted = conn.enqueue(line) || admitted;
    }
    for (let i = 0; i < f.tooLong; i++) {
      if (this.#admit(conn)) {
        admitted = true;
        conn.send(errorOut(TOO_LONG_LINE));
      }
    }
    return admitted;
  }

  /**
   * A telnet client reports its player's IP, terminal, when it connected and last typed (so
   * `who` and the idle limit see through engine restarts) and its window: believed only from
   * the telnet sidecar's sessions (the window from anyone).
   */
  report(conn: Connection, r: ClientReport): void {
    if (conn.closed) return;
    if (r.gmcp !== undefined && conn.kind === "telnet") {
      const s = r.gmcp?.supports;
      conn.gmcpState = r.gmcp === null ? null : { supports: s ? new Set(s.slice(0, 64)) : null };
    }
    if (typeof r.width === "number") conn.width = clamp(r.width, MIN_WIDTH, MAX_WIDTH);
    if (typeof r.height === "number") conn.height = clamp(r.height, MIN_HEIGHT, MAX_HEIGHT);
    if (!conn.sidecar) return;
    const { ip, ttype, colourDepth } = r;
    if (typeof ttype === "string" && ttype !== "") conn.ttype = ttype.slice(0, 64);
    if (
      colourDepth === 0 || colourDepth === 16 || colourDepth === 256 || colourDepth === 16777216
    ) {
      conn.colourDepth = colourDepth;
    }
    const now = Date.now();
    const past = (t: number | null | undefined): t is number =>
      typeof t === "number" && t <= now && t > now - REPORTED_TIME_LIMIT_MS;
    if (past(r.connectedAt)) conn.connectedAt = Math.min(conn.connectedAt, r.connectedAt);
    // Until this connection has had input of its own, the telnet client knows better.
    if (past(r.lastInput) && !conn.inputSeen) {
      conn.lastInput = Math.max(r.lastInput, conn.connectedAt);
    }
    if (!ip || !looksLikeIp(ip) || ip === conn.ip) return;
    const ips = this.ips;
    if (conn.ipCounted) ips.remove(conn.ip);
    conn.ip = ip;
    const cap = this.deps.config.value.server.maxConnectionsPerIp;
    ips.add(ip);
    conn.ipCounted = true;
    if (cap > 0 && ips.count(ip) > cap) {
      conn.close("Too many connections from your address.", CloseCode.policy);
    }
  }

  /**
   * Counts one command against the rate limit (per player once logged in, so several
   * connections share it; per connection before) and marks the connection active. False means
   * drop it; the connection is told so, at most once a window (a player whose flooding socket
   * was closed and who types at once on another learns why nothing happened).
   */
  #admit(conn: Connection): boolean {
    const now = Date.now();
    conn.lastInput = now;
    conn.inputSeen = true;
    const key = conn.rateKey();
    if (this.#commands.take(key, now) === 0) return true;
    this.#report(this.#commands, key, conn, now, "commands over 10 per second dropped");
    if (now - conn.toldTooFastAt >= RATE_WINDOW_MS) {
      conn.toldTooFastAt = now;
      conn.send(errorOut(TOO_FAST));
    }
    return false;
  }

  /** Counts one keepalive frame against the connection's own bound; false means drop it. */
  #allowControl(conn: Connection): boolean {
    const now = Date.now();
    const key = `c:${conn.id}`;
    if (this.#control.take(key, now) === 0) return true;
    this.#report(
      this.#control,
      key,
      conn,
      now,
      `ping and sync frames over ${CONTROL_PER_WINDOW} per second dropped`,
    );
    return false;
  }

  #report(
    limiter: SlidingWindows,
    key: string,
    conn: Connection,
    now: number,
    detail: string,
  ): void {
    if (!limiter.shouldReport(key, now)) return;
    this.deps.securityLog.refused("WS_RATE_LIMITED", {
      actor: conn.playerId,
      ip: conn.ip,
      detail,
    });
  }
}

/** A dispatch that threw (it never should): logged, and the player told. */
function commandFailed(conn: Connection, e: unknown): void {
  console.error(`hub: command failed for #${conn.playerId}: ${(e as Error)?.stack ?? e}`);
  conn.send(errorOut("Something went wrong running that command."));
}

/** MUX's OUTPUTSUFFIX after a command's output, when the connection set one. */
function outputSuffix(conn: Connection): void {
  if (conn.outputSuffix) conn.send({ msg: conn.outputSuffix });
}

function clamp(v: number, min: number, max: number): number {
  return Number.isFinite(v) ? Math.min(max, Math.max(min, Math.round(v))) : min;
}

/** True for `quit` in any case, with spaces around it (checked before every line is run). */
export function isQuit(line: string): boolean {
  const t = line.trim();
  return t.length === 4 && lowerCase(t) === "quit";
}

/** True for MUX's `logout` in any case, alone on its line (the hub answers it, as `quit`). */
export function isLogout(line: string): boolean {
  const t = line.trim();
  return t.length === 6 && lowerCase(t) === "logout";
}
