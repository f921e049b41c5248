/** Test helpers for hub units: a socket double that keeps what was sent, and idle hooks. */
import type { ConnectionHooks } from "./connection.ts";

/** Just enough of a WebSocket for a Connection; keeps what was sent and how it was closed. */
export class FakeSocket extends EventTarget {
  readyState = 1;
  bufferedAmount = 0;
  binaryType = "blob";
  readonly sent: string[] = [];
  closedWith: [number, string] | null = null;

  /** Records a sent frame. */
  send(data: string) {
    this.sent.push(data);
  }

  /** Records the close code and reason. */
  close(code: number, reason: string) {
    this.closedWith = [code, reason];
  }

  /** The socket as the Connection constructor types it. */
  asWebSocket(): WebSocket {
    return this as unknown as WebSocket;
  }
}

/** Connection hooks that do nothing (for tests that drive the connection from outside). */
export function idleHooks(): ConnectionHooks {
  return { opened: () => {}, frame: () => {}, run: async () => {}, closed: () => {} };
}
