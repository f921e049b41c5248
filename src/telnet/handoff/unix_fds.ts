/**
 * Passing open descriptors between the telnet sidecar and the engine (SCM_RIGHTS over a Unix
 * SOCK_SEQPACKET socket), through Deno's FFI to libc: Deno itself has no API for it. Linux
 * (glibc, x86_64 or aarch64) only; `fdPassingUnavailable` says why not elsewhere, and the game
 * then keeps every telnet socket in the sidecar.
 *
 * Waiting happens in poll(2) through a `nonblocking` FFI symbol (Deno's blocking thread pool), so
 * the event loop never waits. accept4 and recvmsg themselves run on the main thread, never
 * blocking (non-blocking sockets, MSG_DONTWAIT): errno is per thread, and a call made on a pool
 * thread leaves its errno there, where the main thread cannot read why it failed.
 *
 * A descriptor the pool thread may still be polling is shut down first (which wakes the poll) and
 * closed only once the poll returned, so its number cannot be reused under it.
 */

const AF_UNIX = 1;
const SOCK_SEQPACKET = 5;
const SOCK_NONBLOCK = 0x800;
const SOCK_CLOEXEC = 0x80000;
const SOL_SOCKET = 1;
const SCM_RIGHTS = 1;
const SO_PEERCRED = 17;
const MSG_DONTWAIT = 0x40;
const MSG_NOSIGNAL = 0x4000;
const MSG_CMSG_CLOEXEC = 0x40000000;
const MSG_TRUNC = 0x20;
const MSG_CTRUNC = 0x8;
const SHUT_RDWR = 2;
const F_DUPFD_CLOEXEC = 1030;
const POLLIN = 0x1;
const POLLNVAL = 0x20;
const LISTEN_BACKLOG = 16;
/** Longest abstract name: sun_path is 108 bytes, one of them the leading NUL. */
const MAX_NAME_BYTES = 100;
/** How long accept rests when the process is out of descriptors (or memory) before retrying. */
const ACCEPT_RETRY_MS = 100;
/** Failed polls in a row (each an interrupted wait) before a wait gives up. */
const MAX_POLL_FAILURES = 1000;

// errno values: Linux uses the same numbers on x86_64 and aarch64.
const EINTR = 4;
const EAGAIN = 11;
const ENOMEM = 12;
const ENFILE = 23;
const EMFILE = 24;
const EPIPE = 32;
const EADDRINUSE = 98;
const ECONNABORTED = 103;
const ECONNRESET = 104;
const ENOBUFS = 105;
const ENOTCONN = 107;
/** accept failures that pass once descriptors or memory are freed. */
const SHORTAGES: ReadonlySet<number> = new Set([EMFILE, ENFILE, ENOBUFS, ENOMEM]);

const ERRNO_NAMES: Readonly<Record<number, string>> = {
  1: "EPERM",
  2: "ENOENT",
  4: "EINTR",
  5: "EIO",
  9: "EBADF",
  11: "EAGAIN",
  12: "ENOMEM",
  13: "EACCES",
  14: "EFAULT",
  22: "EINVAL",
  23: "ENFILE",
  24: "EMFILE",
  32: "EPIPE",
  88: "ENOTSOCK",
  90: "EMSGSIZE",
  91: "EPROTOTYPE",
  95: "EOPNOTSUPP",
  98: "EADDRINUSE",
  103: "ECONNABORTED",
  104: "ECONNRESET",
  105: "ENOBUFS",
  107: "ENOTCONN",
  109: "ETOOMANYREFS",
  111: "ECONNREFUSED",
};

// Struct layouts (64-bit Linux).
const MSGHDR_BYTES = 56;
const MSG_IOV = 16;
const MSG_IOVLEN = 24;
const MSG_CONTROL = 32;
const MSG_CONTROLLEN = 40;
const MSG_FLAGS = 48;
const IOVEC_BYTES = 16;
const CMSG_HEADER_BYTES = 16;
const UCRED_BYTES = 12;
const UCRED_UID = 4;
const POLLFD_BYTES = 8;
const POLLFD_REVENTS = 6;
const SOCKADDR_UN_BYTES = 110;
const SUN_PATH = 2;

