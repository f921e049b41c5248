/**
 * Hidden password entry for telnet logins: `connect <name>` or `create <name>` without a
 * password makes the sidecar ask for it with echo off, then sends the whole line to the hub.
 */

/** A login command with a name and no password (`co` and `cr` are the hub's abbreviations). */
const LOGIN_WITHOUT_PASSWORD = /^\s*(connect|co|create|cr)\s+(\S+)\s*$/i;

/** A login command waiting for its password. */
export interface PendingLogin {
  verb: string;
  name: string;
}

/** The password prompt of one telnet connection. */
export class PasswordPrompt {
  #pending: PendingLogin | null;

  /** A prompt, waiting for the password of `pending` when given (carried from another process). */
  constructor(pending: PendingLogin | null = null) {
    this.#pending = pending;
  }

  /** The login waiting for its password, or null. */
  get pending(): PendingLogin | null {
    return this.#pending;
  }

  /** When a password was asked for, the full login line `text` completes (else null). */
  complete(text: string): string | null {
    if (this.#pending === null) return null;
    const { verb, name } = this.#pending;
    this.#pending = null;
    return `${verb} ${name} ${text}`;
  }

  /**
   * True when `text` is a login command missing its password: the next line is the password.
   * `connect guest` needs none (the hub makes a guest of it).
   */
  ask(text: string): boolean {
    const m = LOGIN_WITHOUT_PASSWORD.exec(text);
    if (m === null) return false;
    if (/^co/i.test(m[1]) && m[2].toLowerCase() === "guest") return false;
    this.#pending = { verb: m[1], name: m[2] };
    return true;
  }
}
