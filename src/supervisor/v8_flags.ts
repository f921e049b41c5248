/**
 * V8 flags the supervisor gives the engine and the telnet sidecar, through `DENO_V8_FLAGS` in
 * their environment (Deno reads it at start, so it needs no change to the command line of either
 * way a child is started). See docs/operations.md.
 */

/** The environment variable Deno reads V8 flags from (comma-separated). */
export const V8_FLAGS_ENV = "DENO_V8_FLAGS";

/**
 * Memory saver mode: V8 keeps the young generation small and collects garbage before growing
 * the heap, where by default a burst of traffic (a login storm, a fan-out to every player) grows
 * the young generation to 30–60 MB per process and leaves it there. With it, 1,000 telnet players
 * after their logins cost about half the resident memory (docs/bench.md). The price is the
 * sidecar's tail on large fan-outs (p99 to 1,000 listeners ~34 ms against ~13 ms without it,
 * docs/operations.md): the operator's `--no-memory-saver-mode` turns it off.
 */
export const CHILD_V8_FLAGS: readonly string[] = ["--memory-saver-mode"];

/**
 * The `DENO_V8_FLAGS` value for a child: ours first, then the operator's own (V8 takes the last
 * of a repeated flag, so `DENO_V8_FLAGS=--no-memory-saver-mode` turns ours off).
 */
export function childV8Flags(inherited: string | undefined): string {
  const theirs = (inherited ?? "").split(",").map((f) => f.trim()).filter(Boolean);
  return [...CHILD_V8_FLAGS, ...theirs].join(",");
}
