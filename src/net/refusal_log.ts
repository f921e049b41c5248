import { counted } from "../text/plural.ts";
/**
 * The log of refused connections: a listener that refuses thousands of connections a second
 * (a flood from one address, a full server) must say so, but in a few lines, not one per
 * connection: the first refusal after a quiet spell is logged at once, the rest are counted
 * and summed up once per window (how many, why, from how many addresses, the busiest one).
 */

/** Length of a summing window in ms (one summary line at most per window). */
export const REFUSAL_WINDOW_MS = 60_000;

/** Addresses counted apart in one window; beyond this they are only counted as "others". */
const MAX_ADDRESSES = 1024;

/** Refusals of one window. */
interface Window {
  total: number;
  byReason: Map<string, number>;
  byAddress: Map<string, number>;
  /** Refusals from addresses beyond MAX_ADDRESSES. */
  others: number;
}

/** Counts refused connections and logs them rate-limited. */
export class RefusalLog {
  #window: Window | null = null;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /**
   * `label` starts each line (`telnet`, `engine`); `log` writes one; `windowMs` is the
   * summing window.
   */
  constructor(
    private readonly label: string,
    private readonly log: (line: string) => void,
    private readonly windowMs = REFUSAL_WINDOW_MS,
  ) {}

  /** Records one refused connection from `ip`, refused for `reason` (a short phrase). */
  note(reason: string, ip: string): void {
    if (this.#window) {
      const w = this.#window;
      w.total++;
      w.byReason.set(reason, (w.byReason.get(reason) ?? 0) + 1);
      const n = w.byAddress.get(ip);
      if (n !== undefined) w.byAddress.set(ip, n + 1);
      else if (w.byAddress.size < MAX_ADDRESSES) w.byAddress.set(ip, 1);
      else w.others++;
      return;
    }
    this.log(
      `${this.label}: refused a connection from ${ip} (${reason}); further refusals are ` +
        `summed up every ${Math.round(this.windowMs / 1000)} s`,
    );
    this.#window = { total: 0, byReason: new Map(), byAddress: new Map(), others: 0 };
    this.#arm();
  }

  /** Logs what is pending and stops the timer (the listener is going away). */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#window && this.#window.total > 0) this.log(this.#summary(this.#window));
    this.#window = null;
  }

  #arm(): void {
    const timer = setTimeout(() => {
      const w = this.#window;
      if (!w || w.total === 0) {
        // A quiet window: the next refusal is logged at once again.
        this.#window = null;
        this.#timer = undefined;
        return;
      }
      this.log(this.#summary(w));
      this.#window = { total: 0, byReason: new Map(), byAddress: new Map(), others: 0 };
      this.#arm();
    }, this.windowMs);
    // Never the reason the process stays up.
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  #summary(w: Window): string {
    const reasons = [...w.byReason].map(([r, n]) => `${r}: ${n}`).join(", ");
    let top = "";
    let topCount = 0;
    for (const [ip, n] of w.byAddress) {
      if (n > topCount) [top, topCount] = [ip, n];
    }
    const addresses = w.byAddress.size + (w.others > 0 ? "+" : "");
    return `${this.label}: refused ${counted(w.total, "more connection")} in ` +
      `${Math.round(this.windowMs / 1000)} s (${reasons}) from ${addresses} ` +
      `address${w.byAddress.size === 1 && w.others === 0 ? "" : "es"}, most from ${top} ` +
      `(${topCount})`;
  }
}
