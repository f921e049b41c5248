/**
 * What a player is told when input is dropped for coming too fast: a WebSocket frame over the
 * input budget, a command over the rate, a telnet line past the sidecar's buffer (the same words).
 * It lives in src/rate so the hub and the telnet layer, which must not import each other, share it.
 */
export const TOO_FAST = "Input not kept: you are typing faster than the game accepts.";
