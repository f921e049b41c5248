/**
 * The WebSocket carrier over a real socket: a restart's close hands a `web` client the lines its
 * hub connection had read and not run, in an `unread` frame before the 1012 close; a `plain`
 * client gets nothing of the kind.
 */
import assert from "node:assert/strict";
import { WebSocketCarrier } from "./websocket.ts";
import { CloseCode, Connection, type ConnectionHooks } from "../connection.ts";
import type { Session, SessionHub, SessionOpening } from "../session.ts";

/** A carrier served on a free port, each session's hub end a real Connection that runs nothing. */
function served() {
  const conns: Connection[] = [];
  let release!: () => void;
  const stuck = new Promise<void>((r) => release = r);
  const hooks: ConnectionHooks = {
    // A typed line is queued as the hub queues it; the first never finishes (a slow command).
    frame: (c, data) => c.enqueue(String(data)),
    line: () => true,
    report: () => {},
    gmcp: () => {},
    run: () => stuck,
    closed: () => {},
  };
  const hub: SessionHub = {
    connect(session: Session, opening: SessionOpening) {
      const conn = new Connection(
        `c${conns.length + 1}`,
        opening.kind,
        opening.ip,
        session,
        hooks,
        0,
      );
      conn.playerId = "7";
      conns.push(conn);
      return conn;
    },
    stopping: false,
    onStop: () => () => {},
  };
  const carrier = new WebSocketCarrier(hub, null, () => {});
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => carrier.accept(req, "127.0.0.1"),
  );
  return {
    port: server.addr.port,
    conns,
    async stop() {
      release();
      await server.shutdown();
    },
  };
}

/** A client socket's frames until its close, and the close code. */
function client(port: number, kind: string) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/?client=${kind}`);
  const frames: string[] = [];
  ws.onmessage = (e) => frames.push(String(e.data));
  const closed = new Promise<number>((r) => ws.onclose = (e) => r(e.code));
  const opened = new Promise<void>((r) => ws.onopen = () => r());
  return { ws, frames, closed, opened };
}

/** Waits until `ok` holds (bounded). */
async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(ok(), "never happened");
}

Deno.test("websocket carrier: a restart hands a web client its lines read and not run, before the close", async () => {
  const s = served();
  try {
    const web = client(s.port, "web");
    await web.opened;
    for (const line of ["slow", "say one", "say two"]) web.ws.send(line);
    await until(() => s.conns[0]?.runningTyped === true);
    await new Promise((r) => setTimeout(r, 50));
    s.conns[0].close("The server is restarting.", CloseCode.restart);
    assert.equal(await web.closed, CloseCode.restart);
    const unread = web.frames.map((f) => JSON.parse(f)).filter((f) => f.data.type === "unread");
    assert.deepEqual(unread, [{
      msg: "",
      data: { type: "unread", lines: ["say one", "say two"] },
    }]);

    // A plain client cannot take them back: its close reason, never its lines.
    const plain = client(s.port, "plain");
    await plain.opened;
    for (const line of ["slow", "say lost"]) plain.ws.send(line);
    await until(() => s.conns[1]?.runningTyped === true);
    await new Promise((r) => setTimeout(r, 50));
    s.conns[1].close("The server is restarting.", CloseCode.restart);
    assert.equal(await plain.closed, CloseCode.restart);
    assert.deepEqual(plain.frames, ["The server is restarting.\r\n"]);
  } finally {
    await s.stop();
  }
});
