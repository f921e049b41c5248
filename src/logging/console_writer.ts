/**
 * The console side of a logger: lines for stdout and stderr, written in the order they were
 * logged without holding up the event loop when the reader is slow (the supervisor reading a
 * child's output, a paused terminal). Deno writes standard streams on its blocking-task
 * threads, so an awaited write costs this thread nothing while the pipe is full; lines logged
 * meanwhile wait in a queue and go out together in the next write.
 *
 * The queue is bounded (`maxBytes`, 1 MiB by default, per stream). A line that would pass the
 * bound is dropped and counted, and once the queue has drained one line says how many were
 * dropped: a reader that stopped reading costs lines, never memory or the game's time. At exit
 * (the `unload` event, and `close`) what is still queued is written synchronously. A worker
 * thread would do the same job, but costs an isolate (~27 MB resident) in every process.
 * See docs/logging.md.
 */
import { writeAll } from "./rotating_file.ts";

/** Sizing of a console writer. */
export interface ConsoleWriterOptions {
  /** Bytes logged but not yet written, per stream, before lines are dropped (default 1 MiB). */
  maxBytes?: number;
}

/** Where a line goes. */
export type ConsoleStream = "stdout" | "stderr";

/** A stream and what waits for it. */
interface Lane {
  out: typeof Deno.stdout | typeof Deno.stderr;
  queue: Uint8Array[];
  bytes: number;
  writing: boolean;
  dropped: number;
}

/** Writes lines to stdout/stderr in order, off the event loop, with a bounded queue. */
export class ConsoleWriter {
  readonly #maxBytes: number;
  readonly #encoder = new TextEncoder();
  readonly #lanes: Record<ConsoleStream, Lane>;
  readonly #onUnload = () => this.flush();

  constructor(opts: ConsoleWriterOptions = {}) {
    this.#maxBytes = Math.max(1, opts.maxBytes ?? 1024 * 1024);
    const lane = (out: Lane["out"]): Lane => ({
      out,
      queue: [],
      bytes: 0,
      writing: false,
      dropped: 0,
    });
    this.#lanes = { stdout: lane(Deno.stdout), stderr: lane(Deno.stderr) };
    globalThis.addEventListener("unload", this.#onUnload);
  }

  /** Queues one line (its newline added) for `stream`. */
  write(line: string, stream: ConsoleStream): void {
    const lane = this.#lanes[stream];
    const bytes = this.#encoder.encode(line + "\n");
    // A line longer than the bound still goes out alone onto an empty queue.
    if (lane.bytes > 0 && lane.bytes + bytes.length > this.#maxBytes) {
      lane.dropped++;
      return;
    }
    lane.queue.push(bytes);
    lane.bytes += bytes.length;
    if (!lane.writing) void this.#drain(lane);
  }

  /** Bytes logged and not yet written, both streams. */
  get waiting(): number {
    return this.#lanes.stdout.bytes + this.#lanes.stderr.bytes;
  }

  /** Lines dropped so far because a queue was full, both streams. */
  get dropped(): number {
    return this.#lanes.stdout.dropped + this.#lanes.stderr.dropped;
  }

  /** Writes what is queued now, synchronously (exit). */
  flush(): void {
    for (const lane of Object.values(this.#lanes)) {
      const chunk = this.#take(lane);
      if (!chunk) continue;
      try {
        writeAll(lane.out, chunk);
      } catch { /* no reader: nothing to do */ }
    }
  }

  /** Writes out what is queued and stops listening for exit. */
  close(): void {
    this.flush();
    globalThis.removeEventListener("unload", this.#onUnload);
  }

  /** One write at a time per stream, each taking everything queued so far. */
  async #drain(lane: Lane): Promise<void> {
    lane.writing = true;
    try {
      for (let chunk = this.#take(lane); chunk; chunk = this.#take(lane)) {
        for (let done = 0; done < chunk.length;) {
          done += await lane.out.write(chunk.subarray(done));
        }
      }
    } catch {
      // No reader any more: there is nobody to tell, and nothing queued can be written.
      lane.queue = [];
      lane.bytes = 0;
    } finally {
      lane.writing = false;
    }
  }

  /** Everything queued on `lane` as one buffer (with the dropped-lines notice), or null. */
  #take(lane: Lane): Uint8Array | null {
    if (lane.dropped > 0 && lane.bytes === 0) {
      const notice = `log: ${lane.dropped} console line(s) dropped: this process's output ` +
        "was not read for a while (the log file has them when this process writes it).\n";
      lane.dropped = 0;
      return this.#encoder.encode(notice);
    }
    if (lane.queue.length === 0) return null;
    const parts = lane.queue;
    lane.queue = [];
    lane.bytes = 0;
    if (parts.length === 1) return parts[0];
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  }
}
