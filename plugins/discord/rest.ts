/**
 * Discord's REST API over `fetch`, as its rate-limit documentation asks: per-route buckets
 * learned from the `X-RateLimit-*` headers (a route's bucket is shared by the routes Discord
 * says share it, per top-level resource), the global limit, and `429` answers waited out by
 * their `retry_after`. Every request has a deadline, so a Discord that never answers costs a
 * timeout, not a stuck queue. Nothing here logs: errors name the route, never its address.
 */

/** A failed request: `status` 0 for a network error or a timeout. */
export class DiscordRestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Discord's JSON error code (`10015` Unknown Webhook), when it sent one. */
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = "DiscordRestError";
  }
}

/** Settings of a REST client. */
export interface RestOptions {
  /** API base such as `https://discord.com/api/v10` (no trailing slash). */
  base: string;
  /** The bot token for routes that need one (`Authorization: Bot <token>`). */
  token?: string;
  /** Deadline of one request, ms. */
  timeoutMs: number;
  /** Longest rate-limit wait accepted before a request gives up, ms. */
  maxWaitMs?: number;
  /** 429s (and 5xx) retried before giving up. */
  retries?: number;
  /** The clock and the wait (tests). */
  now?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called for each 429 (counted in the status). */
  onRateLimited?: (global: boolean) => void;
}

/** One request: `route` names the rate-limit route (`POST /webhooks/:id`), `path` the URL path. */
export interface RestRequest {
  method: "GET" | "POST";
  route: string;
  path: string;
  body?: unknown;
  /** Send the bot token (webhooks carry their own in the path and need none). */
  auth?: boolean;
  query?: Record<string, string>;
}

interface Bucket {
  remaining: number;
  resetAt: number;
}

/** The most buckets and routes remembered (each webhook has its own). */
const MAX_BUCKETS = 1000;

/** A waitable sleep that an AbortSignal ends early. */
function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** A Discord REST client with rate limits and deadlines. */
export class DiscordRest {
  readonly #o: Required<Omit<RestOptions, "token" | "onRateLimited">> & RestOptions;
  /** Route → bucket id (from `X-RateLimit-Bucket`). */
  readonly #routeBucket = new Map<string, string>();
  /** Bucket id (or route, before Discord named one) → state. */
  readonly #buckets = new Map<string, Bucket>();
  #globalUntil = 0;
  readonly #stop = new AbortController();

