/**
 * Passing open descriptors between the telnet sidecar and the engine (SCM_RIGHTS over a Unix
 * SOCK_SEQPACKET socket), through Deno's FFI to libc: Deno itself has no API for it. Linux
 * (glibc, 64-bit) only; `fdPassingUnavailable` says why not elsewhere, and the game then keeps
 * every telnet socket in the sidecar.
 *
 * The calls that wait (accept, recvmsg) run on Deno's blocking thread pool (`nonblocking` FFI
 * symbols), so the event loop never waits on them; sends never wait (MSG_DONTWAIT). A descriptor
 * another thread may still be using is shut down first and closed only once that call returned,
 * so its number cannot be reused under it.
 */

const AF_UNIX = 1;
const SOCK_SEQPACKET = 5;
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
const EINTR = 4;
const EAGAIN = 11;
const EPIPE = 32;
const ECONNRESET = 104;

/** Largest message `send` takes and `recv` reads (bytes). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/** Most descriptors one message carries (the kernel's SCM_MAX_FD is 253). */
export const MAX_FDS_PER_MESSAGE = 200;

/** Bytes of a control message carrying `n` descriptors (CMSG_SPACE). */
function cmsgSpace(n: number): number {
  return 16 + ((n * 4 + 7) & ~7);
}

const ERRNO_NAMES: Record<number, string> = {
  1: "EPERM",
  2: "ENOENT",
  4: "EINTR",
  9: "EBADF",
  11: "EAGAIN",
  13: "EACCES",
  22: "EINVAL",
  24: "EMFILE",
  32: "EPIPE",
  98: "EADDRINUSE",
  104: "ECONNRESET",
  107: "ENOTCONN",
  111: "ECONNREFUSED",
};