/** Largest message `send` takes and `recv` reads (bytes). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** Most descriptors one message carries (the kernel's SCM_MAX_FD is 253). */
export const MAX_FDS_PER_MESSAGE = 200;

/** Bytes of a control message carrying `n` descriptors (CMSG_SPACE). */
function cmsgSpace(n: number): number {
  return CMSG_HEADER_BYTES + ((n * 4 + 7) & ~7);
}

const CONTROL_BYTES = cmsgSpace(MAX_FDS_PER_MESSAGE);

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  listen: { parameters: ["i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  accept4: { parameters: ["i32", "pointer", "pointer", "i32"], result: "i32" },
  shutdown: { parameters: ["i32", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  // Variadic in C; its third argument is an int here, which both ABIs pass like a fixed one.
  fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
  sendmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  recvmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  // ssize_t read as its low 32 bits (x86-64 and AArch64 return it whole in one register): a
  // 64-bit result comes back as a BigInt, one for every write of a fan-out (64 B a listener, 70 %
  // of what a `say` to 1,000 allocates; docs/bench.md, "Issue 34: where a fan-out's tail comes
  // from"), an i32 as a small integer. A send takes at most the socket's buffer, a few MB, so the
  // value is exact, and -1 stays -1.
  send: { parameters: ["i32", "buffer", "usize", "i32"], result: "i32" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  getuid: { parameters: [], result: "u32" },
  __errno_location: { parameters: [], result: "pointer" },
  poll: { parameters: ["buffer", "usize", "i32"], result: "i32", nonblocking: true },
} as const;

type Symbols = Deno.DynamicLibrary<typeof SYMBOLS>["symbols"];

/** Why descriptor passing is unavailable (not Linux, no FFI permission, no libc), or null. */
export function fdPassingUnavailable(): string | null {
  try {
    if (Deno.build.os !== "linux") {
      return `descriptor passing needs Linux (this is ${Deno.build.os})`;
    }
    if (Deno.build.arch !== "x86_64" && Deno.build.arch !== "aarch64") {
      return `descriptor passing is not set up for ${Deno.build.arch}`;
    }
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
      return "no FFI permission (--allow-ffi)";
    }
    Deno.dlopen("libc.so.6", { getuid: SYMBOLS.getuid }).close();
    return null;
  } catch (e) {
    return `libc cannot be loaded (${(e as Error)?.message ?? e})`;
  }
}

/** libc's symbols, opened once for whoever holds this object. */
export class Libc {
  readonly #lib: Deno.DynamicLibrary<typeof SYMBOLS>;

  /** Opens libc; throws when it cannot (see `fdPassingUnavailable`). */
  constructor() {
    this.#lib = Deno.dlopen("libc.so.6", SYMBOLS);
  }

  /** The symbols, for this module's helpers. */
  get fn(): Symbols {
    return this.#lib.symbols;
  }

  /** errno of the last failed call on the main thread (not valid after a `nonblocking` call). */
  errno(): number {
    const p = this.#lib.symbols.__errno_location();
    return p === null ? 0 : new Deno.UnsafePointerView(p).getInt32();
  }

  /** An Error saying what failed and errno's name. */
  error(what: string, errno = this.errno()): Error {
    return new Error(`${what}: ${errnoName(errno)}`);
  }

  /** Releases the library handle (a Deno resource); nothing may use this object afterwards. */
  close(): void {
    this.#lib.close();
  }
}

/** Opens libc's symbols once for the caller (throws when unavailable). */
export function openLibc(): Libc {
  return new Libc();
}

function errnoName(errno: number): string {
  return ERRNO_NAMES[errno] ?? `errno ${errno}`;
}

/** The current process's real uid. */
export function currentUid(libc: Libc): number {
  return libc.fn.getuid();
}

/** Closes a descriptor this process received (ignores EBADF). */
export function closeFd(libc: Libc, fd: number): void {
  // Linux releases the descriptor even when close reports an error, so there is nothing to retry.
  libc.fn.close(fd);
}

/** dup()s a descriptor (close-on-exec) to hand one out and keep one; throws naming errno. */
export function dupFd(libc: Libc, fd: number): number {
  // From 3 up, so a copy never lands on stdin/stdout/stderr if one of them was closed.
  const copy = libc.fn.fcntl(fd, F_DUPFD_CLOEXEC, 3);
  if (copy < 0) throw libc.error("dup");
  return copy;
}

/** Shuts a socket down both ways: its peer sees the end at once, whichever process holds copies. */
export function shutdownFd(libc: Libc, fd: number): void {
  libc.fn.shutdown(fd, SHUT_RDWR);
}

/**
 * Writes to a socket without waiting (MSG_DONTWAIT, no SIGPIPE): the bytes written, 0 when it
 * cannot take any now, -1 when it is gone.
 */
export function writeFd(libc: Libc, fd: number, bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  const n = sendNow(libc, fd, bytes);
  if (n >= 0) return n;
  return libc.errno() === EAGAIN ? 0 : -1;
}

/**
 * Sends what the socket takes of `bytes` now (MSG_DONTWAIT, no SIGPIPE): the bytes sent, or -1
 * when it took none, whatever the reason (full, gone, interrupted). errno is not read: a caller
 * that needs the reason writes the rest another way, which finds it again.
 */
export function sendNow(libc: Libc, fd: number, bytes: Uint8Array): number {
  // The runtime takes a number for a 64-bit argument (its types say bigint), which saves making
  // a BigInt a call (the result is an i32: see SYMBOLS). adopted_test.ts sends through this, so
  // a runtime that stopped taking it would fail there, not in a game.
  const length = bytes.length as unknown as bigint;
  return libc.fn.send(fd, bytes, length, MSG_DONTWAIT | MSG_NOSIGNAL);
}

/** The address of a buffer's first byte, as a struct field wants it. */
function address(buffer: ArrayBuffer): bigint {
  return BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(buffer)));
}

/** `sockaddr_un` for an abstract name (a leading NUL, then the name) and its length in bytes. */
function abstractAddress(name: string): { addr: Uint8Array; len: number } {
  const bytes = new TextEncoder().encode(name);
  if (bytes.length === 0 || bytes.length > MAX_NAME_BYTES) {
    throw new RangeError(`an abstract socket name is 1 to ${MAX_NAME_BYTES} bytes`);
  }
  const addr = new Uint8Array(SOCKADDR_UN_BYTES);
  new DataView(addr.buffer).setUint16(0, AF_UNIX, true);
  addr.set(bytes, SUN_PATH + 1); // sun_path[0] stays 0: the abstract namespace
  return { addr, len: SUN_PATH + 1 + bytes.length };
}

function seqPacketSocket(libc: Libc): number {
  const fd = libc.fn.socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) throw libc.error("socket");
  return fd;
}

