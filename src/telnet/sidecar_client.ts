/**
 * One telnet player in the sidecar: a TCP socket and its telnet protocol state on one side, a
 * hub WebSocket session (client=telnet) on the other. Survives engine restarts: input is kept
 * (bounded) while the hub is away and the session is resumed with its token when it is back.
 */
import { renderText, stripColour } from "../text/colour.ts";
import {
  type ColourMode,
  colourModeOf,
  terminalHasColour,
  wantsColour,
} from "../text/colour_mode.ts";
import { SIDECAR_HEADER } from "../hub/sidecar_auth.ts";
import { isGmcpPackage } from "./gmcp.ts";
import { HubLink } from "./hub_link.ts";
import { HubPacer } from "./pacer.ts";
import { type TelnetEvent, TelnetSession } from "./session.ts";
import type { MsspSource } from "./sidecar_mssp.ts";
import { SocketWriter } from "./socket_writer.ts";

/** Per-connection limits; every buffer the sidecar holds for a client is bounded by one of these. */
export interface ClientLimits {
  /** Output waiting for a client that does not read; beyond it the client is dropped. */
  maxOutputBytes: number;
  /** Input lines waiting to go to the hub (engine restarting, or typed faster than the rate). */
  maxBufferedLines: number;
  /** Input bytes waiting to go to the hub. */
  maxBufferedBytes: number;
  /**
   * Lines the hub may read from this connection in any second. The hub drops a player's commands
   * beyond 10 a second, so a paste or the replay after a restart is paced instead of being cut
   * off; the hub acknowledges each line as it reads it (see pacer.ts), so a stalled engine cannot
   * receive them bunched. Below 10 to leave room for the same player's other connections, which
   * share the hub's limit.
   */
  hubFramesPerSecond: number;
  /** Longest input line (UTF-8 bytes); longer lines are refused whole. */
  maxLineBytes: number;
  /** Longest telnet subnegotiation kept (bytes); longer ones are dropped. */
  maxSubnegotiation: number;
  /** Malformed telnet sequences and overlong lines tolerated before the client is closed. */
  maxProtocolErrors: number;
  /** How long to wait for the hub to confirm a resumed session. */
  resumeTimeoutMs: number;
  /**
   * Longest wait between reconnect attempts to the hub. Short, because a refused connection
   * costs almost nothing and every extra wait is downtime the player sees after a reboot.
   */
  maxRetryMs: number;
}

/** The limits the sidecar runs with unless told otherwise. */
export const DEFAULT_LIMITS: ClientLimits = {
  maxOutputBytes: 1024 * 1024,
  maxBufferedLines: 50,
  maxBufferedBytes: 8 * 1024,
  hubFramesPerSecond: 8,
  maxLineBytes: 8 * 1024,
  maxSubnegotiation: 8 * 1024,
  maxProtocolErrors: 64,
  resumeTimeoutMs: 10_000,
  maxRetryMs: 500,
};

/** What a client needs from its sidecar. */
export interface ClientContext {
  /** WebSocket URL of the hub, with `client=telnet`. */
  hubUrl: string;
  /**
   * The secret that makes the hub trust this sidecar's `client` frames (see
   * src/hub/sidecar_auth.ts); null: none, and no `client` frames are sent (the hub would refuse
   * them).
   */
  sidecarSecret: string | null;
  mssp: MsspSource;
  limits: ClientLimits;
  log(line: string): void;
  /** Called once when the client is gone. */
  closed(client: TelnetClient): void;
  /** Called when the client starts waiting for the hub (it may be asked to `redial` early). */
  waiting(): void;
}

