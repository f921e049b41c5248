/** Test helpers for hub units: a session that keeps what was sent and how it closed; idle hooks. */
import type { ConnectionHooks } from "./connection.ts";
import type { EncodedFrame } from "./protocol.ts";
import type { Session } from "./session.ts";
import type { ClientKind } from "./types.ts";

/** A carrier's session that keeps each frame in its kind's text form, and its close. */
export class FakeSession implements Session {
  buffered = 0;
  readonly sent: string[] = [];
  closedWith: [number, string] | null = null;
  /** Lines handed back at a restart's close (see Session's `unread`). */
  unreadLines: string[] | null = null;

  constructor(readonly kind: ClientKind = "web") {}

  /** Records the frame's text for this kind. */
  deliver(frame: EncodedFrame, colour: boolean): void {
    const text = frame.for(this.kind, colour);
    if (text !== null) this.sent.push(text);
  }

  /** Records the lines handed back. */
  unread(lines: string[]): void {
    this.unreadLines = lines;
  }

  /** Records the close code and reason. */
  close(code: number, reason: string): void {
    this.closedWith = [code, reason];
  }
}

/** Connection hooks that do nothing (for tests that drive the connection from outside). */
export function idleHooks(): ConnectionHooks {
  return {
    frame: () => {},
    line: () => true,
    report: () => {},
    gmcp: () => {},
    run: async () => {},
    closed: () => {},
  };
}