/**
 * Waits on the blocking pool until `fd` is readable, hung up or shut down. `pollfd` is the
 * caller's 8 bytes, which outlive the wait (the pool thread writes into them).
 */
async function waitReadable(libc: Libc, pollfd: ArrayBuffer, fd: number): Promise<void> {
  const view = new DataView(pollfd);
  for (let failures = 0;;) {
    view.setInt32(0, fd, true);
    view.setInt16(4, POLLIN, true);
    view.setInt16(POLLFD_REVENTS, 0, true);
    const n = await libc.fn.poll(new Uint8Array(pollfd), 1n, -1);
    if (n > 0) {
      if (view.getInt16(POLLFD_REVENTS, true) & POLLNVAL) {
        throw new Error(`descriptor ${fd} was closed while in use`);
      }
      return;
    }
    // Only a signal interrupts a wait without a timeout (its errno stayed on the pool thread).
    if (++failures >= MAX_POLL_FAILURES) throw new Error("poll keeps failing");
  }
}

/** A listening AF_UNIX SOCK_SEQPACKET socket in the abstract namespace. */
export class SeqPacketListener {
  readonly #libc: Libc;
  readonly #fd: number;
  readonly #pollfd = new ArrayBuffer(POLLFD_BYTES);
  #accepting = false;
  #closed = false;
  #fdClosed = false;
  /** Ends an accept's rest early when the listener closes. */
  #wake: (() => void) | null = null;

