/**
 * The hub's limits: the command rate per player (or per connection before login) and the
 * keepalive rate per connection (counted by src/rate/sliding.ts), which reported IPs are taken,
 * and how often idle connections are looked for.
 */

/** Commands allowed per window (10 a second, docs/protocol.md "Limits"). */
export const COMMANDS_PER_WINDOW = 10;
/**
 * Keepalive frames (`ping`, `sync`) allowed per window and connection: apart from the command
 * rate, so a keepalive never costs a command, and bounded, so they cannot flood replies.
 */
export const CONTROL_PER_WINDOW = 20;
/** Length of the rate window in ms. */
export const RATE_WINDOW_MS = 1000;
/** Players and connections whose command windows are kept at most (the least recently used go). */
export const RATE_KEYS = 20_000;

/** True for something shaped like an IPv4 or IPv6 address (what the sidecar may report). */
export function looksLikeIp(s: string): boolean {
  return s.length <= 45 && (/^\d{1,3}(\.\d{1,3}){3}$/.test(s) || /^[0-9a-fA-F:.]{2,45}$/.test(s)) &&
    (s.includes(".") || s.includes(":"));
}

/** Interval of the idle sweep for a timeout in seconds: often enough to be timely, never busy. */
export function idleSweepMs(idleTimeoutSeconds: number): number {
  if (idleTimeoutSeconds <= 0) return 30_000;
  return Math.min(30_000, Math.max(500, Math.floor(idleTimeoutSeconds * 1000 / 4)));
}
