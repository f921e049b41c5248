/**
 * Ends TLS connections whose handshake has not finished. Deno's `close()` of a connection from
 * `Deno.listenTls` leaves its TCP socket open until the handshake ends, and a client that sends
 * nothing (or half a ClientHello) never lets it end: each such client kept a descriptor for as
 * long as it liked, past the handshake timeout and the per-address cap, whose refusals are
 * closes too (3,000 silent connections from one address held 3,000 descriptors of the engine).
 * So the socket is found among this process's descriptors (`/proc/self/fd`, each asked for its
 * two addresses with `getpeername(2)` and `getsockname(2)`) and shut down with `shutdown(2)`,
 * through FFI: the handshake reads the end and Deno closes the socket. Connections dropped
 * within the same `delayMs` share one pass, so a flood of them costs one look at the
 * descriptors per pass, not one per connection. Linux with FFI only; elsewhere `close()` is all
 * there is (docs/tls.md).
 */
import { openLibcSymbols } from "../runtime/libc.ts";
import { addressBytes } from "./client_address.ts";

/** shutdown(2)'s SHUT_RDWR. */
const SHUT_RDWR = 2;

/** Address families of Linux. */
const AF_INET = 2;
const AF_INET6 = 10;

const SYMBOLS = {
  shutdown: { parameters: ["i32", "i32"], result: "i32" },
  getpeername: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
  getsockname: { parameters: ["i32", "buffer", "buffer"], result: "i32" },
} as const;

type Libc = Deno.DynamicLibrary<typeof SYMBOLS>;

/** Settings of a {@linkcode TlsAborter}. */
export interface TlsAborterOptions {
  /** How long drops wait to share a pass over `/proc` (default 100 ms). */
  delayMs?: number;
}

/** Shuts down the sockets of TLS connections closed before their handshake finished. */
export class TlsAborter {
  readonly #delayMs: number;
  /** Connections waiting for the next pass, by their two addresses (see `socketKey`). */
  readonly #waiting = new Set<string>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #lib: Libc | string | null = null;

  constructor(opts: TlsAborterOptions = {}) {
    this.#delayMs = opts.delayMs ?? 100;
  }

  /** Closes `conn` and, at the next pass, shuts its socket down if it is still open. */
  abort(conn: Deno.Conn): void {
    const key = connKey(conn);
    try {
      conn.close();
    } catch { /* already closed */ }
    if (key === null || this.#unavailable() !== null) return;
    this.#waiting.add(key);
    this.#timer ??= setTimeout(() => this.pass(), this.#delayMs);
  }

  /** Why sockets cannot be shut down here (not Linux, no FFI), or null when they can. */
  #unavailable(): string | null {
    this.#lib ??= openLibcSymbols(SYMBOLS);
    return typeof this.#lib === "string" ? this.#lib : null;
  }

  /** Shuts down every waiting connection's socket now; how many were found open. */
  pass(): number {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#waiting.size === 0 || typeof this.#lib !== "object" || this.#lib === null) return 0;
    const wanted = new Set(this.#waiting);
    this.#waiting.clear();
    const lib = this.#lib;
    let done = 0;
    for (const fd of fdsOf(wanted, lib)) {
      if (lib.symbols.shutdown(fd, SHUT_RDWR) === 0) done++;
    }
    return done;
  }

  /** Stops the pending pass and lets go of libc. */
  stop(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#waiting.clear();
    if (typeof this.#lib === "object" && this.#lib !== null) this.#lib.close();
    this.#lib = null;
  }
}

/** `local>remote`, each address as 32 hex digits (IPv4 mapped) and a port; null when not IP. */
function connKey(conn: Deno.Conn): string | null {
  const l = conn.localAddr as Deno.NetAddr, r = conn.remoteAddr as Deno.NetAddr;
  if (l?.transport !== "tcp" || r?.transport !== "tcp") return null;
  const lb = addressBytes(l.hostname), rb = addressBytes(r.hostname);
  if (!lb || !rb) return null;
  return `${hex(lb)}:${l.port}>${hex(rb)}:${r.port}`;
}

function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** A socket address (`struct sockaddr_in` or `sockaddr_in6`) in `connKey`'s form; null if not IP. */
function sockaddrKey(buf: Uint8Array, len: number): string | null {
  const family = buf[0] | (buf[1] << 8);
  const port = (buf[2] << 8) | buf[3];
  if (family === AF_INET && len >= 8) {
    const bytes = new Uint8Array(16);
    bytes.set([0xff, 0xff], 10);
    bytes.set(buf.subarray(4, 8), 12);
    return `${hex(bytes)}:${port}`;
  }
  if (family === AF_INET6 && len >= 24) return `${hex(buf.subarray(8, 24))}:${port}`;
  return null;
}

/**
 * This process's descriptors that are the TCP connections in `wanted`: each descriptor's peer
 * and own address asked of the kernel (a descriptor that is no socket just fails). Only this
 * process's descriptors are looked at, never the system's table of connections, which a flood
 * fills with thousands of closed ones.
 */
function fdsOf(wanted: Set<string>, lib: Libc): number[] {
  const fds: number[] = [];
  const buf = new Uint8Array(128), len = new Uint32Array(1);
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    if (fds.length === wanted.size) break;
    const fd = Number(entry.name);
    len[0] = buf.length;
    if (lib.symbols.getpeername(fd, buf, len) !== 0) continue;
    const remote = sockaddrKey(buf, len[0]);
    if (remote === null) continue;
    len[0] = buf.length;
    if (lib.symbols.getsockname(fd, buf, len) !== 0) continue;
    if (wanted.has(`${sockaddrKey(buf, len[0])}>${remote}`)) fds.push(fd);
  }
  return fds;
}
