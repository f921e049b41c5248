/**
 * A lean WebSocket client for the benchmark: logs in with a token as a `web`
 * client and reports matching frames with their arrival time. It does no JSON
 * parsing on the hot path, so the client side costs as little as possible.
 */

/** Receives every frame with its arrival time (performance.now()). */
export type FrameSink = (data: string, at: number) => void;

/** One benchmark connection. */
export class BenchClient {
  #waiter: { needle: string; resolve: (at: number) => void } | null = null;
  /** Extra receiver for every frame (fan-out measurement). */
  sink: FrameSink | null = null;

  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (e) => {
      const at = performance.now();
      const data = typeof e.data === "string" ? e.data : "";
      const w = this.#waiter;
      if (w && data.includes(w.needle)) {
        this.#waiter = null;
        w.resolve(at);
      }
      this.sink?.(data, at);
    };
  }

  /**
   * Connects and logs in by token, resolving after the login's `look` (a `room` frame); with
   * `resume`, a silent resume that resolves on the session frame (no motd, no look).
   */
  static open(
    url: string,
    token: string,
    resume = false,
    timeoutMs = 20_000,
  ): Promise<BenchClient> {
    const query = `?client=web&token=${encodeURIComponent(token)}${resume ? "&resume=1" : ""}`;
    const ws = new WebSocket(url + query);
    const c = new BenchClient(ws);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("login timed out")), timeoutMs);
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new Error("WebSocket error"));
      };
      c.until(resume ? '"type":"session"' : '"type":"room"').then(() => {
        clearTimeout(timer);
        resolve(c);
      });
    });
  }

  /** Resolves with the arrival time of the next frame containing `needle`. */
  until(needle: string): Promise<number> {
    return new Promise((resolve) => this.#waiter = { needle, resolve });
  }

  /** Sends one command line and resolves with the round-trip time (ms) of the reply holding `needle`. */
  async roundTrip(line: string, needle: string): Promise<number> {
    const reply = this.until(needle);
    const t0 = performance.now();
    this.ws.send(line);
    return (await reply) - t0;
  }

  /** Sends one command line. */
  send(line: string): void {
    this.ws.send(line);
  }

  /** Closes the socket and waits (briefly) for the close. */
  close(): Promise<void> {
    if (this.ws.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      const t = setTimeout(resolve, 2000);
      this.ws.addEventListener("close", () => {
        clearTimeout(t);
        resolve();
      });
      this.ws.close();
    });
  }
}

/** Opens clients for the given tokens, `batch` at a time. */
export async function openMany(
  url: string,
  tokens: readonly string[],
  opts: { resume?: boolean; batch?: number } = {},
): Promise<BenchClient[]> {
  const batch = opts.batch ?? 50;
  const out: BenchClient[] = [];
  for (let i = 0; i < tokens.length; i += batch) {
    const slice = tokens.slice(i, i + batch);
    out.push(...await Promise.all(slice.map((t) => BenchClient.open(url, t, opts.resume))));
  }
  return out;
}
