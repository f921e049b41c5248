/** What the rest of the engine (the @script commands) sees of the system scripts. */

/** One script as `@script/list` and `@script/show` report it. */
export interface ScriptStatus {
  /** The command it provides (its file name without the extension). */
  name: string;
  /** Its file, relative to the game directory. */
  file: string;
  /** True while a good version is registered and runs. */
  loaded: boolean;
  /** Turned off by `scripts.disabled`: the file is there, the command is not. */
  disabled?: boolean;
  /** Short hash of the running version's source, or null. */
  version: string | null;
  /** When the running version was loaded (ms since epoch), or null. */
  loadedAt: number | null;
  /** Owner of the command it replaces (`core` or a plugin name), or null for a new command. */
  replaces: string | null;
  /** The last load or run error, kept until a newer version loads cleanly. */
  lastError: { message: string; at: number } | null;
  /** Calls since the engine started, and how many of them failed. */
  runs: number;
  failures: number;
}

/** Outcome of `@script/check`: a load in the sandbox and a type check. */
export interface ScriptCheck {
  ok: boolean;
  /** Lines of the report (load result, then the type checker's output). */
  lines: string[];
}

/** The system scripts, as the @script commands use them. */
export interface EngineScripts {
  /** The scripts folder (absolute). */
  readonly dir: string;
  /** Looks at the folder now: new and removed files, and `scripts.disabled` (`@reload/config`). */
  rescan(): Promise<void>;
  /** Every script found, after a fresh look at the folder, sorted by name. */
  list(): Promise<ScriptStatus[]>;
  /** One script's status and current source, or null when there is no such script. */
  show(name: string): Promise<{ status: ScriptStatus; source: string } | null>;
  /** Loads the file in a sandbox and type-checks it; null when there is no such script. */
  check(name: string): Promise<ScriptCheck | null>;
  /** Sandboxes alive now (one per loaded script) and the WebAssembly memory they hold. */
  readonly sandboxes: { count: number; bytes: number };
}
