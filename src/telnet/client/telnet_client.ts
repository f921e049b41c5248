/**
 * One telnet player, wherever its socket is held: a socket and its telnet protocol state on one
 * side, a hub session (client=telnet) on the other. It runs in the engine, on a socket the
 * sidecar handed over (src/telnet/handoff/engine_host.ts), its hub session the hub's own
 * (src/hub/carriers/telnet.ts); or in the sidecar itself (TLS, or no descriptor passing), over
 * its link (src/telnet/sidecar/hub_link.ts). Survives engine restarts either way: in the sidecar
 * input is kept (bounded) while the hub is away and the session resumed with its token when it
 * is back; in the engine its state is handed to the sidecar with the socket (`freeze`) and a new
 * engine resumes it. This module wires the parts and owns the socket's life; the parts are the
 * transport (transport.ts), the hub session's port (hub_port.ts), the session and its resume
 * (hub_session.ts), the outbox of typed lines (outbox.ts), the frames (hub_frames.ts), the GMCP
 * sent on (gmcp_relay.ts) and the password prompt (password_prompt.ts).
 */
import {
  type ColourMode,
  colourModeOf,
  terminalColourDepth,
  terminalHasColour,
  wantsColour,
} from "../../text/colour_mode.ts";
import type { ColourDepth } from "../../text/colour.ts";
import type { ClientLimits } from "./limits.ts";
import { charInfo, helloClient, roomInfo, wrongDir } from "./gmcp_relay.ts";
import { applySupports, supportedModules, supportsOp } from "./gmcp_supports.ts";
import { gmcpWanted } from "../../text/gmcp_package.ts";
import type { FrameObject, HubInput } from "./hub_frames.ts";
import type { HubDialer, HubEvents, HubPort } from "./hub_port.ts";
import { HubSession, type ResumeProgress, type SessionPlayer } from "./hub_session.ts";
import { NOTICES } from "./notices.ts";
import { cutToFit, droppedNotice } from "../../text/output_dropped.ts";
import { HubOutbox } from "./outbox.ts";
import { InputBudget, inputShape } from "./input_budget.ts";
import type { RateBudgets } from "../../rate/budget.ts";
import { addressGroup } from "../../net/client_address.ts";
import { PasswordPrompt, type PendingLogin } from "./password_prompt.ts";
import type { RenderMemo } from "./render_memo.ts";
import { type TelnetEvent, TelnetSession, type TelnetSessionState } from "../protocol/session.ts";
import type { MsspTable } from "../protocol/mssp.ts";
import type { TelnetTransport } from "./transport.ts";
import { outputAffix } from "../../text/output_affix.ts";

/** Where the MSSP table comes from (the sidecar asks the REST API; the engine knows itself). */
export interface MsspSupplier {
  /** The table, now (the telnet session asks mid-negotiation). */
  table(): MsspTable;
  /** A hint that a crawler may ask soon: refresh what is stale. */
  refresh(): void;
}

/**
 * One telnet player's whole state, carried with its socket to the process that takes it over
 * (src/telnet/handoff/messages.ts): that process goes on as if it had served the player all along.
 */
export interface ClientState {
  ip: string;
  /** When the telnet client connected, and last typed a line (ms since epoch). */
  connectedAt: number;
  lastInput: number;
  /** The hub session's token and player (null: not logged in). */
  token: string | null;
  player: SessionPlayer | null;
  colourMode: ColourMode;
  /** Whether output gets ANSI colour (the sidecar renders its own notices by it). */
  colour: boolean;
  gmcpClient: string | null;
  /** GMCP modules the client announced (`Core.Supports`, lower-cased); null: never did. */
  gmcpSupports: string[] | null;
  errors: number;
  telnet: TelnetSessionState;
  /** Typed lines not yet read by the hub. */
  lines: string[];
  /** A login waiting for its password. */
  password: PendingLogin | null;
  /** The OUTPUTPREFIX and OUTPUTSUFFIX the player set, said again to each new hub session. */
  affixes?: { prefix: string; suffix: string };
}

