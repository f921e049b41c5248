/**
 * The scenes plugin end to end, through REST and WebSocket on a real engine (the plugin test
 * kit): the spec's endpoints and rules 1-6, privacy as an outsider sees it, the broadcast as
 * another player in the room receives it, automatic logging of speech, the in-game commands,
 * the five scene events, and the Markdown export compared byte for byte with
 * plugins/scenes/testdata/export.md. The telnet side is at the end (supervisor and sidecar).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import {
  ManualClock,
  startTestGame,
  type TestGame,
  type TestPlayer,
} from "../src/plugins/testing.ts";
import { connectWs, type WsClient } from "./ws_client.ts";
import { stripColour } from "../src/plugins/mod.ts";
import { api, register, ROOT } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

const RECORDER = join(ROOT, "plugins/scenes/testdata/recorder");
const EXPECTED = join(ROOT, "plugins/scenes/testdata/export.md");

type Json = Record<string, unknown>;

async function game(
  opts: { clock?: ManualClock; plugins?: string[]; config?: Record<string, unknown> } = {},
): Promise<TestGame> {
  return await startTestGame({
    plugins: ["scenes", RECORDER, ...(opts.plugins ?? [])],
    clock: opts.clock,
    config: opts.config,
  });
}

/** REST shorthand: status and body. */
function rest(g: TestGame) {
  return async (as: TestPlayer | undefined, method: string, path: string, body?: unknown) => {
    const r = await g.request(method, `/api/v1/scenes${path}`, { as, body });
    return r;
  };
}

async function events(g: TestGame): Promise<{ event: string; payload: Json }[]> {
  return (await g.request("GET", "/api/v1/scene-recorder")).body;
}