/** Notices the sidecar itself shows; colour codes are rendered like hub text. */
export const NOTICES = {
  starting: "%ch%cy[The game server is starting. Please wait; you stay connected.]%cn",
  restarting: "%ch%cy[The game server is restarting. Please wait; you stay connected " +
    "and what you type is kept.]%cn",
  back: "%ch%cg[The game server is back.]%cn",
  resumed: "%ch%cg[The game server is back. Your session continues.]%cn",
  resumeFailed: "%ch%cr[Your session could not be resumed; please log in again.]%cn",
  bufferFull: "%ch%cr[Input not kept: too much typed while the server restarts.]%cn",
  tooFast: "%ch%cr[Input not kept: you are typing faster than the game accepts.]%cn",
  lineTooLong: "%ch%cr[That line is too long and was ignored.]%cn",
  shutdown: "%ch%cr[The server is shutting down. Goodbye.]%cn",
  tooManyErrors: "Too much malformed telnet input; closing the connection.",
} as const;

type Phase = "waiting" | "resuming" | "ready";

const PASSWORD_PROMPT = /^\s*(connect|co|create|cr)\s+(\S+)\s*$/i;

/** One telnet connection bridged to one hub session. */
export class TelnetClient {
  readonly ip: string;
  readonly #conn: Deno.TcpConn;
  readonly #ctx: ClientContext;
  readonly #writer: SocketWriter;
  readonly #session: TelnetSession;
  readonly #link: HubLink;
  #phase: Phase = "waiting";
  #closed = false;
  #token: string | null = null;
  #player: { id: string; name: string } | null = null;
  #passwordFor: { verb: string; name: string } | null = null;
  /** Lines waiting for the hub, in order. */
  #outbox: string[] = [];
  #outboxBytes = 0;
  #outboxFullNoticed = false;
  readonly #pacer: HubPacer;
  #pumpTimer: ReturnType<typeof setTimeout> | undefined;
  /** The player was told the hub is away and has not yet been told it is back. */
  #wasDown = false;
  /** What the player was told then was the hub's own line that it is stopping for good. */
  #toldStopping = false;
  #held: string[] = [];
  #resumeTimer: ReturnType<typeof setTimeout> | undefined;
  #errors = 0;
  #gmcpClient: string | null = null;
  /** When the telnet client connected, and last typed a line (ms since epoch). */
  readonly #connectedAt = Date.now();
  #lastInput = this.#connectedAt;
  #finished = false;
  /** This connection's close reason from the hub, shown if the close turns out final. */
  #lastWords: string | null = null;
  /** The hub said it is stopping, not restarting (`restart: false` on its disconnect frame). */
  #hubStopping = false;
  /** The player's colour setting, as the hub last said (session and `colour` frames). */
  #colourMode: ColourMode = "auto";
  /** Whether output gets ANSI colour: decided when the setting or the terminal type changes. */
  #colour = true;