/** What a client needs from the process it runs in. */
export interface ClientContext {
  /** Opens the client's hub session (the sidecar's link or a WebSocket; the engine's carrier). */
  hub: HubDialer;
  mssp: MsspSupplier;
  /** The sidecar's one memo: a frame sent to many players is read and rendered once. */
  memo: RenderMemo;
  limits: ClientLimits;
  /** The process's input budgets by address (see input_budget.ts), shared by its clients. */
  inputByAddress: RateBudgets;
  log(line: string): void;
  /** Called once when the client is gone. */
  closed(client: TelnetClient): void;
  /** Called when the client starts waiting for the hub (it may be asked to `redial` early). */
  waiting(): void;
  /** When the hub last answered any session's resume (see HubSession's `resumeProgress`). */
  resumeProgress?: ResumeProgress;
  /**
   * Something the next process would need changed: `now` for what a crash must not lose (the
   * session's token, compression switched), `soon` for negotiation and colour, `later` for the
   * time of the last typed line (only `who`'s Idle after a crash depends on it).
   */
  changed?: (client: TelnetClient, when: "now" | "soon" | "later") => void;
}

/**
 * Frame types `hubFrame` or the hub session act on beyond showing the text (`room` only while
 * GMCP is on, with any frame's GMCP form): a frame of another type is a plain line, shown by
 * `takeFrame` alone.
 */
const ACTED_ON: ReadonlySet<string> = new Set([
  "ack",
  "pong",
  "session",
  "logout",
  "colour",
  "disconnect",
  "error",
]);

/** One telnet connection bridged to one hub session. */
export class TelnetClient implements HubEvents {
  readonly ip: string;
  readonly #transport: TelnetTransport;
  readonly #ctx: ClientContext;
  readonly #session: TelnetSession;
  readonly #link: HubPort;
  readonly #hub: HubSession;
  readonly #outbox: HubOutbox;
  readonly #password: PasswordPrompt;
  readonly #restored: boolean;
  #closed = false;
  #finished = false;
  /** Handed over (or being): nothing more is read, sent to the hub or closed here. */
  #frozen = false;
  #errors = 0;
  /** The OUTPUTPREFIX and OUTPUTSUFFIX last typed (empty: none). */
  #affixes = { prefix: "", suffix: "" };
  #gmcpClient: string | null = null;
  /** The terminal's colours as last reported to the hub (softcode's colordepth()). */
  #coloursReported: number | null = null;
  /** GMCP was on when last reported to the hub. */
  #gmcpReported = false;
  /** What `Core.Supports` asked for (lower-cased modules); null: every package goes. */
  #supports: Set<string> | null = null;
  /** When the telnet client connected, and last typed a line (ms since epoch). */
  readonly #connectedAt: number;
  #lastInput: number;
  /** The player's colour setting, as the hub last said (session and `colour` frames). */
  #colourMode: ColourMode = "auto";
  /** Whether output gets ANSI colour: decided when the setting or the terminal type changes. */
  #colour = true;
  /** The colours its terminal shows, for RGB codes (null: decide at the next line). */
  #depth: ColourDepth | null = null;
  /** Lines from the game dropped while the socket was behind, not yet told. */
  #dropped = 0;
  /** Bytes it may send: over them its socket is not read for a while. */
  readonly #budget: InputBudget;

