/**
 * The flood worker: one player sends REST writes that reach others (scene poses, board posts,
 * mail, jobs, job comments, RSVPs) and notes, 8 requests in flight (up to 800 a second: the
 * probe that found issue 31 sent a few hundred), while
 * another player times typed `think` round trips over WebSocket. It fails on any 5xx, on a
 * request or round trip without an answer within the bound, on more writes accepted than the
 * REST write budget allows (`game.restWritesPerMinute`), and on a quota that lets more through
 * than its limit (notes, open jobs, posts per board per day). The other player's round trips and
 * the tallies go into the report's notes.
 */
import type { Rng } from "./rng.ts";
import { account, type FuzzContext } from "./context.ts";
import { connectWs } from "../ws_client.ts";

/** Requests in flight at once. */
const IN_FLIGHT = 8;
/** Pause of each lane between its requests, so the flood leaves the other workers CPU. */
const LANE_PAUSE_MS = 10;
/** Pause between the other player's round trips. */
const PACE_MS = 250;

/** The limits of the fuzz stack's configuration (tests/fuzz/run.ts `FLOOD_CONFIG`). */
export const FLOOD_LIMITS = {
  restWritesPerMinute: 30,
  maxNotes: 40,
  maxOpenJobs: 20,
  postsPerDay: 25,
};

/** The configuration the fuzz stack starts with, so the flood meets every limit in seconds. */
export const FLOOD_CONFIG = {
  game: {
    restWritesPerMinute: FLOOD_LIMITS.restWritesPerMinute,
    // The WebSocket and telnet workers log in again after every fuzzed line that closes their
    // connection (QUIT, a bad frame): the logins limit has its own test (hub_storm_test.ts).
    loginsPerMinute: 0,
  },
  plugins: {
    notes: { maxNotes: FLOOD_LIMITS.maxNotes },
    jobs: { maxOpenJobs: FLOOD_LIMITS.maxOpenJobs },
    boards: { postsPerDay: FLOOD_LIMITS.postsPerDay },
  },
};

type Kind = "pose" | "post" | "mail" | "job" | "comment" | "rsvp" | "note";

