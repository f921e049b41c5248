/**
 * A telnet player's socket that this process did not accept: a descriptor the sidecar handed
 * over (src/telnet/handoff/engine_host.ts), driven as a transport. Deno has no API to adopt a descriptor,
 * but its Node layer's stream handles can open one (`pipe_wrap`'s `Pipe.open(fd)`: a socket is a
 * socket to read(2) and write(2), whatever its family), and they read and write it on Deno's own
 * event loop, with no extra thread or copy. Only this module touches those handles.
 */
import process from "node:process";
import { concatBytes } from "../protocol/bytes.ts";
import type { TelnetTransport, TransportEnd, TransportHandlers } from "../client/transport.ts";

/** The Node layer's native stream handles, as far as this module uses them. */
interface StreamHandle {
  open(fd: number): number;
  readStart(): number;
  readStop(): number;
  writeBuffer(req: WriteRequest, data: Uint8Array): number;
  shutdown(req: WriteRequest): number;
  close(): void;
  onread: ((buffer: ArrayBuffer | undefined) => void) | null;
}

/** A write or shutdown request (`WriteWrap`, `ShutdownWrap`). */
interface WriteRequest {
  handle: StreamHandle;
  oncomplete: (status: number) => void;
}

/** What the Node layer's bindings give this module. */
interface Bindings {
  newHandle(): StreamHandle;
  newWrite(): WriteRequest;
  newShutdown(): WriteRequest;
  /** After a read callback: bytes read (negative: end of stream or an error code). */
  readBytes(): number;
  /** After a read callback: where the data starts in its buffer. */
  readOffset(): number;
  /** After `writeBuffer`: whether the write is still under way (it completes later). */
  lastWriteAsync(): boolean;
}

/** A request's callback before its write turns out to be under way (see `flush`). */
function NO_COMPLETION(): void {}

/** Why descriptors cannot be adopted here (the bindings are missing), or null. */
export function adoptionUnavailable(): string | null {
  try {
    openBindings();
    return null;
  } catch (e) {
    return (e as Error).message;
  }
}

/** Reads the bindings; throws when this runtime lacks them. */
function openBindings(): Bindings {
  // deno-lint-ignore no-explicit-any
  const binding = (process as any).binding as ((name: string) => any) | undefined;
  if (typeof binding !== "function") throw new Error("process.binding is not available");
  const pipe = binding("pipe_wrap");
  const stream = binding("stream_wrap");
  const state: Int32Array | undefined = stream?.streamBaseState;
  if (typeof pipe?.Pipe !== "function" || !state || typeof stream.WriteWrap !== "function") {
    throw new Error("the runtime's pipe_wrap/stream_wrap bindings are not available");
  }
  const { Pipe, constants } = pipe;
  const { WriteWrap, ShutdownWrap, kReadBytesOrError, kArrayBufferOffset, kLastWriteWasAsync } =
    stream;
  return {
    newHandle: () => new Pipe(constants.SOCKET),
    newWrite: () => new WriteWrap(),
    newShutdown: () => new ShutdownWrap(),
    readBytes: () => state[kReadBytesOrError],
    readOffset: () => state[kArrayBufferOffset],
    lastWriteAsync: () => state[kLastWriteWasAsync] !== 0,
  };
}

/** What the flush queue writes out: a transport with bytes queued in this task. */
export interface Flushable {
  flush(): void;
}

/**
 * Transports waiting at most: past this many, they are written at once, from inside the call
 * that queued the last one. A fan-out's first players then get their line while the rest of
 * the room is still being given it, instead of every write waiting for the whole room (and
 * the player's own client, slower than this side, starting late).
 */
const FLUSH_SLICE = 32;

/**
 * The transports with bytes waiting to go out at the end of the current task, or as soon as
 * `FLUSH_SLICE` are waiting. A fan-out gives a thousand of them a line in one task: they are
 * written a slice at a time, not from a microtask each.
 */
