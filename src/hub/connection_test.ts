/** Tests of a hub connection: output through its session, the ordered queue, closing. */
import assert from "node:assert/strict";
import { FakeSession } from "./_test_session.ts";
import {
  CloseCode,
  Connection,
  type ConnectionHooks,
  MAX_BUFFERED_BYTES,
  MAX_PENDING,
  type Task,
} from "./connection.ts";

function setup(run?: (conn: Connection, task: Task) => Promise<void>) {
  const socket = new FakeSession("web");
  const closed: Connection[] = [];
  const frames: unknown[] = [];
  const lines: string[] = [];
  const hooks: ConnectionHooks = {
    frame: (_c, d) => void frames.push(d),
    line: (_c, text) => {
      lines.push(text);
      return text !== "dropped";
    },
    report: () => {},
    gmcp: () => {},
    run: run ?? (async () => {}),
    closed: (c) => void closed.push(c),
  };
  const conn = new Connection("c1", "web", "127.0.0.1", socket, hooks, 0);
  return { socket, conn, closed, frames, lines };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

Deno.test("connection sends through its session and hands the hub what its carrier got", () => {
  const { socket, conn, frames, lines } = setup();
  conn.send({ msg: "hi", data: { type: "say" } });
  assert.deepEqual(socket.sent, ['{"msg":"hi","data":{"type":"say"}}']);
  conn.received("look");
  assert.deepEqual(frames, ["look"]);
  // A typed line answers with its acknowledgement: read, or dropped.
  assert.equal(conn.line("think hi"), true);
  assert.equal(conn.line("dropped"), false);
  assert.deepEqual(lines, ["think hi", "dropped"]);
  conn.close();
  assert.equal(conn.line("after"), false, "a closed connection reads nothing");
  conn.received("after");
  assert.deepEqual(frames, ["look"]);
});

Deno.test("tasks run in order, one at a time", async () => {
  const log: string[] = [];
  let running = 0;
  const { conn } = setup(async (_c, task) => {
    running++;
    assert.equal(running, 1);
    await new Promise((r) => setTimeout(r, 2));
    log.push(String(task));
    running--;
  });
  conn.enqueue("a");
  conn.enqueue("b");
  conn.enqueueNext("first");
  for (let i = 0; i < 20 && log.length < 3; i++) await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(log, ["first", "a", "b"]);
  assert.equal(conn.pending, 0);
});

Deno.test("a failing task does not stop the queue", async () => {
  const log: string[] = [];
  const { conn } = setup((_c, task) => {
    if (task === "bad") return Promise.reject(new Error("boom"));
    log.push(String(task));
    return Promise.resolve();
  });
  const err = console.error;
  console.error = () => {};
  try {
    conn.enqueue("bad");
    conn.enqueue("good");
    for (let i = 0; i < 10 && !log.length; i++) await tick();
  } finally {
    console.error = err;
  }
  assert.deepEqual(log, ["good"]);
});

Deno.test("the queue is bounded", () => {
  const { conn } = setup(() => new Promise(() => {}));
  let accepted = 0;
  for (let i = 0; i < MAX_PENDING + 10; i++) if (conn.enqueue(`x${i}`)) accepted++;
  assert.equal(accepted, MAX_PENDING);
});

Deno.test("output a client has not taken past the bound is dropped; it is told when it catches up", () => {
  const { socket, conn, closed } = setup();
  socket.buffered = MAX_BUFFERED_BYTES + 1;
  conn.send({ msg: "more" });
  conn.send({ msg: "and more" });
  assert.deepEqual(socket.sent, [], "nothing more is buffered");
  assert.equal(conn.closed, false, "the client stays");
  assert.deepEqual(closed, []);
  socket.buffered = 0;
  conn.send({ msg: "after" });
  assert.equal(socket.sent.length, 2);
  assert.match(socket.sent[0], /2 lines of output were dropped/);
  assert.match(socket.sent[1], /after/);
  conn.send({ msg: "next" });
  assert.equal(socket.sent.length, 3, "told once");
});

Deno.test("close sends the reason, then closes once; the close event resolves waiters", async () => {
  const { socket, conn, closed } = setup();
  const done = conn.whenSocketClosed();
  conn.close("Goodbye!");
  conn.close("again");
  assert.equal(socket.sent.length, 1);
  assert.match(socket.sent[0], /Goodbye!.*"disconnect"/);
  assert.deepEqual(socket.closedWith, [CloseCode.normal, ""]);
  assert.equal(closed.length, 1);
  conn.ended();
  await done;
  assert.equal(closed.length, 1);
  await conn.whenSocketClosed();
});

Deno.test("a close from the client tells the hub once", () => {
  const { conn, closed } = setup();
  conn.ended();
  conn.ended();
  assert.deepEqual(closed, [conn]);
  assert.equal(conn.closed, true);
});

Deno.test("a session whose send throws drops its connection", () => {
  const { socket, conn, closed } = setup();
  socket.deliver = () => {
    throw new Error("broken pipe");
  };
  conn.send({ msg: "x" });
  assert.equal(conn.closed, true);
  assert.deepEqual(closed, [conn]);
  assert.equal(socket.closedWith?.[0], CloseCode.goingAway);
});

Deno.test("whenIdle waits for the running task and those queued behind it, or the close", async () => {
  const done: string[] = [];
  const { conn } = setup(async (_c, task) => {
    await new Promise((r) => setTimeout(r, 5));
    done.push(String(task));
  });
  await conn.whenIdle();
  conn.enqueue("slow login");
  conn.enqueue("say behind it");
  await tick();
  assert.equal(conn.runningTyped, true);
  await conn.whenIdle();
  assert.deepEqual(done, ["slow login", "say behind it"]);
  assert.equal(conn.runningTyped, false);
  conn.enqueue("cut short");
  const waiting = conn.whenIdle();
  conn.close();
  await waiting;
  assert.equal(conn.runningTyped, false, "a closed connection runs nothing");
});

Deno.test("a restart's close hands the typed lines not yet run back to the carrier, not the hub's own", async () => {
  let release!: () => void;
  const { conn, socket } = setup((_c, task) =>
    task === "slow" ? new Promise<void>((r) => release = r) : Promise.resolve()
  );
  conn.playerId = "7";
  conn.enqueue("slow");
  await tick();
  conn.enqueue("say one");
  conn.enqueue("say two");
  conn.enqueueNext("look");
  assert.equal(conn.runningTyped, true, "the typed 'slow' is under way");
  conn.close(undefined, CloseCode.restart);
  assert.equal(conn.runningTyped, false);
  assert.deepEqual(socket.unreadLines, ["say one", "say two"]);
  release();
  // A close for good, or before login, hands nothing back.
  const other = setup(() => new Promise<void>(() => {}));
  other.conn.enqueue("busy");
  other.conn.enqueue("say lost");
  other.conn.close(undefined, CloseCode.restart);
  assert.equal(other.socket.unreadLines, null, "not logged in");
});
