/**
 * The sidecar's side of the telnet handoff (docs/telnet.md, "Who holds a telnet socket"): it
 * keeps a descriptor of every telnet player's socket for as long as the player is connected,
 * and hands a duplicate to the engine over a Unix channel, which then serves the player alone.
 * The sidecar reads nothing from the socket: while no engine is there (a restart, a crash) what
 * the player types waits in the kernel for the next engine, which goes on from the state the
 * last one sent. All the sidecar ever writes is a one-line notice while no engine serves the
 * player, and it closes its descriptor when the engine says the player is gone.
 */
import { Buffer } from "node:buffer";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { constants as zlib, deflateRawSync } from "node:zlib";
import { renderText } from "../../text/colour.ts";
import {
  decodeMessage,
  encodeMessage,
  HANDOFF_VERSION,
  type HandoffMessage,
  handoffName,
  packWithFds,
} from "./messages.ts";
import { NOTICES } from "../client/notices.ts";
import type { ClientState } from "../client/telnet_client.ts";
import { encodeText } from "../protocol/text.ts";
import {
  closeFd,
  currentUid,
  type Libc,
  openLibc,
  SeqPacketConn,
  SeqPacketListener,
  shutdownFd,
  writeFd,
} from "./unix_fds.ts";

/** How long an engine that connected may take to prove itself. */
const AUTH_TIMEOUT_MS = 5_000;

/** Settings for {@linkcode TelnetKeeper}. */
export interface KeeperOptions {
  /** The secret the engine proves (URSAMU_SIDECAR_SECRET). */
  secret: string;
  /** When the sidecar started (the game's uptime for MSSP). */
  startedAt: number;
  log?: (line: string) => void;
  /** Called with the address of each player let go (gone, or the sidecar stopping). */
  released?: (ip: string) => void;
  /** Called with the address of each player an engine gave it to hold (see `keep`). */
  counted?: (ip: string) => void;
}

/** One player's socket as the sidecar holds it. */
interface Held {
  sid: number;
  fd: number;
  ip: string;
  /**
   * What the engine last said of the player, as JSON (checked when it came; kept as text, a
   * tenth of the memory of the objects it reads into), or null: no engine has served it yet.
   */
  state: string | null;
  /** From that state: the player gets colour, and its output is compressed. */
  colour: boolean;
  compressing: boolean;
  /** The player was told the game is starting, and waits for an engine. */
  waited: boolean;
  /** An engine serves the player now. */
  served: boolean;
  /** The last engine told the player it stops for good (no second goodbye from the sidecar). */
  toldStopping: boolean;
}

/** The sidecar's holder of telnet sockets. */
export class TelnetKeeper {
  readonly #o: KeeperOptions;
  readonly #log: (line: string) => void;
  readonly #libc: Libc;
  readonly #held = new Map<number, Held>();
  #seq = 0;
  #listener: SeqPacketListener | null = null;
  #accepting: Promise<void> = Promise.resolve();
  /** The engine's channel once it proved itself; a second engine is refused meanwhile. */
  #engine: SeqPacketConn | null = null;
  #handshaking = false;
  /** Messages to the engine it could not take yet, with their descriptors, in order. */
  #backlog: { bytes: Uint8Array; fds: number[] }[] = [];
  #backlogTimer: ReturnType<typeof setTimeout> | undefined;
  #stopping = false;

  /** Throws when this process cannot pass descriptors (see unix_fds.ts). */
  constructor(opts: KeeperOptions) {
    this.#o = opts;
    this.#log = opts.log ?? ((line) => console.log(line));
    this.#libc = openLibc();
  }

  /** Players held. */
  get size(): number {
    return this.#held.size;
  }

  /** True while an engine is connected and proved. */
  get engineConnected(): boolean {
    return this.#engine !== null;
  }

  /** Opens the channel engines connect to; throws when another sidecar of this game has it. */
  listen(): void {
    this.#listener = SeqPacketListener.listen(this.#libc, handoffName(this.#o.secret));
    this.#accepting = this.#accept(this.#listener);
  }

