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

/** Passes a child's output on through `logger`, line by line; resolves when the stream ends. */
export async function pipeLines(
  stream: ReadableStream<Uint8Array>,
  logger: Logger,
  level: Level,
  subsystem: string,
): Promise<void> {
  let rest = "";
  try {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop() ?? "";
      for (const line of parts) logger.passThrough(line.replace(/\r$/, ""), level, subsystem);
    }
  } catch { /* the child is gone */ }
  if (rest) logger.passThrough(rest, level, subsystem);
}
