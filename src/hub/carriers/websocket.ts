/**
 * The WebSocket carrier: browsers, scripts and plain WebSocket tools, one socket and one session
 * each (docs/protocol.md), and the upgrade of the telnet sidecar's one link
 * (`?client=telnet&mux=1`, mux_link.ts). The upgrade reads who the client says it is (`client`,
 * `token`, `resume`) and whether it proved itself the sidecar; the session opens with the hub
 * once the socket is open.
 */
import { clientKind, EncodedFrame, MAX_FRAME_BYTES } from "../protocol.ts";
import type { Session, SessionEnd, SessionHub, SessionOpening } from "../session.ts";
import { checkSidecarProof, SIDECAR_HEADER } from "../sidecar_auth.ts";
import type { ClientKind } from "../types.ts";
import { MuxLink } from "./mux_link.ts";
import { frameBytes, WsInput } from "./ws_input.ts";
import { CloseCode } from "../connection.ts";
import { TOO_FAST } from "../../rate/too_fast.ts";
import { RateBudgets } from "../../rate/budget.ts";

/** The close code a browser sends when the page that held the socket goes away. */
const GOING_AWAY = 1001;

/** Runtime socket errors that only mean the client went away. */
const VANISHED = /unexpected eof|reset|broken pipe|not connected/i;

/** True for the query values that ask for a silent resume. */
function wantsResume(value: string | null): boolean {
  return /^(1|true|yes)$/i.test(value ?? "");
}

/** Accepts WebSocket upgrades for the hub. */
export class WebSocketCarrier {
  readonly #hub: SessionHub;
  readonly #sidecarSecret: string | null;
  readonly #log: (line: string) => void;
  /** A wrong sidecar secret was reported (once per run: a misconfiguration, or someone probing). */
  #wrongSecretLogged = false;
  /** Input budgets by address, shared by each address's sockets (ws_input.ts). */
  readonly #inputByAddress = new RateBudgets();

  /**
   * `sidecarSecret`: the telnet sidecar's secret (see sidecar_auth.ts); null: no connection is
   * trusted as the sidecar.
   */
  constructor(
    hub: SessionHub,
    sidecarSecret: string | null,
    log: (line: string) => void = (line) => console.warn(line),
  ) {
    this.#hub = hub;
    this.#sidecarSecret = sidecarSecret;
    this.#log = log;
  }

  /** Upgrades an HTTP request to a hub WebSocket; `peerIp` is the socket's remote address. */
  accept(req: Request, peerIp: string): Response {
    const url = new URL(req.url);
    const kind = clientKind(url.searchParams.get("client"));
    // Before the upgrade, which makes the request's headers unreadable.
    const trusted = kind === "telnet" && this.#provesSidecar(req, peerIp);
    const link = url.searchParams.get("mux") === "1";
    if (link && this.#hub.stopping) {
      return Response.json({ error: "The server is shutting down." }, { status: 503 });
    }
    let upgraded: { socket: WebSocket; response: Response };
    try {
      // No per-socket ping timer (it costs ~3 KiB per idle connection): the hub's one idle
      // sweep closes silent connections instead (docs/protocol.md, "Limits").
      upgraded = Deno.upgradeWebSocket(req, { idleTimeout: 0 });
    } catch {
      return Response.json({ error: "Expected a WebSocket upgrade." }, { status: 400 });
    }
    if (link) {
      // The sidecar's one link for all its telnet sessions. Its sessions are the sidecar's when
      // the handshake carried the secret; without it (a sidecar started apart with a wrong
      // secret) they are ordinary clients of the link's address, each counted and capped.
      new MuxLink(upgraded.socket, this.#hub, { ip: peerIp, trusted }, this.#log);
    } else {
      new WebSocketSession(this.#hub, upgraded.socket, new WsInput(this.#inputByAddress, peerIp), {
        kind,
        ip: peerIp,
        trusted,
        token: url.searchParams.get("token"),
        resume: wantsResume(url.searchParams.get("resume")),
      });
    }
    return upgraded.response;
  }

  /** True when the upgrade request carries the sidecar's secret; a wrong one is logged once. */
  #provesSidecar(req: Request, peerIp: string): boolean {
    const proof = checkSidecarProof(req.headers.get(SIDECAR_HEADER), this.#sidecarSecret);
    if (proof === "wrong" && !this.#wrongSecretLogged) {
      this.#wrongSecretLogged = true;
      this.#log(
        `hub: a client=telnet connection from ${peerIp} presented a wrong sidecar secret; it is ` +
          "treated as an ordinary client (a sidecar started apart from the engine needs the " +
          "engine's URSAMU_SIDECAR_SECRET). Logged once.",
      );
    }
    return proof === "sidecar";
  }
}

