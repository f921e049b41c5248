/** Builds a process's logger from the configuration (docs/logging.md). */
import { dirname, join, resolve } from "node:path";
import type { EngineConfig } from "../config/defaults.ts";
import { type Level, Logger, secretsFrom } from "./logger.ts";

/** Where the log file is: `logging.file`, or `ursamu.log` in `logging.dir` when that is empty. */
export function logFilePath(cfg: EngineConfig, root: string): string {
  return cfg.logging.file
    ? resolve(root, cfg.logging.file)
    : resolve(root, cfg.logging.dir, "ursamu.log");
}

/**
 * Starts logging for one process and routes its console through it. `writeFile` false for a
 * supervised child: it prints formatted lines and the supervisor, the one writer of the file
 * (so rotation has one owner), passes them on.
 */
export function startLogging(
  cfg: EngineConfig,
  root: string,
  subsystem: string,
  env: Record<string, string>,
  writeFile: boolean,
  /** A file of its own beside the main one (the sidecar run alone: `telnet.log`). */
  ownFile?: string,
): Logger {
  const main = logFilePath(cfg, root);
  const logger = new Logger({
    level: cfg.logging.level,
    subsystem,
    file: writeFile
      ? {
        path: ownFile ? join(dirname(main), ownFile) : main,
        maxSize: cfg.logging.maxSize,
        maxFiles: cfg.logging.maxFiles,
      }
      : null,
    secrets: secretsFrom(env),
  });
  logger.installConsole();
  return logger;
}

/** Bytes read from a child's pipe at a time (one buffer, reused for every read). */
const PIPE_READ_BYTES = 8192;

/**
 * Passes a child's output on through `logger`, line by line, at `level` (or the level it gives
 * each line), showing each line to `tap` after logging it; resolves when the stream ends. A child's pipe is read into one reused buffer: read as a plain stream, every read allocates a
 * fresh 64 KiB buffer, and the few hundred waiting for a collection during a login storm left the
 * supervisor ~15 MB bigger for good (docs/bench.md).
 */
export async function pipeLines(
  stream: ReadableStream<Uint8Array>,
  logger: Logger,
  level: Level | ((line: string) => Level),
  subsystem: string,
  tap?: (line: string) => void,
): Promise<void> {
  let rest = "";
  const pass = (line: string) => {
    logger.passThrough(line, typeof level === "function" ? level(line) : level, subsystem);
    tap?.(line);
  };
  const lines = (text: string) => {
    const parts = (rest + text).split("\n");
    rest = parts.pop() ?? "";
    for (const line of parts) pass(line.replace(/\r$/, ""));
  };
  try {
    const decoder = new TextDecoder();
    const reader = byobReader(stream);
    if (reader) {
      let buf = new Uint8Array(PIPE_READ_BYTES);
      for (;;) {
        const { value, done } = await reader.read(buf);
        if (value) lines(decoder.decode(value, { stream: true }));
        if (done || !value) break;
        buf = new Uint8Array(value.buffer);
      }
    } else {
      for await (const chunk of stream) lines(decoder.decode(chunk, { stream: true }));
    }
    lines(decoder.decode());
  } catch { /* the child is gone */ }
  if (rest) pass(rest);
}

/** A reader filling our own buffer, where the stream is a byte stream (a child's pipe is). */
function byobReader(stream: ReadableStream<Uint8Array>): ReadableStreamBYOBReader | null {
  try {
    return stream.getReader({ mode: "byob" });
  } catch {
    return null; // not a byte stream
  }
}
