/**
 * A process that logs LINES numbered lines to stdout as fast as it can, then writes how long
 * that took to the file named by its first argument. Its second argument, `tight`, bounds the
 * queue at 4 KiB instead of the logger's default (lines are then dropped and counted).
 * console_writer_test.ts runs it.
 */
import { Logger } from "./logger.ts";
import { ConsoleWriter } from "./console_writer.ts";

export const LINES = 3000;

if (import.meta.main) {
  const [done, mode] = Deno.args;
  const tight = mode === "tight" ? new ConsoleWriter({ maxBytes: 4096 }) : null;
  const logger = new Logger({
    subsystem: "fixture",
    now: () => new Date(0),
    ...(tight ? { console: (line: string) => tight.write(line, "stdout") } : {}),
  });
  const pad = "x".repeat(60);
  const start = performance.now();
  for (let i = 0; i < LINES; i++) logger.log("info", `line ${i} ${pad}`);
  Deno.writeTextFileSync(done, String(performance.now() - start));
  // No close: what is still queued must be written at exit all the same.
}
