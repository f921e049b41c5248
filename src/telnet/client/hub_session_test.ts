/** Tests of one telnet player's hub session across restarts: resume, held output, notices. */
import assert from "node:assert/strict";
import { HubSession, type SessionPlayer } from "./hub_session.ts";
import { parseHubFrame } from "./hub_frames.ts";
import { NOTICES } from "./notices.ts";

/** A session on a recording host; `frame` hands it a hub frame and says whether it is shown. */
function setup(resumeTimeoutMs = 10_000) {
  const log: string[] = [];
  const players: (SessionPlayer | null)[] = [];
  const s = new HubSession({
    say: (msg) => log.push(`say ${msg}`),
    ready: () => log.push("ready"),
    session: (_data, player) => players.push(player),
    resumeRefused: () => log.push("refused"),
    replay: (text) => log.push(`replay ${text}`),
    expectEnd: () => log.push("end"),
    loggedOut: () => log.push("logged out"),
  }, resumeTimeoutMs);
  const frame = (f: Record<string, unknown> | string) => {
    const text = typeof f === "string" ? f : JSON.stringify(f);
    return s.admit(text, parseHubFrame(text));
  };
  return { s, log, players, frame };
}

/** A session that has logged in as Ann with token `tok`. */
function loggedIn(resumeTimeoutMs?: number) {
  const t = setup(resumeTimeoutMs);
  t.s.opened();
  t.frame({ msg: "", data: { type: "session", token: "tok", player: { id: "#5", name: "Ann" } } });
  t.log.length = 0;
  return t;
}

Deno.test("session: without a token it is ready at open; a session frame names the player", () => {
  const { s, log, players, frame } = setup();
  assert.equal(s.token, null);
  s.opened();
  assert.equal(s.phase, "ready");
  assert.deepEqual(log, ["ready"]);
  assert.equal(frame("Welcome!"), true);
  assert.equal(frame({ data: { type: "session", token: "tok", colour: "off" } }), true);
  assert.equal(s.player, null);
  frame({ data: { type: "session", token: "tok2", player: { id: "#5", name: "Ann" } } });
  assert.deepEqual(players, [null, { id: "#5", name: "Ann" }]);
  assert.deepEqual(s.player, { id: "#5", name: "Ann" });
  assert.equal(s.token, "tok2", "the next connection resumes with it");
});

Deno.test("session: a logout frame forgets the token and player, so a restart resumes nobody", () => {
  const { s, log, frame } = loggedIn();
  frame({ msg: "", data: { type: "logout" } });
  assert.deepEqual(log, ["logged out"]);
  assert.equal(s.token, null);
  assert.equal(s.player, null);
  s.down(true);
  s.opened();
  assert.equal(s.phase, "ready", "no resume: the connect screen comes");
});

Deno.test("session: one notice per outage, and 'back' with the first frame after it", () => {
  const { s, log, frame } = setup();
  s.down(false);
  s.down(false);
  s.opened();
  assert.deepEqual(log, [`say ${NOTICES.starting}`, "ready"]);
  assert.equal(frame("connect screen"), true);
  assert.equal(log.at(-1), `say ${NOTICES.back}`);
  frame("more");
  s.down(true);
  assert.equal(log.at(-1), `say ${NOTICES.restarting}`);
  assert.equal(s.phase, "waiting");
});

Deno.test("session: a resume holds output until the hub confirms, then skips it", () => {
  const { s, log, frame } = loggedIn();
  s.down(true);
  s.opened();
  assert.equal(s.phase, "resuming");
  assert.equal(frame("connect screen"), false);
  assert.equal(frame({ msg: "motd", data: { type: "motd" } }), false);
  assert.equal(frame({ data: { type: "session", token: "tok3", resumed: true } }), false);
  assert.equal(s.phase, "ready");
  assert.deepEqual(log, [`say ${NOTICES.restarting}`, `say ${NOTICES.resumed}`, "ready"]);
  assert.equal(frame("next"), true, "no 'back' after 'resumed'");
  assert.equal(log.length, 3);
  assert.equal(s.token, "tok3");
  assert.deepEqual(s.player, { id: "#5", name: "Ann" });
});

