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

/** Appends security events; writes are serialized so lines never interleave. */
export class SecurityLog {
  #chain: Promise<void> = Promise.resolve();
  #dirReady = false;

  constructor(readonly file: string) {}

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
