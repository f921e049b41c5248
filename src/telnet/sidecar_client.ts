/**
 * One telnet player in the sidecar: a TCP socket and its telnet protocol state on one side, a
 * hub WebSocket session (client=telnet) on the other. Survives engine restarts: input is kept
 * (bounded) while the hub is away and the session is resumed with its token when it is back.
 * This module wires the parts and owns the socket's life; the parts are the hub link
 * (hub_link.ts), the session and its resume (hub_session.ts), the outbox of typed lines
 * (outbox.ts), the frames (hub_frames.ts), the GMCP sent on (gmcp_relay.ts) and the password
 * prompt (password_prompt.ts).
 */
import {
  type ColourMode,
  colourModeOf,
  terminalHasColour,
  wantsColour,
} from "../text/colour_mode.ts";
import { SIDECAR_HEADER } from "../hub/sidecar_auth.ts";
import type { ClientLimits } from "./client_limits.ts";
import { charName, helloClient, roomInfo } from "./gmcp_relay.ts";
import { clientFrame, windowFrame } from "./hub_frames.ts";
import { HubLink } from "./hub_link.ts";
import { HubSession, type ResumeProgress, type SessionPlayer } from "./hub_session.ts";
import { NOTICES } from "./notices.ts";
import { HubOutbox } from "./outbox.ts";
import { PasswordPrompt } from "./password_prompt.ts";
import type { RenderMemo } from "./render_memo.ts";
import { type TelnetEvent, TelnetSession } from "./session.ts";
import type { MsspSource } from "./sidecar_mssp.ts";
import { SocketWriter } from "./socket_writer.ts";

/** Size of each telnet socket's read buffer. */
const READ_BUFFER_BYTES = 512;

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
  /** The sidecar's one memo: a frame sent to many players is read and rendered once. */
  memo: RenderMemo;
  limits: ClientLimits;
  log(line: string): void;
  /** Called once when the client is gone. */
  closed(client: TelnetClient): void;
  /** Called when the client starts waiting for the hub (it may be asked to `redial` early). */
  waiting(): void;
  /**
   * Opens the client's hub session: a session of the sidecar's one link (mux_client.ts), or,
   * when absent, a WebSocket of its own.
   */
  dial?: (url: string) => WebSocket;
  /** When the hub last answered any session's resume (see HubSession's `resumeProgress`). */
  resumeProgress?: ResumeProgress;
}

/** One telnet connection bridged to one hub session. */
export class TelnetClient {
  readonly ip: string;
  readonly #conn: Deno.TcpConn;
  readonly #ctx: ClientContext;
  readonly #writer: SocketWriter;
  readonly #session: TelnetSession;
  readonly #link: HubLink;
  readonly #hub: HubSession;
  readonly #outbox: HubOutbox;
  readonly #password = new PasswordPrompt();
  #closed = false;
  #finished = false;
  #errors = 0;
  #gmcpClient: string | null = null;
  /** When the telnet client connected, and last typed a line (ms since epoch). */
  readonly #connectedAt = Date.now();
  #lastInput = this.#connectedAt;
  /** The player's colour setting, as the hub last said (session and `colour` frames). */
  #colourMode: ColourMode = "auto";
  /** Whether output gets ANSI colour: decided when the setting or the terminal type changes. */
  #colour = true;

