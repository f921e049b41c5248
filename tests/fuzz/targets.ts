/**
 * The workers: each sends cases of one kind to the running server until the time is up and
 * reports what the oracle calls a failure (5xx, "Something went wrong", no answer in time).
 * A command's answer is known by a marker: commands run in order per connection, so when
 * `think <marker>` typed after a case comes back, the case has finished.
 */
import net from "node:net";
import type { Rng } from "./rng.ts";
import { type Account, account, authHeader, type FuzzContext } from "./context.ts";
import { type HttpCase, httpCase, httpRepro } from "./http_gen.ts";
import { commandLine, preLoginCase, type WsCase, wsCase } from "./ws_gen.ts";
import { hexPreview, type TelnetCase, telnetCase } from "./telnet_gen.ts";
import { type RawCase, rawCase } from "./raw_gen.ts";
import { connectWs, type WsClient, type WsMessage } from "../ws_client.ts";
import { TelnetClient } from "../telnet_client.ts";

/** The in-game answer to a command that threw: the command loop's 500. */
const FAILED = /Something went wrong/;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function preview(s: string | Uint8Array, max = 300): string {
  const text = typeof s === "string" ? s : `<binary ${s.length} bytes: ${hexPreview(s, 32)}>`;
  return text.length > max
    ? `${JSON.stringify(text.slice(0, max))}... (${text.length} chars)`
    : JSON.stringify(text);
}

// ---- REST -----------------------------------------------------------------------------------

function harvest(ctx: FuzzContext, path: string, text: string): void {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return;
  }
  const add = (list: string[], x: unknown) => {
    if (typeof x === "string" && x.length < 100 && !list.includes(x) && list.length < 300) {
      list.push(x);
    }
  };
  for (const item of Array.isArray(v) ? v : [v]) {
    if (!item || typeof item !== "object") continue;
    const o = item as Record<string, unknown>;
    if (path.includes("/notes")) add(ctx.pool.noteIds, o.id);
    else if (path.includes("/channels")) add(ctx.pool.channels, o.name);
    else if (path.includes("/help")) add(ctx.pool.topics, o.topic);
    else add(ctx.pool.ids, o.id);
  }
}

/**
 * After an acknowledged write, reads the same path back as staff: a write that stores what
 * cannot be read again shows here, with the write as its reproduction.
 */
