/**
 * The console side of a logger: lines for stdout and stderr, written by a worker thread in the
 * order they were logged, so a reader that is slow to read (the supervisor reading a child's
 * output, a stalled terminal) never holds up the event loop of the process that logs.
 *
 * The lines not yet written are bounded (`maxBytes`, 1 MiB by default). When a line would pass
 * the bound, `write` waits, blocking, until the worker has written enough: a reader that stops
 * reading slows the process down exactly as a synchronous write would, but no line is lost and
 * none is reordered. At exit (and `close`), what is still queued is written first, waiting at
 * most `flushMs`. See docs/logging.md.
 */
import { Worker } from "node:worker_threads";
import { writeAll } from "./rotating_file.ts";

/** Sizing of a console writer. */
export interface ConsoleWriterOptions {
  /** Bytes logged but not yet written before `write` waits (default 1 MiB). */
  maxBytes?: number;
  /** Longest wait for the queue to drain at exit or close (default 5 s). */
  flushMs?: number;
}

/** Where a line goes. */
export type ConsoleStream = "stdout" | "stderr";

/**
 * The worker: writes each message's bytes to its stream, then takes them off the shared count
 * of bytes waiting. A write error (no reader any more) drops the bytes: there is nobody to tell.
 * Evaluated from a string, so no extra module has to be found next to this one (compiled binary).
 */
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const waiting = new Int32Array(workerData);
parentPort.on("message", ({ err, bytes }) => {
  const out = err ? Deno.stderr : Deno.stdout;
  try {
    for (let done = 0; done < bytes.length;) done += out.writeSync(bytes.subarray(done));
  } catch { /* no reader */ }
  Atomics.sub(waiting, 0, bytes.length);
  Atomics.notify(waiting, 0);
});
`;

/** Writes lines to stdout/stderr off the event loop, in order, with a bounded queue. */
export class ConsoleWriter {
  readonly #maxBytes: number;
  readonly #flushMs: number;
  readonly #encoder = new TextEncoder();
  /** Bytes handed to the worker and not yet written (index 0), shared with the worker. */
  readonly #waiting = new Int32Array(new SharedArrayBuffer(4));
  #worker: Worker | null;
  readonly #onUnload = () => this.flush();

  constructor(opts: ConsoleWriterOptions = {}) {
    this.#maxBytes = Math.max(1, opts.maxBytes ?? 1024 * 1024);
    this.#flushMs = opts.flushMs ?? 5000;
    this.#worker = new Worker(WORKER, { eval: true, workerData: this.#waiting.buffer });
    // The worker alone never keeps the process alive; what it still holds is flushed at exit.
    this.#worker.unref();
    // A worker that cannot run (it failed to start) leaves the writing to this thread.
    this.#worker.on("error", () => this.#stopWorker());
    globalThis.addEventListener("unload", this.#onUnload);
  }

  /** Writes one line (its newline added) to `stream`. */
  write(line: string, stream: ConsoleStream): void {
    const bytes = this.#encoder.encode(line + "\n");
    if (!this.#worker) {
      try {
        writeAll(stream === "stderr" ? Deno.stderr : Deno.stdout, bytes);
      } catch { /* no reader: nothing to do */ }
      return;
    }
    // Full: wait for the reader (a line longer than the bound goes alone onto an empty queue).
    for (;;) {
      const waiting = Atomics.load(this.#waiting, 0);
      if (waiting === 0 || waiting + bytes.length <= this.#maxBytes) break;
      Atomics.wait(this.#waiting, 0, waiting, 1000);
    }
    Atomics.add(this.#waiting, 0, bytes.length);
    this.#worker.postMessage({ err: stream === "stderr", bytes }, [bytes.buffer]);
  }

  /** Bytes logged and not yet written. */
  get waiting(): number {
    return Atomics.load(this.#waiting, 0);
  }

  /** Waits (blocking) until every line is written, or `flushMs` has passed; true when drained. */
  flush(): boolean {
    const end = Date.now() + this.#flushMs;
    for (;;) {
      const waiting = Atomics.load(this.#waiting, 0);
      if (waiting === 0) return true;
      const left = end - Date.now();
      if (left <= 0 || !this.#worker) return false;
      Atomics.wait(this.#waiting, 0, waiting, Math.min(left, 1000));
    }
  }

  /** Writes what is queued, stops the worker; later lines are written directly. */
  close(): void {
    this.flush();
    this.#stopWorker();
  }

  #stopWorker(): void {
    globalThis.removeEventListener("unload", this.#onUnload);
    void this.#worker?.terminate();
    this.#worker = null;
  }
}