  /**
   * Takes a player's socket (a descriptor this keeper now owns; TCP_NODELAY already set): to
   * the engine at once, or held with a notice until one comes.
   */
  add(fd: number, ip: string): void {
    const held: Held = {
      sid: ++this.#seq,
      fd,
      ip,
      state: null,
      colour: true,
      compressing: false,
      waited: false,
      served: false,
      toldStopping: false,
    };
    this.#held.set(held.sid, held);
    if (this.#engine !== null && !this.#handshaking) {
      this.#hand([held]);
    } else {
      held.waited = true;
      this.#notice(held, NOTICES.starting);
    }
  }

  /**
   * The sidecar is stopping: players no engine serves are told and disconnected; the engine's
   * own are left to it (its descriptors keep them connected until it stops too).
   */
  async shutdown(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    clearTimeout(this.#backlogTimer);
    for (const h of this.#held.values()) {
      if (!h.served) {
        if (!h.toldStopping) this.#notice(h, NOTICES.shutdown);
        shutdownFd(this.#libc, h.fd);
      }
      closeFd(this.#libc, h.fd);
      this.#o.released?.(h.ip);
    }
    this.#held.clear();
    this.#engine?.close();
    this.#listener?.close();
    await this.#accepting;
  }

  async #accept(listener: SeqPacketListener): Promise<void> {
    for (;;) {
      const conn = await listener.accept();
      if (conn === null) return;
      this.#engineConnected(conn).catch((e) => {
        this.#log(`telnet: handoff channel failed: ${(e as Error)?.message ?? e}`);
      }).finally(() => conn.close());
    }
  }