/** Polls until `get` gives something `ok` accepts (speech is logged just after the room hears it). */
async function until<T>(get: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  const end = Date.now() + 5000;
  for (;;) {
    const v = await get();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`${what}: never happened; last ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

Deno.test("scenes: create, list newest first from indexes, detail, PATCH by owner or staff, events", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    const wiz = await g.player("Wiz", { flags: ["wizard"] });
    const made = await call(ann, "POST", "", {
      name: "Tea at Noon",
      location: "#1",
      desc: "A quiet parlour.",
    });
    assertEquals(made.status, 201);
    const s = made.body;
    assertEquals(s.name, "Tea at Noon");
    assertEquals(s.location, "#1");
    assertEquals(s.owner, `#${ann.id}`);
    assertEquals(s.participants, [`#${ann.id}`]);
    assertEquals(s.allowed, [`#${ann.id}`]);
    assertEquals([s.private, s.status, s.sceneType, s.poses], [false, "active", "social", []]);
    assert(typeof s.startTime === "number" && Math.abs(s.startTime - Date.now()) < 60_000);
    assertEquals(s.endTime, undefined);

    // The other reference form: roomId and type.
    const alt = await call(bob, "POST", "", { name: "Duel", roomId: "1", type: "event" });
    assertEquals([alt.status, alt.body.location, alt.body.sceneType], [201, "#1", "event"]);
    const third = await call(ann, "POST", "", { name: "Later", location: "1", private: true });

    // Each sees their own, newest first; staff see all.
    const ids = async (who: TestPlayer, q = "") =>
      (await call(who, "GET", q)).body.map((x: Json) => x.id);
    assertEquals(await ids(ann), [third.body.id, s.id]);
    assertEquals(await ids(bob), [alt.body.id]);
    assertEquals(await ids(wiz), [third.body.id, alt.body.id, s.id]);
    assertEquals(await ids(wiz, "?limit=1&offset=1"), [alt.body.id]);
    assertEquals((await call(wiz, "GET", "?limit=x")).status, 400);
    // Open: active public scenes anywhere, for everyone.
    assertEquals((await call(wiz, "GET", "/open")).body.map((x: Json) => x.id), [
      alt.body.id,
      s.id,
    ]);

    const detail = await call(bob, "GET", `/${s.id}`);
    assertEquals([detail.status, detail.body.poses, detail.body.participants], [200, [], [
      `#${ann.id}`,
    ]]);

    // Rule 4: owner, admin, wizard only.
    const refused = await call(bob, "PATCH", `/${s.id}`, { name: "Mine now" });
    assertEquals(refused.status, 403);
    assertEquals((await call(ann, "GET", `/${s.id}`)).body.name, "Tea at Noon");
    const owner = await call(ann, "PATCH", `/${s.id}`, { name: "Tea at Two", owner: bob.id });
    assertEquals(owner.status, 400, "owner is not a writable field");
    const renamed = await call(ann, "PATCH", `/${s.id}`, {
      name: "Tea at Two",
      sceneType: "plot",
      desc: "Later.",
    });
    assertEquals(renamed.status, 200);
    assertEquals([renamed.body.name, renamed.body.sceneType, renamed.body.desc], [
      "Tea at Two",
      "plot",
      "Later.",
    ]);
    assertEquals(renamed.body.owner, `#${ann.id}`);
    const paused = await call(wiz, "PATCH", `/${s.id}`, { status: "paused" });
    assertEquals([paused.body.status, paused.body.endTime], ["paused", undefined]);
    const closed = await call(ann, "PATCH", `/${s.id}`, { status: "closed" });
    assertEquals(closed.body.status, "closed");
    assert(typeof closed.body.endTime === "number", "closing sets endTime");
    const given = await call(bob, "PATCH", `/${alt.body.id}`, { status: "closed", endTime: 12345 });
    assertEquals([given.body.status, given.body.endTime], ["closed", 12345]);
    assertEquals((await call(wiz, "GET", "/open")).body, []);
    // Status is indexed: a closed scene leaves the open list; reopening brings it back.
    await call(ann, "PATCH", `/${s.id}`, { status: "active" });
    assertEquals((await call(wiz, "GET", "/open")).body.map((x: Json) => x.id), [s.id]);

    const seen = await until(() => events(g), (e) => e.length >= 6, "events");
    const a = `#${ann.id}`;
    assertEquals(seen.filter((e) => e.event !== "scene:pose").map((e) => [e.event, e.payload]), [
      ["scene:created", {
        sceneId: s.id,
        sceneName: "Tea at Noon",
        roomId: "#1",
        actorId: a,
        actorName: "Ann",
        sceneType: "social",
      }],
      ["scene:created", {
        sceneId: alt.body.id,
        sceneName: "Duel",
        roomId: "#1",
        actorId: `#${bob.id}`,
        actorName: "Bob",
        sceneType: "event",
      }],
      ["scene:created", {
        sceneId: third.body.id,
        sceneName: "Later",
        roomId: "#1",
        actorId: a,
        actorName: "Ann",
        sceneType: "social",
      }],
      ["scene:title", {
        sceneId: s.id,
        oldName: "Tea at Noon",
        newName: "Tea at Two",
        actorId: a,
        actorName: "Ann",
      }],
      ["scene:clear", {
        sceneId: s.id,
        sceneName: "Tea at Two",
        actorId: a,
        actorName: "Ann",
        status: "closed",
      }],
      ["scene:clear", {
        sceneId: alt.body.id,
        sceneName: "Duel",
        actorId: `#${bob.id}`,
        actorName: "Bob",
        status: "closed",
      }],
    ]);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a REST pose reaches the room at once, joins the poster, fires its events", async () => {
  const g = await game();
  const call = rest(g);
  const open: WsClient[] = [];
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    const ws = (p: TestPlayer) =>
      connectWs(`${g.base.replace(/^http/, "ws")}/ws`, { token: p.token, client: "web" });
    const bobWs = await ws(bob);
    open.push(bobWs);
    await bobWs.expect((m) => m.data?.type === "room");
    const s = (await call(ann, "POST", "", { name: "Market", location: "#1", desc: "Stalls." }))
      .body;

    const posed = await call(bob, "POST", `/${s.id}/pose`, { msg: "haggles loudly." });
    assertEquals(posed.status, 201);
    const p = posed.body;
    assertEquals(Object.keys(p).sort(), [
      "charId",
      "charName",
      "id",
      "moniker",
      "msg",
      "timestamp",
      "type",
    ]);
    assertEquals([p.id, p.charId, p.charName, p.moniker, p.msg, p.type], [
      "1",
      `#${bob.id}`,
      "Bob",
      "Bob",
      "haggles loudly.",
      "pose",
    ]);
    const heard = await bobWs.expect((m) => m.data?.type === "scene.pose");
    assertEquals(stripColour(heard.msg), "Bob haggles loudly.");
    assertEquals((heard.data.pose as Json).id, "1");
    assertEquals(heard.data.sceneId, s.id);

    await call(ann, "POST", `/${s.id}/pose`, { msg: "brb", type: "ooc" });
    assertEquals(
      stripColour((await bobWs.expect((m) => m.data?.type === "scene.pose")).msg),
      "[OOC] Ann: brb",
    );
    const set = await call(ann, "POST", `/${s.id}/pose`, { type: "set" });
    assertEquals([set.status, set.body.msg, set.body.type], [201, "Stalls.", "set"]);
    assertEquals(
      stripColour((await bobWs.expect((m) => m.data?.type === "scene.pose")).msg),
      "[Scene Set] Stalls.",
    );
    await call(ann, "POST", `/${s.id}/pose`, { msg: "Rain falls.", type: "set" });
    await bobWs.expect((m) => m.data?.type === "scene.pose");

    const d = (await call(ann, "GET", `/${s.id}`)).body;
    assertEquals(d.participants, [`#${ann.id}`, `#${bob.id}`], "the poster joined");
    assertEquals(d.poses.map((x: Json) => [x.id, x.type, x.msg]), [
      ["1", "pose", "haggles loudly."],
      ["2", "ooc", "brb"],
      ["3", "set", "Stalls."],
      ["4", "set", "Rain falls."],
    ]);
    // Bob is on Bob's list now.
    assertEquals((await call(bob, "GET", "")).body.map((x: Json) => x.id), [s.id]);

    // Rule 3: the author or the owner edits; type and timestamp stay.
    const edit = await call(ann, "PATCH", `/${s.id}/pose/1`, {
      msg: "haggles.",
      type: "ooc",
      timestamp: 5,
    });
    assertEquals([edit.status, edit.body.msg, edit.body.type, edit.body.timestamp], [
      200,
      "haggles.",
      "pose",
      p.timestamp,
    ]);
    assertEquals((await call(bob, "PATCH", `/${s.id}/pose/2`, { msg: "mine" })).status, 403);
    assertEquals(
      (await call(bob, "PATCH", `/${s.id}/pose/1`, { msg: "haggles!" })).body.msg,
      "haggles!",
    );
    assertEquals((await call(bob, "PATCH", `/${s.id}/pose/99`, { msg: "x" })).status, 404);

    // A paused scene still takes REST poses; a closed one refuses them.
    await call(ann, "PATCH", `/${s.id}`, { status: "paused" });
    assertEquals((await call(bob, "POST", `/${s.id}/pose`, { msg: "waits." })).status, 201);
    await call(ann, "PATCH", `/${s.id}`, { status: "closed" });
    const late = await call(bob, "POST", `/${s.id}/pose`, { msg: "too late" });
    assertEquals([late.status, typeof late.body.error], [400, "string"]);
    assertEquals((await call(ann, "GET", `/${s.id}`)).body.poses.length, 5, "nothing written");

    const seen = await until(
      () => events(g),
      (e) => e.filter((x) => x.event === "scene:set").length === 2,
      "set events",
    );
    const poseEvents = seen.filter((e) => e.event === "scene:pose" || e.event === "scene:set");
    const base = { sceneId: s.id, sceneName: "Market", roomId: "#1" };
    assertEquals(poseEvents.slice(0, 4).map((e) => [e.event, e.payload]), [
      ["scene:pose", {
        ...base,
        actorId: `#${bob.id}`,
        actorName: "Bob",
        msg: "haggles loudly.",
        type: "pose",
      }],
      ["scene:pose", { ...base, actorId: `#${ann.id}`, actorName: "Ann", msg: "brb", type: "ooc" }],
      ["scene:pose", {
        ...base,
        actorId: `#${ann.id}`,
        actorName: "Ann",
        msg: "Stalls.",
        type: "set",
      }],
      ["scene:set", { ...base, actorId: `#${ann.id}`, actorName: "Ann", description: "Stalls." }],
    ]);
  } finally {
    for (const c of open) await c.close();
    await g.close();
  }
});

