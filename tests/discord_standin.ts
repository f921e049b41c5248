/**
 * A stand-in for Discord on 127.0.0.1, speaking the documented protocol closely enough for the
 * bridge's tests: `GET /gateway/bot`, webhook execution with rate-limit headers (and 429 storms
 * or no answer at all on demand), and a gateway WebSocket (Hello, Identify, Resume with replay,
 * heartbeats and their acks, Ready, Resumed, Message Create, Reconnect, Invalid Session). Every
 * request it gets is recorded, so a test can check what left the game.
 */

/** A webhook post as the stand-in received it. */
export interface ReceivedPost {
  webhookId: string;
  body: {
    username?: string;
    content?: string;
    avatar_url?: string;
    allowed_mentions?: { parse?: unknown[] };
  };
}

/** How the REST side answers webhook posts. */
export type RestMode = "ok" | "429" | "hang" | "404";

interface Session {
  id: string;
  seq: number;
  /** Events sent, for replay on resume. */
  sent: { s: number; t: string; d: unknown }[];
}

/** The stand-in. */
export class DiscordStandIn {
  readonly token: string;
  readonly botId = "900000000000000001";
  readonly posts: ReceivedPost[] = [];
  /** Every request line and its headers, for the secret checks. */
  readonly requests: string[] = [];
  identifies = 0;
  resumes = 0;
  connections = 0;
  heartbeats = 0;
  intents = 0;
  rest: RestMode = "ok";
  /** 429s left to send while `rest` is "429". */
  storm = 0;
  ackHeartbeats = true;
  heartbeatMs = 1000;
  readonly #server: Deno.HttpServer<Deno.NetAddr>;
  readonly #webhooks = new Map<string, { token: string; channel: string }>();
  #socket: WebSocket | null = null;
  #session: Session | null = null;
  #ready = false;
  readonly #hanging: (() => void)[] = [];