  /**
   * A client on `transport`; with `state` (another process's {@linkcode TelnetClient.freeze})
   * it goes on from there: no negotiation, the session resumed, the typed lines kept. `waited`:
   * the player was told the game is starting (by the sidecar) and is told when it is there.
   */
  constructor(
    transport: TelnetTransport,
    ctx: ClientContext,
    state?: ClientState,
    waited = false,
  ) {
    this.#transport = transport;
    this.#ctx = ctx;
    this.ip = state?.ip ?? transport.ip;
    this.#restored = state !== undefined;
    this.#connectedAt = state?.connectedAt ?? Date.now();
    this.#lastInput = state?.lastInput ?? this.#connectedAt;
    this.#budget = new InputBudget(ctx.limits.inputBytesPerSecond, Date.now, {
      budgets: ctx.inputByAddress,
      key: addressGroup(this.ip),
      shape: inputShape(ctx.limits.inputBytesPerSecondPerIp),
    });
    this.#session = new TelnetSession({
      write: (bytes) => this.#transport.write(bytes),
      mssp: () => ctx.mssp.table(),
      maxLineBytes: ctx.limits.maxLineBytes,
      maxSubnegotiation: ctx.limits.maxSubnegotiation,
      onError: () => this.#abort(),
    }, state?.telnet);
    this.#hub = new HubSession(
      {
        say: (msg) => this.#say(msg),
        ready: () => this.#outbox.pump(),
        session: (data) => this.#sessionFrame(data),
        resumeRefused: () => this.#outbox.drop(),
        replay: (text) => this.hubFrame(text),
        expectEnd: () => this.#link.expectEnd(),
        loggedOut: () => this.#loggedOut(),
        resumeProgress: ctx.resumeProgress,
      },
      ctx.limits.resumeTimeoutMs,
      state || waited
        ? {
          token: state?.token ?? null,
          player: state?.player ?? null,
        }
        : null,
    );
    this.#link = ctx.hub(this, () => this.#hub.token);
    this.#outbox = new HubOutbox(this.#link, {
      maxLines: ctx.limits.maxBufferedLines,
      maxBytes: ctx.limits.maxBufferedBytes,
      perSecond: ctx.limits.hubFramesPerSecond,
      ready: () => this.#hub.phase === "ready" && !this.#closed,
      full: () => this.#say(this.#hub.phase === "ready" ? NOTICES.tooFast : NOTICES.bufferFull),
    });
    this.#password = new PasswordPrompt(state?.password ?? null);
    if (state) {
      this.#colourMode = state.colourMode;
      this.#colour = state.colour;
      this.#depth = null;
      this.#gmcpClient = state.gmcpClient;
      this.#supports = state.gmcpSupports === null ? null : new Set(state.gmcpSupports);
      this.#errors = state.errors;
      for (const line of state.lines) this.#outbox.push(line);
      if (state.affixes) this.#affixes = { ...state.affixes };
    }
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

  /** Negotiates (unless restored), connects to the hub and reads until the client goes away. */
  start(): void {
    this.#ctx.mssp.refresh();
    if (!this.#restored) this.#session.start();
    this.#transport.start({
      // While closing, input is read and ignored so the goodbye can still be flushed.
      data: (bytes) => {
        if (!this.#closed) this.#input(bytes);
      },
      end: (why) => {
        if (this.#frozen) return;
        if (why === "overflow") {
          this.#ctx.log(`telnet: ${this.ip} stopped reading; dropped`);
          this.#abort();
        } else if (!this.#closed) {
          // The client left; a close already under way finishes on its own.
          this.#abort();
        }
      },
    });
    this.#link.connect();
  }

  /** The socket's descriptor (to hand to another process), or -1 when there is none. */
  get fd(): number {
    return this.#transport.fd ?? -1;
  }

  /** True once the client was handed over (see `freeze`). */
  get frozen(): boolean {
    return this.#frozen;
  }

  /**
   * Stops everything but the socket, which goes to another process with the state returned:
   * the transport stops reading first, so no typed byte is read and lost, and the promise
   * resolves once every byte already written is on its way (bounded by `ms`).
   */
  async freeze(ms = 2_000): Promise<ClientState> {
    if (!this.#frozen) {
      this.#frozen = true;
      this.#transport.pause?.();
      this.#link.end();
      this.#hub.stop();
      this.#outbox.stop();
      await withTimeout(
        (async () => {
          await this.#session.idle();
          await this.#transport.idle();
        })(),
        ms,
      );
    }
    return this.state();
  }

  /** After `freeze`: lets go of the socket (this process's hold only; the next one has it). */
  release(): void {
    if (!this.#frozen || this.#finished) return;
    this.#finished = true;
    if (this.#transport.release) this.#transport.release();
    else this.#transport.close();
  }

  /** The state another process would go on from (see {@linkcode ClientState}). */
  state(): ClientState {
    return {
      ip: this.ip,
      connectedAt: this.#connectedAt,
      lastInput: this.#lastInput,
      token: this.#hub.token,
      player: this.#hub.player,
      colourMode: this.#colourMode,
      colour: this.#colour,
      gmcpClient: this.#gmcpClient,
      gmcpSupports: this.#supports === null ? null : [...this.#supports],
      errors: this.#errors,
      telnet: this.#session.snapshot(),
      lines: this.#outbox.lines(),
      password: this.#password.pending,
      affixes: { ...this.#affixes },
    };
  }

  /** Says goodbye (sidecar stopping) and closes. */
  async shutdown(): Promise<void> {
    if (this.#closed || this.#frozen) return;
    // After the hub's own "shutting down" line (a stop stops the sidecar too), a second one
    // would only repeat it.
    if (!this.#hub.toldStopping) this.#say(NOTICES.shutdown);
    this.#goodbye(NOTICES.shutdown);
    await this.close();
  }

  /** Flushes what is queued (briefly), then closes the socket and the hub session. */
  async close(): Promise<void> {
    if (this.#closed || this.#frozen) return;
    this.#stop();
    await withTimeout(
      (async () => {
        await this.#session.close();
        await this.#transport.idle();
      })(),
      2_000,
    );
    this.#finish();
  }

  /** Closes at once without flushing (socket dead or client not reading). */
  #abort(): void {
    if (this.#frozen) return;
    if (!this.#closed) this.#stop();
    this.#finish();
  }

  /** Ends the hub side and every timer; the telnet socket is closed by `#finish`. */
  #stop(): void {
    this.#closed = true;
    this.#link.end();
    this.#hub.stop();
    this.#outbox.stop();
  }

  #finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#transport.close();
    this.#ctx.closed(this);
  }

  // ---- telnet side ----

  #input(chunk: Uint8Array): void {
    const hold = this.#budget.take(chunk.length);
    if (hold > 0) this.#transport.throttle(hold);
    // A read that is one typed line (nearly every one) changes nothing of the negotiation.
    const typed = this.#session.typedLine(chunk);
    if (typed !== null) {
      this.#line(typed);
      return;
    }
    const compressing = this.#session.compressing;
    const { events } = this.#session.receive(chunk);
    let negotiated = false;
    for (const ev of events) {
      if (this.#closed) return;
      if (ev.type !== "line" && ev.type !== "command" && ev.type !== "error") negotiated = true;
      this.#event(ev);
    }
    // Options, window size, terminal type: what a process taking the socket over must know;
    // at once when compression switched (its notices must be in the stream as it is).
    if (negotiated) {
      if (this.#session.gmcp !== this.#gmcpReported) this.#sendGmcpState();
      this.#ctx.changed?.(this, this.#session.compressing !== compressing ? "now" : "soon");
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
        else this.#sendColours();
        this.#decideColour();
        return;
      case "mtts":
        this.#sendColours();
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

  /** A GMCP message from the client: the Core package's requests; anything else is ignored. */
  #gmcp(pkg: string, data: unknown): void {
    const op = supportsOp(pkg);
    if (op !== null) {
      const modules = supportedModules(data);
      if (modules === null) return;
      const held = this.#supports === null ? null : [...this.#supports];
      this.#supports = new Set(applySupports(held, op, modules));
      this.#ctx.changed?.(this, "soon");
      if (this.#session.gmcp) this.#sendGmcpState();
      return;
    }
    const lower = pkg.toLowerCase();
    if (lower === "core.ping") {
      this.#session.sendGmcp("Core.Ping");
      return;
    }
    // Any other package is a plugin's (a request such as Comm.Channel.Players): the hub hands
    // it to the plugin that answers it, once the player is logged in.
    if (!lower.startsWith("core.")) {
      if (this.#hub.player !== null) this.#link.gmcp(pkg, data);
      return;
    }
    const client = helloClient(pkg, data);
    if (client === null) return;
    this.#gmcpClient = client;
    if (this.#session.clientName === null) this.#sendClientInfo();
  }

  /** Sends a GMCP message when GMCP is on and the client asked for its package (or for all). */
  #sendGmcp(pkg: string, data?: unknown): void {
    if (gmcpWanted(this.#supports, pkg)) this.#session.sendGmcp(pkg, data);
  }

  /** `Core.Goodbye` before the connection ends for good (never at a handover). */
  #goodbye(reason: string): void {
    this.#session.sendGmcp("Core.Goodbye", reason);
  }

  #line(text: string): void {
    this.#lastInput = Date.now();
    // MUX keeps a connection's OUTPUTPREFIX/OUTPUTSUFFIX across @restart: so does this client.
    const affix = outputAffix(text);
    if (affix) this.#affixes[affix.which] = affix.text;
    this.#ctx.changed?.(this, "later");
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
      this.#goodbye("Goodbye!");
      this.close();
      return;
    }
    this.#outbox.push(text);
  }

  /** Colour for this client: the player's setting, else what its terminal says (DUMB, MTTS). */
  #decideColour(): void {
    const terminal = terminalHasColour(this.#session.terminalTypes, this.#session.mtts);
    this.#colour = wantsColour(this.#colourMode, terminal);
    this.#depth = null;
  }

  /**
   * Shows text with colour codes as ANSI (or without colour), ending with a line break; RGB
   * codes as the terminal shows them (256 or 24-bit when it says so).
   */
  #say(msg: string): void {
    this.#session.sendBytes(this.#bytes(msg));
  }

  /** `msg` as this client's bytes (colour rendered as it shows colour). */
  #bytes(msg: string): Uint8Array {
    const s = this.#session;
    this.#depth ??= this.#colour ? terminalColourDepth(s.terminalTypes, s.mtts) : 0;
    return this.#ctx.memo.line(msg, this.#depth);
  }

  /**
   * Shows a line from the game, unless the socket holds more than half its bound unsent: then
   * the line is dropped (counted, and the player told once there is room again). The bound
   * itself still drops a client that stopped reading; without this, one player's burst of
   * output to a room (a `think` emitting 1.4 MB in one turn) went past it for everyone there.
   * A line bigger than half the bound is cut to half: with at most half waiting, it then always
   * fits, where one such reply (an `examine` of an object with thousands of attributes) behind
   * another closed the client as too slow, however fast it read.
   */
  #show(msg: string): void {
    const half = this.#ctx.limits.maxOutputBytes / 2;
    if (this.#transport.queued > half) {
      this.#dropped++;
      return;
    }
    if (this.#dropped > 0) {
      this.#say(droppedNotice(this.#dropped));
      this.#dropped = 0;
    }
    const bytes = this.#bytes(msg);
    if (bytes.length <= half) this.#session.sendBytes(bytes);
    else this.#say(cutToFit(msg, (text) => this.#bytes(text).length <= half));
  }

  // ---- hub side (HubEvents: what the client's hub session reports) ----

  /** The hub session is open: the player's report, then the resume or the connect screen. */
  hubOpened(): void {
    this.#sendClientInfo();
    this.#sendWindow();
    this.#gmcpReported = false;
    if (this.#session.gmcp) this.#sendGmcpState();
    this.#hub.opened();
    // A new hub session (after a restart) knows nothing of them: they go before any typed line.
    const { prefix, suffix } = this.#affixes;
    this.#outbox.first([
      ...(prefix ? [`OUTPUTPREFIX ${prefix}`] : []),
      ...(suffix ? [`OUTPUTSUFFIX ${suffix}`] : []),
    ]);
  }

  /**
   * The hub went away (a restart): input is kept, the player told once. `unread`: lines the hub
   * had read and not run; they go to the next engine first, within the outbox's bounds like any
   * typed line (told after the restart notice when some are not kept).
   */
  hubDown(wasOpen: boolean, unread: readonly string[] = []): void {
    this.#outbox.reset();
    this.#hub.down(wasOpen);
    this.#outbox.putBack(unread);
    this.#ctx.waiting();
  }

  /** The hub ended the session for good: its last words, then the socket closes. */
  hubEnded(_code: number, reason: string): void {
    this.#hub.final();
    this.#goodbye(reason || "Goodbye!");
    this.close();
  }

  /** A frame from the hub, after the hub's call. */
  hubFrame(text: HubInput): void {
    if (this.takeFrame(text) || this.#closed) return;
    const f = this.#ctx.memo.frame(text);
    if (f.type === "ack" || f.type === "pong") {
      this.#outbox.confirm(typeof f.data.id === "number" ? f.data.id : null);
      return;
    }
    if (!this.#hub.admit(text, f)) return;
    if (f.type === "colour") {
      this.#colourMode = colourModeOf(f.data.mode);
      this.#decideColour();
      this.#ctx.changed?.(this, "soon");
    }
    if (f.type === "room" && f.data.here !== false && this.#session.gmcp) {
      this.#sendGmcp("Room.Info", roomInfo(f.data));
    }
    if (f.type === "char" && this.#session.gmcp) {
      const char = charInfo(f.data);
      if (char !== null) {
        this.#sendGmcp("Char.Name", char.name);
        this.#sendGmcp("Char.Status", char.status);
      }
    }
    if (f.type === "error" && this.#session.gmcp) {
      const dir = wrongDir(f.data);
      if (dir !== null) this.#sendGmcp("Room.WrongDir", dir);
    }
    if (f.gmcp !== undefined && this.#session.gmcp && this.#wantsForwarded(f.gmcp)) {
      const gmcp = this.#ctx.memo.gmcp(f.gmcp, this.#colour);
      if (gmcp !== null) this.#session.sendBytes(gmcp);
    }
    if (f.msg !== "") this.#show(f.msg);
  }

  /**
   * Shows a frame that is a plain line, when the session has nothing to do first; false for
   * anything else, which `hubFrame` handles. The one rule for both ways a frame comes: the
   * engine's carrier offers frames here from inside the hub's fan-out, and `hubFrame` tries it
   * first.
   */
  takeFrame(frame: HubInput | FrameObject): boolean {
    if (this.#closed || !this.#hub.quiet) return false;
    const f = this.#ctx.memo.frame(frame);
    if (f.msg === "" || ACTED_ON.has(f.type)) return false;
    if ((f.gmcp !== undefined || f.type === "room") && this.#session.gmcp) return false;
    this.#show(f.msg);
    return true;
  }

  /**
   * The player logged out: the hub cleared the connection's OUTPUTPREFIX/OUTPUTSUFFIX and colour
   * setting, so this client forgets them too, and a successor gets the token-less state at once.
   */
  #loggedOut(): void {
    this.#affixes = { prefix: "", suffix: "" };
    this.#colourMode = "auto";
    this.#decideColour();
    this.#ctx.changed?.(this, "now");
  }

  #sessionFrame(data: Record<string, unknown>): void {
    this.#colourMode = colourModeOf(data.colour);
    this.#decideColour();
    this.#ctx.changed?.(this, "now");
  }

  /** True when a frame's GMCP form (`[package, payload]`) is of a package the client wants. */
  #wantsForwarded(gmcp: unknown): boolean {
    return Array.isArray(gmcp) && typeof gmcp[0] === "string" &&
      gmcpWanted(this.#supports, gmcp[0]);
  }

  #sendClientInfo(): void {
    this.#coloursReported = this.#terminalColours();
    this.#link.report({
      ip: this.ip,
      connectedAt: this.#connectedAt,
      lastInput: this.#lastInput,
      ttype: this.#session.clientName ?? this.#gmcpClient,
      colourDepth: this.#coloursReported,
    });
  }

  /** Colours the client's terminal shows as negotiated so far (TTYPE, MTTS; 0: none). */
  #terminalColours(): number {
    const s = this.#session;
    return terminalHasColour(s.terminalTypes, s.mtts)
      ? terminalColourDepth(s.terminalTypes, s.mtts)
      : 0;
  }

  /** Tells the hub the terminal's colours when a later TTYPE answer or MTTS changed them. */
  #sendColours(): void {
    const depth = this.#terminalColours();
    if (depth === this.#coloursReported) return;
    this.#coloursReported = depth;
    this.#link.report({ colourDepth: depth });
  }

  /** Tells the hub that GMCP is on and which packages the client wants (plugins ask it). */
  #sendGmcpState(): void {
    const on = this.#session.gmcp;
    this.#gmcpReported = on;
    const supports = this.#supports === null ? null : [...this.#supports];
    this.#link.report({ gmcp: on ? { supports } : null });
  }

  #sendWindow(): void {
    const width = this.#session.width;
    if (width) this.#link.report({ width, height: this.#session.height || 24 });
  }
}

async function withTimeout(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([p, new Promise<void>((r) => timer = setTimeout(r, ms))]);
  clearTimeout(timer);
}