  /** One engine's channel, from its proof to its end. */
  async #engineConnected(conn: SeqPacketConn): Promise<void> {
    if (this.#stopping || this.#engine !== null || this.#handshaking) return;
    if (conn.peerUid() !== currentUid(this.#libc)) return;
    this.#handshaking = true;
    let proved = false;
    try {
      const nonce = randomBytes(32).toString("hex");
      const hello = { t: "hello", v: HANDOFF_VERSION, nonce, startedAt: this.#o.startedAt };
      if (conn.send(encodeMessage(hello as HandoffMessage)) !== "sent") return;
      const auth = await withTimeout(conn.recv(), AUTH_TIMEOUT_MS);
      if (auth === null || auth === "timeout") return;
      for (const fd of auth.fds) closeFd(this.#libc, fd);
      const m = decodeMessage(auth.bytes);
      if (m?.t !== "auth" || m.v !== HANDOFF_VERSION || !this.#proves(nonce, m.mac)) {
        this.#log("telnet: a process on the handoff channel failed to prove the secret; refused");
        return;
      }
      proved = true;
    } finally {
      this.#handshaking = false;
    }
    if (!proved || this.#stopping) return;
    this.#engine = conn;
    let bye: boolean | null = null;
    try {
      this.#hand([...this.#held.values()]);
      for (;;) {
        const got = await conn.recv();
        if (got === null) break;
        const m = decodeMessage(got.bytes);
        if (m?.t === "keep" && m.sessions.length === got.fds.length) {
          this.#keep(m.sessions.map((s, i) => ({ state: s.state, fd: got.fds[i] })));
          continue;
        }
        for (const fd of got.fds) closeFd(this.#libc, fd);
        if (m === null) {
          this.#log("telnet: handoff channel: unreadable message from the engine; ignored");
        } else if (m.t === "bye") bye = m.restart;
        else this.#engineSaid(m);
      }
    } finally {
      this.#engine = null;
      this.#backlog = [];
      this.#engineGone(bye);
    }
  }

  /**
   * Players an engine serves that this sidecar never held (it was restarted meanwhile): held
   * from now on like the others, so they outlive the engine too. Their ids go back in order.
   */
  #keep(list: { state: ClientState; fd: number }[]): void {
    const sids: number[] = [];
    for (const { state, fd } of list) {
      const held: Held = {
        sid: ++this.#seq,
        fd,
        ip: state.ip,
        state: null,
        colour: true,
        compressing: false,
        waited: false,
        served: true,
        toldStopping: false,
      };
      remember(held, state);
      this.#held.set(held.sid, held);
      this.#o.counted?.(held.ip);
      sids.push(held.sid);
    }
    this.#send(encodeMessage({ t: "kept", sids }), []);
  }

  #proves(nonce: string, mac: string): boolean {
    const want = createHmac("sha256", this.#o.secret).update(nonce).digest();
    const got = Buffer.from(/^[0-9a-f]{64}$/.test(mac) ? mac : "", "hex");
    return got.length === want.length && timingSafeEqual(got, want);
  }

  #engineSaid(m: HandoffMessage): void {
    if (m.t === "state") {
      for (const { sid, state } of m.sessions) {
        const h = this.#held.get(sid);
        if (h) remember(h, state);
      }
    } else if (m.t === "end") {
      for (const sid of m.sids) {
        const h = this.#held.get(sid);
        if (!h) continue;
        this.#held.delete(sid);
        closeFd(this.#libc, h.fd);
        this.#o.released?.(h.ip);
      }
    }
  }

  /**
   * The engine's channel ended. After its `bye` of a restart its players were told and their
   * states are final; after a crash they are told here, in their own stream (colour, MCCP2).
   */
  #engineGone(bye: boolean | null): void {
    for (const h of this.#held.values()) {
      if (h.served && bye === null && h.state !== null) this.#notice(h, NOTICES.restarting);
      if (h.served) h.toldStopping = bye === false;
      h.served = false;
    }
  }

  /** Hands players to the engine, as many per message as fit. */
  #hand(list: Held[]): void {
    const entries = list.map((h) => ({
      item: `{"sid":${h.sid},"ip":${JSON.stringify(h.ip)},"waited":${h.waited},` +
        `"state":${h.state ?? "null"}}`,
      fd: h.fd,
      of: h,
    }));
    for (const h of list) {
      h.served = true;
      h.waited = false;
      h.toldStopping = false;
    }
    for (const m of packWithFds('{"t":"open","sessions":[', entries, "]}")) {
      this.#send(m.bytes, m.fds);
    }
  }

  #send(bytes: Uint8Array, fds: number[]): void {
    const engine = this.#engine;
    if (engine === null) return;
    if (this.#backlog.length === 0) {
      const r = engine.send(bytes, fds);
      if (r !== "busy") return;
    }
    this.#backlog.push({ bytes, fds });
    this.#backlogTimer ??= setTimeout(() => this.#retryBacklog(), 5);
  }

  #retryBacklog(): void {
    this.#backlogTimer = undefined;
    const engine = this.#engine;
    while (engine !== null && this.#backlog.length > 0) {
      const { bytes, fds } = this.#backlog[0];
      // A player who left meanwhile (only the sidecar stopping closes ours) is not handed over.
      if (engine.send(bytes, fds) === "busy") break;
      this.#backlog.shift();
    }
    if (engine !== null && this.#backlog.length > 0) {
      this.#backlogTimer = setTimeout(() => this.#retryBacklog(), 5);
    }
  }

  /**
   * Writes a notice into the player's stream as the engine would have: colour as the player had
   * it, compressed as a continuation of the MCCP2 stream when that was on. Without blocking: a
   * player whose socket cannot take it now misses it.
   */
  #notice(h: Held, msg: string): void {
    const colour = h.colour;
    let bytes = encodeText(renderText(msg, colour) + "\n");
    if (h.compressing) {
      const z = deflateRawSync(bytes, { finishFlush: zlib.Z_SYNC_FLUSH });
      bytes = new Uint8Array(z.buffer, z.byteOffset, z.byteLength);
    }
    writeFd(this.#libc, h.fd, bytes);
  }
}

/** Keeps a player's state as the engine sent it (checked), with the two fields notices need. */
function remember(h: Held, state: ClientState): void {
  h.state = JSON.stringify(state);
  h.colour = state.colour;
  h.compressing = state.telnet.compressing;
}

async function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const r = await Promise.race([
    p,
    new Promise<"timeout">((resolve) => timer = setTimeout(() => resolve("timeout"), ms)),
  ]);
  clearTimeout(timer);
  return r;
}
