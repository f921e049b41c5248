/** The security log: JSON lines in `<logDir>/security.log`. */
import { createHmac } from "node:crypto";
import { dirname } from "node:path";
import type { EngineConfig } from "../config/defaults.ts";
import { RotationRetry } from "../logging/rotation_retry.ts";
import { MIN_PASSWORD } from "./passwords.ts";

/** Security log event names (docs/api.md "Security log"). */
export type SecurityEvent =
  | "LOGIN_FAILED"
  | "LOGIN_RATE_LIMITED"
  | "LOGIN_ACCOUNT_LIMITED"
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
  | "ADMIN_LOGIN_RELEASE"
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

/** When the file rotates: past `maxSize` bytes (0: never), keeping `maxFiles` old files. */
export interface SecurityLogLimits {
  maxSize: number;
  maxFiles: number;
}

/** The rotation limits a configuration sets (`logging.securityMaxSize`, `.securityMaxFiles`). */
export function securityLogLimits(cfg: EngineConfig): SecurityLogLimits {
  return { maxSize: cfg.logging.securityMaxSize, maxFiles: cfg.logging.securityMaxFiles };
}

/** How a security log is built; `limits` is read at each line (`@reload/config` changes it). */
export interface SecurityLogOptions {
  now?: () => number;
  limits?: () => SecurityLogLimits;
  /** How often a refusal of one event and address is written (tests shorten the minute). */
  refusalEveryMs?: number;
  /** Events and addresses remembered at once (tests make it small). */
  maxRefusalKeys?: number;
}

/** The refusals of one event and address since its last line. */
interface Folded {
  event: SecurityEvent;
  d: SecurityDetails;
  at: number;
  more: number;
}

/** The details with the count of refusals folded into this line. */
function withCount(d: SecurityDetails, more: number): SecurityDetails {
  const count = `${more} more refused since the last entry`;
  return { ...d, detail: d.detail ? `${d.detail}; ${count}` : count };
}

/**
 * Appends security events; writes are serialized so lines never interleave, and the file rotates
 * by size as the game log does (`security.log` → `.1` → ... → `.<maxFiles>`, the oldest dropped),
 * inside the same chain: a line queued while the files are renamed goes to the new file, none is
 * lost, and the renames are asynchronous, never holding the event loop.
 */
export class SecurityLog {
  #chain: Promise<void> = Promise.resolve();
  /** The live file's size in bytes, read once at the first write; null until then. */
  #size: number | null = null;
  /** When a rotation that failed is tried again (its error is said once). */
  readonly #retry = new RotationRetry();
  readonly #encoder = new TextEncoder();
  readonly #now: () => number;
  readonly #limits: () => SecurityLogLimits;
  /**
   * Each event and address's last written refusal, the refusals folded since and the latest of
   * their details, oldest written first (an entry moves to the end when written).
   */
  readonly #refusals = new Map<string, Folded>();
  readonly #everyMs: number;
  readonly #maxKeys: number;
  /** The one timer that writes folded counts when their minute ends (not one per key). */
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Keys `unknownName`'s tags for this run: the same name tags alike until a restart. */
  readonly #nameKey = crypto.getRandomValues(new Uint8Array(32));

  constructor(readonly file: string, opts: SecurityLogOptions = {}) {
    this.#now = opts.now ?? Date.now;
    this.#limits = opts.limits ?? (() => ({ maxSize: 0, maxFiles: 0 }));
    this.#everyMs = opts.refusalEveryMs ?? REFUSAL_EVERY_MS;
    this.#maxKeys = opts.maxRefusalKeys ?? MAX_REFUSAL_KEYS;
  }

