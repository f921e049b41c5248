/**
 * Connection-level cases over raw TCP, below what the WebSocket API and fetch can send:
 * malformed WebSocket frames (invalid UTF-8 text, unmasked, reserved opcodes and bits,
 * broken fragmentation, oversized control frames, lying lengths, bad close frames), odd
 * upgrade requests, malformed HTTP (bad chunk sizes, bodies cut short, huge headers) and
 * telnet connections closed with a reset.
 */
import type { Rng } from "./rng.ts";
import { fuzzString, INVALID_UTF8 } from "./values.ts";
import { telnetCase } from "./telnet_gen.ts";

/** Which port a raw case goes to. */
export type RawPort = "ws" | "http" | "telnet";

/** One raw connection: what to send, in steps, and whether to close with unread data (a reset). */
export interface RawCase {
  port: RawPort;
  /** Written one after another with a short pause between. */
  steps: Uint8Array[];
  /** Close without reading what the server sent (the kernel answers with a TCP reset). */
  reset: boolean;
  /** Reset the connection as soon as it is made (SO_LINGER 0), before the server reads. */
  immediate?: boolean;
  label: string;
}

const enc = new TextEncoder();

/** A client WebSocket frame; `mask` false sends it unmasked (a protocol error). */
export function wsFrame(
  opcode: number,
  payload: Uint8Array,
  o: { fin?: boolean; rsv?: number; mask?: boolean; lieLength?: number } = {},
): Uint8Array {
  const fin = o.fin ?? true;
  const mask = o.mask ?? true;
  const len = o.lieLength ?? payload.length;
  const head: number[] = [(fin ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | (opcode & 0x0f)];
  const m = mask ? 0x80 : 0;
  if (len < 126) head.push(m | len);
  else if (len < 65536) head.push(m | 126, len >> 8, len & 255);
  else {
    head.push(m | 127);
    const big = BigInt(len);
    for (let i = 7; i >= 0; i--) head.push(Number((big >> BigInt(i * 8)) & 255n));
  }
  const key = mask ? crypto.getRandomValues(new Uint8Array(4)) : new Uint8Array(0);
  const body = payload.map((b, i) => (mask ? b ^ key[i % 4] : b));
  return Uint8Array.from([...head, ...key, ...body]);
}

/** The upgrade request of a WebSocket handshake. */
export function upgrade(port: number, path = "/?client=web", extra = ""): Uint8Array {
  const key = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  return enc.encode(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
      `Connection: Upgrade\r\nSec-WebSocket-Key: ${key}\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`,
  );
}

function badFrames(rng: Rng): { frames: Uint8Array[]; label: string } {
  const bad = () => Uint8Array.from([...enc.encode("say "), ...rng.pick(INVALID_UTF8)]);
  return rng.weighted<{ frames: Uint8Array[]; label: string }>([
    [3, () => ({ frames: [wsFrame(1, bad())], label: "text frame with invalid UTF-8" })],
    [
      1,
      () => ({
        frames: [wsFrame(1, enc.encode("look"), { mask: false })],
        label: "unmasked frame",
      }),
    ],
    [
      1,
      () => ({
        frames: [wsFrame(rng.pick([3, 4, 5, 6, 7, 11, 12, 15]), rng.bytes(4))],
        label: "reserved opcode",
      }),
    ],
    [
      1,
      () => ({
        frames: [wsFrame(1, enc.encode("look"), { rsv: rng.int(1, 7) })],
        label: "reserved bits",
      }),
    ],
    [1, () => ({
      frames: [wsFrame(1, enc.encode("lo"), { fin: false }), wsFrame(0, enc.encode("ok"))],
      label: "fragmented text",
    })],
    [1, () => ({
      frames: [
        wsFrame(1, Uint8Array.of(0x73, 0xc3), { fin: false }),
        wsFrame(0, Uint8Array.of(0x28)),
      ],
      label: "UTF-8 sequence broken across fragments",
    })],
    [1, () => ({ frames: [wsFrame(0, enc.encode("look"))], label: "continuation without start" })],
    [1, () => ({
      frames: [
        wsFrame(1, enc.encode("lo"), { fin: false }),
        wsFrame(9, enc.encode("p")),
        wsFrame(1, enc.encode("x")),
      ],
      label: "new message inside a fragmented one",
    })],
    [1, () => ({ frames: [wsFrame(9, rng.bytes(200))], label: "control frame over 125 bytes" })],
    [
      1,
      () => ({
        frames: [wsFrame(9, rng.bytes(4), { fin: false })],
        label: "fragmented control frame",
      }),
    ],
    [1, () => ({ frames: [wsFrame(8, Uint8Array.of(3))], label: "close with 1-byte payload" })],
    [1, () => ({
      frames: [wsFrame(8, Uint8Array.from([0x03, 0xe8, ...rng.pick(INVALID_UTF8)]))],
      label: "close with invalid UTF-8 reason",
    })],
    [1, () => ({ frames: [wsFrame(8, Uint8Array.of(0, 5))], label: "close with invalid code" })],
    [1, () => ({
      frames: [wsFrame(1, enc.encode("look"), { lieLength: rng.pick([1000, 70_000, 2 ** 40]) })],
      label: "length larger than the data",
    })],
    [
      1,
      () => ({
        frames: [Uint8Array.of(0x81, 0xff, 0x80, 0, 0, 0, 0, 0, 0, 1)],
        label: "64-bit length with top bit",
      }),
    ],
    [1, () => ({ frames: [wsFrame(2, rng.bytes(66_000))], label: "binary frame over 64 KiB" })],
    [1, () => ({ frames: [rng.bytes(rng.int(1, 64))], label: "random bytes after upgrade" })],
  ]);
}

/** One raw case; `ports` gives the WebSocket port for the Host header. */
export function rawCase(rng: Rng, wsPort: number): RawCase {
  return rng.weighted<RawCase>([
    [6, () => {
      const f = badFrames(rng);
      const path = rng.pick([
        "/?client=web",
        "/",
        "/?client=plain",
        "/?client=telnet",
        "/?token=x&resume=1",
      ]);
      return {
        port: "ws",
        steps: [upgrade(wsPort, path), ...f.frames],
        reset: rng.chance(0.3),
        label: `ws: ${f.label}`,
      };
    }],
    [1, () => ({
      port: "ws",
      steps: [
        upgrade(
          wsPort,
          "/",
          rng.pick([
            "Sec-WebSocket-Version: 8\r\n",
            "Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=0\r\n",
            "X: " + "a".repeat(20_000) + "\r\n",
          ]),
        ),
      ],
      reset: rng.chance(0.5),
      label: "ws: odd upgrade",
    })],
    [2, () => ({
      port: "http",
      steps: [
        enc.encode(
          "POST /api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
            "Transfer-Encoding: chunked\r\n\r\n" +
            rng.pick(["zz\r\n{}\r\n0\r\n\r\n", '5\r\n{"a"\r\n', "fffffffffffff\r\n"]),
        ),
      ],
      reset: true,
      label: "http: bad chunked body",
    })],
    [2, () => ({
      port: "http",
      steps: [
        enc.encode(
          'PATCH /api/v1/dbobj/1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"data":',
        ),
      ],
      reset: true,
      label: "http: body cut short, client gone",
    })],
    [1, () => ({
      port: "http",
      steps: [enc.encode(rng.pick([
        "GET / HTTP/1.1\r\nHost: x\r\nX: " + "a".repeat(70_000) + "\r\n\r\n",
        "GARBAGE\r\n\r\n",
        "GET /health HTTP/9.9\r\n\r\n",
        "GET /%ff%fe HTTP/1.1\r\nHost: x\r\n\r\n",
        "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03",
      ]))],
      reset: rng.chance(0.5),
      label: "http: malformed request",
    })],
    [2, () => {
      const port = rng.pick<RawPort>(["telnet", "telnet", "ws", "http"]);
      return {
        port,
        steps: [],
        reset: true,
        immediate: true,
        label: `${port}: reset right after connect`,
      };
    }],
    [3, () => ({
      port: "telnet",
      steps: Array.from(
        { length: rng.int(1, 6) },
        () => telnetCase(rng, () => fuzzString(rng).replace(/[\r\n]/g, ""), true).bytes,
      ),
      reset: rng.chance(0.3),
      label: "telnet: a stream of negotiation, subnegotiation and lines",
    })],
    [2, () => ({
      port: "telnet",
      steps: [rng.bytes(rng.int(0, 32))],
      reset: true,
      label: "telnet: connection closed with a reset",
    })],
  ]);
}
