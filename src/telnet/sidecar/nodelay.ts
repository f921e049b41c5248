/**
 * Turns Nagle's algorithm off on the sidecar's link to the hub. Deno's WebSocket client sets
 * `TCP_NODELAY` to 0 on every socket it opens (strace: `setsockopt(fd, SOL_TCP, TCP_NODELAY, [0])`)
 * and offers no option to change it. On the link, where the sidecar sends a player's line while
 * the previous frame is still unacknowledged (a busy moment: logins, many players typing), the
 * kernel then holds the line until the hub's delayed ACK, 40 ms on Linux: the p99 of a login
 * storm (docs/bench.md). The hub's end (accepted by the engine's listener, src/net) already has
 * it on.
 *
 * There is no handle to the socket, so this finds it: the process's descriptors that are TCP
 * sockets connected to the hub's port (`/proc/self/fd` and `/proc/self/net/tcp{,6}`), and sets
 * the option with `setsockopt` through FFI. Linux only; elsewhere, or without `--allow-ffi`,
 * nothing changes and the answer says why.
 */

/** IPPROTO_TCP and TCP_NODELAY of Linux. */
const IPPROTO_TCP = 6;
const TCP_NODELAY = 1;

/** What was done: the descriptors now without Nagle, or why none. */
export interface NoDelayResult {
  fds: number[];
  error?: string;
}

/** Socket inodes of established TCP connections whose remote port is `port`. */
function inodesTo(port: number): Set<string> {
  const want = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set<string>();
  for (const table of ["/proc/self/net/tcp", "/proc/self/net/tcp6"]) {
    let text: string;
    try {
      text = Deno.readTextFileSync(table);
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const f = line.trim().split(/\s+/);
      // local, remote, state (01 = established), ..., inode is the tenth field.
      if (f.length > 9 && f[2].endsWith(`:${want}`) && f[3] === "01") inodes.add(f[9]);
    }
  }
  return inodes;
}

/**
 * This process's descriptors that are sockets with one of `inodes`. The sidecar holds a
 * descriptor per telnet player and this runs as the link opens after a reboot, so it stops as
 * soon as every inode is found rather than reading the link of all 10,000.
 */
function fdsOf(inodes: Set<string>): number[] {
  const fds: number[] = [];
  if (inodes.size === 0) return fds;
  for (const entry of Deno.readDirSync("/proc/self/fd")) {
    if (fds.length === inodes.size) break;
    try {
      const m = /^socket:\[(\d+)\]$/.exec(Deno.readLinkSync(`/proc/self/fd/${entry.name}`));
      if (m && inodes.has(m[1])) fds.push(Number(entry.name));
    } catch {
      // Closed while listed.
    }
  }
  return fds;
}

/** Reads or sets TCP_NODELAY on descriptors through libc. */
function withLibc<T>(
  work: (
    set: (fd: number) => boolean,
    get: (fd: number) => number | null,
  ) => T,
): T {
  const lib = Deno.dlopen("libc.so.6", {
    setsockopt: { parameters: ["i32", "i32", "i32", "buffer", "u32"], result: "i32" },
    getsockopt: { parameters: ["i32", "i32", "i32", "buffer", "buffer"], result: "i32" },
  });
  try {
    const one = new Int32Array([1]);
    return work(
      (fd) => lib.symbols.setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, one, 4) === 0,
      (fd) => {
        const value = new Int32Array(1);
        const len = new Uint32Array([4]);
        return lib.symbols.getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, value, len) === 0
          ? value[0]
          : null;
      },
    );
  } finally {
    lib.close();
  }
}

/** Why this process cannot look at or change its sockets, or null when it can. */
function unavailable(): string | null {
  if (Deno.build.os !== "linux") return "not Linux";
  if (Deno.permissions.querySync({ name: "ffi" }).state !== "granted") return "no --allow-ffi";
  if (Deno.permissions.querySync({ name: "read", path: "/proc" }).state !== "granted") {
    return "no read access to /proc";
  }
  return null;
}

/** Sets TCP_NODELAY on every established TCP socket of this process to remote `port`. */
export function noDelayTo(port: number): NoDelayResult {
  const why = unavailable();
  if (why) return { fds: [], error: why };
  try {
    const fds = fdsOf(inodesTo(port));
    const done = withLibc((set) => fds.filter((fd) => set(fd)));
    return done.length || !fds.length ? { fds: done } : { fds: done, error: "setsockopt failed" };
  } catch (e) {
    return { fds: [], error: e instanceof Error ? e.message : String(e) };
  }
}

/** TCP_NODELAY of each established socket of this process to remote `port` (for tests). */
export function noDelayOf(port: number): Map<number, number | null> {
  const why = unavailable();
  if (why) throw new Error(why);
  const fds = fdsOf(inodesTo(port));
  return withLibc((_set, get) => new Map(fds.map((fd) => [fd, get(fd)])));
}
