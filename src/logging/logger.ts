/**
 * The process log: one line per event, `<ISO time> <LEVEL> <subsystem>: <message>`, on the
 * console and (when a file is given) in a size-rotated file. Secrets are scrubbed from every line
 * before it is written anywhere. See docs/logging.md.
 */
import { format } from "node:util";
import { RotatingFile, writeAll } from "./rotating_file.ts";
import { SECRET_VARS } from "../config/process_env.ts";

/** Log levels, least severe first. */
export const LEVELS = ["debug", "info", "warn", "error"] as const;
/** One log level. */
export type Level = typeof LEVELS[number];

/** A line already formatted by a logger (a child's line the supervisor passes on). */
const FORMATTED = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARN|ERROR) +/;
/** `[supervisor] ...` or `hub: ...`: the subsystem a message already names. */
const SUBSYSTEM = /^(?:\[[\w -]{1,30}\] |[a-z][\w -]{0,30}: )/i;
/** JSON Web Tokens (three base64url parts, the first a JSON header). */
const JWT = /\beyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]{5,}/g;
/** An Authorization header value. */
const BEARER = /\b(Bearer\s+)\S+/gi;

/** Settings of a logger. */
export interface LoggerOptions {
  /** Least severe level written (default info). */
  level?: Level;
  /** Subsystem for messages that name none (e.g. `engine`). */
  subsystem: string;
  /** The log file; none writes to the console only (a supervised child: its parent writes it). */
  file?: { path: string; maxSize: number; maxFiles: number } | null;
  /** Values that must never appear in a line (secrets from the environment). */
  secrets?: string[];
  /**
   * Where console lines go (default stdout for debug/info, stderr for warn/error, through a
   * written synchronously, so a line is out before whatever follows it, an exit included).
   */
  console?: (line: string, level: Level) => void;
  /** The clock (tests). */
  now?: () => Date;
}

/** A process's logger. */
export class Logger {
  readonly #level: number;
  readonly #subsystem: string;
  readonly #file: RotatingFile | null;
  #secrets: string[] = [];
  readonly #console: (line: string, level: Level) => void;
  readonly #encoder = new TextEncoder();
  readonly #now: () => Date;

  constructor(opts: LoggerOptions) {
    this.#level = LEVELS.indexOf(opts.level ?? "info");
    this.#subsystem = opts.subsystem;
    this.#now = opts.now ?? (() => new Date());
    this.#file = opts.file
      ? new RotatingFile(
        opts.file.path,
        opts.file.maxSize,
        opts.file.maxFiles,
        () => this.#now().getTime(),
      )
      : null;
    this.addSecrets(opts.secrets ?? []);
    this.#console = opts.console ?? ((line, level) => this.#toConsole(line, level));
  }

  /**
   * Adds values that must never appear in a line (a secret made after the logger, one a plugin
   * registers). A value already known is not added twice; shorter than 6 characters is ignored
   * (it would blank out ordinary words).
   */
  addSecrets(values: readonly string[]): void {
    const fresh = values.filter((s) =>
      typeof s === "string" && s.length >= 6 && !this.#secrets.includes(s)
    );
    if (!fresh.length) return;
    // Longest first, so a secret that contains another is replaced whole.
    this.#secrets = [...this.#secrets, ...new Set(fresh)].sort((a, b) => b.length - a.length);
  }

  /** Logs one event at `level`; `args` are formatted as console.log formats them. */
  log(level: Level, ...args: unknown[]): void {
    if (LEVELS.indexOf(level) < this.#level) return;
    let text = this.scrub(format(...args));
    if (!SUBSYSTEM.test(text)) text = `${this.#subsystem}: ${text}`;
    this.#emit(`${this.#now().toISOString()} ${level.toUpperCase().padEnd(5)} ${text}`, level);
  }

  /**
   * Passes on a line a child process printed: as it is when a logger formatted it (its level was
   * filtered there), else stamped with `level` and `subsystem` (a runtime panic, say).
   */
  passThrough(line: string, level: Level, subsystem: string): void {
    const m = FORMATTED.exec(line);
    if (m) return this.#emit(this.scrub(line), m[1].toLowerCase() as Level);
    if (line.trim() === "") return;
    const text = SUBSYSTEM.test(line) ? line : `${subsystem}: ${line}`;
    if (LEVELS.indexOf(level) < this.#level) return;
    this.#emit(
      `${this.#now().toISOString()} ${level.toUpperCase().padEnd(5)} ${this.scrub(text)}`,
      level,
    );
  }

  /** The text with every known secret, token and bearer credential replaced; one line. */
  scrub(text: string): string {
    let out = text;
    for (const s of this.#secrets) out = out.split(s).join("[secret]");
    return out.replace(JWT, "[token]").replace(BEARER, "$1[token]").replace(/\r?\n/g, "\\n");
  }

  /** Closes the file. */
  close(): void {
    this.#file?.close();
  }

  /**
   * Writes a line to stdout or stderr by level, synchronously: a line logged just before an exit
   * or a crash is out (queued writes were tried and lost such lines when the process exited
   * first; a worker thread cost ~27 MB per process). A closed pipe is ignored (no reader).
   */
  #toConsole(line: string, level: Level): void {
    const bytes = this.#encoder.encode(line + "\n");
    try {
      writeAll(level === "warn" || level === "error" ? Deno.stderr : Deno.stdout, bytes);
    } catch { /* no reader: nothing to do */ }
  }

  #emit(line: string, level: Level): void {
    this.#console(line, level);
    this.#file?.write(line + "\n");
  }

  /**
   * Routes console.log/info/debug/warn/error of this process through the logger, so every
   * subsystem's existing lines get the format, the filter, the scrub and the file. Returns the
   * function that puts the console back.
   */
  installConsole(): () => void {
    const saved = {
      log: console.log,
      info: console.info,
      debug: console.debug,
      warn: console.warn,
      error: console.error,
    };
    console.log = (...a: unknown[]) => this.log("info", ...a);
    console.info = (...a: unknown[]) => this.log("info", ...a);
    console.debug = (...a: unknown[]) => this.log("debug", ...a);
    console.warn = (...a: unknown[]) => this.log("warn", ...a);
    console.error = (...a: unknown[]) => this.log("error", ...a);
    return () => Object.assign(console, saved);
  }
}

/**
 * Plugin keys from the environment that hold a secret by their name
 * (`URSAMU_PLUGINS_DISCORD_TOKEN`): scrubbed even from lines no plugin code wrote.
 */
const PLUGIN_SECRET_ENV = /^URSAMU_PLUGINS_[A-Z0-9_]+_(TOKEN|SECRET|PASSWORD)$/;

/** The secret values set in `env`. */
export function secretsFrom(env: Record<string, string>): string[] {
  const plugin = Object.keys(env).filter((k) => PLUGIN_SECRET_ENV.test(k));
  return [...SECRET_VARS, ...plugin].map((k) => env[k]).filter((v): v is string => !!v);
}

/** Where values that must never be logged are registered (the process's logger). */
export interface SecretSink {
  addSecrets(values: readonly string[]): void;
}
