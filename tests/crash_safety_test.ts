/**
 * Crash safety: several clients write through the real interfaces (REST PATCH of their own
 * object, notes POSTs, in-game @describe and channel talk) while the engine is killed with
 * SIGKILL. After a restart on the same database every write that was acknowledged (a 2xx, or
 * the in-game confirmation) must be there.
 */
import { assert, assertEquals } from "./assert.ts";
import { api, register, startServer, type TestServer } from "./harness.ts";
import { connectWs, type WsClient } from "./ws_client.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What one writer had confirmed, and what it had sent without an answer yet. */
interface Ledger {
  /** Highest sequence number acknowledged for the overwriting writes (PATCH, @describe). */
  lastAcked: number;
  /** Sequence number sent and not yet answered when the engine died (it may or may not land). */
  inFlight: number | null;
  /** Appending writes (notes, channel lines) that were acknowledged. */
  appended: string[];
}

function ledger(): Ledger {
  return { lastAcked: 0, inFlight: null, appended: [] };
}

/** PATCHes its own object's description and state, n = 1, 2, ... until the engine is gone. */
async function restPatcher(srv: TestServer, token: string, id: string, tag: string, l: Ledger) {
  for (let n = 1;; n++) {
    l.inFlight = n;
    try {
      const r = await api(srv.base, "PATCH", `/api/v1/dbobj/${id}`, {
        data: { description: `${tag}-${n}`, state: { n, tag } },
      }, token);
      if (r.status !== 200) {
        throw new Error(`PATCH answered ${r.status}: ${JSON.stringify(r.body)}`);
      }
    } catch (e) {
      if (e instanceof TypeError) return; // the engine is gone: n stays in flight
      throw e;
    }
    l.lastAcked = n;
    l.inFlight = null;
  }
}

/** POSTs notes until the engine is gone; each 201 is a note that must survive. */
async function notePoster(srv: TestServer, token: string, tag: string, l: Ledger) {
  for (let n = 1;; n++) {
    const text = `${tag} note ${n}`;
    try {
      const r = await api(srv.base, "POST", "/api/v1/notes", { text }, token);
      if (r.status !== 201) {
        throw new Error(`notes POST answered ${r.status}: ${JSON.stringify(r.body)}`);
      }
    } catch (e) {
      if (e instanceof TypeError) return;
      throw e;
    }
    l.appended.push(text);
  }
}

/**
 * In game: alternates `@describe me=...` (confirmed by "Set.") and `pub ...`
 * (confirmed when the speaker hears its own line on the channel), one at a time.
 */
async function player(ws: WsClient, tag: string, desc: Ledger, talk: Ledger) {
  for (let n = 1; ws.isOpen; n++) {
    try {
      desc.inFlight = n;
      ws.send(`@describe me=${tag}-${n}`);
      await ws.expect(/^Set\.$/, 20_000);
      desc.lastAcked = n;
      desc.inFlight = null;
      const line = `${tag} says ${n}`;
      ws.send(`pub ${line}`);
      await ws.expect((m) => m.data.type === "channel" && m.msg.includes(line), 20_000);
      talk.appended.push(line);
    } catch {
      return; // closed by the kill
    }
    await sleep(120); // stay under the 10 commands a second limit
  }
}

Deno.test("crash safety: every acknowledged write survives SIGKILL of the engine", async () => {
  const srv = await startServer();
  const dir = srv.dir;
  let again: TestServer | null = null;
  const sockets: WsClient[] = [];
  try {
    const writers = await Promise.all(["Ann", "Bea", "Cid"].map(async (name) => {
      const token = await register(srv.base, name);
      const me = (await api(srv.base, "GET", "/api/v1/me", undefined, token)).body;
      return { name, token, id: me.id as string, patch: ledger(), notes: ledger() };
    }));
    const gamers = await Promise.all(["Dee", "Eve"].map(async (name) => {
      const token = await register(srv.base, name);
      const me = (await api(srv.base, "GET", "/api/v1/me", undefined, token)).body;
      const ws = await connectWs(srv, { client: "web", token });
      sockets.push(ws);
      await ws.expect((m) => m.data.type === "room", 15_000);
      return { name, id: me.id as string, ws, desc: ledger(), talk: ledger() };
    }));

    const load = [
      ...writers.flatMap((w) => [
        restPatcher(srv, w.token, w.id, w.name, w.patch),
        notePoster(srv, w.token, w.name, w.notes),
      ]),
      ...gamers.map((g) => player(g.ws, g.name, g.desc, g.talk)),
    ];
    // Kill once every writer has had writes acknowledged, so the check has something to check.
    const end = Date.now() + 60_000;
    while (
      Date.now() < end &&
      !(writers.every((w) => w.patch.lastAcked >= 3 && w.notes.appended.length >= 3) &&
        gamers.every((g) => g.talk.appended.length >= 3))
    ) await sleep(50);
    // ...then at a moment the writers cannot predict.
    await sleep(Math.floor(Math.random() * 1000));
    srv.child.kill("SIGKILL");
    await srv.status;
    await Promise.all(load);
    for (const ws of sockets) await ws.close();

    again = await startServer({ dir, env: { JWT_SECRET: srv.env.JWT_SECRET } });
    const b = again.base;
    for (const w of writers) {
      assert(
        w.patch.lastAcked >= 3,
        `${w.name} had only ${w.patch.lastAcked} PATCHes acknowledged`,
      );
      const obj = (await api(b, "GET", `/api/v1/dbobj/${w.id}`, undefined, w.token)).body;
      const n = obj.data.state.n as number;
      assert(
        n === w.patch.lastAcked || n === w.patch.inFlight,
        `${w.name}: stored PATCH ${n}, last acknowledged ${w.patch.lastAcked} (in flight ${w.patch.inFlight})`,
      );
      assertEquals(obj.data.description, `${w.name}-${n}`);
      // The list pages (200 at most a page): read every page.
      const stored = new Set<string>();
      for (let offset = 0;; offset += 200) {
        const page = (await api(
          b,
          "GET",
          `/api/v1/notes?limit=200&offset=${offset}`,
          undefined,
          w.token,
        )).body as { text: string }[];
        for (const x of page) stored.add(x.text);
        if (page.length < 200) break;
      }
      const lost = w.notes.appended.filter((t) => !stored.has(t));
      assertEquals(lost, [], `${w.name}: acknowledged notes lost`);
    }
    const history = (await api(
      b,
      "GET",
      "/api/v1/channels/Public/history?limit=500",
      undefined,
      writers[0].token,
    ))
      .body as { text?: string; message?: string; msg?: string }[];
    const said = JSON.stringify(history);
    for (const g of gamers) {
      const obj = (await api(b, "GET", `/api/v1/dbobj/${g.id}`, undefined, writers[0].token)).body;
      const desc = obj.data.description as string;
      const n = Number(desc.slice(g.name.length + 1));
      assert(
        n === g.desc.lastAcked || n === g.desc.inFlight,
        `${g.name}: stored description ${desc}, last acknowledged ${g.desc.lastAcked}`,
      );
      const lost = g.talk.appended.filter((line) => !said.includes(line));
      assertEquals(lost, [], `${g.name}: acknowledged channel lines lost`);
    }
  } finally {
    for (const ws of sockets) await ws.close().catch(() => {});
    await srv.stop({ keepDir: true });
    if (again) await again.stop();
    else await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