  constructor(token: string) {
    this.token = token;
    this.#server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      (req) => this.#handle(req),
    );
  }

  /** `http://127.0.0.1:<port>/api/v10`: the bridge's `apiBase`. */
  get apiBase(): string {
    return `http://127.0.0.1:${this.#server.addr.port}/api/v10`;
  }

  /** Makes a webhook for a channel; its address as Discord would show it (under apiBase). */
  webhook(id: string, token: string, channel: string): string {
    this.#webhooks.set(id, { token, channel });
    return `${this.apiBase}/webhooks/${id}/${token}`;
  }

  /** True while a gateway session is ready. */
  get ready(): boolean {
    return this.#ready && this.#socket?.readyState === WebSocket.OPEN;
  }

  /** A user's message in a Discord channel, dispatched as MESSAGE_CREATE (queued while down). */
  say(
    channel: string,
    author: { id: string; username: string; bot?: boolean },
    content: string,
    extra: Record<string, unknown> = {},
  ): void {
    this.#dispatch("MESSAGE_CREATE", {
      id: String(Date.now()) + Math.floor(Math.random() * 1000),
      channel_id: channel,
      guild_id: "800000000000000001",
      type: 0,
      content,
      author,
      attachments: [],
      mentions: [],
      ...extra,
    });
  }

  /** Closes the gateway connection as a dropped one (code 4000: resumable). */
  drop(): void {
    this.#ready = false;
    try {
      this.#socket?.close(4000, "dropped");
    } catch { /* closed */ }
    this.#socket = null;
  }

  /** Sends Reconnect (op 7) or Invalid Session (op 9). */
  op(op: 7 | 9, d: unknown = null): void {
    this.#socket?.send(JSON.stringify({ op, d }));
    if (op === 9 && d === false) this.#session = null;
  }

  /** Answers every hanging request (Discord is back). */
  release(): void {
    for (const r of this.#hanging.splice(0)) r();
  }

  /** Stops the stand-in. */
  async close(): Promise<void> {
    this.release();
    this.drop();
    await this.#server.shutdown();
  }

  #handle(req: Request): Response | Promise<Response> {
    const url = new URL(req.url);
    this.requests.push(
      `${req.method} ${url.pathname}${url.search} ${
        [...req.headers].map(([k, v]) => `${k}: ${v}`).join("; ")
      }`,
    );
    if (req.headers.get("upgrade") === "websocket") return this.#gateway(req);
    if (req.method === "GET" && url.pathname === "/api/v10/gateway/bot") {
      if (req.headers.get("authorization") !== `Bot ${this.token}`) {
        return Response.json({ message: "401: Unauthorized", code: 0 }, { status: 401 });
      }
      return Response.json({
        url: `ws://127.0.0.1:${this.#server.addr.port}/gateway`,
        shards: 1,
        session_start_limit: {
          total: 1000,
          remaining: 999,
          reset_after: 3_600_000,
          max_concurrency: 1,
        },
      });
    }
    const m = /^\/api\/v10\/webhooks\/(\d+)\/([\w-]+)$/.exec(url.pathname);
    if (req.method === "POST" && m) return this.#execute(req, m[1], m[2]);
    return Response.json({ message: "404: Not Found", code: 0 }, { status: 404 });
  }

  async #execute(req: Request, id: string, token: string): Promise<Response> {
    const hook = this.#webhooks.get(id);
    if (!hook || hook.token !== token || this.rest === "404") {
      return Response.json({ message: "Unknown Webhook", code: 10015 }, { status: 404 });
    }
    if (this.rest === "hang") {
      await new Promise<void>((r) => this.#hanging.push(r));
    }
    if (this.rest === "429" && this.storm > 0) {
      this.storm--;
      return Response.json({
        message: "You are being rate limited.",
        retry_after: 0.05,
        global: false,
      }, {
        status: 429,
        headers: {
          "x-ratelimit-bucket": "hook-bucket",
          "x-ratelimit-limit": "5",
          "x-ratelimit-remaining": "0",
          "x-ratelimit-reset-after": "0.05",
          "retry-after": "1",
        },
      });
    }
    const body = await req.json();
    this.posts.push({ webhookId: id, body });
    // A webhook's message shows in its channel, and bots hear it: the bridge must not echo it.
    this.#dispatch("MESSAGE_CREATE", {
      id: String(Date.now()),
      channel_id: hook.channel,
      type: 0,
      content: body.content,
      webhook_id: id,
      author: { id, username: body.username, bot: true },
      attachments: [],
      mentions: [],
    });
    return new Response(null, {
      status: 204,
      headers: {
        "x-ratelimit-bucket": "hook-bucket",
        "x-ratelimit-limit": "5",
        "x-ratelimit-remaining": "4",
        "x-ratelimit-reset-after": "1",
      },
    });
  }

  #gateway(req: Request): Response {
    const { socket, response } = Deno.upgradeWebSocket(req);
    this.connections++;
    socket.onopen = () => {
      this.#socket = socket;
      this.#ready = false;
      socket.send(
        JSON.stringify({ op: 10, d: { heartbeat_interval: this.heartbeatMs }, s: null, t: null }),
      );
    };
    socket.onmessage = (e) => {
      const p = JSON.parse(String(e.data));
      if (p.op === 1) {
        this.heartbeats++;
        if (this.ackHeartbeats) socket.send(JSON.stringify({ op: 11 }));
      } else if (p.op === 2) {
        this.identifies++;
        if (p.d?.token !== this.token) return socket.close(4004, "Authentication failed.");
        this.intents = Number(p.d?.intents);
        this.#session = { id: `session-${this.identifies}`, seq: 0, sent: [] };
        this.#ready = true;
        this.#dispatch("READY", {
          v: 10,
          session_id: this.#session.id,
          resume_gateway_url: `ws://127.0.0.1:${this.#server.addr.port}/resume`,
          user: { id: this.botId, username: "bridge", bot: true },
          guilds: [],
        });
      } else if (p.op === 6) {
        this.resumes++;
        const s = this.#session;
        if (!s || p.d?.session_id !== s.id || p.d?.token !== this.token) {
          socket.send(JSON.stringify({ op: 9, d: false }));
          return;
        }
        this.#ready = true;
        for (const ev of s.sent.filter((x) => x.s > Number(p.d.seq))) {
          socket.send(JSON.stringify({ op: 0, ...ev }));
        }
        this.#dispatch("RESUMED", {});
      }
    };
    socket.onclose = () => {
      if (this.#socket === socket) {
        this.#socket = null;
        this.#ready = false;
      }
    };
    return response;
  }

  #dispatch(t: string, d: unknown): void {
    const s = this.#session;
    if (!s) return;
    const ev = { s: ++s.seq, t, d };
    s.sent.push(ev);
    if (s.sent.length > 1000) s.sent.shift();
    if (this.#socket && (this.#ready || t === "READY")) {
      this.#socket.send(JSON.stringify({ op: 0, ...ev }));
    }
  }
}
