/**
 * An append-only log file that rotates by size: `<file>` → `<file>.1` → ... → `<file>.<maxFiles>`,
 * the oldest dropped. Writes are synchronous so that a line is on disk before a crash can lose it
 * and lines never interleave; one process writes a file (under the supervisor, the supervisor).
 */
import { dirname } from "node:path";
import { RotationRetry } from "./rotation_retry.ts";

/** Size-rotated log file. */
export class RotatingFile {
  readonly path: string;
  readonly #maxSize: number;
  readonly #maxFiles: number;
  #file: Deno.FsFile | null = null;
  #size = 0;
  #broken = false;
  /** When a rotation that failed is tried again (its failure is said once). */
  readonly #retry = new RotationRetry();
  readonly #now: () => number;
  readonly #encoder = new TextEncoder();

  /**
   * `maxSize` 0 never rotates; `maxFiles` is how many rotated files are kept beside the live one;
   * `now` is the clock of the retries after a failed rotation (ms).
   */
  constructor(path: string, maxSize: number, maxFiles: number, now: () => number = Date.now) {
    this.path = path;
    this.#maxSize = maxSize;
    this.#maxFiles = maxFiles;
    this.#now = now;
  }

  /** Appends one line (with its newline); rotates first when it would pass the size limit. */
  write(line: string): void {
    if (this.#broken) return;
    const bytes = this.#encoder.encode(line);
    try {
      this.#open();
      if (this.#maxSize > 0 && this.#size > 0 && this.#size + bytes.length > this.#maxSize) {
        const now = this.#now();
        if (this.#retry.due(now)) this.#rotateOrKeep(now);
      }
      writeAll(this.#file!, bytes);
      this.#size += bytes.length;
    } catch (e) {
      // Logging must never take the game down: say so once on stderr and carry on without it.
      this.#broken = true;
      const text = this.#encoder.encode(
        `log: cannot write ${this.path} (${(e as Error).message}); logging to the console only. ` +
          "Check logging.file and logging.dir.\n",
      );
      try {
        writeAll(Deno.stderr, text);
      } catch { /* nowhere left to say it */ }
    }
  }

  /** Closes the file (a later write opens it again). */
  close(): void {
    try {
      this.#file?.close();
    } catch { /* already closed */ }
    this.#file = null;
  }

  #open(): void {
    if (this.#file) return;
    Deno.mkdirSync(dirname(this.path), { recursive: true });
    this.#file = Deno.openSync(this.path, { append: true, create: true });
    this.#size = this.#file.statSync().size;
  }

  /**
   * Rotates; when a rename fails the line still goes to the live file (past its size) and a line
   * written after the retry wait (rotation_retry.ts) tries again, said once on stderr until a
   * rotation succeeds (docs/security.md).
   */
  #rotateOrKeep(now: number): void {
    this.close();
    try {
      this.#rotate();
      this.#retry.succeeded();
    } catch (e) {
      const first = !this.#retry.failing;
      this.#retry.failed(now);
      if (first) {
        const text = `log: cannot rotate ${this.path} (${
          (e as Error).message
        }); writing on to it\n`;
        try {
          writeAll(Deno.stderr, this.#encoder.encode(text));
        } catch { /* nowhere left to say it */ }
      }
    }
    this.#open();
  }

  /**
   * Moves the live file to `.1` and the older ones up as far as the first free number (only the
   * oldest is ever overwritten, so a rotation retried after a failure half way drops no file).
   */
  #rotate(): void {
    if (this.#maxFiles === 0) return Deno.removeSync(this.path);
    let free = 1;
    while (free < this.#maxFiles && existsSync(`${this.path}.${free}`)) free++;
    for (let i = free - 1; i >= 1; i--) {
      Deno.renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`);
    }
    Deno.renameSync(this.path, `${this.path}.1`);
  }
}

/** Writes every byte (a synchronous write may take only part of them). */
export function writeAll(w: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += w.writeSync(bytes.subarray(off));
}

/** Whether something takes the name `path`. */
function existsSync(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}
