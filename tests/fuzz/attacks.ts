/**
 * Fixed attacks, run once after the random phase (issue 31, "Keep it from coming back"). Each
 * replays an attack that once worked and reports a failure if it works again:
 *
 * - token reuse after revocation: after `@newpassword`, a reset, `@boot` and `@toad`, the
 *   player's token and the token the hub renewed from it must answer 401 over REST and be
 *   refused by the hub (`?token=`, a resume), and the player's open connection must close;
 * - a registration flood: parallel registrations from one address create no more characters
 *   than `game.registrationsPerHour`, the rest answer 429 `{error}`, and the game stays up.
 */
import { account, type FuzzContext } from "./context.ts";
import { connectWs, type WsClient } from "../ws_client.ts";

/** The password of the accounts the attacks make. */
const PASSWORD = "fuzz-attack-1";

interface Answer {
  status: number;
  // deno-lint-ignore no-explicit-any
  body: any;
}

async function call(
  ctx: FuzzContext,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
) {
  const res = await fetch(ctx.srv.base + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(ctx.hangMs),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch { /* not JSON */ }
  return { status: res.status, body: parsed } as Answer;
}

function fail(ctx: FuzzContext, signature: string, summary: string, repro: string): void {
  ctx.log.add(signature, { kind: "attack", target: "attack", summary, repro });
}

/** A `client=web` connection logged in with `token`; the token its session frame gave. */
async function session(
  ctx: FuzzContext,
  token: string,
): Promise<{ ws: WsClient; renewed: string }> {
  const ws = await connectWs(ctx.srv, { client: "web", token });
  const m = await ws.expect((x) => x.data.type === "session", ctx.hangMs);
  return { ws, renewed: m.data.token };
}

/** What still works with a token that should be dead (empty: nothing). */
async function stillWorks(ctx: FuzzContext, token: string): Promise<string[]> {
  const out: string[] = [];
  const me = await call(ctx, "GET", "/api/v1/me", undefined, token);
  if (me.status !== 401) out.push(`GET /api/v1/me answers ${me.status}`);
  for (const resume of [false, true]) {
    const ws = await connectWs(ctx.srv, {
      client: "web",
      token,
      query: resume ? { resume: "1" } : {},
    });
    try {
      const m = await ws.expect(
        (x) => x.data.type === "session" || x.data.type === "error",
        ctx.hangMs,
      );
      if (m.data.type === "session") {
        out.push(`the hub ${resume ? "resumed" : "logged in"} with it and gave a new token`);
      }
    } finally {
      await ws.close();
    }
  }
  return out;
}

/** Token reuse after each way of ending a player's sessions. */
async function tokenReuse(ctx: FuzzContext, run: string): Promise<void> {
  const staff = await connectWs(ctx.srv, { client: "web", token: account(ctx, "staff").token });
  try {
    await staff.expect((m) => m.data.type === "session", ctx.hangMs);
    const ways: [string, (name: string) => Promise<void>][] = [
      ["@newpassword", async (name) => {
        staff.send(`@newpassword ${name}=another-password-1`);
        await staff.expect(/^Password for .* changed\.$/, ctx.hangMs);
      }],
      ["@boot", async (name) => {
        staff.send(`@boot ${name}`);
        await staff.expect(/^You booted /, ctx.hangMs);
      }],
      ["@toad", async (name) => {
        staff.send(`@toad ${name}`);
        await staff.expect(/^You turned .* into a toad\.$/, ctx.hangMs);
      }],
      ["reset-password", async (name) => {
        staff.send(`@resettoken ${name}`);
        const m = await staff.expect((x) => x.data.type === "resettoken", ctx.hangMs);
        const r = await call(ctx, "POST", "/api/v1/auth/reset-password", {
          token: m.data.token,
          newPassword: "another-password-1",
        });
        if (r.status !== 200) throw new Error(`reset-password answered ${r.status}`);
      }],
    ];
    for (const [i, [way, act]] of ways.entries()) {
      const name = `FzRv${run}${i}`;
      const reg = await call(ctx, "POST", "/api/v1/auth/register", { name, password: PASSWORD });
      if (reg.status !== 200) {
        ctx.log.note(`token reuse after ${way}: not tried, register answered ${reg.status}`);
        continue;
      }
      const { ws, renewed } = await session(ctx, reg.body.token);
      try {
        await act(name);
        const closed = await Promise.race([
          ws.closed.then(() => true),
          new Promise<false>((r) => setTimeout(() => r(false), ctx.hangMs)),
        ]);
        if (!closed) {
          fail(
            ctx,
            `session open after ${way}`,
            `the player's WebSocket stayed open after ${way}`,
            `register ${name}, open ws://HOST:WS/?client=web&token=<token>, then as staff: ${way} ${name}`,
          );
        }
        for (const [what, token] of [["token", reg.body.token], ["renewed token", renewed]]) {
          for (const problem of await stillWorks(ctx, token)) {
            fail(
              ctx,
              `token reuse after ${way}`,
              `after ${way}, the player's ${what}: ${problem}`,
              `register ${name} (its token), log in over ws://HOST:WS/?client=web&token=<token> (the renewed token), as staff ${way} ${name}, then GET /api/v1/me and ws://HOST:WS/?client=web&resume=1&token=<either>`,
            );
          }
        }
      } finally {
        await ws.close();
      }
    }
  } finally {
    await staff.close();
  }
}

/**
 * How long a flood's registration may take to be answered. Those let in each wait for a bcrypt
 * worker, which runs at idle priority (src/auth/thread_priority.ts): on a machine busy with
 * other work, 17 of them on two workers took more than the 15 s of one request in a suite run.
 * The engine did not stall: at load 7, 17 at once were answered in 1.8 to 18.9 s while /health
 * answered within 60 ms.
 */
const REGISTRATION_WAIT_MS = 60_000;

/** A registration flood from one address. */
async function registrationFlood(ctx: FuzzContext, run: string, limit: number): Promise<void> {
  const n = 40;
  const slow = { ...ctx, hangMs: Math.max(ctx.hangMs, REGISTRATION_WAIT_MS) };
  const answers = await Promise.all(
    Array.from(
      { length: n },
      (_, i) =>
        call(slow, "POST", "/api/v1/auth/register", { name: `FzFl${run}${i}`, password: PASSWORD })
          .catch((e) => ({ status: 0, body: String(e) }) as Answer),
    ),
  );
  const made = answers.filter((a) => a.status === 200).length;
  const limited =
    answers.filter((a) =>
      a.status === 429 && typeof a.body?.error === "string" && a.body.error.length > 0
    ).length;
  const other = answers.filter((a) => a.status !== 200 && a.status !== 429);
  const repro = `${n} parallel POST /api/v1/auth/register from one address, distinct names`;
  if (made > limit || made + limited !== n) {
    fail(
      ctx,
      "registration flood",
      `${n} registrations at once: ${made} created (limit ${limit}), ${limited} answered 429 {error}, ${other.length} other: ${
        JSON.stringify(other.slice(0, 3))
      }`,
      repro,
    );
  }
  const health = await call(ctx, "GET", "/health");
  if (health.status !== 200) {
    fail(ctx, "health after registration flood", `/health answers ${health.status}`, repro);
  }
}

/** Token reuse after revocation; run before the random phase, while registrations are free. */
export async function tokenReuseAttack(ctx: FuzzContext): Promise<void> {
  try {
    await tokenReuse(ctx, runTag());
  } catch (e) {
    fail(ctx, "token reuse attack broke", `the attack could not run: ${e}`, "see the run's log");
  }
}

/**
 * A registration flood; run after the random phase (it uses up the address's registrations).
 * `limit` is the server's `game.registrationsPerHour`.
 */
export async function registrationFloodAttack(ctx: FuzzContext, limit: number): Promise<void> {
  try {
    await registrationFlood(ctx, runTag(), limit);
  } catch (e) {
    fail(ctx, "registration flood attack broke", `the attack could not run: ${e}`, "see the log");
  }
}

/** A short tag that keeps the attack's player names apart from an earlier run's. */
function runTag(): string {
  return Math.random().toString(36).slice(2, 6).replace(/[^a-z]/g, "x");
}
