/**
 * Automatic backups: every `database.backupInterval` seconds (0: never) the engine writes
 * `auto-<time>.tar.gz` into `database.backupDir` and keeps the newest `database.maxBackups` of
 * them (backups taken by hand are never pruned). The first one is due one interval after the
 * newest automatic backup found, so restarts neither skip nor repeat one; a game without one
 * takes its first ten minutes after its start.
 */
import { join } from "node:path";
import { backupName, type BackupResult, createBackup } from "./backup.ts";

/** How long after its start a game without any automatic backup takes its first. */
export const FIRST_BACKUP_DELAY_MS = 10 * 60_000;

/** Prefix of automatic backups' names. */
export const AUTO_PREFIX = "auto";

/** Settings of the automatic backups. */
export interface AutoBackupOptions {
  dbPath: string;
  wikiDir: string;
  dir: string;
  intervalMs: number;
  maxBackups: number;
  engine: string;
  layout?: number;
  log?: (line: string) => void;
  now?: () => number;
}

/** Automatic backup names in `dir`, oldest first. */
export async function autoBackups(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) {
      if (e.isFile && /^auto-\d{8}T\d{6}Z\.tar\.gz$/.test(e.name)) out.push(e.name);
    }
  } catch { /* no directory yet */ }
  return out.sort();
}

/** The time a backup name was taken, in ms. */
function takenAt(name: string): number {
  const m = /(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z/.exec(name);
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : 0;
}

/** Runs the automatic backups until stopped. */
export class AutoBackups {
  readonly #o: AutoBackupOptions;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<unknown> = Promise.resolve();
  #stopped = false;
  #busy = false;

  constructor(opts: AutoBackupOptions) {
    this.#o = opts;
  }

  /** Schedules the next backup (nothing when the interval is 0). */
  async start(): Promise<void> {
    if (this.#o.intervalMs <= 0) return;
    const names = await autoBackups(this.#o.dir);
    const now = this.#o.now?.() ?? Date.now();
    // A game without one gets its first a little after its start (not at once: a start that
    // fails and retries should not fill the directory), capped by the interval.
    const due = names.length
      ? takenAt(names[names.length - 1]) + this.#o.intervalMs
      : now + Math.min(this.#o.intervalMs, FIRST_BACKUP_DELAY_MS);
    this.#schedule(Math.max(0, due - now));
  }

  /** True while a backup is being written (softcode's dumping()). */
  get busy(): boolean {
    return this.#busy;
  }

  /** Takes one automatic backup now and prunes the old ones. */
  async runOnce(): Promise<BackupResult> {
    const o = this.#o;
    this.#busy = true;
    let result: BackupResult;
    try {
      result = await createBackup({
        dbPath: o.dbPath,
        wikiDir: o.wikiDir,
        file: join(o.dir, backupName(AUTO_PREFIX, new Date(o.now?.() ?? Date.now()))),
        engine: o.engine,
        layout: o.layout,
      });
    } finally {
      this.#busy = false;
    }
    const names = await autoBackups(o.dir);
    for (const old of names.slice(0, Math.max(0, names.length - o.maxBackups))) {
      await Deno.remove(join(o.dir, old)).catch(() => {});
    }
    return result;
  }

  /** Stops the schedule and waits for a backup under way. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    // setTimeout takes at most about 24.8 days; a longer wait is taken in steps.
    const step = Math.min(ms, 2 ** 31 - 1);
    this.#timer = setTimeout(() => {
      if (step < ms) return this.#schedule(ms - step);
      this.#running = this.runOnce().then(
        (r) => this.#o.log?.(`backup: ${r.file} (${r.entries} entries, ${r.bytes} bytes)`),
        (e) => this.#o.log?.(`backup: automatic backup failed: ${(e as Error).message}`),
      ).finally(() => this.#schedule(this.#o.intervalMs));
    }, step);
  }
}