  private constructor(libc: Libc, fd: number) {
    this.#libc = libc;
    this.#fd = fd;
  }

  /**
   * Listens on abstract `name` (no leading NUL; 1 to 100 bytes); throws an Error saying the name
   * is in use (EADDRINUSE) or naming errno.
   */
  static listen(libc: Libc, name: string): SeqPacketListener {
    const { addr, len } = abstractAddress(name);
    const fd = seqPacketSocket(libc);
    if (libc.fn.bind(fd, addr, len) !== 0) {
      const errno = libc.errno();
      libc.fn.close(fd);
      throw errno === EADDRINUSE
        ? new Error(`bind ${name}: the name is in use by another socket (EADDRINUSE)`)
        : libc.error(`bind ${name}`, errno);
    }
    if (libc.fn.listen(fd, LISTEN_BACKLOG) !== 0) {
      const err = libc.error(`listen ${name}`);
      libc.fn.close(fd);
      throw err;
    }
    return new SeqPacketListener(libc, fd);
  }

  /** Waits for the next connection; resolves null once the listener is closed. */
  async accept(): Promise<SeqPacketConn | null> {
    if (this.#accepting) throw new Error("an accept is already in flight on this listener");
    this.#accepting = true;
    try {
      while (!this.#closed) {
        const fd = this.#libc.fn.accept4(this.#fd, null, null, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0) return new SeqPacketConn(this.#libc, fd);
        const errno = this.#libc.errno();
        if (errno === EAGAIN) await waitReadable(this.#libc, this.#pollfd, this.#fd);
        else if (errno === EINTR || errno === ECONNABORTED) continue;
        else if (SHORTAGES.has(errno)) await this.#rest();
        else throw this.#libc.error("accept", errno);
      }
      return null;
    } finally {
      this.#accepting = false;
      this.#closeFdWhenIdle();
    }
  }

  /** Stops listening: a waiting accept resolves null; the descriptor closes once it returned. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#libc.fn.shutdown(this.#fd, SHUT_RDWR);
    this.#wake?.();
    this.#closeFdWhenIdle();
  }

  /** Out of descriptors or memory: the connection stays queued, so wait a little and retry. */
  #rest(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.#wake?.(), ACCEPT_RETRY_MS);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
    });
  }

  #closeFdWhenIdle(): void {
    if (!this.#closed || this.#accepting || this.#fdClosed) return;
    this.#fdClosed = true;
    this.#libc.fn.close(this.#fd);
  }
}

/** One connected SOCK_SEQPACKET socket: whole messages, each optionally carrying descriptors. */
export class SeqPacketConn {
  /** The connected socket's descriptor (this object owns it). */
  readonly fd: number;
  readonly #libc: Libc;
  #receiving = false;
  #closed = false;
  #fdClosed = false;
  // One send and one receive are under way at a time, so one set of buffers each.
  readonly #pollfd = new ArrayBuffer(POLLFD_BYTES);
  readonly #in = new MessageBuffers();
  readonly #out = new MessageBuffers();

  /** Wraps a connected SOCK_SEQPACKET descriptor, which this object then owns. */
  constructor(libc: Libc, fd: number) {
    this.#libc = libc;
    this.fd = fd;
  }

