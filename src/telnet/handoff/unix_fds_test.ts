/** Tests of descriptor passing over a Unix seqpacket socket through libc. */
import assert from "node:assert/strict";
import net from "node:net";
import {
  closeFd,
  currentUid,
  dupFd,
  fdPassingUnavailable,
  type Libc,
  MAX_FDS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  openLibc,
  sendNow,
  SeqPacketConn,
  SeqPacketListener,
  writeFd,
} from "./unix_fds.ts";

const ignore = fdPassingUnavailable() !== null;
const text = (s: string) => new TextEncoder().encode(s);
const str = (b: Uint8Array) => new TextDecoder().decode(b);
const uniqueName = () => `ursamu-test-${crypto.randomUUID()}`;

/**
 * How many of this process's descriptors refer to `target` ("socket:[inode]"), to prove a test
 * left none open. Counted per socket, not over all descriptors: test files run side by side
 * in one process (`deno test --parallel`) and open descriptors of their own meanwhile.
 */
function openTo(target: string): number {
  let n = 0;
  for (const e of Deno.readDirSync("/proc/self/fd")) {
    try {
      if (Deno.readLinkSync(`/proc/self/fd/${e.name}`) === target) n++;
    } catch { /* closed while listed */ }
  }
  return n;
}

/** What a descriptor refers to ("socket:[inode]" for a socket). */
function fdTarget(fd: number): string {
  return Deno.readLinkSync(`/proc/self/fd/${fd}`);
}

interface Pair {
  libc: Libc;
  listener: SeqPacketListener;
  /** The connecting end. */
  a: SeqPacketConn;
  /** The accepted end. */
  b: SeqPacketConn;
}

/** Runs `fn` with a connected pair, then closes everything and checks no descriptor leaked. */
async function withPair(fn: (p: Pair) => Promise<void>): Promise<void> {
  const libc = openLibc();
  const name = uniqueName();
  const listener = SeqPacketListener.listen(libc, name);
  const accepted = listener.accept();
  const a = SeqPacketConn.connect(libc, name);
  const b = await accepted;
  assert.ok(b !== null);
  const ends = [fdTarget(a.fd), fdTarget(b.fd)];
  try {
    await fn({ libc, listener, a, b });
  } finally {
    a.close();
    b.close();
    listener.close();
    libc.close();
  }
  for (const t of ends) assert.equal(openTo(t), 0, "every descriptor is closed again");
}

/** A loopback TCP connection: the client's end, the server's, and the server end's descriptor. */
interface Tcp {
  client: Deno.TcpConn;
  socket: net.Socket;
  fd: number;
}

