/** A telnet client's limits, wherever its socket is held: every buffer kept for it is bounded. */

/** Per-connection limits; every buffer held for a telnet client is bounded by one of these. */
export interface ClientLimits {
  /**
   * Output waiting for a client that does not read; beyond it the client is dropped. Lines from
   * the game past half of it are dropped instead, and the player told (TelnetClient's `#show`).
   */
  maxOutputBytes: number;
  /** Input lines waiting to go to the hub (engine restarting, or typed faster than the rate). */
  maxBufferedLines: number;
  /** Input bytes waiting to go to the hub. */
  maxBufferedBytes: number;
  /**
   * Lines the hub may read from this connection in any second. The hub drops a player's commands
   * beyond 10 a second, so a paste or the replay after a restart is paced instead of being cut
   * off; the hub acknowledges each line as it reads it (see pacer.ts), so a stalled engine cannot
   * receive them bunched. Below 10 to leave room for the same player's other connections, which
   * share the hub's limit.
   */
  hubFramesPerSecond: number;
  /** Longest input line (UTF-8 bytes); longer lines are refused whole. */
  maxLineBytes: number;
  /** Longest telnet subnegotiation kept (bytes); longer ones are dropped. */
  maxSubnegotiation: number;
  /**
   * Bytes a second read from the connection after a burst (src/telnet/client/input_budget.ts);
   * over it the socket is not read for a while. 0: no bound. `server.telnetInputBytesPerSecond`.
   */
  inputBytesPerSecond: number;
  /**
   * The same for all the connections of one address together (an IPv6 address by its /64), so
   * many connections do not multiply it. 0: no bound. `server.telnetInputBytesPerSecondPerIp`.
   */
  inputBytesPerSecondPerIp: number;
  /** Malformed telnet sequences and overlong lines tolerated before the client is closed. */
  maxProtocolErrors: number;
  /** How long to wait for the hub to confirm a resumed session. */
  resumeTimeoutMs: number;
  /**
   * Longest wait between reconnect attempts to the hub. Short, because a refused connection
   * costs almost nothing and every extra wait is downtime the player sees after a reboot.
   */
  maxRetryMs: number;
}

/** The limits the sidecar runs with unless told otherwise. */
export const DEFAULT_LIMITS: ClientLimits = {
  maxOutputBytes: 1024 * 1024,
  // A softcode installer pasted whole (Anomaly Jobs 6.5: 540 lines, 136 KiB) is kept and fed to
  // the hub at its rate, not cut off after the first screenful (docs/softcode.md, "Packages").
  maxBufferedLines: 1000,
  maxBufferedBytes: 256 * 1024,
  hubFramesPerSecond: 8,
  maxLineBytes: 8 * 1024,
  maxSubnegotiation: 8 * 1024,
  inputBytesPerSecond: 64 * 1024,
  inputBytesPerSecondPerIp: 1024 * 1024,
  maxProtocolErrors: 64,
  resumeTimeoutMs: 10_000,
  maxRetryMs: 500,
};