Deno.test("scenes: a private scene as an outsider sees it; invitation opens the door", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), eve = await g.player("Eve"), cat = await g.player("Cat");
    const admin = await g.player("Boss", { flags: ["admin"] });
    const s = (await call(ann, "POST", "", { name: "Secret", location: "#1", private: true })).body;
    const before = (await call(ann, "GET", `/${s.id}`)).body;

    assertEquals((await call(eve, "GET", "")).body, [], "not on an outsider's list");
    assertEquals((await call(eve, "GET", "/open")).body, [], "not open");
    for (
      const [method, path, body] of [
        ["GET", `/${s.id}`],
        ["GET", `/${s.id}/export`],
        ["GET", `/${s.id}/export?format=json`],
        ["POST", `/${s.id}/pose`, { msg: "peeks" }],
        ["POST", `/${s.id}/join`],
        ["POST", `/${s.id}/invite`, { target: "Eve" }],
        ["PATCH", `/${s.id}`, { name: "Mine" }],
      ] as [string, string, unknown?][]
    ) {
      const r = await call(eve, method, path, body);
      assertEquals(r.status, 403, `${method} ${path}`);
      assertEquals(typeof r.body.error, "string");
    }
    assertEquals((await call(ann, "GET", `/${s.id}`)).body, before, "nothing written");
    // Admins see and post.
    assertEquals((await call(admin, "GET", `/${s.id}`)).status, 200);

    // Invitation by name, then by dbref with the other reference form (playerId).
    const inv = await call(ann, "POST", `/${s.id}/invite`, { target: "eve" });
    assertEquals([inv.status, inv.body.success, inv.body.scene.allowed], [200, true, [
      `#${ann.id}`,
      `#${eve.id}`,
    ]]);
    // Anyone in allowed may invite.
    const inv2 = await call(eve, "POST", `/${s.id}/invite`, { playerId: `#${cat.id}` });
    assertEquals(inv2.body.scene.allowed.length, 3);
    assertEquals((await call(eve, "GET", "")).body.map((x: Json) => x.id), [s.id]);
    const joined = await call(eve, "POST", `/${s.id}/join`);
    assertEquals([joined.status, joined.body.success, joined.body.scene.participants], [200, true, [
      `#${ann.id}`,
      `#${eve.id}`,
    ]]);
    assertEquals((await call(eve, "POST", `/${s.id}/pose`, { msg: "whispers." })).status, 201);
    assertEquals((await call(ann, "POST", `/${s.id}/invite`, { target: "Nobody" })).status, 404);
    assertEquals((await call(ann, "POST", `/${s.id}/invite`, {})).status, 400);
    // A public scene: anyone joins.
    const pub = (await call(ann, "POST", "", { name: "Open", location: "#1" })).body;
    const j = await call(eve, "POST", `/${pub.id}/join`);
    assertEquals([j.status, j.body.scene.participants.length], [200, 2]);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: bad input is refused with a clear error and writes nothing", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann");
    const s = (await call(ann, "POST", "", { name: "One", location: "#1" })).body;
    const bad = async (method: string, path: string, body: unknown, status: number, re: RegExp) => {
      const r = await call(ann, method, path, body);
      assertEquals(r.status, status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)}`);
      assertMatch(r.body.error, re);
    };
    assertEquals((await g.request("GET", "/api/v1/scenes")).status, 401);
    await bad("POST", "", { location: "#1" }, 400, /name/);
    await bad("POST", "", { name: "x" }, 400, /location/);
    await bad("POST", "", { name: "x", location: "#999" }, 400, /room/);
    await bad("POST", "", { name: "x", location: `#${ann.id}` }, 400, /room/);
    await bad(
      "POST",
      "",
      { name: "x", location: "#1", sceneType: "party" },
      400,
      /social, event, vignette, plot, training, other/,
    );
    await bad("POST", "", { name: "x", location: "#1", private: "yes" }, 400, /private/);
    await bad("POST", "", "not json", 400, /./);
    await bad("GET", "/999", undefined, 404, /not found/i);
    await bad("GET", "/abc", undefined, 404, /not found/i);
    await bad("PATCH", "/999", { name: "y" }, 404, /not found/i);
    await bad("PATCH", `/${s.id}`, { status: "done" }, 400, /active, paused, closed/);
    await bad("PATCH", `/${s.id}`, { sceneType: "x" }, 400, /social/);
    await bad("PATCH", `/${s.id}`, { endTime: "soon" }, 400, /endTime/);
    await bad("PATCH", `/${s.id}`, { name: "" }, 400, /name/);
    await bad("POST", "/999/pose", { msg: "x" }, 404, /not found/i);
    await bad("POST", `/${s.id}/pose`, {}, 400, /msg/);
    await bad("POST", `/${s.id}/pose`, { msg: "x", type: "shout" }, 400, /pose, ooc, set/);
    await bad("POST", `/${s.id}/pose`, { msg: "x".repeat(4001) }, 400, /4000/);
    await bad("POST", `/${s.id}/pose`, { msg: 5 }, 400, /msg/);
    await bad("POST", `/${s.id}/pose`, { type: "set" }, 400, /msg/); // no msg and no desc
    assertEquals((await call(ann, "POST", `/${s.id}/pose`, { msg: "x".repeat(4000) })).status, 201);
    await bad("PATCH", `/${s.id}/pose/1`, { msg: "y".repeat(4001) }, 400, /4000/);
    await bad("PATCH", `/${s.id}/pose/1`, {}, 400, /msg/);
    await bad("PATCH", `/${s.id}/pose/x`, { msg: "y" }, 404, /not found/i);
    await bad("POST", "/999/join", undefined, 404, /not found/i);
    await bad("GET", `/${s.id}/export?format=pdf`, undefined, 400, /markdown, json/);
    const after = (await call(ann, "GET", `/${s.id}`)).body;
    assertEquals([after.name, after.status, after.sceneType, after.poses.length], [
      "One",
      "active",
      "social",
      1,
    ]);
    assertEquals(after.poses[0].msg.length, 4000);
    assertEquals((await call(ann, "GET", "")).body.length, 1, "no refused create was stored");
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a PATCH with an unknown field or none is 400 and changes nothing, not even the activity", async () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 14, 19, 30));
  const g = await game({ clock });
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    const s = (await call(ann, "POST", "", { name: "Quiet", location: "#1" })).body;
    clock.advance(60_000);
    for (
      const [body, error] of [
        [{}, "nothing to change; allowed: name, desc, status, sceneType, private, endTime, shared"],
        [{ owner: `#${bob.id}` }, "unknown field 'owner'; allowed: "],
        [{ name: "Mine", poses: [] }, "unknown field 'poses'; allowed: "],
      ] as const
    ) {
      const r = await call(ann, "PATCH", `/${s.id}`, body);
      assertEquals(r.status, 400, JSON.stringify(body));
      assert(r.body.error.startsWith(error), r.body.error);
    }
    const after = (await call(ann, "GET", `/${s.id}`)).body;
    assertEquals(
      [after.name, after.owner, after.lastActivity],
      ["Quiet", `#${ann.id}`, s.lastActivity],
      "a refused PATCH wrote nothing",
    );
    const ok = await call(ann, "PATCH", `/${s.id}`, { desc: "Still quiet." });
    assertEquals([ok.status, ok.body.lastActivity], [200, s.lastActivity + 60_000]);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: an endTime past year 9999 is refused, so the export and +scene never fail", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann");
    const s = (await call(ann, "POST", "", { name: "Late", location: "#1" })).body;
    for (const endTime of [1e20, 8.64e15 + 1, Date.UTC(10000, 0, 1), 1.5e300]) {
      const r = await call(ann, "PATCH", `/${s.id}`, { endTime, status: "closed" });
      assertEquals(r.status, 400, `endTime ${endTime}`);
      assertMatch(r.body.error, /endTime/);
    }
    const after = (await call(ann, "GET", `/${s.id}`)).body;
    assertEquals(
      [after.status, after.endTime],
      ["active", undefined],
      "a refused PATCH wrote nothing",
    );
    const ok = await call(ann, "PATCH", `/${s.id}`, { endTime: s.startTime + 60_000 });
    assertEquals([ok.status, ok.body.endTime], [200, s.startTime + 60_000]);
    assertEquals((await call(ann, "GET", `/${s.id}/export`)).status, 200);
    const shown = (await g.run(ann, `+scene ${s.id}`)).text("Ann");
    assert(!/went wrong/i.test(shown) && shown.includes("Ended:"), shown);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a title from REST loses terminal escapes, controls, bidi overrides and line breaks", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann");
    // REST bodies are sanitised by the engine except their `name` keys (kept for name rules),
    // and a scene's title is a `name`: without its own cleaning, +scenes would send the ESC
    // sequence to every reader's terminal and the line break would forge a line of the list.
    const evil = "Ev\u001b[2Jil\u0007\r\nFake line\u202e";
    const made = await call(ann, "POST", "", { name: evil, location: "#1" });
    assertEquals([made.status, made.body.name], [201, "Evil Fake line"]);
    const patched = await call(ann, "PATCH", `/${made.body.id}`, { name: `New\u001b[31m\ttitle` });
    assertEquals([patched.status, patched.body.name], [200, "New title"]);
    const none = await call(ann, "POST", "", { name: "\u202e\u0007\u001b[0m", location: "#1" });
    assertEquals([none.status, none.body.error], [400, "name is required"]);
    const list = (await g.run(ann, "+scenes")).text("Ann");
    const unsafe = [...list].filter((ch) => (ch < " " && ch !== "\n") || ch === "\u202e");
    assert(list.includes("New title") && unsafe.length === 0, list);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: 'ooc :' with nothing after the colon says nothing to the room", async () => {
  const g = await game();
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    await g.connect(bob);
    for (const line of ["ooc :", "ooc :   "]) {
      const heard = await g.run(ann, line);
      assertEquals(heard.text("Ann"), "Say what, out of character?");
      assertEquals(heard.text("Bob"), "");
    }
  } finally {
    await g.close();
  }
});