Deno.test("session: a refused resume drops the input, forgets the player and replays", () => {
  const { s, log, frame } = loggedIn();
  s.down(true);
  s.opened();
  frame("connect screen");
  assert.equal(frame({ msg: "Bad token.", data: { type: "error" } }), false);
  assert.deepEqual(log, [
    `say ${NOTICES.restarting}`,
    "refused",
    `say ${NOTICES.resumeFailed}`,
    "replay connect screen",
    'replay {"msg":"Bad token.","data":{"type":"error"}}',
  ]);
  assert.equal(s.phase, "ready");
  assert.equal(s.player, null);
  assert.equal(s.token, null);
});

Deno.test("session: a resume the hub never answers fails after the timeout", async () => {
  const { s, log } = loggedIn(20);
  s.down(true);
  s.opened();
  await new Promise((r) => setTimeout(r, 60));
  assert.deepEqual(log, [`say ${NOTICES.restarting}`, "refused", `say ${NOTICES.resumeFailed}`]);
  assert.equal(s.player, null);
});

Deno.test("session: this connection's close reason is kept and shown only when final", () => {
  const { s, log, frame } = loggedIn();
  assert.equal(
    frame({ msg: "Bob has disconnected.", data: { type: "disconnect", player: "#6" } }),
    true,
  );
  assert.equal(frame({ msg: "Goodbye!", data: { type: "disconnect" } }), false);
  assert.deepEqual(log, ["end"]);
  s.final();
  assert.deepEqual(log, ["end", "say Goodbye!"]);
});

Deno.test("session: a stop for good shows the hub's own line instead of 'restarting'", () => {
  const { s, log, frame } = loggedIn();
  frame({ msg: "The server is shutting down.", data: { type: "disconnect", restart: false } });
  assert.equal(s.toldStopping, false);
  s.down(true);
  assert.deepEqual(log, ["say The server is shutting down."]);
  assert.equal(s.toldStopping, true);
  // A restart announced the same way keeps the sidecar's own notice.
  const t = loggedIn();
  t.frame({ msg: "Restarting.", data: { type: "disconnect", restart: true } });
  t.s.down(true);
  assert.deepEqual(t.log, [`say ${NOTICES.restarting}`]);
  assert.equal(t.s.toldStopping, false);
});

/**
 * A session that was admitted, lost its hub and is now resuming, sharing `progress` (the
 * sidecar's resume clock) with the other sessions the test pretends the hub is answering.
 */
function resumingWithProgress(timeoutMs: number) {
  let last = 0;
  const progress = { last: () => last, answered: () => last = Date.now() };
  const log: string[] = [];
  const s = new HubSession({
    say: (msg) => log.push(`say ${msg}`),
    ready: () => log.push("ready"),
    session: () => {},
    resumeRefused: () => log.push("refused"),
    replay: () => {},
    expectEnd: () => {},
    loggedOut: () => {},
    resumeProgress: progress,
  }, timeoutMs);
  s.opened();
  s.admit("{}", parseHubFrame(JSON.stringify({ data: { type: "session", token: "tok" } })));
  s.down(true);
  s.opened();
  return { s, log, progress };
}

Deno.test("session: a resume waits past its timeout while the hub answers other resumes", async () => {
  const { s, log, progress } = resumingWithProgress(100);
  // Other sessions' resumes are answered every 15 ms for 250 ms: two and a half timeouts.
  const busy = setInterval(progress.answered, 15);
  await new Promise((r) => setTimeout(r, 250));
  clearInterval(busy);
  assert.equal(s.phase, "resuming", "still waiting while the hub is busy answering");
  assert.ok(!log.includes("refused"));
  // The hub answers nobody any more: the wait ends one timeout after the last answer.
  await new Promise((r) => setTimeout(r, 250));
  assert.equal(s.phase, "ready");
  assert.ok(log.includes(`say ${NOTICES.resumeFailed}`));
});

Deno.test("session: a busy hub does not make a resume wait for ever", async () => {
  const { log, progress } = resumingWithProgress(20);
  const busy = setInterval(progress.answered, 5);
  try {
    // Six timeouts at most (120 ms), however busy the hub stays.
    await new Promise((r) => setTimeout(r, 200));
    assert.ok(log.includes("refused"));
  } finally {
    clearInterval(busy);
  }
});