/**
 * One client's WebSocket as a hub session. Idle connections are the hub's main memory cost, so
 * the session is its own socket event listener (no closures per socket).
 */
class WebSocketSession implements Session, EventListenerObject {
  readonly #hub: SessionHub;
  readonly #socket: WebSocket;
  readonly #kind: ClientKind;
  readonly #input: WsInput;
  /** How it opens; dropped once open. */
  #opening: SessionOpening | null;
  #end: SessionEnd | null = null;
  #ended = false;

  constructor(hub: SessionHub, socket: WebSocket, input: WsInput, opening: SessionOpening) {
    this.#hub = hub;
    this.#socket = socket;
    this.#input = input;
    this.#kind = opening.kind;
    this.#opening = opening;
    socket.binaryType = "arraybuffer";
    socket.addEventListener("open", this);
    socket.addEventListener("message", this);
    socket.addEventListener("close", this);
    socket.addEventListener("error", this);
  }

  /** Bytes the socket holds unsent. */
  get buffered(): number {
    return this.#socket.bufferedAmount;
  }

  /** Sends the frame's text for this client's kind. */
  deliver(frame: EncodedFrame, colour: boolean): void {
    const text = frame.for(this.#kind, colour);
    if (text !== null) this.#socket.send(text);
  }

  /**
   * Typed lines the hub read and did not run before a restart's close: a `web` client gets them
   * back in an `unread` frame and sends them to the next engine first (web/assets/play.js), as
   * the telnet sidecar does for its players. Other clients had no way to take them and lose them
   * (docs/protocol.md, "Restarts").
   */
  unread(lines: string[]): void {
    if (this.#kind !== "web") return;
    try {
      this.#socket.send(JSON.stringify({ msg: "", data: { type: "unread", lines } }));
    } catch { /* already closing: nothing to hand back to */ }
  }

  /** Closes the socket with a close code. */
  close(code: number, reason: string): void {
    try {
      this.#socket.close(code, reason);
    } catch { /* already closing */ }
  }

  /**
   * Told why, as the hub tells a client it closes (a `disconnect` message, then the close code):
   * its frames already cost more than reading them is worth.
   */
  #tooMuchInput(): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    const msg = "Too much input (over 64 KiB a second); closing the connection.";
    try {
      this.deliver(new EncodedFrame({ msg, data: { type: "disconnect" } }), false);
    } catch { /* closing anyway */ }
    this.close(CloseCode.policy, "Too much input.");
  }

  /** Told that its frames are being dropped (at most once in a few seconds: ws_input.ts). */
  #tooFast(): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return;
    try {
      this.deliver(new EncodedFrame({ msg: TOO_FAST, data: { type: "error" } }), false);
    } catch { /* closing */ }
  }

  /** Socket events. */
  handleEvent(e: Event): void {
    switch (e.type) {
      case "message": {
        const data = (e as MessageEvent).data;
        const bytes = frameBytes(data);
        // A frame over the cap goes to the hub as it is, which closes for it (1009, its message).
        const admission = bytes > MAX_FRAME_BYTES ? "read" : this.#input.admit(bytes);
        if (admission === "read") this.#end?.received(data);
        else if (admission === "close") this.#tooMuchInput();
        else if (admission === "tell") this.#tooFast();
        return;
      }
      case "open": {
        const opening = this.#opening;
        this.#opening = null;
        if (opening !== null) this.#end = this.#hub.connect(this, opening);
        return;
      }
      case "close":
        if (this.#ended) return;
        this.#ended = true;
        this.#opening = null;
        // 1001 "going away": a browser closes so when its page unloads (a reload, say).
        this.#end?.ended((e as CloseEvent).code === GOING_AWAY);
        return;
      case "error": {
        // Always followed by "close". Deno reports here why it dropped the socket without a
        // close frame: a client that just vanished (not worth a line), or a frame it refused,
        // such as text that is not UTF-8 ("Invalid UTF-8").
        const why = String((e as ErrorEvent).message ?? "");
        const end = this.#end;
        if (end !== null && !end.closed && !VANISHED.test(why)) {
          console.warn(`hub: connection ${end.id} (${end.ip}) dropped by the runtime: ${why}`);
        }
        return;
      }
    }
  }
}