async function readBack(ctx: FuzzContext, c: HttpCase, repro: string): Promise<void> {
  if (["GET", "HEAD", "OPTIONS"].includes(c.method) || c.path.includes("/auth/")) return;
  const path = c.path.split(/[?#]/)[0];
  try {
    const res = await fetch(ctx.srv.base + path, {
      headers: { authorization: `Bearer ${account(ctx, "staff").token}` },
      signal: AbortSignal.timeout(ctx.hangMs),
    });
    const text = await res.text();
    if (res.status < 500) return;
    ctx.log.add(`broke-read ${c.route}`, {
      kind: "server-error",
      target: "rest",
      summary: `${c.method} ${
        c.path.slice(0, 120)
      } was acknowledged, then GET ${path} answers ${res.status} ${
        text.slice(0, 120)
      }: the write stored something that cannot be read back (${c.label})`,
      repro,
      attachment: c.body && c.body.length > 2000 ? c.body : undefined,
    });
  } catch { /* a hang here shows in the health checks */ }
}

/** Sends random REST cases until stopped (at most one every `gapMs`, to keep CPU use sane). */
export async function restWorker(ctx: FuzzContext, rng: Rng, gapMs = 8): Promise<void> {
  const { srv, log } = ctx;
  while (!ctx.stopped()) {
    await sleep(gapMs);
    const c = httpCase(rng, ctx.catalog.routes, ctx.pool, ctx.budget);
    const headers = new Headers();
    try {
      for (const [k, v] of Object.entries(c.headers)) headers.set(k, v);
      const auth = await authHeader(ctx, c.auth);
      if (auth) headers.set("authorization", auth);
    } catch {
      continue; // a header value fetch refuses to send
    }
    ctx.counts.rest++;
    const repro = httpRepro(c, srv.base);
    try {
      const res = await fetch(srv.base + c.path, {
        method: c.method,
        headers,
        body: c.body as BodyInit | undefined,
        signal: AbortSignal.timeout(ctx.hangMs),
      });
      const text = await res.text();
      if (res.status >= 500) {
        log.add(`5xx ${c.route} ${res.status} ${text.slice(0, 60)}`, {
          kind: "server-error",
          target: "rest",
          summary: `${c.method} ${c.path.slice(0, 120)} answered ${res.status} ${
            text.slice(0, 200)
          } (${c.label}; route ${c.route})`,
          repro,
          attachment: c.body && c.body.length > 2000 ? c.body : undefined,
        });
      } else if (res.ok) {
        harvest(ctx, c.path, text);
        await readBack(ctx, c, repro);
      }
    } catch (e) {
      const err = e as Error;
      if (err.name === "TimeoutError" || err.name === "AbortError") {
        log.add(`hang ${c.route}`, {
          kind: "hang",
          target: "rest",
          summary: `${c.method} ${
            c.path.slice(0, 120)
          }: no answer within ${ctx.hangMs} ms (${c.label})`,
          repro,
          attachment: c.body && c.body.length > 2000 ? c.body : undefined,
        });
      } else if (!ctx.stopped()) {
        log.note(`rest: ${c.method} ${c.route}: ${err.message.slice(0, 120)}`);
      }
    }
  }
}

// ---- WebSocket ------------------------------------------------------------------------------

/** Keeps a connection under the hub's 10 lines a second: at most one line every `gapMs`. */
function pacer(gapMs: number) {
  let next = 0;
  return async (lines: number) => {
    const wait = next - Date.now();
    if (wait > 0) await sleep(wait);
    next = Math.max(next, Date.now()) + gapMs * Math.max(lines, 1);
  };
}

interface Session {
  ws: WsClient;
  marker: number;
}

async function openSession(ctx: FuzzContext, acc: Account): Promise<Session> {
  const ws = await connectWs(ctx.srv, { client: "web", token: acc.token, openTimeout: ctx.hangMs });
  const m = await ws.expect((x) => x.data.type === "session", ctx.hangMs);
  if (typeof m.data.token === "string") acc.token = m.data.token;
  return { ws, marker: 0 };
}

/**
 * Types `think <marker>` and waits for it (or for the command loop's error, which is an answer
 * too); a second marker covers a line the rate limit may have dropped. Returns false when
 * neither came back (the connection is stuck).
 */
async function roundTrip(
  ctx: FuzzContext,
  s: Session,
  tag: string,
  pace: (n: number) => Promise<void>,
): Promise<boolean> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const mark = `FZ${tag}x${++s.marker}`;
    await pace(1);
    if (!s.ws.isOpen) return true;
    const from = s.ws.all.length;
    s.ws.send(`think ${mark}`);
    const answered = (m: WsMessage) =>
      m.msg.includes(mark) || (FAILED.test(m.msg) && s.ws.all.indexOf(m) >= from);
    try {
      await s.ws.expect(answered, ctx.hangMs);
      return true;
    } catch {
      if (!s.ws.isOpen) return true;
    }
  }
  return false;
}

function wsRepro(who: string, recent: WsCase[]): string {
  return `ws://HOST:WS/?client=web&token=<${who} token>, then frames in order:\n` +
    recent.map((c) => `  ${c.kind} ${preview(c.data)}`).join("\n");
}

/** A logged-in WebSocket player (`role` names the account) sending commands and frames. */
export async function wsWorker(ctx: FuzzContext, rng: Rng, role: string): Promise<void> {
  const acc = account(ctx, role);
  const pace = pacer(150);
  let s: Session | null = null;
  const recent: WsCase[] = [];
  while (!ctx.stopped()) {
    try {
      if (!s || !s.ws.isOpen) {
        await s?.ws.close();
        s = await openSession(ctx, acc);
      }
    } catch (e) {
      if (ctx.stopped()) break;
      ctx.log.add(`ws login ${role}`, {
        kind: "login",
        target: "ws",
        summary: `${role} could not log in again with its token during the run: ${
          (e as Error).message.slice(0, 200)
        }`,
        repro: wsRepro(role, recent.slice(-5)),
      });
      await sleep(2000);
      continue;
    }
    const c = wsCase(rng, ctx.catalog.commands, ctx.targets, ctx.budget, () => [acc.token]);
    recent.push(c);
    if (recent.length > 5) recent.shift();
    await pace(c.lines);
    ctx.counts.ws++;
    const from = s.ws.all.length;
    try {
      if (c.kind === "binary") s.ws.sendRaw(c.data as Uint8Array);
      else s.ws.send(c.data as string);
    } catch {
      continue;
    }
    const ok = await roundTrip(ctx, s, role, pace);
    const failed = s.ws.all.slice(from).find((m) => FAILED.test(m.msg));
    if (failed) {
      ctx.log.add(`cmd-error ${c.label} ${firstWord(c.data)}`, {
        kind: "command-error",
        target: "ws",
        summary: `as ${role}: ${preview(c.data, 160)} answered "${failed.msg.slice(0, 100)}"`,
        repro: wsRepro(role, [c]),
      });
    }
    if (!ok) {
      ctx.log.add(`hang ws ${role}`, {
        kind: "hang",
        target: "ws",
        summary: `as ${role}: no answer within ${2 * ctx.hangMs} ms after ${preview(c.data, 160)}`,
        repro: wsRepro(role, recent),
      });
      await s.ws.close().catch(() => {});
      s = null;
    }
    // Keep the buffers small over a long run.
    s?.ws.clear();
    if (s && s.ws.all.length > 500) s.ws.all.splice(0, s.ws.all.length - 100);
  }
  await s?.ws.close().catch(() => {});
}

