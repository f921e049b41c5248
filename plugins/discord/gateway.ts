/**
 * A bot connection to Discord's gateway over Deno's WebSocket, following the gateway docs:
 * Hello, Identify (with the message-content intent) or Resume, heartbeats with their
 * acknowledgements (a missed ack is a dead connection: close and resume), Dispatch, Reconnect,
 * Invalid Session, and the close codes that mean "stop". Reconnects back off (1 s doubling to a
 * minute, with jitter); identifies keep to Discord's limits (one per 5 s, and the daily session
 * starts `GET /gateway/bot` reports). Nothing here logs a token.
 */
import type { DiscordRest } from "./rest.ts";

/** GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT. */
export const INTENTS = (1 << 0) | (1 << 9) | (1 << 15);

/** Close codes after which reconnecting cannot help, and what to tell staff. */
export const FATAL_CLOSE: Readonly<Record<number, string>> = {
  4004: "Discord refused the bot token (4004 authentication failed)",
  4010: "Discord refused the shard (4010)",
  4011: "Discord wants sharding (4011): the bot is in too many servers for one connection",
  4012: "Discord refused the API version (4012)",
  4013: "Discord refused the intents (4013)",
  4014: "the bot may not read messages (4014): turn on its Message Content intent in the " +
    "developer portal",
};

/** Close codes after which the session cannot be resumed (identify afresh). */
const NO_RESUME = new Set([4007, 4009]);

/** What the gateway tells its owner. */
export interface GatewayEvents {
  /** A dispatch (`MESSAGE_CREATE`, ...). */
  dispatch(type: string, data: unknown): void;
  /** The connection's state changed (for `@discord/status`). */
  state(state: GatewayState): void;
}

/** The connection's state as `@discord/status` shows it. */
export interface GatewayState {
  status: "connecting" | "ready" | "waiting" | "stopped";
  /** Why it is waiting or stopped. */
  reason: string;
  /** The bot's user id once ready. */
  botId: string | null;
  /** Connections made, resumes and identifies since start. */
  connects: number;
  resumes: number;
  identifies: number;
}

/** Settings of a gateway connection. */
export interface GatewayOptions {
  token: string;
  rest: DiscordRest;
  events: GatewayEvents;
  /** First reconnect delay and the cap, ms (defaults 1 s and 60 s). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** The least time between identifies, ms (Discord: 5 s). */
  identifyGapMs?: number;
  /** How long a new connection may take to say Hello, ms (default 30 s). */
  helloTimeoutMs?: number;
}

interface GatewayBot {
  url?: string;
  session_start_limit?: { remaining?: number; reset_after?: number; max_concurrency?: number };
}

interface Payload {
  op: number;
  d?: unknown;
  s?: number | null;
  t?: string | null;
}