/** Floods REST writes as the `flood` account while the `watch` account's round trips are timed. */
export async function floodWorker(ctx: FuzzContext, rng: Rng): Promise<void> {
  const flood = account(ctx, "flood"), staff = account(ctx, "staff"), watch = account(ctx, "watch");
  const base = ctx.srv.base;
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(ctx.hangMs),
    });
    // deno-lint-ignore no-explicit-any
    return { status: res.status, body: await res.json().catch(() => null) as any };
  };
  // What the flood writes to: a board, an event, a scene and a job of its own.
  const board = await call("POST", "/api/v1/boards", staff.token, { name: "Flood Board" });
  const event = await call("POST", "/api/v1/events", staff.token, {
    title: "Flood Night",
    startTime: Date.now() + 86_400_000,
  });
  const scene = await call("POST", "/api/v1/scenes", flood.token, {
    name: "Flooded",
    location: "#1",
  });
  const job = await call("POST", "/api/v1/jobs", flood.token, { title: "First", description: "d" });
  const made = [board, event, scene, job].map((r) => r.status);
  if (made.some((s) => s >= 300)) {
    ctx.log.note(`flood: setup answered ${made.join(", ")}; the flood skips what is missing`);
  }
  const writes: Record<Kind, () => [string, string, unknown]> = {
    pose: () => ["POST", `/api/v1/scenes/${scene.body?.id}/pose`, { msg: "floods the room." }],
    post: () => ["POST", `/api/v1/boards/${board.body?.id}/posts`, { subject: "s", body: "b" }],
    mail: () => ["POST", "/api/v1/mail", { to: watch.name, subject: "s", body: "b" }],
    job: () => ["POST", "/api/v1/jobs", { title: "Flood", description: "d" }],
    comment: () => ["POST", `/api/v1/jobs/${job.body?.number}/comment`, { text: "c" }],
    rsvp: () => ["POST", `/api/v1/events/${event.body?.id}/rsvp`, { status: "maybe" }],
    note: () => ["POST", "/api/v1/notes", { text: "n" }],
  };
  const kinds = Object.keys(writes) as Kind[];
  const tally: Record<string, number> = {};
  const accepted: Record<Kind, number> = {
    pose: 0,
    post: 0,
    mail: 0,
    job: 0,
    comment: 0,
    rsvp: 0,
    note: 0,
  };
  const started = Date.now();

  const watcher = watchRoundTrips(ctx, watch.token);
  const one = async () => {
    const kind = kinds[rng.int(0, kinds.length - 1)];
    const [method, path, body] = writes[kind]();
    try {
      const r = await call(method, path, flood.token, body);
      tally[`${kind} ${r.status}`] = (tally[`${kind} ${r.status}`] ?? 0) + 1;
      if (r.status < 300) accepted[kind]++;
      if (r.status >= 500) {
        ctx.log.add(`flood ${kind} ${r.status}`, {
          kind: "server-error",
          target: "flood",
          summary: `${method} ${path} answered ${r.status} during the REST flood`,
          repro: `curl -X ${method} BASE${path} -H 'authorization: Bearer <token>' --data '${
            JSON.stringify(body)
          }'`,
        });
      }
    } catch (e) {
      if (ctx.stopped()) return;
      ctx.log.add(`flood ${kind} hang`, {
        kind: "hang",
        target: "flood",
        summary: `${method} ${path} got no answer within ${ctx.hangMs} ms during the REST flood: ${
          (e as Error).message
        }`,
        repro: `${IN_FLIGHT} such writes in flight at once, as one player`,
      });
    }
    ctx.counts.flood = (ctx.counts.flood ?? 0) + 1;
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (!ctx.stopped()) {
      await one();
      await new Promise((r) => setTimeout(r, LANE_PAUSE_MS));
    }
  }));
  const trips = await watcher.stop();
  const seconds = (Date.now() - started) / 1000;

  // The budget: a burst of N, then N a minute (one more for a refill landing at the edge).
  const metered = accepted.pose + accepted.post + accepted.mail + accepted.job + accepted.comment +
    accepted.rsvp;
  const budget = FLOOD_LIMITS.restWritesPerMinute;
  const allowed = budget + Math.ceil(seconds * budget / 60) + 1;
  if (metered > allowed) {
    ctx.log.add("flood rate", {
      kind: "limit",
      target: "flood",
      summary: `${metered} REST writes others hear were accepted in ${
        seconds.toFixed(1)
      } s; the budget allows ${allowed}`,
      repro: "POST scene poses, board posts, mail, jobs, comments and RSVPs as one player at once",
    });
  }
  const notes = await call("GET", "/api/v1/notes?limit=200", flood.token).catch(() => null);
  const held = Array.isArray(notes?.body) ? notes.body.length : 0;
  for (
    const [what, got, max] of [
      ["notes kept", held, FLOOD_LIMITS.maxNotes],
      ["jobs filed (one open before)", accepted.job, FLOOD_LIMITS.maxOpenJobs - 1],
      ["posts on one board today", accepted.post, FLOOD_LIMITS.postsPerDay],
    ] as const
  ) {
    if (got > max) {
      ctx.log.add(`flood quota ${what}`, {
        kind: "limit",
        target: "flood",
        summary: `${got} ${what} by one player; the quota is ${max}`,
        repro: `write them in parallel as one player (quota ${max})`,
      });
    }
  }
  ctx.log.note(
    `flood: ${seconds.toFixed(1)} s, ${metered} writes others hear accepted (budget ${allowed}), ` +
      `${held} notes kept (quota ${FLOOD_LIMITS.maxNotes}); answers ${JSON.stringify(tally)}`,
  );
  ctx.log.note(`flood: another player's think round trip meanwhile: ${trips}`);
}

/** Times paced `think` round trips of `token`'s player until stopped; a lost one is a hang. */
function watchRoundTrips(ctx: FuzzContext, token: string) {
  const times: number[] = [];
  let lost = 0;
  let done = false;
  const run = (async () => {
    const ws = await connectWs(ctx.srv, { client: "web", token });
    try {
      await ws.expect((m) => m.data.type === "room", ctx.hangMs);
      for (let i = 0; !done && !ctx.stopped(); i++) {
        const marker = `flood-watch-${i}-${Date.now()}`;
        const t0 = performance.now();
        ws.send(`think ${marker}`);
        try {
          await ws.expect((m) => m.msg.includes(marker), ctx.hangMs);
          times.push(performance.now() - t0);
        } catch {
          lost++;
          ctx.log.add("flood watch hang", {
            kind: "hang",
            target: "flood",
            summary:
              `another player's 'think' got no answer within ${ctx.hangMs} ms during the REST flood`,
            repro: "a REST flood by one player while another types",
          });
        }
        await new Promise((r) => setTimeout(r, PACE_MS));
      }
    } finally {
      await ws.close();
    }
  })();
  return {
    async stop(): Promise<string> {
      done = true;
      await run.catch((e) => ctx.log.note(`flood: the watching player could not play: ${e}`));
      const s = [...times].sort((a, b) => a - b);
      const q = (p: number) =>
        s.length ? s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] : NaN;
      return `${s.length} answered, ${lost} lost; p50 ${q(0.5).toFixed(1)} ms, p90 ${
        q(0.9).toFixed(1)
      } ms, p99 ${q(0.99).toFixed(1)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(1)} ms`;
    },
  };
}