  constructor(opts: RestOptions) {
    this.#o = {
      maxWaitMs: 60_000,
      retries: 3,
      now: () => Date.now(),
      sleep: defaultSleep,
      ...opts,
    };
  }

  /** Ends every wait and refuses further requests (the plugin is unloading). */
  close(): void {
    this.#stop.abort();
  }

  /** Sends a request; resolves to the parsed JSON body (null when empty). */
  async request<T = unknown>(req: RestRequest): Promise<T | null> {
    for (let attempt = 0;; attempt++) {
      await this.#waitForRoute(req.route);
      if (this.#stop.signal.aborted) throw new DiscordRestError(0, "the bridge stopped");
      const res = await this.#send(req);
      this.#learn(req.route, res.headers);
      if (res.status === 429) {
        const body = await res.json().catch(() => ({})) as {
          retry_after?: number;
          global?: boolean;
        };
        const after = Number(body.retry_after ?? res.headers.get("retry-after") ?? 1);
        const waitMs = Math.max(0, Math.ceil((Number.isFinite(after) ? after : 1) * 1000));
        const global = body.global === true || res.headers.get("x-ratelimit-global") === "true";
        this.#o.onRateLimited?.(global);
        const until = this.#o.now() + waitMs;
        if (global) this.#globalUntil = Math.max(this.#globalUntil, until);
        else {
          const b = this.#bucketOf(req.route);
          b.remaining = 0;
          b.resetAt = until;
        }
        if (attempt >= this.#o.retries || waitMs > this.#o.maxWaitMs) {
          throw new DiscordRestError(429, `${req.route}: rate limited for ${waitMs} ms`);
        }
        continue;
      }
      if (res.status >= 500 && attempt < Math.min(this.#o.retries, 2)) {
        await res.body?.cancel();
        await this.#o.sleep(1000 * (attempt + 1), this.#stop.signal);
        continue;
      }
      const text = await res.text();
      if (!res.ok) {
        let code: number | null = null;
        let message = "";
        try {
          const j = JSON.parse(text);
          code = typeof j.code === "number" ? j.code : null;
          message = typeof j.message === "string" ? j.message.slice(0, 200) : "";
        } catch { /* not JSON */ }
        throw new DiscordRestError(
          res.status,
          `${req.route}: ${res.status}${message ? ` ${message}` : ""}`,
          code,
        );
      }
      if (!text) return null;
      try {
        return JSON.parse(text) as T;
      } catch {
        return null;
      }
    }
  }

  async #send(req: RestRequest): Promise<Response> {
    const url = new URL(this.#o.base + req.path);
    for (const [k, v] of Object.entries(req.query ?? {})) url.searchParams.set(k, v);
    const headers: Record<string, string> = {
      "user-agent": "DiscordBot (https://github.com/UrsaMU/ursamu, 1.0.0)",
    };
    if (req.auth && this.#o.token) headers.authorization = `Bot ${this.#o.token}`;
    if (req.body !== undefined) headers["content-type"] = "application/json";
    const timeout = AbortSignal.timeout(this.#o.timeoutMs);
    try {
      return await fetch(url, {
        method: req.method,
        headers,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        signal: AbortSignal.any([timeout, this.#stop.signal]),
        redirect: "error",
      });
    } catch (e) {
      // The message of a fetch error holds the URL (and so a webhook's token): never pass it on.
      const why = timeout.aborted
        ? `no answer in ${this.#o.timeoutMs} ms`
        : this.#stop.signal.aborted
        ? "the bridge stopped"
        : (e as Error).name === "TypeError"
        ? "network error"
        : (e as Error).name;
      throw new DiscordRestError(0, `${req.route}: ${why}`);
    }
  }

  /** Waits while the route's bucket or the global limit is spent. */
  async #waitForRoute(route: string): Promise<void> {
    for (;;) {
      const now = this.#o.now();
      const b = this.#buckets.get(this.#routeBucket.get(route) ?? route);
      const until = Math.max(this.#globalUntil, b && b.remaining <= 0 ? b.resetAt : 0);
      if (until <= now || this.#stop.signal.aborted) return;
      if (until - now > this.#o.maxWaitMs) {
        throw new DiscordRestError(429, `${route}: rate limited for ${until - now} ms`);
      }
      await this.#o.sleep(until - now, this.#stop.signal);
      if (b && this.#o.now() >= b.resetAt) b.remaining = 1;
    }
  }

  /** Remembers what the answer says of the route's bucket. */
  #learn(route: string, h: Headers): void {
    const id = h.get("x-ratelimit-bucket");
    if (id) {
      if (!this.#routeBucket.has(route) && this.#routeBucket.size >= MAX_BUCKETS) {
        this.#routeBucket.delete(this.#routeBucket.keys().next().value!);
      }
      this.#routeBucket.set(route, `${id}:${route.split(" ").slice(1).join(" ")}`);
    }
    const remaining = Number(h.get("x-ratelimit-remaining"));
    const resetAfter = Number(h.get("x-ratelimit-reset-after"));
    if (h.has("x-ratelimit-remaining") && Number.isFinite(remaining)) {
      const b = this.#bucketOf(route);
      b.remaining = remaining;
      if (Number.isFinite(resetAfter)) b.resetAt = this.#o.now() + Math.ceil(resetAfter * 1000);
    }
  }

  #bucketOf(route: string): Bucket {
    const key = this.#routeBucket.get(route) ?? route;
    let b = this.#buckets.get(key);
    if (!b) {
      if (this.#buckets.size >= MAX_BUCKETS) {
        this.#buckets.delete(this.#buckets.keys().next().value!);
      }
      b = { remaining: 1, resetAt: 0 };
      this.#buckets.set(key, b);
    }
    return b;
  }
}