const SYMBOLS = {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  bind: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  listen: { parameters: ["i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  accept4: {
    parameters: ["i32", "pointer", "pointer", "i32"],
    result: "i32",
    nonblocking: true,
  },
  shutdown: { parameters: ["i32", "i32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
  dup3: { parameters: ["i32", "i32", "i32"], result: "i32" },
  fcntl: { parameters: ["i32", "i32", "i32"], result: "i32" },
  sendmsg: { parameters: ["i32", "buffer", "i32"], result: "isize" },
  recvmsg: { parameters: ["i32", "buffer", "i32"], result: "isize", nonblocking: true },
  send: { parameters: ["i32", "buffer", "usize", "i32"], result: "isize" },
  getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  getuid: { parameters: [], result: "u32" },
  __errno_location: { parameters: [], result: "pointer" },
} as const;

/** Why descriptor passing is unavailable here, or null when it works. */
export function fdPassingUnavailable(): string | null {
  if (Deno.build.os !== "linux") return `descriptor passing needs Linux (this is ${Deno.build.os})`;
  if (Deno.build.arch !== "x86_64" && Deno.build.arch !== "aarch64") {
    return `descriptor passing is not set up for ${Deno.build.arch}`;
  }
  try {
    if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") {
      return "no FFI permission (--allow-ffi)";
    }
    Deno.dlopen("libc.so.6", { getuid: SYMBOLS.getuid }).close();
    return null;
  } catch (e) {
    return `libc cannot be loaded (${(e as Error).message})`;
  }
}

/** libc's symbols, opened once per user of this module. */
export class Libc {
  readonly #lib = Deno.dlopen("libc.so.6", SYMBOLS);

  /** The symbols. */
  get fn(): Deno.DynamicLibrary<typeof SYMBOLS>["symbols"] {
    return this.#lib.symbols;
  }

  /** errno of the last failed call made on this thread. */
  errno(): number {
    const p = this.#lib.symbols.__errno_location();
    return p === null ? 0 : new Deno.UnsafePointerView(p).getInt32();
  }

  /** An Error naming errno (and what failed). */
  error(what: string, errno = this.errno()): Error {
    return new Error(`${what}: ${ERRNO_NAMES[errno] ?? `errno ${errno}`}`);
  }
}

/** Opens libc's symbols (throws when unavailable; see `fdPassingUnavailable`). */
export function openLibc(): Libc {
  return new Libc();
}

/** The current process's real uid. */
export function currentUid(libc: Libc): number {
  return libc.fn.getuid();
}

/** Closes a descriptor (ignores one already closed). */
export function closeFd(libc: Libc, fd: number): void {
  libc.fn.close(fd);
}

/** Shuts a socket down both ways (its peer sees the end at once, whoever else holds it). */
export function shutdownFd(libc: Libc, fd: number): void {
  libc.fn.shutdown(fd, SHUT_RDWR);
}

/** dup()s a descriptor (close-on-exec); throws with the errno name. */
export function dupFd(libc: Libc, fd: number): number {
  // F_DUPFD_CLOEXEC (1030) from 3 up.
  const copy = libc.fn.fcntl(fd, 1030, 3);
  if (copy < 0) throw libc.error("dup");
  return copy;
}

/**
 * Writes to a socket without waiting (MSG_DONTWAIT, no SIGPIPE): the bytes written, 0 when it
 * cannot take any now, -1 when it is gone.
 */
export function writeFd(libc: Libc, fd: number, bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  const n = Number(libc.fn.send(fd, bytes, BigInt(bytes.length), MSG_DONTWAIT | MSG_NOSIGNAL));
  if (n >= 0) return n;
  return libc.errno() === EAGAIN ? 0 : -1;
}

/** `sockaddr_un` for an abstract name (a leading NUL, then the name); its length in bytes. */
function abstractAddress(name: string): { addr: Uint8Array; len: number } {
  const bytes = new TextEncoder().encode(name);
  if (bytes.length === 0 || bytes.length > 100) throw new RangeError("bad abstract socket name");
  const addr = new Uint8Array(110);
  new DataView(addr.buffer).setUint16(0, AF_UNIX, true);
  addr.set(bytes, 3); // sun_path[0] stays 0: the abstract namespace
  return { addr, len: 3 + bytes.length };
}

function seqPacketSocket(libc: Libc): number {
  const fd = libc.fn.socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0) throw libc.error("socket");
  return fd;
}

/** A listening Unix SOCK_SEQPACKET socket in the abstract namespace. */
export class SeqPacketListener {
  readonly #libc: Libc;
  readonly #fd: number;
  #accepting = false;
  #closed = false;
  #fdClosed = false;

  private constructor(libc: Libc, fd: number) {
    this.#libc = libc;
    this.#fd = fd;
  }

  /** Listens on `name` (abstract; at most 100 bytes); throws when it is in use. */
  static listen(libc: Libc, name: string): SeqPacketListener {
    const { addr, len } = abstractAddress(name);
    const fd = seqPacketSocket(libc);
    if (libc.fn.bind(fd, addr, len) !== 0) {
      const errno = libc.errno();
      libc.fn.close(fd);
      throw errno === 98
        ? new Error(`the name ${name} is in use by another process`)
        : libc.error(`bind ${name}`, errno);
    }
    if (libc.fn.listen(fd, 16) !== 0) {
      const err = libc.error("listen");
      libc.fn.close(fd);
      throw err;
    }
    return new SeqPacketListener(libc, fd);
  }

  /** The next connection; null once the listener is closed. */
  async accept(): Promise<SeqPacketConn | null> {
    if (this.#accepting) throw new Error("accept already in flight");
    this.#accepting = true;
    try {
      for (;;) {
        if (this.#closed) return null;
        const fd = await this.#libc.fn.accept4(this.#fd, null, null, SOCK_CLOEXEC);
        if (this.#closed) {
          if (fd >= 0) this.#libc.fn.close(fd);
          return null;
        }
        // Failed accepts (a peer gone already, a passing shortage): try again, a little later.
        if (fd < 0) await new Promise((r) => setTimeout(r, 10));
        else return new SeqPacketConn(this.#libc, fd);
      }
    } finally {
      this.#accepting = false;
      this.#closeFd();
    }
  }

  /** Stops listening; a waiting accept resolves null. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#libc.fn.shutdown(this.#fd, SHUT_RDWR);
    this.#closeFd();
  }

  #closeFd(): void {
    if (!this.#closed || this.#accepting || this.#fdClosed) return;
    this.#fdClosed = true;
    this.#libc.fn.close(this.#fd);
  }
}

/** What `recv` gives: one whole message and the descriptors it carried. */
export interface Received {
  bytes: Uint8Array;
  fds: number[];
}

/** One connected SOCK_SEQPACKET socket: whole messages, each optionally carrying descriptors. */
export class SeqPacketConn {
  readonly fd: number;
  readonly #libc: Libc;
  #receiving = false;
  #closed = false;
  #fdClosed = false;
  /** Failed receives in a row (see `recv`). */
  #failures = 0;
  // One receive at a time, so one set of buffers, kept with their addresses in the header.
  readonly #data = new Uint8Array(MAX_MESSAGE_BYTES);
  readonly #control = new Uint8Array(cmsgSpace(MAX_FDS_PER_MESSAGE));
  readonly #iov = new BigUint64Array(2);
  readonly #msg = new Uint8Array(56);

  /** Wraps a connected descriptor (this object owns it). */
  constructor(libc: Libc, fd: number) {
    this.#libc = libc;
    this.fd = fd;
  }

  /** Connects to `name`; throws (ECONNREFUSED when nobody listens). */
  static connect(libc: Libc, name: string): SeqPacketConn {
    const { addr, len } = abstractAddress(name);
    const fd = seqPacketSocket(libc);
    if (libc.fn.connect(fd, addr, len) !== 0) {
      const err = libc.error(`connect ${name}`);
      libc.fn.close(fd);
      throw err;
    }
    return new SeqPacketConn(libc, fd);
  }

  /** The peer process's uid (SO_PEERCRED); -1 when it cannot be read. */
  peerUid(): number {
    const cred = new Uint8Array(12);
    const len = new Uint32Array([12]);
    const r = this.#libc.fn.getsockopt(
      this.fd,
      SOL_SOCKET,
      SO_PEERCRED,
      cred,
      new Uint8Array(len.buffer),
    );
    return r === 0 ? new DataView(cred.buffer).getUint32(4, true) : -1;
  }

  /**
   * Sends one message with up to {@linkcode MAX_FDS_PER_MESSAGE} descriptors, without waiting:
   * "busy" when the peer is not reading (try later), "closed" when it is gone. Throws a
   * RangeError for an empty or oversized message, an Error for anything else.
   */
  send(bytes: Uint8Array, fds: readonly number[] = []): "sent" | "busy" | "closed" {
    if (bytes.length === 0 || bytes.length > MAX_MESSAGE_BYTES) {
      throw new RangeError(`a message is 1 to ${MAX_MESSAGE_BYTES} bytes (got ${bytes.length})`);
    }
    if (fds.length > MAX_FDS_PER_MESSAGE) {
      throw new RangeError(`at most ${MAX_FDS_PER_MESSAGE} descriptors a message`);
    }
    if (this.#closed) return "closed";
    const iov = new BigUint64Array([
      BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(bytes))),
      BigInt(bytes.length),
    ]);
    const msg = new Uint8Array(56);
    const view = new DataView(msg.buffer);
    view.setBigUint64(16, BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(iov))), true);
    view.setBigUint64(24, 1n, true);
    let control: Uint8Array | null = null;
    if (fds.length > 0) {
      control = new Uint8Array(cmsgSpace(fds.length));
      const c = new DataView(control.buffer);
      c.setBigUint64(0, BigInt(16 + fds.length * 4), true);
      c.setInt32(8, SOL_SOCKET, true);
      c.setInt32(12, SCM_RIGHTS, true);
      fds.forEach((fd, i) => c.setInt32(16 + i * 4, fd, true));
      view.setBigUint64(32, BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(control))), true);
      view.setBigUint64(40, BigInt(control.length), true);
    }
    for (;;) {
      const n = Number(this.#libc.fn.sendmsg(this.fd, msg, MSG_DONTWAIT | MSG_NOSIGNAL));
      if (n >= 0) return "sent";
      const errno = this.#libc.errno();
      if (errno === EINTR) continue;
      if (errno === EAGAIN) return "busy";
      if (errno === EPIPE || errno === ECONNRESET || errno === 107) return "closed";
      throw this.#libc.error("sendmsg", errno);
    }
  }

  /**
   * The next message and its descriptors; null at the end of the stream or after `close`. One
   * at a time. A message cut short, or whose descriptors did not all fit, rejects (after closing
   * those that came, so none leaks).
   */
  async recv(): Promise<Received | null> {
    if (this.#receiving) throw new Error("recv already in flight");
    if (this.#closed) return null;
    this.#receiving = true;
    try {
      const view = new DataView(this.#msg.buffer);
      this.#iov[0] = BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.#data)));
      this.#iov[1] = BigInt(this.#data.length);
      for (;;) {
        this.#msg.fill(0);
        view.setBigUint64(
          16,
          BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.#iov))),
          true,
        );
        view.setBigUint64(24, 1n, true);
        view.setBigUint64(
          32,
          BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(this.#control))),
          true,
        );
        view.setBigUint64(40, BigInt(this.#control.length), true);
        const n = Number(await this.#libc.fn.recvmsg(this.fd, this.#msg, MSG_CMSG_CLOEXEC));
        if (this.#closed) {
          if (n > 0) { for (const fd of this.#fds(view)) this.#libc.fn.close(fd); }
          return null;
        }
        // 0 is the end: an empty message is never sent (see `send`).
        if (n === 0) return null;
        // Failed on the pool thread, whose errno is not ours to read: a receive that fails
        // for anything but an interruption ends the channel.
        if (n < 0) {
          if (++this.#failures > 3) return null;
          continue;
        }
        this.#failures = 0;
        const fds = this.#fds(view);
        const flags = view.getInt32(48, true);
        if (flags & (MSG_TRUNC | MSG_CTRUNC)) {
          for (const fd of fds) this.#libc.fn.close(fd);
          throw new Error("a message on the handoff channel was cut short; dropped");
        }
        return { bytes: this.#data.slice(0, n), fds };
      }
    } finally {
      this.#receiving = false;
      this.#closeFd();
    }
  }

  /** Ends the connection; a waiting `recv` resolves null. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#libc.fn.shutdown(this.fd, SHUT_RDWR);
    this.#closeFd();
  }

  /** The descriptors in the control buffer of the message just received. */
  #fds(view: DataView): number[] {
    const controlLen = Number(view.getBigUint64(40, true));
    const fds: number[] = [];
    const c = new DataView(this.#control.buffer);
    let at = 0;
    while (at + 16 <= controlLen) {
      const len = Number(c.getBigUint64(at, true));
      if (len < 16) break;
      if (c.getInt32(at + 8, true) === SOL_SOCKET && c.getInt32(at + 12, true) === SCM_RIGHTS) {
        for (let i = 16; i + 4 <= len; i += 4) fds.push(c.getInt32(at + i, true));
      }
      at += (len + 7) & ~7;
    }
    return fds;
  }

  #closeFd(): void {
    if (!this.#closed || this.#receiving || this.#fdClosed) return;
    this.#fdClosed = true;
    this.#libc.fn.close(this.fd);
  }
}