  /** Connects to `name`; throws (ECONNREFUSED when nobody listens) with the errno name. */
  static connect(libc: Libc, name: string): SeqPacketConn {
    const { addr, len } = abstractAddress(name);
    const fd = seqPacketSocket(libc);
    // Non-blocking: a listener with a full backlog answers EAGAIN instead of stalling the loop.
    if (libc.fn.connect(fd, addr, len) !== 0) {
      const err = libc.error(`connect ${name}`);
      libc.fn.close(fd);
      throw err;
    }
    return new SeqPacketConn(libc, fd);
  }

  /** The peer process's uid, from SO_PEERCRED; throws with the errno name. */
  peerUid(): number {
    if (this.#fdClosed) throw new Error("peerUid: the connection is closed");
    const cred = new Uint8Array(UCRED_BYTES);
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, UCRED_BYTES, true);
    if (this.#libc.fn.getsockopt(this.fd, SOL_SOCKET, SO_PEERCRED, cred, len) !== 0) {
      throw this.#libc.error("getsockopt SO_PEERCRED");
    }
    return new DataView(cred.buffer).getUint32(UCRED_UID, true);
  }

  /**
   * Sends one message (1 to MAX_MESSAGE_BYTES bytes) with up to MAX_FDS_PER_MESSAGE descriptors,
   * without waiting: "sent", "busy" (the peer is not reading; try later) or "closed". Throws a
   * RangeError for a bad size and an Error naming errno for anything else (e.g. EBADF).
   */
  send(bytes: Uint8Array, fds: readonly number[] = []): "sent" | "busy" | "closed" {
    // An empty message would read as the end of the stream (recvmsg answers 0 for both).
    if (bytes.length === 0 || bytes.length > MAX_MESSAGE_BYTES) {
      throw new RangeError(`a message is 1 to ${MAX_MESSAGE_BYTES} bytes (got ${bytes.length})`);
    }
    if (fds.length > MAX_FDS_PER_MESSAGE) {
      throw new RangeError(`at most ${MAX_FDS_PER_MESSAGE} descriptors a message (${fds.length})`);
    }
    if (this.#closed) return "closed";
    const out = this.#out;
    out.data.set(bytes);
    out.prepare(bytes.length, fds.length === 0 ? 0 : cmsgSpace(fds.length));
    if (fds.length > 0) {
      const c = out.controlView;
      c.setBigUint64(0, BigInt(CMSG_HEADER_BYTES + fds.length * 4), true);
      c.setInt32(8, SOL_SOCKET, true);
      c.setInt32(12, SCM_RIGHTS, true);
      fds.forEach((fd, i) => c.setInt32(CMSG_HEADER_BYTES + i * 4, fd, true));
    }
    for (;;) {
      const n = this.#libc.fn.sendmsg(this.fd, out.msg, MSG_DONTWAIT | MSG_NOSIGNAL);
      if (n >= 0) return "sent";
      const errno = this.#libc.errno();
      if (errno === EINTR) continue;
      if (errno === EAGAIN) return "busy";
      if (errno === EPIPE || errno === ECONNRESET || errno === ENOTCONN) return "closed";
      throw this.#libc.error("sendmsg", errno);
    }
  }

  /**
   * Waits for the next message; null at the end of the stream or after `close`. One at a time (a
   * second rejects). A message cut short or whose descriptors did not all fit rejects, after
   * closing the descriptors that came, so none leaks.
   */
  async recv(): Promise<{ bytes: Uint8Array; fds: number[] } | null> {
    if (this.#receiving) throw new Error("a recv is already in flight on this connection");
    this.#receiving = true;
    try {
      while (!this.#closed) {
        const msg = this.#in;
        msg.prepare(MAX_MESSAGE_BYTES, CONTROL_BYTES);
        const n = Number(
          this.#libc.fn.recvmsg(this.fd, msg.msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC),
        );
        if (n < 0) {
          const errno = this.#libc.errno();
          if (errno === ECONNRESET) break;
          if (errno === EAGAIN) await waitReadable(this.#libc, this.#pollfd, this.fd);
          else if (errno !== EINTR) throw this.#libc.error("recvmsg", errno);
          continue;
        }
        const fds = msg.receivedFds();
        if (n === 0 || msg.flags() & (MSG_TRUNC | MSG_CTRUNC)) {
          for (const fd of fds) this.#libc.fn.close(fd);
          // 0 is the end of the stream: `send` never sends an empty message.
          if (n === 0) break;
          throw new Error("a message on the descriptor channel was cut short; dropped");
        }
        return { bytes: msg.data.slice(0, n), fds };
      }
      return null;
    } finally {
      this.#receiving = false;
      this.#closeFdWhenIdle();
    }
  }

  /** Ends the connection: a waiting recv resolves null, then the descriptor closes. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#libc.fn.shutdown(this.fd, SHUT_RDWR);
    this.#closeFdWhenIdle();
  }

  #closeFdWhenIdle(): void {
    if (!this.#closed || this.#receiving || this.#fdClosed) return;
    this.#fdClosed = true;
    this.#libc.fn.close(this.fd);
  }
}

/**
 * A `struct msghdr` with one iovec over its own data buffer and a control buffer. They are all
 * plain ArrayBuffers, whose memory never moves, so their addresses are written in once.
 */
class MessageBuffers {
  readonly data = new Uint8Array(new ArrayBuffer(MAX_MESSAGE_BYTES));
  readonly msg = new Uint8Array(new ArrayBuffer(MSGHDR_BYTES));
  readonly controlView: DataView;
  readonly #control = new ArrayBuffer(CONTROL_BYTES);
  readonly #iov = new ArrayBuffer(IOVEC_BYTES);
  readonly #msgView = new DataView(this.msg.buffer);
  readonly #iovView = new DataView(this.#iov);

  constructor() {
    this.controlView = new DataView(this.#control);
    this.#iovView.setBigUint64(0, address(this.data.buffer), true);
    this.#msgView.setBigUint64(MSG_IOV, address(this.#iov), true);
    this.#msgView.setBigUint64(MSG_IOVLEN, 1n, true);
    this.#msgView.setBigUint64(MSG_CONTROL, address(this.#control), true);
  }

  /** Sets the lengths for the next call (the kernel rewrites msg_controllen and msg_flags). */
  prepare(dataBytes: number, controlBytes: number): void {
    this.#iovView.setBigUint64(8, BigInt(dataBytes), true);
    this.#msgView.setBigUint64(MSG_CONTROLLEN, BigInt(controlBytes), true);
    this.#msgView.setInt32(MSG_FLAGS, 0, true);
  }

  /** msg_flags of the message just received. */
  flags(): number {
    return this.#msgView.getInt32(MSG_FLAGS, true);
  }

  /** The descriptors in the control messages just received. */
  receivedFds(): number[] {
    const controlLen = Number(this.#msgView.getBigUint64(MSG_CONTROLLEN, true));
    const c = this.controlView;
    const fds: number[] = [];
    for (let at = 0; at + CMSG_HEADER_BYTES <= controlLen;) {
      const len = Number(c.getBigUint64(at, true));
      if (len < CMSG_HEADER_BYTES) break;
      if (c.getInt32(at + 8, true) === SOL_SOCKET && c.getInt32(at + 12, true) === SCM_RIGHTS) {
        // Never past what the kernel filled in, whatever a header claims.
        const end = Math.min(at + len, controlLen);
        for (let i = at + CMSG_HEADER_BYTES; i + 4 <= end; i += 4) fds.push(c.getInt32(i, true));
      }
      at += (len + 7) & ~7;
    }
    return fds;
  }
}