  constructor(conn: Deno.TcpConn, ctx: ClientContext) {
    this.#conn = conn;
    this.#ctx = ctx;
    this.ip = (conn.remoteAddr as Deno.NetAddr).hostname ?? "";
    this.#pacer = new HubPacer({ perWindow: ctx.limits.hubFramesPerSecond });
    // Replies are single writes; without this each would wait ~40 ms on delayed ACKs.
    conn.setNoDelay(true);
    this.#writer = new SocketWriter(conn, {
      maxQueuedBytes: ctx.limits.maxOutputBytes,
      onOverflow: () => {
        ctx.log(`telnet: ${this.ip} stopped reading; dropped`);
        this.#abort();
      },
      onError: () => this.#abort(),
    });
    this.#session = new TelnetSession({
      write: (bytes) => this.#writer.write(bytes),
      mssp: () => ctx.mssp.table(),
      maxLineBytes: ctx.limits.maxLineBytes,
      maxSubnegotiation: ctx.limits.maxSubnegotiation,
      onError: () => this.#abort(),
    });
    this.#link = new HubLink(() => this.#hubUrl(), {
      onOpen: () => this.#hubOpen(),
      onFrame: (text) => this.#hubFrame(text),
      onDown: (wasOpen) => this.#hubDown(wasOpen),
      onFinal: () => this.#hubFinal(),
    }, {
      maxRetryMs: ctx.limits.maxRetryMs,
      headers: ctx.sidecarSecret === null ? undefined : { [SIDECAR_HEADER]: ctx.sidecarSecret },
    });
  }

  /** The hub is back: a client waiting to retry dials within `spreadMs` instead. */
  redial(spreadMs: number): void {
    // Spread out, so hundreds of players do not reach the new engine in the same millisecond.
    this.#link.retrySoon(Math.random() * spreadMs);
  }

  /** The logged-in player, or null. */
  get player(): { id: string; name: string } | null {
    return this.#player;
  }

  /** Negotiates, connects to the hub and reads until the client goes away. */
  async run(): Promise<void> {
    this.#ctx.mssp.refresh();
    this.#session.start();
    this.#link.connect();
    const buf = new Uint8Array(16 * 1024);
    try {
      for (;;) {
        const n = await this.#conn.read(buf);
        if (n === null) break;
        // While closing, input is read and ignored so the goodbye can still be flushed.
        if (!this.#closed) this.#input(buf.subarray(0, n));
      }
    } catch { /* reset by peer or closed by us */ }
    // The client left; a close already under way finishes on its own (its writes fail fast).
    if (!this.#closed) this.#abort();
  }

  /** Says goodbye (sidecar stopping) and closes. */
  async shutdown(): Promise<void> {
    if (this.#closed) return;
    // After the hub's own "shutting down" line (a stop stops the sidecar too), a second one
    // would only repeat it.
    if (!(this.#wasDown && this.#toldStopping)) this.#say(NOTICES.shutdown);
    await this.close();
  }

  /** Flushes what is queued (briefly), then closes the socket and the hub session. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#link.close();
    clearTimeout(this.#resumeTimer);
    clearTimeout(this.#pumpTimer);
    await withTimeout(
      (async () => {
        await this.#session.close();
        await this.#writer.idle();
      })(),
      2_000,
    );
    this.#finish();
  }

  /** Closes at once without flushing (socket dead or client not reading). */
  #abort(): void {
    if (this.#closed) {
      this.#finish();
      return;
    }
    this.#closed = true;
    this.#link.close();
    clearTimeout(this.#resumeTimer);
    clearTimeout(this.#pumpTimer);
    this.#finish();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    try {
      this.#conn.close();
    } catch { /* already closed */ }
    this.#ctx.closed(this);
  }

  // ---- telnet side ----

  #input(chunk: Uint8Array): void {
    const { events } = this.#session.receive(chunk);
    for (const ev of events) {
      if (this.#closed) return;
      this.#event(ev);
    }
  }

  #event(ev: TelnetEvent): void {
    switch (ev.type) {
      case "line":
        if (ev.truncated) {
          this.#protocolError();
          this.#say(NOTICES.lineTooLong);
          return;
        }
        this.#line(ev.text);
        return;
      case "naws":
        this.#sendWindow();
        return;
      case "ttype":
        if (ev.index === 0) this.#sendClientInfo();
        this.#decideColour();
        return;
      case "mtts":
        this.#decideColour();
        return;
      case "gmcp":
        this.#gmcp(ev.package, ev.data);
        return;
      case "error":
        this.#protocolError();
        return;
    }
  }

  #protocolError(): void {
    if (++this.#errors > this.#ctx.limits.maxProtocolErrors) {
      this.#ctx.log(`telnet: ${this.ip} sent too much malformed input; closed`);
      this.#say(NOTICES.tooManyErrors);
      this.close();
    }
  }

  #gmcp(pkg: string, data: unknown): void {
    if (pkg.toLowerCase() !== "core.hello" || typeof data !== "object" || data === null) return;
    const client = (data as Record<string, unknown>).client;
    if (typeof client === "string" && client.length > 0) {
      this.#gmcpClient = client.slice(0, 64);
      if (this.#session.clientName === null) this.#sendClientInfo();
    }
  }

  #line(text: string): void {
    this.#lastInput = Date.now();
    if (this.#passwordFor) {
      const { verb, name } = this.#passwordFor;
      this.#passwordFor = null;
      this.#session.showInput();
      // The client did not echo the Enter either.
      this.#session.send("\n");
      this.#forward(`${verb} ${name} ${text}`);
      return;
    }
    const m = this.#player === null ? PASSWORD_PROMPT.exec(text) : null;
    if (m) {
      this.#passwordFor = { verb: m[1], name: m[2] };
      this.#session.hideInput();
      this.#session.send("Password: ");
      return;
    }
    if (this.#phase !== "ready" && /^\s*quit\s*$/i.test(text)) {
      // Nothing to tell the hub while it is away.
      this.#say("Goodbye!");
      this.close();
      return;
    }
    this.#forward(text);
  }

  /** Queues a line for the hub (bounded) and sends what the pace allows. */
  #forward(line: string): void {
    if (line.trim() === "") return;
    const bytes = new TextEncoder().encode(line).length;
    const limits = this.#ctx.limits;
    if (
      this.#outbox.length >= limits.maxBufferedLines ||
      this.#outboxBytes + bytes > limits.maxBufferedBytes
    ) {
      if (!this.#outboxFullNoticed) {
        this.#say(this.#phase === "ready" ? NOTICES.tooFast : NOTICES.bufferFull);
      }
      this.#outboxFullNoticed = true;
      return;
    }
    this.#outbox.push(line);
    this.#outboxBytes += bytes;
    this.#pump();
  }

  /** Sends queued lines while the hub is ready, as fast as the pacer allows. */
  #pump(): void {
    clearTimeout(this.#pumpTimer);
    this.#pumpTimer = undefined;
    if (this.#phase !== "ready" || this.#closed || !this.#link.open) return;
    const now = performance.now();
    while (this.#outbox.length > 0 && this.#pacer.mayShip(now)) {
      const line = this.#outbox[0];
      const ack = this.#pacer.ship(now);
      // Not sent: the hub just went away (its pacing state is reset then); the line stays first
      // in line for after the resume.
      if (!this.#link.send(JSON.stringify(ack === null ? { msg: line } : { msg: line, ack }))) {
        return;
      }
      this.#outbox.shift();
      this.#outboxBytes -= new TextEncoder().encode(line).length;
    }
    const ping = this.#pacer.ping(now, this.#outbox.length > 0);
    if (ping !== null) this.#link.send(JSON.stringify({ type: "ping", id: ping }));
    if (this.#outbox.length === 0) {
      this.#outboxFullNoticed = false;
      return;
    }
    // Otherwise a pong, or the time the pacer names, lets more go.
    const wait = this.#pacer.wait(now);
    if (wait !== null) this.#pumpTimer = setTimeout(() => this.#pump(), wait);
  }

  #dropOutbox(): void {
    this.#outbox = [];
    this.#outboxBytes = 0;
    this.#outboxFullNoticed = false;
    clearTimeout(this.#pumpTimer);
    this.#pumpTimer = undefined;
  }

  /** Colour for this client: the player's setting, else what its terminal says (DUMB, MTTS). */
  #decideColour(): void {
    const terminal = terminalHasColour(this.#session.terminalTypes, this.#session.mtts);
    this.#colour = wantsColour(this.#colourMode, terminal);
  }

  /** Shows text with colour codes as ANSI (or without colour), ending with a line break. */
  #say(msg: string): void {
    const text = renderText(msg, this.#colour);
    this.#session.send(text.endsWith("\n") ? text : text + "\n");
  }

  // ---- hub side ----

  /**
   * The hub URL for the next attempt. With a session it carries the token and `resume=1`: the
   * hub logs the connection in silently at open, and shows the connect screen only if that fails.
   */
  #hubUrl(): string {
    if (this.#token === null) return this.#ctx.hubUrl;
    const url = new URL(this.#ctx.hubUrl);
    url.searchParams.set("token", this.#token);
    url.searchParams.set("resume", "1");
    return url.href;
  }

  #hubOpen(): void {
    this.#sendClientInfo();
    this.#sendWindow();
    if (this.#token !== null) {
      this.#phase = "resuming";
      this.#held = [];
      clearTimeout(this.#resumeTimer);
      this.#resumeTimer = setTimeout(() => this.#resumeFailed(), this.#ctx.limits.resumeTimeoutMs);
      return;
    }
    // "Back" waits for the hub's first frame: an engine still stopping accepts and refuses.
    this.#ready();
  }

  #hubDown(wasOpen: boolean): void {
    // On a restart our notice says more than the hub's own line; on a stop only its line is true.
    const stopping = this.#hubStopping && this.#lastWords !== null;
    const notice = stopping ? this.#lastWords! : wasOpen ? NOTICES.restarting : NOTICES.starting;
    this.#lastWords = null;
    this.#hubStopping = false;
    this.#phase = "waiting";
    this.#outboxFullNoticed = false;
    this.#pacer.reset(performance.now());
    clearTimeout(this.#resumeTimer);
    clearTimeout(this.#pumpTimer);
    // Once per outage, however many attempts reach an engine that is still going away.
    if (!this.#wasDown) {
      this.#say(notice);
      this.#toldStopping = stopping;
    }
    this.#wasDown = true;
    this.#ctx.waiting();
  }

  #hubFinal(): void {
    if (this.#lastWords !== null) this.#say(this.#lastWords);
    this.#lastWords = null;
    this.close();
  }

  #ready(): void {
    clearTimeout(this.#resumeTimer);
    this.#phase = "ready";
    this.#pump();
  }

  #resumeFailed(): void {
    if (this.#phase !== "resuming") return;
    this.#token = null;
    this.#player = null;
    // What was typed was meant for the logged-in player; it must not reach a login prompt.
    this.#dropOutbox();
    this.#say(NOTICES.resumeFailed);
    const held = this.#held;
    this.#held = [];
    this.#phase = "ready";
    this.#wasDown = false;
    for (const frame of held) this.#hubFrame(frame);
  }

  #hubFrame(text: string): void {
    if (this.#closed) return;
    let msg = text;
    let data: Record<string, unknown> = {};
    let gmcp: unknown = undefined;
    if (text.startsWith("{")) {
      try {
        const f = JSON.parse(text);
        if (typeof f === "object" && f !== null) {
          msg = typeof f.msg === "string" ? f.msg : "";
          if (typeof f.data === "object" && f.data !== null) data = f.data;
          gmcp = f.gmcp;
        }
      } catch { /* shown as text */ }
    }
    const type = typeof data.type === "string" ? data.type : "";
    if (type === "ack" || type === "pong") {
      this.#pacer.confirm(typeof data.id === "number" ? data.id : null, performance.now());
      this.#pump();
      return;
    }
    const closing = type === "disconnect" && data.player === undefined;
    if (this.#phase === "resuming") {
      if (type === "session") {
        this.#sessionFrame(data);
        this.#held = [];
        if (data.resumed === true) this.#say(NOTICES.resumed);
        this.#wasDown = false;
        this.#ready();
        if (data.resumed === true) return;
      } else if (type === "error") {
        this.#held.push(text);
        this.#resumeFailed();
        return;
      } else {
        // Until the hub confirms, output is held: on success it is the login screen we skip.
        if (this.#held.length < 32) this.#held.push(text);
        return;
      }
    } else if (type === "session") {
      this.#sessionFrame(data);
    }
    if (this.#wasDown && !closing) {
      this.#say(NOTICES.back);
      this.#wasDown = false;
    }
    if (this.#lastWords !== null) {
      this.#say(this.#lastWords);
      this.#lastWords = null;
      this.#hubStopping = false;
    }
    if (closing) {
      // This connection's close reason (others leaving carry `player`). Shown only if the
      // close that follows is final (quit, @boot), or when the engine stops for good.
      this.#lastWords = msg;
      this.#hubStopping = data.restart === false;
      // Without `restart` it ends this session for good (quit, @boot, idle, a cap).
      if (data.restart === undefined) this.#link.expectEnd();
      return;
    }
    if (type === "colour") {
      this.#colourMode = colourModeOf(data.mode);
      this.#decideColour();
    }
    if (type === "room") this.#gmcpRoom(data);
    if (gmcp !== undefined) this.#gmcpForward(gmcp);
    if (msg !== "") this.#say(msg);
  }

  #sessionFrame(data: Record<string, unknown>): void {
    if (typeof data.token === "string") this.#token = data.token;
    this.#colourMode = colourModeOf(data.colour);
    this.#decideColour();
    const p = data.player as Record<string, unknown> | undefined;
    if (p && typeof p.id === "string" && typeof p.name === "string") {
      this.#player = { id: p.id, name: p.name };
      this.#session.sendGmcp("Char.Name", { name: p.name, fullname: p.name });
    }
  }

  #gmcpRoom(data: Record<string, unknown>): void {
    if (!this.#session.gmcp) return;
    // As mappers expect (IRE Room.Info): exit name → number of the room it leads to.
    const exits: Record<string, number | string> = {};
    if (Array.isArray(data.exits)) {
      for (const e of data.exits.slice(0, 100)) {
        if (typeof e !== "object" || e === null) continue;
        const x = e as Record<string, unknown>;
        if (typeof x.name === "string") exits[stripColour(x.name)] = roomNum(x.to);
      }
    }
    this.#session.sendGmcp("Room.Info", {
      num: roomNum(data.id),
      name: stripColour(String(data.name ?? "")),
      exits,
    });
  }

  /**
   * A message's GMCP form as the engine built it (`gmcp: [package, payload]`, from a plugin's
   * mapping): sent on as is, but for colour codes in its strings, rendered like message text.
   */
  #gmcpForward(gmcp: unknown): void {
    if (!this.#session.gmcp || !Array.isArray(gmcp) || typeof gmcp[0] !== "string") return;
    const [pkg, payload] = gmcp;
    if (!isGmcpPackage(pkg)) return;
    this.#session.sendGmcp(pkg, renderStrings(payload, this.#colour, 0));
  }

  #sendClientInfo(): void {
    if (this.#ctx.sidecarSecret === null) return;
    // The times let `who` and the idle limit see through engine restarts.
    const frame: Record<string, string | number> = {
      type: "client",
      ip: this.ip,
      connectedAt: this.#connectedAt,
      lastInput: this.#lastInput,
    };
    const ttype = this.#session.clientName ?? this.#gmcpClient;
    if (ttype) frame.ttype = ttype.slice(0, 64);
    this.#link.send(JSON.stringify(frame));
  }

  #sendWindow(): void {
    const width = this.#session.width;
    if (!width) return;
    this.#link.send(
      JSON.stringify({ type: "window", width, height: this.#session.height || 24 }),
    );
  }
}

/** Deepest nesting of a GMCP payload whose strings are rendered; deeper values go as they are. */
const MAX_RENDER_DEPTH = 8;

/** A GMCP payload with colour codes in its strings rendered (ANSI, or none without colour). */
function renderStrings(v: unknown, colour: boolean, depth: number): unknown {
  if (typeof v === "string") return renderText(v, colour);
  if (typeof v !== "object" || v === null || depth >= MAX_RENDER_DEPTH) return v;
  if (Array.isArray(v)) return v.map((x) => renderStrings(x, colour, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = renderStrings(x, colour, depth + 1);
  return out;
}

/** A room id as GMCP shows it: a number when it is one, else the text ("" when missing). */
function roomNum(id: unknown): number | string {
  const s = typeof id === "string" || typeof id === "number" ? String(id) : "";
  return /^\d{1,15}$/.test(s) ? Number(s) : s;
}

async function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise<void>((r) => timer = setTimeout(r, ms))]);
  clearTimeout(timer);
}