  constructor(conn: Deno.TcpConn, ctx: ClientContext) {
    this.#conn = conn;
    this.#ctx = ctx;
    this.ip = (conn.remoteAddr as Deno.NetAddr).hostname ?? "";
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
    this.#hub = new HubSession({
      say: (msg) => this.#say(msg),
      ready: () => this.#outbox.pump(),
      session: (data, player) => this.#sessionFrame(data, player),
      resumeRefused: () => this.#outbox.drop(),
      replay: (text) => this.#hubFrame(text),
      expectEnd: () => this.#link.expectEnd(),
      resumeProgress: ctx.resumeProgress,
    }, ctx.limits.resumeTimeoutMs);
    this.#link = new HubLink(() => this.#hub.url(ctx.hubUrl), {
      onOpen: () => this.#hubOpen(),
      onFrame: (text) => this.#hubFrame(text),
      onDown: (wasOpen) => this.#hubDown(wasOpen),
      onFinal: () => this.#hubFinal(),
    }, {
      maxRetryMs: ctx.limits.maxRetryMs,
      headers: ctx.sidecarSecret === null ? undefined : { [SIDECAR_HEADER]: ctx.sidecarSecret },
      dial: ctx.dial,
    });
    this.#outbox = new HubOutbox(this.#link, {
      maxLines: ctx.limits.maxBufferedLines,
      maxBytes: ctx.limits.maxBufferedBytes,
      perSecond: ctx.limits.hubFramesPerSecond,
      ready: () => this.#hub.phase === "ready" && !this.#closed,
      full: () => this.#say(this.#hub.phase === "ready" ? NOTICES.tooFast : NOTICES.bufferFull),
    });
  }

  /** The hub is back: a client waiting to retry dials within `spreadMs` instead. */
  redial(spreadMs: number): void {
    // Spread out, so hundreds of players do not reach the new engine in the same millisecond.
    this.#link.retrySoon(Math.random() * spreadMs);
  }

  /** The logged-in player, or null. */
  get player(): SessionPlayer | null {
    return this.#hub.player;
  }

  /** Negotiates, connects to the hub and reads until the client goes away. */
  async run(): Promise<void> {
    this.#ctx.mssp.refresh();
    this.#session.start();
    this.#link.connect();
    // Held by every idle player's pending read: typed lines are short, and a paste just takes
    // more reads, which the line framer joins (16 KiB here was a third of the sidecar's memory
    // per player).
    const buf = new Uint8Array(READ_BUFFER_BYTES);
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
    if (!this.#hub.toldStopping) this.#say(NOTICES.shutdown);
    await this.close();
  }

  /** Flushes what is queued (briefly), then closes the socket and the hub session. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#stop();
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
    if (!this.#closed) this.#stop();
    this.#finish();
  }

  /** Ends the hub side and every timer; the telnet socket is closed by `#finish`. */
  #stop(): void {
    this.#closed = true;
    this.#link.close();
    this.#hub.stop();
    this.#outbox.stop();
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
    const client = helloClient(pkg, data);
    if (client === null) return;
    this.#gmcpClient = client;
    if (this.#session.clientName === null) this.#sendClientInfo();
  }

  #line(text: string): void {
    this.#lastInput = Date.now();
    const login = this.#password.complete(text);
    if (login !== null) {
      this.#session.showInput();
      // The client did not echo the Enter either.
      this.#session.send("\n");
      this.#outbox.push(login);
      return;
    }
    if (this.#hub.player === null && this.#password.ask(text)) {
      this.#session.hideInput();
      this.#session.send("Password: ");
      return;
    }
    if (this.#hub.phase !== "ready" && /^\s*quit\s*$/i.test(text)) {
      // Nothing to tell the hub while it is away.
      this.#say("Goodbye!");
      this.close();
      return;
    }
    this.#outbox.push(text);
  }

  /** Colour for this client: the player's setting, else what its terminal says (DUMB, MTTS). */
  #decideColour(): void {
    const terminal = terminalHasColour(this.#session.terminalTypes, this.#session.mtts);
    this.#colour = wantsColour(this.#colourMode, terminal);
  }

  /** Shows text with colour codes as ANSI (or without colour), ending with a line break. */
  #say(msg: string): void {
    this.#session.sendBytes(this.#ctx.memo.line(msg, this.#colour));
  }

  // ---- hub side ----

  #hubOpen(): void {
    this.#sendClientInfo();
    this.#sendWindow();
    this.#hub.opened();
  }

  #hubDown(wasOpen: boolean): void {
    this.#outbox.reset();
    this.#hub.down(wasOpen);
    this.#ctx.waiting();
  }

  #hubFinal(): void {
    this.#hub.final();
    this.close();
  }

  #hubFrame(text: string): void {
    if (this.#closed) return;
    const f = this.#ctx.memo.frame(text);
    if (f.type === "ack" || f.type === "pong") {
      this.#outbox.confirm(typeof f.data.id === "number" ? f.data.id : null);
      return;
    }
    if (!this.#hub.admit(text, f)) return;
    if (f.type === "colour") {
      this.#colourMode = colourModeOf(f.data.mode);
      this.#decideColour();
    }
    if (f.type === "room" && this.#session.gmcp) {
      this.#session.sendGmcp("Room.Info", roomInfo(f.data));
    }
    if (f.gmcp !== undefined && this.#session.gmcp) {
      const gmcp = this.#ctx.memo.gmcp(f.gmcp, this.#colour);
      if (gmcp !== null) this.#session.sendBytes(gmcp);
    }
    if (f.msg !== "") this.#say(f.msg);
  }

  #sessionFrame(data: Record<string, unknown>, player: SessionPlayer | null): void {
    this.#colourMode = colourModeOf(data.colour);
    this.#decideColour();
    if (player) this.#session.sendGmcp("Char.Name", charName(player.name));
  }

  #sendClientInfo(): void {
    if (this.#ctx.sidecarSecret === null) return;
    this.#link.send(clientFrame({
      ip: this.ip,
      connectedAt: this.#connectedAt,
      lastInput: this.#lastInput,
      ttype: this.#session.clientName ?? this.#gmcpClient,
    }));
  }

  #sendWindow(): void {
    const width = this.#session.width;
    if (width) this.#link.send(windowFrame(width, this.#session.height));
  }
}

async function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise<void>((r) => timer = setTimeout(r, ms))]);
  clearTimeout(timer);
}