Deno.test("scenes: speech in a room with an active scene is logged once, by whoever said it", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob"), eve = await g.player("Eve");
    await g.connect(bob);
    await g.connect(eve);
    const s = (await call(ann, "POST", "", { name: "Parlour", location: "#1" })).body;
    const poses = async (id = s.id) => (await call(ann, "GET", `/${id}`)).body.poses as Json[];

    const said = await g.run(ann, "say Hello there.");
    assertEquals(said.text("Bob"), 'Ann says, "Hello there."', "heard once, as usual");
    await g.run(bob, ":bows.");
    await g.run(bob, ";'s hat tips.");
    await g.run(ann, "@emit The clock strikes.");
    const ooc = await g.run(eve, "ooc brb");
    assertEquals(ooc.text("Bob"), "[OOC] Eve: brb");
    await g.run(ann, "think not speech");
    const got = await until(() => poses(), (p) => p.length === 5, "five poses");
    assertEquals(got.map((p) => [p.charName, p.type, p.msg]), [
      ["Ann", "pose", 'says, "Hello there."'],
      ["Bob", "pose", "bows."],
      ["Bob", "pose", "'s hat tips."],
      ["Ann", "pose", "The clock strikes."],
      ["Eve", "ooc", "brb"],
    ]);
    const d = (await call(ann, "GET", `/${s.id}`)).body;
    assertEquals(d.participants, [`#${ann.id}`, `#${bob.id}`, `#${eve.id}`], "posing joins");
    // Nobody heard a pose broadcast for what they had already heard.
    const again = await g.run(bob, "pose nods.");
    assertEquals(again.text("Eve"), "Bob nods.");
    // The log is written after the room hears the pose: wait for it before pausing the scene.
    await until(() => poses(), (p) => p.length === 6, "six poses");

    // Paused: nothing logged. Closed: nothing logged.
    await call(ann, "PATCH", `/${s.id}`, { status: "paused" });
    await g.run(bob, "say Anyone?");
    await call(ann, "PATCH", `/${s.id}`, { status: "active" });
    await g.run(bob, "say Back.");
    const now = await until(() => poses(), (p) => p.length === 7, "seven poses");
    assertEquals(now.slice(5).map((p) => p.msg), ["nods.", 'says, "Back."']);

    // A private scene records only its allowed players; a second scene takes its members' speech.
    await call(ann, "PATCH", `/${s.id}`, { status: "closed" });
    const priv = (await call(ann, "POST", "", { name: "Whispers", location: "#1", private: true }))
      .body;
    await g.run(eve, "say Can I listen?");
    await g.run(ann, "say Only us.");
    await until(() => poses(priv.id), (p) => p.length === 1, "private pose");
    assertEquals((await poses(priv.id)).map((p) => p.charName), ["Ann"]);
    // Several active scenes: members' speech goes to theirs; others' to the most recent public one.
    const pub = (await call(bob, "POST", "", { name: "Loud", location: "#1" })).body;
    await g.run(eve, "say Hi Bob.");
    await g.run(ann, "say Still private.");
    await until(() => poses(pub.id), (p) => p.length === 1, "public pose");
    await until(() => poses(priv.id), (p) => p.length === 2, "second private pose");
    assertEquals((await poses(pub.id)).map((p) => p.charName), ["Eve"]);
    assertEquals((await poses(priv.id)).map((p) => p.charName), ["Ann", "Ann"]);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a room that spoke without a scene logs the first line after one starts there", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann");
    // No scene in #1: these lines are logged nowhere, and the room is remembered as quiet.
    await g.run(ann, "say Nobody here yet.");
    await g.run(ann, "say Still nobody.");
    const s = (await call(ann, "POST", "", { name: "Late", location: "#1" })).body;
    const said = (p: Json[], msg: string) => p.some((x) => x.msg === `says, "${msg}"`);
    const poses = async () => (await call(ann, "GET", `/${s.id}`)).body.poses as Json[];
    await g.run(ann, "say Now there is.");
    await until(poses, (p) => said(p, "Now there is."), "the first line after the start");
    // Closed, nothing is logged; reopened, the next line is.
    await call(ann, "PATCH", `/${s.id}`, { status: "closed" });
    await g.run(ann, "say Closed now.");
    await call(ann, "PATCH", `/${s.id}`, { status: "active" });
    await g.run(ann, "say Open again.");
    const got = await until(poses, (p) => said(p, "Open again."), "the line after reopening");
    assert(!said(got, "Closed now."), "nothing logged while closed");
  } finally {
    await g.close();
  }
});

