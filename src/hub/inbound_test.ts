/**
 * Lines the engine's own telnet players hand the hub in memory (`TypedLine`): the same limits as
 * a socket's frames, and the ack that paces them given only for a line the hub kept.
 */
import assert from "node:assert/strict";
import { Connection, type FrameSink } from "./connection.ts";
import { Inbound, isQuit } from "./inbound.ts";
import { type EncodedFrame, MAX_FRAME_BYTES, TypedLine } from "./protocol.ts";
import { MAX_LINE } from "../commands/limits.ts";
import type { Services } from "../services.ts";
import type { IpCounter } from "./limits.ts";
import type { Sessions } from "./sessions.ts";

/** A logged-in connection on an in-memory socket, and what reached it. */
function setup(opts: { acks?: boolean } = {}) {
  const got = { frames: [] as EncodedFrame[], acks: [] as number[], closed: [] as number[] };
  const socket: FrameSink & Record<string, unknown> = {
    readyState: 1,
    bufferedAmount: 0,
    addEventListener() {},
    close(code: number) {
      got.closed.push(code);
    },
    deliverFrame(frame: EncodedFrame) {
      got.frames.push(frame);
    },
  };
  if (opts.acks !== false) {
    socket.acknowledge = (id: number) => {
      got.acks.push(id);
      return true;
    };
  }
  const lines: string[] = [];
  const services = {
    config: { value: { server: { maxConnectionsPerIp: 0 } } },
    securityLog: { write() {} },
  } as unknown as Services;
  const inbound = new Inbound(services, {} as IpCounter, {} as Sessions, () => Promise.resolve());
  const conn = new Connection("c1", "telnet", "127.0.0.1", socket as unknown as WebSocket, {
    opened() {},
    frame: (c, data) => inbound.frame(c, data),
    run: (_c, task) => {
      if (typeof task === "string") lines.push(task);
      return Promise.resolve();
    },
    closed() {},
  }, Date.now());
  conn.playerId = "7";
  const msgs = () => got.frames.map((f) => f.out.msg);
  return { inbound, conn, got, lines, msgs };
}

Deno.test("typed lines: queued and acked at once, without an ack frame", async () => {
  const { inbound, conn, got, lines, msgs } = setup();
  inbound.frame(conn, new TypedLine("think hi", 1));
  inbound.frame(conn, new TypedLine("look", null));
  assert.deepEqual(got.acks, [1], "answered as the line is read, before it runs");
  await new Promise((r) => setTimeout(r, 0));
  assert.deepEqual(lines, ["think hi", "look"]);
  assert.deepEqual(msgs(), []);
});

Deno.test("typed lines: an ack goes as a frame where the socket takes none in memory", () => {
  const { inbound, conn, got } = setup({ acks: false });
  inbound.frame(conn, new TypedLine("think hi", 3));
  assert.deepEqual(got.frames.map((f) => f.out.data), [{ type: "ack", id: 3 }]);
  conn.acknowledge("s-1");
  assert.deepEqual(got.frames.map((f) => f.out.data)[1], { type: "ack", id: "s-1" });
});

Deno.test("typed lines: over the rate limit a line is dropped and not acked", () => {
  const { inbound, conn, got } = setup();
  for (let i = 1; i <= 12; i++) inbound.frame(conn, new TypedLine(`think ${i}`, i));
  assert.deepEqual(got.acks, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

Deno.test("typed lines: a line over the length limit is refused with a message, and acked", () => {
  const { inbound, conn, got, msgs } = setup();
  inbound.frame(conn, new TypedLine("say " + "x".repeat(MAX_LINE), 4));
  assert.deepEqual(got.acks, [4]);
  assert.match(msgs()[0], /too long/);
});

Deno.test("typed lines: one over the frame size closes the connection, as a frame would", () => {
  const { inbound, conn, got, lines } = setup();
  inbound.frame(conn, new TypedLine("x".repeat(MAX_FRAME_BYTES + 1), 5));
  assert.deepEqual(got.closed, [1009]);
  assert.deepEqual(got.acks, []);
  inbound.frame(conn, new TypedLine("look", 6));
  assert.deepEqual(got.acks, [], "nothing more once closed");
  assert.deepEqual(lines, []);
});

Deno.test("quit is any case with spaces around it, and nothing else", () => {
  for (const q of ["quit", "QUIT", " Quit\t", "qUiT  "]) assert.equal(isQuit(q), true, q);
  for (const q of ["quit!", "quitter", "q uit", "", "QUİT"]) assert.equal(isQuit(q), false, q);
});