function firstWord(d: string | Uint8Array): string {
  return typeof d === "string" ? d.split(/[\s/=]/)[0].slice(0, 24) : "binary";
}

/** Connections that never log in: pre-login lines and frames; a ping must keep getting its pong. */
export async function anonWorker(ctx: FuzzContext, rng: Rng): Promise<void> {
  const pace = pacer(150);
  let ws: WsClient | null = null;
  let pings = 0;
  const recent: WsCase[] = [];
  while (!ctx.stopped()) {
    try {
      if (!ws || !ws.isOpen || rng.chance(0.05)) {
        await ws?.close();
        ws = await connectWs(ctx.srv, { client: "web", openTimeout: ctx.hangMs });
      }
    } catch (e) {
      if (!ctx.stopped()) ctx.log.note(`anon ws: ${(e as Error).message}`);
      await sleep(1000);
      continue;
    }
    const c = preLoginCase(rng, ctx.budget);
    recent.push(c);
    if (recent.length > 5) recent.shift();
    await pace(c.lines);
    ctx.counts.ws++;
    try {
      if (c.kind === "binary") ws.sendRaw(c.data as Uint8Array);
      else ws.send(c.data as string);
    } catch {
      continue;
    }
    // A create may have logged this connection in: go on as that player would (think answers).
    const id = ++pings;
    await pace(1);
    if (!ws.isOpen) continue;
    ws.sendJson({ type: "ping", id });
    try {
      await ws.expect((m) => m.data.type === "pong" && m.data.id === id, ctx.hangMs);
    } catch {
      if (!ws.isOpen) continue;
      ctx.log.add("hang ws anon", {
        kind: "hang",
        target: "ws",
        summary: `before login: no pong within ${ctx.hangMs} ms after ${preview(c.data, 160)}`,
        repro: `ws://HOST:WS/?client=web, then frames in order:\n` +
          recent.map((x) => `  ${x.kind} ${preview(x.data)}`).join("\n"),
      });
      await ws.close().catch(() => {});
      ws = null;
    }
    ws?.clear();
  }
  await ws?.close().catch(() => {});
}

// ---- telnet ---------------------------------------------------------------------------------

const IAC = 255, SE = 240;
/** Ends a subnegotiation or line a case may have left open, so the marker is read as a line. */
const RESYNC = Uint8Array.of(IAC, SE, IAC, SE, 13, 10);

async function telnetSession(ctx: FuzzContext, acc: Account): Promise<TelnetClient> {
  const t = await TelnetClient.connect(ctx.srv.telnet, {
    naws: { width: 100, height: 40 },
    ttype: "xterm-256color",
    gmcp: true,
    mccp: true,
    mssp: true,
  });
  try {
    await t.waitFor(/connect <name>/i, ctx.hangMs);
    await t.send(`connect ${acc.name} ${acc.password}`);
    const mark = `FZlogin${Date.now()}`;
    await t.send(`think ${mark}`);
    await t.waitFor(new RegExp(mark), ctx.hangMs);
  } catch (e) {
    await t.close();
    throw e;
  }
  return t;
}