  /**
   * How a failed login's name that names no character is written: as typed while it is shorter
   * than the shortest password (it cannot be one: `root`, `admin`, a mistyped `Bob`), else its
   * first two characters and a tag keyed for this run (`hu… [3f9a0c1e]`), so a password typed
   * as the name never reaches the log while repeated tries of one name still show as one.
   */
  unknownName(name: string): string {
    const chars = [...name];
    if (chars.length < MIN_PASSWORD) return name;
    const tag = createHmac("sha256", this.#nameKey).update(name.toLowerCase()).digest("hex");
    return `${chars.slice(0, 2).join("")}… [${tag.slice(0, 8)}]`;
  }

  /**
   * Records a refusal by a rate limit: the first of an event from an address, then at most one
   * line every REFUSAL_EVERY_MS, which counts the refusals not written since. A flood repeats the
   * refusal as fast as it can send (500 `connect` lines a second from one address's 50
   * connections): a line each grew the file without bound, one append a line. The count is
   * written when its minute ends (or when the key is forgotten to make room), not only with a
   * later refusal, which may never come. `by` is what refusals are counted by instead of the
   * address (an account's refusals from many addresses make one line a minute).
   */
  refused(event: SecurityEvent, d: SecurityDetails = {}, by = d.ip ?? ""): Promise<void> {
    const key = `${event} ${by}`;
    const now = this.#now();
    const last = this.#refusals.get(key);
    if (last && now - last.at < this.#everyMs) {
      last.more++;
      last.d = d;
      return this.#chain;
    }
    this.#refusals.delete(key);
    this.#refusals.set(key, { event, d, at: now, more: 0 });
    if (this.#refusals.size > this.#maxKeys) {
      const [oldKey, old] = this.#refusals.entries().next().value!;
      this.#refusals.delete(oldKey);
      if (old.more) this.#writeCount(old);
    }
    this.#arm();
    if (!last?.more) return this.write(event, d);
    return this.write(event, withCount(d, last.more));
  }

  /** Writes the folded counts still held, stops the timer, and resolves when all is on disk. */
  close(): Promise<void> {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    for (const entry of this.#refusals.values()) if (entry.more) this.#writeCount(entry);
    this.#refusals.clear();
    return this.#chain;
  }

  /** Arms the timer for the oldest entry's minute end, unless it is armed or nothing is held. */
  #arm(): void {
    if (this.#timer !== null) return;
    const first = this.#refusals.values().next().value;
    if (!first) return;
    const delay = Math.max(0, first.at + this.#everyMs - this.#now());
    const timer = setTimeout(() => {
      this.#timer = null;
      this.#sweep();
    }, delay);
    // The timer never keeps a process alive that has nothing else to do.
    Deno.unrefTimer(timer);
    this.#timer = timer;
  }

  /**
   * At the end of entries' minutes: a folded count is written and starts a new minute (a flood
   * that goes on gets a line a minute), an entry with nothing folded is forgotten. Entries are
   * in the order their minutes end, so this looks only at the ones that ended.
   */
  #sweep(): void {
    const now = this.#now();
    for (const [key, entry] of this.#refusals) {
      if (now - entry.at < this.#everyMs) break;
      this.#refusals.delete(key);
      if (!entry.more) continue;
      this.#writeCount(entry);
      this.#refusals.set(key, { ...entry, at: now, more: 0 });
    }
    this.#arm();
  }

  #writeCount(entry: Folded): void {
    void this.write(entry.event, withCount(entry.d, entry.more));
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
        const bytes = this.#encoder.encode(line);
        if (this.#size === null) {
          await Deno.mkdir(dirname(this.file), { recursive: true });
          this.#size = await sizeOf(this.file);
        }
        const { maxSize, maxFiles } = this.#limits();
        if (maxSize > 0 && this.#size > 0 && this.#size + bytes.length > maxSize) {
          const now = this.#now();
          if (this.#retry.due(now)) await this.#rotateOrKeep(maxFiles, now);
        }
        await Deno.writeFile(this.file, bytes, { append: true });
        this.#size += bytes.length;
      } catch (e) {
        console.error(`security log: cannot write ${this.file}: ${(e as Error).message}`);
      }
    });
    return this.#chain;
  }

  /** Resolves when every line queued so far is written. */
  flush(): Promise<void> {
    return this.#chain;
  }

  /**
   * Rotates; when a rename fails the line still goes to the live file, which stays past its
   * size, and a line written after the retry wait (src/logging/rotation_retry.ts) tries again
   * (a failure is said once until a rotation succeeds).
   */
  async #rotateOrKeep(maxFiles: number, now: number): Promise<void> {
    try {
      await this.#rotate(maxFiles);
      this.#size = 0;
      this.#retry.succeeded();
    } catch (e) {
      const first = !this.#retry.failing;
      this.#retry.failed(now);
      if (!first) return;
      console.error(
        `security log: cannot rotate ${this.file} (${(e as Error).message}); ` +
          "writing on to it and trying again later (after 1 s, doubling up to a minute)",
      );
    }
  }

  /**
   * Moves the live file to `.1`, the older ones up by one as far as the first free number, and
   * the last over the oldest when none is free. Stopping at a gap means a rotation that failed
   * half way and is tried again drops no file: each rename moves a file onto a free name, and
   * only the oldest, `.<maxFiles>`, is ever overwritten.
   */
  async #rotate(maxFiles: number): Promise<void> {
    if (maxFiles < 1) return await removeIfThere(this.file);
    let free = 1;
    while (free < maxFiles && await exists(`${this.file}.${free}`)) free++;
    for (let i = free - 1; i >= 1; i--) {
      await Deno.rename(`${this.file}.${i}`, `${this.file}.${i + 1}`);
    }
    await renameIfThere(this.file, `${this.file}.1`);
  }
}

/** Whether something is at `path` (a file, or anything else that takes the name). */
async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/** A file's size, 0 when it does not exist. */
async function sizeOf(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return 0;
    throw e;
  }
}

async function renameIfThere(from: string, to: string): Promise<void> {
  try {
    await Deno.rename(from, to);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}

async function removeIfThere(path: string): Promise<void> {
  try {
    await Deno.remove(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
}