export class FlushQueue {
  #waiting: Flushable[] = [];
  #scheduled = false;
  readonly #run = (): void => {
    this.#scheduled = false;
    this.#flush();
  };

  /** Writes `t`'s bytes at the end of this task, or now if a slice is waiting. */
  add(t: Flushable): void {
    this.#waiting.push(t);
    if (this.#waiting.length >= FLUSH_SLICE) this.#flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      queueMicrotask(this.#run);
    }
  }

  #flush(): void {
    const batch = this.#waiting;
    this.#waiting = [];
    for (let i = 0; i < batch.length; i++) {
      try {
        batch[i].flush();
      } catch (error) {
        // Reported as any failure of a task is, but not to whoever queued the last write (a
        // fan-out going on to the rest of a room), and not keeping the others unwritten.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}

/**
 * Sends what a socket takes of some bytes at once, without waiting: the bytes sent, or -1 when it
 * took none (see unix_fds.ts, `sendNow`).
 */
export type SendNow = (fd: number, bytes: Uint8Array) => number;

/** Turns descriptors into transports; one per process (it holds the bindings). */
export class Adopter {
  readonly #b: Bindings;
  readonly #flushes = new FlushQueue();
  readonly #send: SendNow | null;

  /**
   * Throws when this runtime cannot adopt descriptors (see `adoptionUnavailable`). With `send`,
   * a write with nothing queued before it is sent by that call, and only what the socket does
   * not take goes through the Node layer's handle: in a pose to a thousand players each write
   * then costs about 0.6 µs less (docs/bench.md, "Issue 14: writes sent straight").
   */
  constructor(send: SendNow | null = null) {
    this.#b = openBindings();
    this.#send = send;
  }

  /**
   * A transport on descriptor `fd` (a connected stream socket, non-blocking), which it now owns;
   * `ip` is the player's address. Throws when the descriptor cannot be opened.
   */
  adopt(fd: number, ip: string, maxQueuedBytes: number): AdoptedTransport {
    return new AdoptedTransport(this.#b, this.#flushes, fd, ip, maxQueuedBytes, this.#send);
  }
}

/**
 * One adopted socket. Writes queued together go out as one send(2) (or one write of the handle's)
 * when the microtasks queued before their flush have run (a command's replies, a fan-out's line),
 * so a reply is one packet, unless a slice of sockets is written first (see `FLUSH_SLICE`: in a
 * task that gives a large room two lines, each player gets two writes); the Node layer queues
 * whatever the socket cannot take at once, and what waits there counts toward the bound.
 */
export class AdoptedTransport implements TelnetTransport {
  readonly ip: string;
  readonly fd: number;
  readonly #b: Bindings;
  readonly #flushes: FlushQueue;
  readonly #h: StreamHandle;
  readonly #max: number;
  readonly #send: SendNow | null;
  #handlers: TransportHandlers | null = null;
  /** Bytes written in this task, sent at its end. */
  #first: Uint8Array | null = null;
  /** More writes of this task, after `#first` (most tasks write a socket once). */
  #more: Uint8Array[] | null = null;
  #pendingBytes = 0;
  #scheduled = false;
  /** Bytes handed to the handle whose writes have not completed. */
  #inFlight = 0;
  /**
   * The request for the next write. A write the socket takes at once never completes through
   * its request, so the request is used again; one still under way is replaced.
   */
  #req: WriteRequest | null = null;
  #idle: (() => void)[] | null = null;
  #failed = false;
  #closed = false;
  #ended = false;
  /** Handed on: never read again. */
  #paused = false;
  /** While throttled: the timer that starts reading again. */
  #holdTimer: ReturnType<typeof setTimeout> | undefined;
  /** How it ended before `start` gave it handlers (a write flushed from its own first call). */
  #endedEarly: TransportEnd | null = null;

  constructor(
    b: Bindings,
    flushes: FlushQueue,
    fd: number,
    ip: string,
    maxQueuedBytes: number,
    send: SendNow | null = null,
  ) {
    this.#b = b;
    this.#send = send;
    this.#flushes = flushes;
    this.fd = fd;
    this.ip = ip;
    this.#max = maxQueuedBytes;
    this.#h = b.newHandle();
    const err = this.#h.open(fd);
    if (err !== 0) throw new Error(`cannot open descriptor ${fd} (error ${err})`);
  }

  /** Starts reading (or reports, after this call, that it already ended). */
  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    const early = this.#endedEarly;
    if (early !== null) {
      queueMicrotask(() => handlers.end(early));
      return;
    }
    this.#h.onread = (buffer) => {
      const n = this.#b.readBytes();
      if (n < 0 || buffer === undefined) {
        this.#end("closed");
        return;
      }
      if (n > 0) handlers.data(new Uint8Array(buffer, this.#b.readOffset(), n));
    };
    if (this.#h.readStart() !== 0) queueMicrotask(() => this.#end("closed"));
  }

  /** Bytes written and not yet taken by the socket. */
  get queued(): number {
    return this.#inFlight + this.#pendingBytes;
  }

  /** Stops reading for good (the socket is being handed on); writes still go out. */
  pause(): void {
    this.#paused = true;
    clearTimeout(this.#holdTimer);
    if (!this.#closed) this.#h.readStop();
  }

  /** Stops reading for `ms` (over the input budget); the kernel holds what comes meanwhile. */
  throttle(ms: number): void {
    if (this.#closed || this.#paused || this.#holdTimer !== undefined) return;
    this.#h.readStop();
    this.#holdTimer = setTimeout(() => {
      this.#holdTimer = undefined;
      if (this.#closed || this.#paused) return;
      if (this.#h.readStart() !== 0) this.#end("closed");
    }, ms);
  }

  /** Queues bytes; they go out at the end of this task. */
  write(bytes: Uint8Array): void {
    if (this.#failed || this.#closed || bytes.length === 0) return;
    if (this.#inFlight + this.#pendingBytes + bytes.length > this.#max) {
      this.#failed = true;
      this.#first = this.#more = null;
      this.#pendingBytes = 0;
      this.#end("overflow");
      return;
    }
    if (this.#first === null) this.#first = bytes;
    else (this.#more ??= []).push(bytes);
    this.#pendingBytes += bytes.length;
    if (!this.#scheduled) {
      this.#scheduled = true;
      this.#flushes.add(this);
    }
  }

  /** Resolves once everything written so far is out of this process (or failed). */
  idle(): Promise<void> {
    if (this.#quiet()) return Promise.resolve();
    return new Promise((resolve) => (this.#idle ??= []).push(resolve));
  }

  /**
   * Disconnects the player: the client is sent the end of the stream (other processes may hold
   * the socket too, so closing our descriptor alone would not end the connection), then the
   * descriptor is closed.
   */
  close(): void {
    if (this.#closed) return;
    this.flush();
    const req = this.#b.newShutdown();
    req.handle = this.#h;
    req.oncomplete = () => this.#release();
    this.#closed = true;
    if (this.#h.shutdown(req) !== 0) this.#release();
  }

  /** Closes this process's descriptor only; the connection stays up for whoever else holds it. */
  release(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#release();
  }

  #release(): void {
    clearTimeout(this.#holdTimer);
    this.#h.onread = null;
    try {
      this.#h.close();
    } catch { /* already closed */ }
    this.#failed = true;
    this.#settle();
  }

  /** Writes what this task queued (the flush queue calls it at the end of the task). */
  flush(): void {
    this.#scheduled = false;
    const first = this.#first;
    if (first === null || this.#failed) return;
    let chunk = this.#more === null ? first : concatBytes([first, ...this.#more]);
    this.#first = this.#more = null;
    this.#pendingBytes = 0;
    // Straight to the socket when nothing waits in the handle (it would be overtaken); what the
    // socket does not take, and any failure, goes the handle's way, which queues or reports it.
    if (this.#inFlight === 0 && this.#send !== null) {
      const sent = this.#send(this.fd, chunk);
      if (sent === chunk.length) {
        if (this.#idle !== null) this.#settle();
        return;
      }
      if (sent > 0) chunk = chunk.subarray(sent);
    }
    let req = this.#req;
    if (req === null) {
      req = this.#b.newWrite();
      req.handle = this.#h;
      req.oncomplete = NO_COMPLETION;
      this.#req = req;
    }
    const err = this.#h.writeBuffer(req, chunk);
    if (err !== 0) {
      this.#end("closed");
      return;
    }
    if (this.#b.lastWriteAsync()) {
      // Under way: counted until it completes, and the next write gets a request of its own.
      const n = chunk.length;
      this.#inFlight += n;
      this.#req = null;
      req.oncomplete = (status) => {
        this.#inFlight -= n;
        if (status < 0) this.#end("closed");
        this.#settle();
      };
    } else if (this.#idle !== null) {
      // Someone waited for this write (idle() before the flush): it is out now.
      this.#settle();
    }
  }

  #quiet(): boolean {
    return this.#failed || (this.#inFlight === 0 && this.#pendingBytes === 0);
  }

  #settle(): void {
    if (!this.#quiet() || this.#idle === null) return;
    const waiting = this.#idle;
    this.#idle = null;
    for (const resolve of waiting) resolve();
  }

  #end(why: TransportEnd): void {
    this.#failed = true;
    this.#settle();
    if (this.#ended) return;
    this.#ended = true;
    // Writes are accepted before `start`, and a slice may flush one from inside its own call.
    if (this.#handlers === null) this.#endedEarly = why;
    else this.#handlers.end(why);
  }
}
