/**
 * An append-only log file that rotates by size: `<file>` → `<file>.1` → ... → `<file>.<maxFiles>`,
 * the oldest dropped. Writes are synchronous so that a line is on disk before a crash can lose it
 * and lines never interleave; one process writes a file (under the supervisor, the supervisor).
 */
import { dirname } from "node:path";

/** Size-rotated log file. */
export class RotatingFile {
  readonly path: string;
  readonly #maxSize: number;
  readonly #maxFiles: number;
  #file: Deno.FsFile | null = null;
  #size = 0;
  #broken = false;
  readonly #encoder = new TextEncoder();

  /** `maxSize` 0 never rotates; `maxFiles` is how many rotated files are kept beside the live one. */
  constructor(path: string, maxSize: number, maxFiles: number) {
    this.path = path;
    this.#maxSize = maxSize;
    this.#maxFiles = maxFiles;
  }

  /** Appends one line (with its newline); rotates first when it would pass the size limit. */
  write(line: string): void {
    if (this.#broken) return;
    const bytes = this.#encoder.encode(line);
    try {
      this.#open();
      if (this.#maxSize > 0 && this.#size > 0 && this.#size + bytes.length > this.#maxSize) {
        this.#rotate();
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

  #rotate(): void {
    this.close();
    if (this.#maxFiles === 0) {
      Deno.removeSync(this.path);
    } else {
      for (let i = this.#maxFiles - 1; i >= 1; i--) {
        try {
          Deno.renameSync(`${this.path}.${i}`, `${this.path}.${i + 1}`);
        } catch (e) {
          if (!(e instanceof Deno.errors.NotFound)) throw e;
        }
      }
      Deno.renameSync(this.path, `${this.path}.1`);
    }
    this.#open();
  }
}

/** Writes every byte (a synchronous write may take only part of them). */
export function writeAll(w: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += w.writeSync(bytes.subarray(off));
}