Deno.test("scenes: the Markdown export matches the expected file byte for byte; JSON is the scene", async () => {
  const clock = new ManualClock(Date.UTC(2026, 2, 14, 19, 30));
  const g = await game({ clock });
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    const s = (await call(ann, "POST", "", {
      name: "The %chMidnight%cn Ball",
      location: "#1",
      sceneType: "event",
      desc: "Candles everywhere.",
    })).body;
    await call(ann, "POST", `/${s.id}/pose`, { type: "set" });
    await call(ann, "POST", `/${s.id}/pose`, { msg: "curtsies to the %crroom%cn." });
    await call(bob, "POST", `/${s.id}/pose`, { msg: "need to step away soon", type: "ooc" });
    await g.run(bob, "say Shall we dance?");
    await until(
      async () => (await call(ann, "GET", `/${s.id}`)).body.poses.length,
      (n) => n === 4,
      "say logged",
    );
    await call(ann, "PATCH", `/${s.id}`, {
      status: "closed",
      endTime: Date.UTC(2026, 2, 14, 22, 5),
    });

    clock.advance(3 * 3600_000);
    const md = await call(bob, "GET", `/${s.id}/export`);
    assertEquals(md.status, 200);
    assertMatch(md.headers.get("content-type")!, /^text\/markdown/);
    const expected = await Deno.readTextFile(EXPECTED);
    assertEquals(md.body, expected);
    assertEquals((await call(bob, "GET", `/${s.id}/export?format=markdown`)).body, expected);

    const json = await call(bob, "GET", `/${s.id}/export?format=json`);
    assertMatch(json.headers.get("content-type")!, /^application\/json/);
    assertEquals(json.body, (await call(bob, "GET", `/${s.id}`)).body);
    assertEquals(json.body.poses.length, 4);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: locations are the rooms the caller may enter, by name, private when enter-locked", async () => {
  const g = await game({ plugins: ["building"] });
  const call = rest(g);
  try {
    const boss = await g.player("Boss", { flags: ["admin"] });
    const ann = await g.player("Ann");
    const dig = async (name: string) => {
      const out = (await g.run(boss, `@dig ${name}`)).text("Boss");
      return out.match(/#(\d+)/)![1];
    };
    const garden = await dig("Garden");
    const vault = await dig("Vault");
    const attic = await dig("attic");
    await g.run(boss, `@lock #${vault}/enter=admin`);
    await g.run(boss, `@lock #${attic}/enter=#${ann.id}|admin`);
    const seen = async (who: TestPlayer) => (await call(who, "GET", "/locations")).body;
    const room1 = (await seen(boss)).find((r: Json) => r.id === "#1");
    assert(room1, "room #1 is listed");
    assertEquals(
      (await seen(boss)).map((r: Json) => [r.name, r.type]),
      [["attic", "private"], ["Garden", "public"], [room1.name, "public"], ["Vault", "private"]]
        .sort((a, b) => a[0].toLowerCase() < b[0].toLowerCase() ? -1 : 1),
    );
    const annSees = (await seen(ann)).map((r: Json) => r.id);
    assert(annSees.includes(`#${garden}`) && annSees.includes(`#${attic}`));
    assert(!annSees.includes(`#${vault}`), "the vault's enter lock keeps Ann out");
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a player cannot start a scene in a room whose enter lock keeps them out", async () => {
  const g = await game({ plugins: ["building"] });
  const call = rest(g);
  try {
    const boss = await g.player("Boss", { flags: ["admin"] });
    const ann = await g.player("Ann");
    const vault = (await g.run(boss, "@dig Vault")).text("Boss").match(/#(\d+)/)![1];
    await g.run(boss, `@lock #${vault}/enter=admin`);
    // Poses of a scene are heard in its room, so a scene there would let Ann speak into a room
    // she may not enter; GET /locations does not offer it either.
    const refused = await call(ann, "POST", "", { name: "Heist", location: `#${vault}` });
    assertEquals(refused.status, 403);
    assertMatch(refused.body.error, /enter/);
    assertEquals((await call(ann, "GET", "")).body, [], "nothing was stored");
    const staff = await call(boss, "POST", "", { name: "Audit", location: `#${vault}` });
    assertEquals(staff.status, 201);
    assertEquals((await call(ann, "POST", "", { name: "Tea", location: "#1" })).status, 201);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: +scene commands in game, the pose order and the nudge", async () => {
  const g = await game();
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob"), eve = await g.player("Eve");
    await g.connect(bob);
    await g.connect(eve);
    const start = await g.run(ann, "+scene/start Harbour Watch");
    assertMatch(start.text("Bob"), /Ann starts scene (\d+): Harbour Watch/);
    const id = start.text("Bob").match(/scene (\d+)/)![1];
    assertMatch((await g.run(bob, "+scenes")).text("Bob"), new RegExp(`${id}\\s+Harbour Watch`));
    assertMatch((await g.run(bob, `+scene/join ${id}`)).text("Bob"), /You join scene/);
    const set = await g.run(ann, "+scene/set Fog rolls in.");
    assertEquals(set.text("Eve"), "[Scene Set] Fog rolls in.");
    await g.run(bob, "pose keeps watch.");
    await until(
      async () => (await call(ann, "GET", `/${id}`)).body.poses.length,
      (n) => n === 2,
      "2 poses",
    );
    assertMatch(
      (await g.run(eve, "+scenes")).text("Eve"),
      new RegExp(`${id}\\s+Harbour Watch\\s+Limbo\\s+Ann, Bob\\s+\\d+s`),
    );
    const order = (await g.run(ann, "+scene/order")).text("Ann");
    assertMatch(order, /Pose order, scene \d+:/);
    assertMatch(order, /Next up: Ann/);
    const nudge = await g.run(bob, "+scene/nudge");
    assertMatch(nudge.text("Ann"), /Bob nudges you: it is your turn to pose in scene/);
    assertEquals(nudge.text("Bob"), "You nudge Ann.");

    assertMatch((await g.run(eve, `+scene/title ${id}=Mine`)).text("Eve"), /owner/);
    assertMatch(
      (await g.run(ann, `+scene/title ${id}=Harbour Night`)).text("Ann"),
      /Harbour Night/,
    );
    assertMatch((await g.run(ann, `+scene/type ${id}=plot`)).text("Ann"), /type plot/);
    assertMatch((await g.run(ann, `+scene/type ${id}=party`)).text("Ann"), /social, event/);
    assertMatch((await g.run(ann, `+scene/privacy ${id}=private`)).text("Ann"), /now private/);
    assertMatch((await g.run(eve, `+scene ${id}`)).text("Eve"), /private/);
    assertMatch((await g.run(ann, `+scene/invite ${id}=Eve`)).text("Eve"), /invites you to scene/);
    const summary = (await g.run(eve, `+scene ${id}`)).text("Eve");
    assertMatch(summary, /Scene \d+: Harbour Night/);
    assertMatch(summary, /Bob keeps watch\./);
    assertMatch((await g.run(ann, `+scene/pause ${id}`)).text("Bob"), /paused scene/);
    assertMatch((await g.run(ann, `+scenes`)).text("Ann"), /\(paused\)/);
    assertMatch((await g.run(ann, `+scene/resume ${id}`)).text("Bob"), /resumed scene/);
    const log = (await g.run(eve, `+scene/log ${id}`)).text("Eve");
    assertMatch(log, /page 1 of 1/);
    assertMatch(log, /\[Scene Set\] Fog rolls in\.\nBob keeps watch\./);
    // A set may hold `=`; `<#>=` is taken only before a number.
    assertEquals(
      (await g.run(ann, "+scene/set Tide = high.")).text("Eve"),
      "[Scene Set] Tide = high.",
    );
    assertEquals((await g.run(ann, `+scene/set ${id}=Dawn.`)).text("Bob"), "[Scene Set] Dawn.");
    assertMatch((await g.run(ann, `+scene/stop ${id}`)).text("Bob"), /stopped scene/);
    const d = (await call(ann, "GET", `/${id}`)).body;
    assertEquals([d.name, d.sceneType, d.private, d.status], [
      "Harbour Night",
      "plot",
      true,
      "closed",
    ]);
    assertMatch((await g.run(ann, "+scene/log 999")).text("Ann"), /not found/i);
    assertMatch((await g.run(ann, "+scene/start")).text("Ann"), /starts scene \d+: Scene in/);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a telnet player in the room reads a REST pose as text and as GMCP Scene.Pose", async () => {
  const plugins = await Deno.makeTempDir({ prefix: "ursamu-scenes-" });
  await Deno.symlink(join(ROOT, "plugins/scenes"), join(plugins, "scenes"));
  const srv = await startSupervised({ env: { URSAMU_SERVER_PLUGINSDIR: plugins } });
  try {
    const gmcp = await telnetLogin(srv, ADMIN.name, ADMIN.password, { gmcp: true });
    const token = await register(srv.base, "Poet");
    try {
      const s = await api(srv.base, "POST", "/api/v1/scenes", {
        name: "Verse",
        location: "#1",
      }, token);
      assertEquals(s.status, 201);
      const p = await api(srv.base, "POST", `/api/v1/scenes/${s.body.id}/pose`, {
        msg: "recites a %chsonnet%cn.",
      }, token);
      assertEquals(p.status, 201);
      await gmcp.waitFor(/Poet recites a sonnet\./);
      const pkg = () => gmcp.gmcp.find((m) => m.package === "Scene.Pose");
      await gmcp.until(() => pkg() !== undefined, "Scene.Pose");
      const data = pkg()!.data as Json;
      assertEquals([data.sceneId, data.charName, data.type], [s.body.id, "Poet", "pose"]);
      await api(srv.base, "POST", `/api/v1/scenes/${s.body.id}/pose`, {
        msg: "bows",
        type: "ooc",
      }, token);
      await gmcp.waitFor(/\[OOC\] Poet: bows/);
      // Speech typed on telnet is logged too.
      await gmcp.send("say Bravo!");
      await until(
        async () =>
          (await api(srv.base, "GET", `/api/v1/scenes/${s.body.id}`, undefined, token)).body.poses,
        (ps: Json[]) => ps.length === 3,
        "telnet say logged",
      );
    } finally {
      await gmcp.close();
    }
  } finally {
    await srv.stop();
    await Deno.remove(plugins, { recursive: true });
  }
});

Deno.test("scenes: a long scene's detail is its newest poses with a way back; poses are capped; exports stream all", async () => {
  const g = await game({
    config: {
      game: { restWritesPerMinute: 0 },
      plugins: { scenes: { detailPoses: 5, maxPoses: 12 } },
    },
  });
  const call = rest(g);
  try {
    const ann = await g.player("Ann");
    const s = (await call(ann, "POST", "", { name: "Long", location: "#1" })).body;
    // A small scene's detail holds every pose and says nothing more.
    await call(ann, "POST", `/${s.id}/pose`, { msg: "pose 1" });
    const small = (await call(ann, "GET", `/${s.id}`)).body;
    assertEquals([small.poses.length, small.olderPoses], [1, undefined]);
    for (let i = 2; i <= 12; i++) {
      assertEquals((await call(ann, "POST", `/${s.id}/pose`, { msg: `pose ${i}` })).status, 201);
    }
    const full = await call(ann, "POST", `/${s.id}/pose`, { msg: "one too many" });
    assertEquals(full.status, 409);
    assertEquals(full.body, {
      error: `Scene ${s.id} is full: a scene holds at most 12 poses. Start a new scene to go on.`,
    });
    const ids = (poses: { id: string }[]) => poses.map((p) => Number(p.id));
    const detail = (await call(ann, "GET", `/${s.id}`)).body;
    assertEquals(ids(detail.poses), [8, 9, 10, 11, 12], "the newest five");
    assertEquals([detail.poseCount, detail.olderPoses], [12, 7]);
    // Paging back from the first shown, and forward from anywhere.
    assertEquals(ids((await call(ann, "GET", `/${s.id}/poses?before=8`)).body), [3, 4, 5, 6, 7]);
    assertEquals(ids((await call(ann, "GET", `/${s.id}/poses?before=3`)).body), [1, 2]);
    assertEquals(ids((await call(ann, "GET", `/${s.id}/poses?after=10`)).body), [11, 12]);
    assertEquals(ids((await call(ann, "GET", `/${s.id}/poses?limit=2`)).body), [1, 2]);
    assertEquals((await call(ann, "GET", `/${s.id}/poses?limit=500`)).body.length, 5, "capped");
    for (const q of ["before=x", "before=1&after=1", "limit=0", "page=2"]) {
      assertEquals((await call(ann, "GET", `/${s.id}/poses?${q}`)).status, 400, q);
    }
    assertEquals((await call(ann, "GET", "/999/poses")).status, 404);
    // Speech in a full scene is not logged, and is no error.
    await g.run(ann, "say still talking");
    assertEquals((await call(ann, "GET", `/${s.id}`)).body.poseCount, 12);
    // The exports stream every pose.
    const md = await call(ann, "GET", `/${s.id}/export`);
    assertEquals(md.status, 200);
    assertEquals(md.headers.get("content-length"), null, "streamed, not built whole");
    for (let i = 1; i <= 12; i++) assertMatch(md.body, new RegExp(`\\*\\*Ann\\*\\* pose ${i}\n`));
    const json = await call(ann, "GET", `/${s.id}/export?format=json`);
    assertEquals(ids(json.body.poses), Array.from({ length: 12 }, (_, i) => i + 1));
    const { poses: _a, olderPoses: _b, ...rest } = detail;
    const { poses: _c, ...exported } = json.body;
    assertEquals(exported, rest);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: REST writes others hear have a rate of their own, shared by plugins; typed commands go on", async () => {
  const g = await game({
    plugins: ["boards"],
    config: { game: { restWritesPerMinute: 3 } },
  });
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), bob = await g.player("Bob");
    const wiz = await g.player("Wiz", { flags: ["wizard"] });
    const s = (await call(ann, "POST", "", { name: "Busy", location: "#1" })).body;
    // A refused write reaches nobody and costs nothing.
    assertEquals((await call(ann, "POST", `/${s.id}/pose`, { msg: "" })).status, 400);
    for (let i = 1; i <= 2; i++) {
      assertEquals((await call(ann, "POST", `/${s.id}/pose`, { msg: `pose ${i}` })).status, 201);
    }
    assertEquals(
      (await g.request("POST", "/api/v1/boards", { as: wiz, body: { name: "News" } })).status,
      201,
    );
    const post = (as: TestPlayer) =>
      g.request("POST", "/api/v1/boards/news/posts", { as, body: { subject: "s", body: "b" } });
    assertEquals((await post(ann)).status, 201, "the third write, on another plugin");
    const over = await post(ann);
    assertEquals(over.status, 429);
    assertMatch(
      over.body.error,
      /^You are writing too fast: at most 3 posts, poses, messages, jobs, comments and RSVPs a minute through the web API\. Try again in \d+ seconds?\.$/,
    );
    assert(Number(over.headers.get("retry-after")) >= 1, "Retry-After");
    assertEquals((await call(ann, "POST", `/${s.id}/pose`, { msg: "more" })).status, 429);
    // Another player has a budget of their own, and Ann's typed commands still run.
    assertEquals((await call(bob, "POST", `/${s.id}/pose`, { msg: "hello" })).status, 201);
    await g.connect(bob);
    const heard = await g.run(ann, "say typed lines are not REST writes");
    assertMatch(heard.text("Bob"), /typed lines are not REST writes/);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a thing's or puppet's scene is its owner's, on its owner's quota", async () => {
  const g = await game({
    plugins: ["building"],
    config: { plugins: { scenes: { maxScenes: 2 } } },
  });
  const call = rest(g);
  try {
    const ann = await g.player("Ann", { flags: ["builder"] });
    const wiz = await g.player("Wiz", { flags: ["wizard"] });
    await g.run(ann, "@create Puppet");
    await g.run(ann, "@set Puppet=puppet");
    await g.run(ann, "drop Puppet");
    await g.run(ann, "@force Puppet=+scene/start By the puppet");
    const all = async () =>
      ((await call(wiz, "GET", "")).body as Json[]).map((s) => [s.name, s.owner]);
    const mine = await until(all, (l) => l.length === 1, "the puppet's scene");
    assertEquals(mine, [["By the puppet", `#${ann.id}`]]);
    assertEquals((await call(ann, "POST", "", { name: "Hers", location: "#1" })).status, 201);
    // Ann's quota is used up: the puppet cannot start a third scene for her.
    await g.run(ann, "@force Puppet=+scene/start Escape");
    const refused = await until(
      () => g.received(),
      (r) => /You own 2 scenes/.test(r.text("Ann")),
      "the refusal, relayed by the puppet",
    );
    assertMatch(refused.text("Ann"), /You own 2 scenes/);
    assertEquals((await all()).length, 2);
    // A staff member's thing starts scenes free of the quota, as its owner does.
    await g.run(wiz, "@create Helper");
    await g.run(wiz, "drop Helper");
    for (let i = 0; i < 3; i++) await g.run(wiz, `@force Helper=+scene/start Staff ${i}`);
    const staff = await until(all, (l) => l.length === 5, "the helper's scenes");
    assertEquals(staff.filter(([, o]) => o === `#${wiz.id}`).length, 3);
  } finally {
    await g.close();
  }
});

Deno.test("scenes: a player owns at most plugins.scenes.maxScenes scenes; staff are not held to it", async () => {
  const g = await game({ config: { plugins: { scenes: { maxScenes: 2 } } } });
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), wiz = await g.player("Wiz", { flags: ["wizard"] });
    const made = await Promise.all(
      [1, 2, 3, 4].map((i) => call(ann, "POST", "", { name: `S${i}`, location: "#1" })),
    );
    assertEquals(made.map((r) => r.status).sort(), [201, 201, 409, 409]);
    assertEquals(made.find((r) => r.status === 409)!.body, {
      error: "You own 2 scenes, the most a player may. Staff can raise plugins.scenes.maxScenes.",
    });
    assertMatch((await g.run(ann, "+scene/start Another")).text("Ann"), /You own 2 scenes/);
    for (let i = 0; i < 3; i++) {
      assertEquals((await call(wiz, "POST", "", { name: `W${i}`, location: "#1" })).status, 201);
    }
  } finally {
    await g.close();
  }
});

Deno.test("scenes: pose text is held to bytes per scene and per player on every path; a refusal stores nothing", async () => {
  const g = await game({
    config: {
      game: { restWritesPerMinute: 0 },
      plugins: { scenes: { maxSceneBytes: 100, maxPoseBytes: 150 } },
    },
  });
  const call = rest(g);
  try {
    const ann = await g.player("Ann"), wiz = await g.player("Wiz", { flags: ["wizard"] });
    const a = (await call(ann, "POST", "", { name: "A", location: "#1" })).body;
    // Bytes, not characters: 30 two-byte letters are 60 bytes.
    assertEquals((await call(ann, "POST", `/${a.id}/pose`, { msg: "é".repeat(30) })).status, 201);
    const sceneFull = await call(ann, "POST", `/${a.id}/pose`, { msg: "x".repeat(41) });
    assertEquals(sceneFull.status, 409);
    assertEquals(sceneFull.body, {
      error: `Scene ${a.id} is full: a scene holds at most 100 bytes of poses. ` +
        "Start a new scene to go on.",
    });
    assertEquals((await call(ann, "GET", `/${a.id}`)).body.poseCount, 1, "nothing stored");
    // A pose edit that grows the text is checked the same way; the pose stays as it was.
    const grown = await call(ann, "PATCH", `/${a.id}/pose/1`, { msg: "é".repeat(51) });
    assertEquals(grown.status, 409);
    assertEquals((await call(ann, "GET", `/${a.id}`)).body.poses[0].msg, "é".repeat(30));
    // Exactly up to the scene's limit is allowed (60 + 40).
    assertEquals((await call(ann, "POST", `/${a.id}/pose`, { msg: "y".repeat(40) })).status, 201);

    // Ann has written 100 bytes: a second scene takes 50 more, not 51.
    const b = (await call(ann, "POST", "", { name: "B", location: "#1" })).body;
    assertEquals((await call(ann, "POST", `/${b.id}/pose`, { msg: "z".repeat(30) })).status, 201);
    const mine = await call(ann, "POST", `/${b.id}/pose`, { msg: "z".repeat(21) });
    assertEquals(mine.status, 409);
    assertEquals(mine.body, {
      error: "That would take your poses past 150 bytes, the most scene text a player may " +
        "store. Staff can raise plugins.scenes.maxPoseBytes.",
    });
    // Typed over the WebSocket: +scene/set is refused with the same words.
    const set = await g.run(ann, `+scene/set ${b.id}=${"w".repeat(21)}`);
    assertMatch(set.text("Ann"), /That would take your poses past 150 bytes/);
    // Speech in the scenes' room is heard but not logged, and the speaker is told why (A is
    // full, and is left out without a word, as a scene full of poses is).
    await g.run(ann, `say ${"v".repeat(20)}`);
    const told = await until(
      () => g.received(),
      (r) => /Not logged in scene/.test(r.text("Ann")),
      "the speaker told",
    );
    assertMatch(told.text("Ann"), new RegExp(`Not logged in scene ${b.id}: That would take`));
    assertEquals((await call(ann, "GET", `/${b.id}`)).body.poseCount, 1, "nothing stored");
    // An edit that shrinks a pose gives the bytes back.
    assertEquals((await call(ann, "PATCH", `/${b.id}/pose/1`, { msg: "z" })).status, 200);
    assertEquals((await call(ann, "POST", `/${b.id}/pose`, { msg: "z".repeat(29) })).status, 201);
    // Staff are not held to the player's quota, only to the scene's.
    const c = (await call(wiz, "POST", "", { name: "C", location: "#1" })).body;
    const d = (await call(wiz, "POST", "", { name: "D", location: "#1" })).body;
    assertEquals((await call(wiz, "POST", `/${c.id}/pose`, { msg: "q".repeat(90) })).status, 201);
    assertEquals((await call(wiz, "POST", `/${d.id}/pose`, { msg: "q".repeat(100) })).status, 201);
    assertEquals((await call(wiz, "POST", `/${c.id}/pose`, { msg: "q".repeat(11) })).status, 409);
  } finally {
    await g.close();
  }
});