/** The gateway connection. Create, `start()`, `stop()`. */
export class Gateway {
  readonly #o: Required<GatewayOptions>;
  #ws: WebSocket | null = null;
  #heartbeat: ReturnType<typeof setInterval> | undefined;
  #firstBeat: ReturnType<typeof setTimeout> | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #helloTimer: ReturnType<typeof setTimeout> | undefined;
  #acked = true;
  #seq: number | null = null;
  #session: string | null = null;
  #resumeUrl: string | null = null;
  #gatewayUrl: string | null = null;
  #failures = 0;
  #lastIdentify = 0;
  #startsLeft = Infinity;
  #startsResetAt = 0;
  #stopped = false;
  readonly #state: GatewayState = {
    status: "connecting",
    reason: "",
    botId: null,
    connects: 0,
    resumes: 0,
    identifies: 0,
  };

  constructor(opts: GatewayOptions) {
    this.#o = {
      backoffMs: 1000,
      maxBackoffMs: 60_000,
      identifyGapMs: 5000,
      helloTimeoutMs: 30_000,
      ...opts,
    };
  }

  /** The state now (a copy). */
  get state(): GatewayState {
    return { ...this.#state };
  }

  /** Connects (in the background); failures are retried with backoff. */
  start(): void {
    void this.#connect();
  }

  /** Closes the connection for good. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#retry);
    this.#stopBeats();
    this.#close(1000);
    this.#set("stopped", "stopped");
  }

  async #connect(): Promise<void> {
    if (this.#stopped) return;
    this.#set("connecting", "");
    const url = this.#resumeUrl && this.#session ? this.#resumeUrl : await this.#gateway();
    if (!url || this.#stopped) return;
    let ws: WebSocket;
    try {
      const u = new URL(url);
      u.searchParams.set("v", "10");
      u.searchParams.set("encoding", "json");
      ws = new WebSocket(u);
    } catch {
      return this.#later("the gateway address is not usable");
    }
    this.#ws = ws;
    this.#state.connects++;
    // A gateway that accepts and never says Hello (or a connect that hangs) is a failure too.
    clearTimeout(this.#helloTimer);
    this.#helloTimer = setTimeout(() => {
      if (this.#ws === ws) this.#close(4900, "no Hello from the gateway");
    }, this.#o.helloTimeoutMs);
    ws.onmessage = (e) => {
      if (this.#ws !== ws || typeof e.data !== "string") return;
      let p: Payload;
      try {
        p = JSON.parse(e.data);
      } catch {
        return;
      }
      if (p && typeof p === "object" && typeof p.op === "number") this.#onPayload(ws, p);
    };
    ws.onerror = () => {};
    ws.onclose = (e) => {
      if (this.#ws !== ws) return;
      this.#ws = null;
      this.#stopBeats();
      this.#onClose(e.code);
    };
  }

  /** The gateway address from `GET /gateway/bot` (with the session-start budget). */
  async #gateway(): Promise<string | null> {
    if (this.#gatewayUrl && this.#startsLeft > 0) return this.#gatewayUrl;
    try {
      const info = await this.#o.rest.request<GatewayBot>({
        method: "GET",
        route: "GET /gateway/bot",
        path: "/gateway/bot",
        auth: true,
      });
      const limit = info?.session_start_limit;
      this.#startsLeft = Number(limit?.remaining ?? Infinity);
      this.#startsResetAt = Date.now() + Number(limit?.reset_after ?? 0);
      if (typeof info?.url !== "string" || !/^wss?:\/\//.test(info.url)) {
        this.#later("Discord sent no gateway address");
        return null;
      }
      this.#gatewayUrl = info.url;
      return info.url;
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 401) {
        this.#stopFor("Discord refused the bot token (401)");
        return null;
      }
      this.#later(`gateway address: ${(e as Error).message}`);
      return null;
    }
  }

  #onPayload(ws: WebSocket, p: Payload): void {
    if (typeof p.s === "number") this.#seq = p.s;
    switch (p.op) {
      case 10: {
        clearTimeout(this.#helloTimer);
        const d = p.d as { heartbeat_interval?: number } | undefined;
        const every = Math.max(1000, Number(d?.heartbeat_interval) || 41_250);
        this.#beatEvery(ws, every);
        void this.#hello(ws);
        return;
      }
      case 11:
        this.#acked = true;
        return;
      case 1:
        this.#send(ws, { op: 1, d: this.#seq });
        return;
      case 7:
        // Reconnect: close with a code that keeps the session, then resume at once.
        this.#close(4900, "Discord asked for a reconnect", 0);
        return;
      case 9: {
        // Invalid session: resume when Discord says it may be, else identify afresh after a
        // random 1-5 s, as the docs ask.
        const resumable = p.d === true;
        if (!resumable) this.#forget();
        this.#close(4900, "invalid session", resumable ? 0 : 1000 + Math.random() * 4000);
        return;
      }
      case 0:
        return this.#onDispatch(String(p.t ?? ""), p.d);
    }
  }

  #onDispatch(type: string, d: unknown): void {
    if (type === "READY") {
      const r = d as { session_id?: string; resume_gateway_url?: string; user?: { id?: string } };
      this.#session = typeof r?.session_id === "string" ? r.session_id : null;
      this.#resumeUrl = typeof r?.resume_gateway_url === "string" &&
          /^wss?:\/\//.test(r.resume_gateway_url)
        ? r.resume_gateway_url
        : null;
      this.#state.botId = typeof r?.user?.id === "string" ? r.user.id : null;
      this.#failures = 0;
      this.#set("ready", "");
    } else if (type === "RESUMED") {
      this.#failures = 0;
      this.#set("ready", "");
    }
    try {
      this.#o.events.dispatch(type, d);
    } catch (e) {
      console.error(`plugin discord: handling ${type} failed:`, e);
    }
  }

  /** After Hello: resume the session when there is one, else identify within the limits. */
  async #hello(ws: WebSocket): Promise<void> {
    if (this.#session && this.#seq !== null) {
      this.#state.resumes++;
      this.#send(ws, {
        op: 6,
        d: { token: this.#o.token, session_id: this.#session, seq: this.#seq },
      });
      return;
    }
    const now = Date.now();
    if (this.#startsLeft <= 0 && now < this.#startsResetAt) {
      // No session starts left today: wait for Discord's reset rather than be refused.
      return this.#close(4900, "no session starts left", this.#startsResetAt - now);
    }
    const wait = this.#lastIdentify + this.#o.identifyGapMs - now;
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (this.#ws !== ws || this.#stopped) return;
    this.#lastIdentify = Date.now();
    this.#startsLeft--;
    this.#state.identifies++;
    this.#send(ws, {
      op: 2,
      d: {
        token: this.#o.token,
        intents: INTENTS,
        properties: { os: Deno.build.os, browser: "ursamu", device: "ursamu" },
      },
    });
  }

  #beatEvery(ws: WebSocket, every: number): void {
    this.#stopBeats();
    this.#acked = true;
    const beat = () => {
      if (this.#ws !== ws) return;
      if (!this.#acked) {
        // No ack since the last beat: the connection is dead though not closed. Resume.
        this.#close(4900, "no heartbeat acknowledgement");
        return;
      }
      this.#acked = false;
      this.#send(ws, { op: 1, d: this.#seq });
    };
    // The first beat after a random part of the interval, as the docs ask (no herd after an outage).
    this.#firstBeat = setTimeout(() => {
      beat();
      this.#heartbeat = setInterval(beat, every);
    }, Math.floor(every * Math.random()));
  }

  #stopBeats(): void {
    clearTimeout(this.#firstBeat);
    clearInterval(this.#heartbeat);
  }

  #onClose(code: number): void {
    if (this.#stopped) return;
    const fatal = FATAL_CLOSE[code];
    if (fatal) return this.#stopFor(fatal);
    if (NO_RESUME.has(code)) this.#forget();
    this.#later(`connection closed (${code})`);
  }

  /** Reconnects after the backoff (or `ms`). */
  #later(reason: string, ms?: number): void {
    if (this.#stopped) return;
    const base = Math.min(this.#o.maxBackoffMs, this.#o.backoffMs * 2 ** this.#failures);
    this.#failures = Math.min(this.#failures + 1, 16);
    const delay = ms ?? Math.floor(base / 2 + Math.random() * base / 2);
    this.#set("waiting", `${reason}; retrying in ${Math.ceil(delay / 1000)} s`);
    clearTimeout(this.#retry);
    this.#retry = setTimeout(() => void this.#connect(), delay);
  }

  #stopFor(reason: string): void {
    this.stop();
    this.#set("stopped", reason);
  }

  #forget(): void {
    this.#session = null;
    this.#seq = null;
    this.#resumeUrl = null;
  }

  #send(ws: WebSocket, p: Payload): void {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(p));
  }

  /** Closes the connection; unless stopping, reconnects after `delay` (default: the backoff). */
  #close(code: number, reason = "", delay?: number): void {
    const ws = this.#ws;
    clearTimeout(this.#helloTimer);
    if (!ws) return;
    this.#ws = null;
    this.#stopBeats();
    try {
      ws.close(code);
    } catch { /* already closing */ }
    if (!this.#stopped) this.#later(reason || `closed (${code})`, delay);
  }

  #set(status: GatewayState["status"], reason: string): void {
    this.#state.status = status;
    this.#state.reason = reason;
    try {
      this.#o.events.state(this.state);
    } catch { /* a status listener's problem */ }
  }
}
