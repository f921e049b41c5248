/** The security log: JSON lines in `<logDir>/security.log`. */
import { dirname } from "node:path";

/** Security log event names (docs/api.md "Security log"). */
export type SecurityEvent =
  | "LOGIN_FAILED"
  | "LOGIN_RATE_LIMITED"
  | "REGISTER_RATE_LIMITED"
  | "PASSWORD_RESET"
  | "PASSWORD_CHANGED"
  | "ADMIN_BOOT"
  | "ADMIN_TOAD"
  | "ADMIN_NEWPASSWORD"
  | "ADMIN_SITE_SET"
  | "ADMIN_SITE_BLOCKED"
  | "ADMIN_RESETTOKEN"
  | "ADMIN_SET_FLAG"
  | "ADMIN_CHOWN"
  | "ADMIN_MONIKER"
  | "ADMIN_REPAIR"
  | "WS_RATE_LIMITED";

/** One log entry's details. */
export interface SecurityDetails {
  actor?: string | null;
  target?: string | null;
  ip?: string | null;
  detail?: string;
}

/** A refusal by a rate limit is written at most this often for one event and address. */
export const REFUSAL_EVERY_MS = 60_000;
/** Events and addresses whose last refusal is remembered (the oldest are forgotten first). */
const MAX_REFUSAL_KEYS = 10_000;

/** Appends security events; writes are serialized so lines never interleave. */
export class SecurityLog {
  #chain: Promise<void> = Promise.resolve();
  #dirReady = false;
  /** When each event and address's last refusal was written, and how many came since. */
  readonly #refusals = new Map<string, { at: number; more: number }>();

  constructor(readonly file: string, private readonly now: () => number = Date.now) {}

  /**
   * Records a refusal by a rate limit: the first of an event from an address, then at most one
   * every REFUSAL_EVERY_MS, which counts the refusals not written since. A flood repeats the
   * refusal as fast as it can send (500 `connect` lines a second from one address's 50
   * connections): a line each grew the file without bound, one append a line.
   */
  refused(event: SecurityEvent, d: SecurityDetails = {}): Promise<void> {
    const key = `${event} ${d.ip ?? ""}`;
    const now = this.now();
    const last = this.#refusals.get(key);
    if (last && now - last.at < REFUSAL_EVERY_MS) {
      last.more++;
      return this.#chain;
    }
    this.#refusals.delete(key);
    this.#refusals.set(key, { at: now, more: 0 });
    if (this.#refusals.size > MAX_REFUSAL_KEYS) {
      this.#refusals.delete(this.#refusals.keys().next().value!);
    }
    if (!last?.more) return this.write(event, d);
    const count = `${last.more} more refused since the last entry`;
    return this.write(event, { ...d, detail: d.detail ? `${d.detail}; ${count}` : count });
  }

  /** Queues one entry; resolves when it is on disk. Never throws. */
  write(event: SecurityEvent, d: SecurityDetails = {}): Promise<void> {
    const line = JSON.stringify({
      time: new Date().toISOString(),
      event,
      actor: d.actor ?? null,
      target: d.target ?? null,
      ip: d.ip ?? null,
      ...(d.detail ? { detail: d.detail } : {}),
    }) + "\n";
    this.#chain = this.#chain.then(async () => {
      try {
        if (!this.#dirReady) {
          await Deno.mkdir(dirname(this.file), { recursive: true });
          this.#dirReady = true;
        }
        await Deno.writeTextFile(this.file, line, { append: true });
      } catch (e) {
        console.error(`security log: cannot write ${this.file}: ${(e as Error).message}`);
      }
    });
    return this.#chain;
  }

  /** Resolves when every queued entry is written. */
  flush(): Promise<void> {
    return this.#chain;
  }
}