/** Runs `fn` over a fresh loopback TCP connection, then closes both ends and the server. */
async function withTcp(fn: (t: Tcp) => Promise<void>): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
  const client = await Deno.connect({ hostname: "127.0.0.1", port });
  const socket = await accepted;
  try {
    // deno-lint-ignore no-explicit-any
    await fn({ client, socket, fd: (socket as any)._handle.fdForIpc() });
  } finally {
    client.close();
    socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

/** Sends `count` descriptors (or `bytes` bytes) in one raw sendmsg, past `send`'s limits. */
function rawSend(libc: Libc, fd: number, bytes: number, fds: number[]): void {
  const data = new ArrayBuffer(bytes);
  const iov = new BigUint64Array([ptr(data), BigInt(bytes)]);
  const control = new ArrayBuffer(16 + ((fds.length * 4 + 7) & ~7));
  const c = new DataView(control);
  c.setBigUint64(0, BigInt(16 + fds.length * 4), true);
  c.setInt32(8, 1, true); // SOL_SOCKET
  c.setInt32(12, 1, true); // SCM_RIGHTS
  fds.forEach((f, i) => c.setInt32(16 + i * 4, f, true));
  const msg = new ArrayBuffer(56);
  const m = new DataView(msg);
  m.setBigUint64(16, ptr(iov.buffer), true);
  m.setBigUint64(24, 1n, true);
  if (fds.length > 0) {
    m.setBigUint64(32, ptr(control), true);
    m.setBigUint64(40, BigInt(control.byteLength), true);
  }
  const n = libc.fn.sendmsg(fd, new Uint8Array(msg), 0x40 /* MSG_DONTWAIT */);
  assert.equal(Number(n), bytes, "raw sendmsg sent the whole message");
}

function ptr(buffer: ArrayBuffer): bigint {
  return BigInt(Deno.UnsafePointer.value(Deno.UnsafePointer.of(buffer)));
}

Deno.test({
  name: "unix_fds: connect/accept; whole messages both ways, in order; the peer's uid",
  ignore,
  fn: () =>
    withPair(async ({ libc, a, b }) => {
      assert.equal(a.peerUid(), currentUid(libc));
      assert.equal(b.peerUid(), currentUid(libc));
      for (let i = 0; i < 20; i++) assert.equal(a.send(text(`a->b ${i}`)), "sent");
      const big = new Uint8Array(MAX_MESSAGE_BYTES).map((_, i) => i % 251);
      assert.equal(a.send(big), "sent");
      assert.equal(b.send(text("b->a")), "sent");
      // A view into a larger buffer sends only its own bytes.
      assert.equal(b.send(text("xxpartxx").subarray(2, 6)), "sent");
      for (let i = 0; i < 20; i++) {
        const got = await b.recv();
        assert.equal(str(got!.bytes), `a->b ${i}`);
        assert.deepEqual(got!.fds, []);
      }
      assert.deepEqual((await b.recv())!.bytes, big);
      assert.equal(str((await a.recv())!.bytes), "b->a");
      assert.equal(str((await a.recv())!.bytes), "part");
      // A recv waiting before the message is sent gets it too.
      const waiting = a.recv();
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(b.send(text("later")), "sent");
      assert.equal(str((await waiting)!.bytes), "later");
    }),
});

Deno.test({
  name: "unix_fds: a TCP socket's descriptor crosses the channel and the receiver writes to it",
  ignore,
  fn: () =>
    withTcp(async ({ client, fd: tcpFd }) => {
      await withPair(async ({ libc, a, b }) => {
        const target = fdTarget(tcpFd);
        assert.equal(a.send(text("take this"), [tcpFd]), "sent");
        closeFd(libc, tcpFd);
        const got = await b.recv();
        assert.equal(str(got!.bytes), "take this");
        assert.equal(got!.fds.length, 1);
        assert.equal(fdTarget(got!.fds[0]), target, "the same socket arrived");
        const hello = text("hello from the other side");
        assert.equal(writeFd(libc, got!.fds[0], hello), hello.length);
        closeFd(libc, got!.fds[0]);
        const buf = new Uint8Array(100);
        let read = 0;
        while (read < hello.length) {
          const n = await client.read(buf.subarray(read));
          assert.ok(n !== null);
          read += n;
        }
        assert.equal(str(buf.subarray(0, read)), "hello from the other side");
      });
    }),
});

Deno.test({
  name: "unix_fds: 250 descriptors in two messages; limits are RangeErrors; bad fds throw EBADF",
  ignore,
  fn: () =>
    withPair(async ({ libc, a, b }) => {
      const target = fdTarget(a.fd);
      const fds = Array.from({ length: 250 }, () => dupFd(libc, a.fd));
      try {
        assert.equal(a.send(text("first"), fds.slice(0, MAX_FDS_PER_MESSAGE)), "sent");
        assert.equal(a.send(text("second"), fds.slice(MAX_FDS_PER_MESSAGE)), "sent");
        assert.throws(() => a.send(text("too many"), fds.slice(0, 201)), RangeError);
        assert.throws(() => a.send(new Uint8Array(MAX_MESSAGE_BYTES + 1)), RangeError);
        assert.throws(() => a.send(new Uint8Array(0)), RangeError);
        assert.throws(() => a.send(new Uint8Array(0), [fds[0]]), RangeError);
        assert.throws(() => a.send(text("bad fd"), [1_000_000]), /EBADF/);
      } finally {
        for (const fd of fds) closeFd(libc, fd);
      }
      const first = await b.recv();
      const second = await b.recv();
      assert.equal(str(first!.bytes), "first");
      assert.equal(first!.fds.length, 200);
      assert.equal(str(second!.bytes), "second");
      assert.equal(second!.fds.length, 50);
      const all = [...first!.fds, ...second!.fds];
      assert.equal(new Set(all).size, 250);
      for (const fd of all) assert.equal(fdTarget(fd), target);
      for (const fd of all) closeFd(libc, fd);
    }),
});

Deno.test({
  name: "unix_fds: a message cut short rejects and closes the descriptors that came",
  ignore,
  fn: () =>
    withPair(async ({ libc, a, b }) => {
      const before = openTo(fdTarget(a.fd));
      const fds = Array.from({ length: 240 }, () => dupFd(libc, a.fd));
      rawSend(libc, a.fd, 10, fds); // more descriptors than recv makes room for
      rawSend(libc, a.fd, MAX_MESSAGE_BYTES + 1, []); // more bytes than recv reads
      for (const fd of fds) closeFd(libc, fd);
      await assert.rejects(b.recv(), /cut short/);
      await assert.rejects(b.recv(), /cut short/);
      assert.equal(openTo(fdTarget(a.fd)), before, "no received descriptor is left open");
      assert.equal(a.send(text("still fine")), "sent");
      assert.equal(str((await b.recv())!.bytes), "still fine");
    }),
});

Deno.test({
  name: "unix_fds: send says busy when the peer does not read and closed once it is gone",
  ignore,
  fn: () =>
    withPair(async ({ a, b }) => {
      const chunk = new Uint8Array(4096);
      let sent = 0;
      for (; sent < 10_000; sent++) if (a.send(chunk) !== "sent") break;
      assert.ok(sent < 10_000);
      assert.equal(a.send(chunk), "busy");
      assert.equal((await b.recv())!.bytes.length, 4096);
      b.close();
      assert.equal(a.send(chunk), "closed");
      a.close();
      assert.equal(a.send(chunk), "closed");
    }),
});

Deno.test({
  name: "unix_fds: recv ends with null when the peer closes",
  ignore,
  fn: () =>
    withPair(async ({ a, b }) => {
      const pending = b.recv();
      assert.equal(a.send(text("last")), "sent");
      assert.equal(str((await pending)!.bytes), "last");
      const atEnd = b.recv();
      a.close();
      assert.equal(await atEnd, null);
      assert.equal(await b.recv(), null);
    }),
});

Deno.test({
  name: "unix_fds: our own close wakes a waiting recv with null, and later ones answer null",
  ignore,
  fn: () =>
    withPair(async ({ a }) => {
      const waiting = a.recv();
      await new Promise((r) => setTimeout(r, 20));
      a.close();
      assert.equal(await waiting, null);
      assert.equal(await a.recv(), null);
      a.close();
    }),
});

Deno.test({
  name:
    "unix_fds: accept ends with null on close; connect to nobody and listen on a used name throw",
  ignore,
  async fn() {
    const libc = openLibc();
    const targets: string[] = [];
    try {
      const name = uniqueName();
      const listener = SeqPacketListener.listen(libc, name);
      assert.throws(() => SeqPacketListener.listen(libc, name), /in use/);
      const waiting = listener.accept();
      await new Promise((r) => setTimeout(r, 20));
      listener.close();
      assert.equal(await waiting, null);
      assert.equal(await listener.accept(), null);
      listener.close();
      assert.throws(() => SeqPacketConn.connect(libc, name), /ECONNREFUSED/);
      assert.throws(() => SeqPacketConn.connect(libc, uniqueName()), /ECONNREFUSED/);
      // The name is free again once its listener closed.
      SeqPacketListener.listen(libc, name).close();
      // Nobody accepting and the backlog full: connect answers EAGAIN instead of blocking the loop.
      const full = SeqPacketListener.listen(libc, name);
      const queued: SeqPacketConn[] = [];
      try {
        assert.throws(() => {
          for (let i = 0; i < 100; i++) {
            queued.push(SeqPacketConn.connect(libc, name));
            targets.push(fdTarget(queued[queued.length - 1].fd));
          }
        }, /EAGAIN/);
      } finally {
        for (const c of queued) c.close();
        full.close();
      }
    } finally {
      libc.close();
    }
    for (const t of targets) assert.equal(openTo(t), 0);
  },
});

Deno.test({
  name: "unix_fds: a second concurrent recv throws",
  ignore,
  fn: () =>
    withPair(async ({ a, b }) => {
      const first = b.recv();
      await assert.rejects(b.recv(), /already in flight/);
      assert.equal(a.send(text("one")), "sent");
      assert.equal(str((await first)!.bytes), "one");
    }),
});

Deno.test({
  name: "unix_fds: sendNow gives the exact count of a partial send as a number, and -1 when full",
  ignore,
  fn: () =>
    withTcp(async ({ client, fd }) => {
      const libc = openLibc();
      try {
        // Nobody reads yet: the socket takes part of 8 MB, then nothing.
        const big = new Uint8Array(8 * 1024 * 1024).map((_, i) => i % 251);
        const first = sendNow(libc, fd, big);
        assert.equal(typeof first, "number");
        assert.ok(first > 0 && first < big.length, `took ${first}`);
        let full = 0;
        for (let i = 0; i < 100 && full !== -1; i++) full = sendNow(libc, fd, big.subarray(first));
        assert.equal(full, -1);
        // What the peer reads is exactly the count sendNow gave, byte for byte.
        const got = new Uint8Array(first);
        let read = 0;
        while (read < first) {
          const n = await client.read(got.subarray(read));
          assert.ok(n !== null);
          read += n;
        }
        assert.deepEqual(got, big.subarray(0, first));
      } finally {
        libc.close();
      }
    }),
});