/** A logged-in telnet player sending byte streams: negotiation, subnegotiations, partial lines. */
export async function telnetWorker(ctx: FuzzContext, rng: Rng): Promise<void> {
  const acc = account(ctx, "telnet");
  let t: TelnetClient | null = null;
  let marker = 0;
  const recent: TelnetCase[] = [];
  const line = () =>
    commandLine(rng, ctx.catalog.commands, ctx.targets, ctx.budget).replace(/[\r\n]/g, " ");
  const repro = () =>
    `telnet 127.0.0.1 TELNET, log in as ${acc.role} (connect <name> <password>), then bytes in order:\n` +
    recent.map((c) => `  [${c.label}] ${hexPreview(c.bytes)}`).join("\n");
  while (!ctx.stopped()) {
    try {
      if (!t || t.closed) {
        await t?.close();
        t = await telnetSession(ctx, acc);
      }
    } catch (e) {
      if (ctx.stopped()) break;
      ctx.log.add("telnet login", {
        kind: "login",
        target: "telnet",
        summary: `the telnet player could not log in during the run: ${
          (e as Error).message.slice(0, 300)
        }`,
        repro: repro(),
      });
      t = null;
      await sleep(3000);
      continue;
    }
    const c = telnetCase(rng, line);
    recent.push(c);
    if (recent.length > 5) recent.shift();
    ctx.counts.telnet++;
    const from = t.mark();
    try {
      await t.write(c.bytes);
      await sleep(rng.int(0, 150));
      await t.write(RESYNC);
      const mark = `FZT${++marker}x`;
      await sleep(300);
      await t.send(`think ${mark}`);
      await t.waitFor(new RegExp(mark), 2 * ctx.hangMs, from);
    } catch (e) {
      if (t.closed || ctx.stopped()) continue;
      ctx.log.add(`hang telnet ${c.label}`, {
        kind: "hang",
        target: "telnet",
        summary: `no answer within ${2 * ctx.hangMs} ms after [${c.label}] ${
          hexPreview(c.bytes, 48)
        }: ${(e as Error).message.split("\n")[0]}`,
        repro: repro(),
      });
      await t.close();
      t = null;
      continue;
    }
    const got = t.plain.slice(from);
    if (FAILED.test(got)) {
      ctx.log.add(`cmd-error telnet ${c.label}`, {
        kind: "command-error",
        target: "telnet",
        summary: `[${c.label}] ${hexPreview(c.bytes, 48)} answered "Something went wrong"`,
        repro: repro(),
      });
    }
    if (t.text.length > 200_000) t.text = t.text.slice(-10_000);
  }
  await t?.close();
}

// ---- raw connections ------------------------------------------------------------------------

/** Connects and resets at once (node:net can set SO_LINGER 0; Deno.connect cannot). */
function resetAtOnce(port: number): Promise<void> {
  return new Promise((resolve) => {
    const s = net.connect({ host: "127.0.0.1", port }, () => s.resetAndDestroy());
    s.on("error", () => resolve());
    s.on("close", () => resolve());
  });
}

async function runRaw(ctx: FuzzContext, c: RawCase): Promise<void> {
  const port = c.port === "ws" ? ctx.srv.ws : c.port === "http" ? ctx.srv.http : ctx.srv.telnet;
  if (c.immediate) return await resetAtOnce(port);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const buf = new Uint8Array(65536);
  let reading: Promise<void> | null = null;
  try {
    if (c.reset) await sleep(50); // let the server's greeting arrive unread: the close becomes a reset
    else {
      reading = (async () => {
        try {
          while ((await conn.read(buf)) !== null) { /* drain */ }
        } catch { /* closed */ }
      })();
    }
    for (const step of c.steps) {
      let at = 0;
      while (at < step.length) at += await conn.write(step.subarray(at));
      await sleep(30);
    }
    await sleep(c.reset ? 100 : 300);
  } catch { /* the server may close first */ }
  try {
    conn.close();
  } catch { /* closed */ }
  await reading;
}

/** Malformed frames, requests and resets on fresh connections, a few a second. */
export async function rawWorker(ctx: FuzzContext, rng: Rng): Promise<void> {
  while (!ctx.stopped()) {
    const c = rawCase(rng, ctx.srv.ws);
    ctx.counts.raw++;
    try {
      await runRaw(ctx, c);
    } catch (e) {
      if (!ctx.stopped()) ctx.log.note(`raw ${c.label}: ${(e as Error).message.slice(0, 100)}`);
    }
    ctx.recentRaw.push(c);
    if (ctx.recentRaw.length > 10) ctx.recentRaw.shift();
    await sleep(100);
  }
}

/** Describes recent raw cases (for failures that show up later, like a dead listener). */
export function rawRepro(recent: RawCase[]): string {
  return "recent raw connections (oldest first):\n" +
    recent.map((c) =>
      `  ${c.port} [${c.label}]${c.reset ? " closed with a reset" : ""}: ${
        c.steps.map((s) => hexPreview(s, 40)).join(" | ")
      }`
    ).join("\n");
}
