/**
 * The events plugin, black-box through the plugin test kit: every REST endpoint with its
 * refusals, the in-game `+event` commands, the calendar's hooks (seen by the `calspy` fixture),
 * and the scheduler on a hand-driven clock: start, end, reminders, rescheduling, cancelled and
 * deleted events that never fire, statuses set by hand; in-process engines on one database file
 * across a full stop; and a supervised game driven through a real `@reboot` while an event's start
 * falls inside it (with mail on its telnet client).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ManualClock, startTestGame, type TestGame } from "../src/plugins/testing.ts";
import { api, ROOT } from "./harness.ts";
import { ADMIN, count, telnetLogin } from "./supervised.ts";
import { startHeldGame } from "./held_restart.ts";
import { createEngine, type Engine } from "../src/engine.ts";

const MIN = 60_000;
const HOUR = 60 * MIN;
const SPY = join(ROOT, "tests/fixtures/plugins/calspy");

// deno-lint-ignore no-explicit-any
type Json = any;

async function game(opts: { clock?: ManualClock; config?: Record<string, unknown> } = {}) {
  const g = await startTestGame({ plugins: ["events", "help", SPY], ...opts });
  const staff = await g.player("Wiz", { flags: ["admin"] });
  const ann = await g.player("Ann");
  const bob = await g.player("Bob");
  return { g, staff, ann, bob };
}

async function hooks(g: TestGame, ...names: string[]): Promise<Json[]> {
  const all = (await g.request("GET", "/api/v1/calspy")).body as Json[];
  return names.length ? all.filter((h) => names.includes(h.event)) : all;
}

Deno.test("events REST: create, list, view, update, delete with the spec's fields", async () => {
  const { g, staff, ann } = await game();
  try {
    const start = Date.UTC(2030, 4, 1, 20);
    const made = await g.request("POST", "/api/v1/events", {
      as: staff,
      body: {
        title: " Harvest\nBall ",
        description: "Masks.",
        startTime: start,
        location: "Great Hall",
        tags: ["social", "dance"],
        maxAttendees: 2,
      },
    });
    assert.equal(made.status, 201);
    const ev = made.body;
    assert.deepEqual(
      {
        number: ev.number,
        title: ev.title,
        status: ev.status,
        startTime: ev.startTime,
        endTime: ev.endTime,
        tags: ev.tags,
        maxAttendees: ev.maxAttendees,
        createdByName: ev.createdByName,
        rsvps: ev.rsvps,
      },
      {
        number: 1,
        title: "Harvest Ball",
        status: "upcoming",
        startTime: start,
        endTime: null,
        tags: ["social", "dance"],
        maxAttendees: 2,
        createdByName: "Wiz",
        rsvps: [],
      },
    );
    assert.equal(typeof ev.id, "string");
    const second = await g.request("POST", "/api/v1/events", {
      as: staff,
      body: { title: "Earlier", description: "", startTime: start - HOUR },
    });
    assert.equal(second.body.number, 2, "numbers are sequential");

    // Soonest first, for players and staff alike.
    const list = (await g.request("GET", "/api/v1/events", { as: ann })).body as Json[];
    assert.deepEqual(list.map((e) => e.title), ["Earlier", "Harvest Ball"]);
    const one = await g.request("GET", `/api/v1/events/${ev.id}`, { as: ann });
    assert.equal(one.status, 200);
    assert.equal(one.body.location, "Great Hall");

    const patched = await g.request("PATCH", `/api/v1/events/${ev.id}`, {
      as: staff,
      body: { title: "Autumn Ball", endTime: start + 2 * HOUR, tags: [] },
    });
    assert.equal(patched.status, 200);
    assert.deepEqual([patched.body.title, patched.body.endTime, patched.body.tags], [
      "Autumn Ball",
      start + 2 * HOUR,
      [],
    ]);

    // Cancelled events: staff see them, players do not (not in the list, 404 alone).
    await g.request("PATCH", `/api/v1/events/${second.body.id}`, {
      as: staff,
      body: { status: "cancelled" },
    });
    const seen = async (who: typeof ann) =>
      ((await g.request("GET", "/api/v1/events", { as: who })).body as Json[]).map((e) => e.title);
    assert.deepEqual(await seen(ann), ["Autumn Ball"]);
    assert.deepEqual(await seen(staff), ["Earlier", "Autumn Ball"]);
    assert.equal(
      (await g.request("GET", `/api/v1/events/${second.body.id}`, { as: ann })).status,
      404,
    );
    assert.equal(
      (await g.request("GET", `/api/v1/events/${second.body.id}`, { as: staff })).status,
      200,
    );

    // Delete takes the RSVPs with it.
    await g.request("POST", `/api/v1/events/${ev.id}/rsvp`, { as: ann });
    const del = await g.request("DELETE", `/api/v1/events/${ev.id}`, { as: staff });
    assert.deepEqual([del.status, del.body], [200, { deleted: true }]);
    assert.equal((await g.request("GET", `/api/v1/events/${ev.id}`, { as: staff })).status, 404);
    const left = await g.engine.services.kv.list({ prefix: ["plugin", "events", "rsvp", ev.id] })
      .next();
    assert.ok(left.done, "no RSVP of a deleted event is left");
    const index = await g.engine.services.kv.list({
      prefix: ["plugin", "events", "rsvp_by_player", ann.id],
    }).next();
    assert.ok(index.done, "nor its entry in the player's index");

    // Exactly the spec's payload fields.
    const fired = await hooks(g);
    assert.deepEqual(fired.map((h) => h.event), [
      "event:created",
      "event:created",
      "event:updated",
      "event:updated",
      "event:cancelled",
      "event:rsvp",
      "event:deleted",
    ]);
    assert.deepEqual(fired[0].payload, {
      eventId: ev.id,
      name: "Harvest Ball",
      startTime: start,
      createdBy: staff.id,
    });
    assert.deepEqual(fired[2].payload, {
      eventId: ev.id,
      changes: { title: "Autumn Ball", endTime: start + 2 * HOUR, tags: [] },
    });
    assert.deepEqual(fired[4].payload, { eventId: second.body.id, name: "Earlier" });
    assert.deepEqual(fired[5].payload, { eventId: ev.id, playerId: ann.id, status: "attending" });
    assert.deepEqual(fired[6].payload, { eventId: ev.id });
  } finally {
    await g.close();
  }
});

Deno.test("events REST: from and to keep one span of start times (a calendar's month)", async () => {
  const { g, staff, ann } = await game();
  try {
    const day = 24 * HOUR;
    const base = Date.UTC(2030, 0, 1);
    const made: Json[] = [];
    for (const [i, title] of [[0, "New year"], [14, "Mid"], [31, "February"], [45, "Later"]]) {
      const r = await g.request("POST", "/api/v1/events", {
        as: staff,
        body: { title, startTime: base + (i as number) * day },
      });
      assert.equal(r.status, 201);
      made.push(r.body);
    }
    // A cancelled one in the span: hidden from players, shown to staff.
    await g.request("PATCH", `/api/v1/events/${made[1].id}`, {
      as: staff,
      body: { status: "cancelled" },
    });
    const titles = async (q: string, as = ann) => {
      const r = await g.request("GET", `/api/v1/events${q}`, { as });
      assert.equal(r.status, 200, `${q}: ${JSON.stringify(r.body)}`);
      return (r.body as Json[]).map((e) => e.title);
    };
    const jan = `?from=${base}&to=${base + 31 * day}`;
    assert.deepEqual(await titles(jan), ["New year"]);
    assert.deepEqual(await titles(jan, staff), ["New year", "Mid"]);
    // from included, to excluded.
    assert.deepEqual(await titles(`?from=${base + 31 * day}&to=${base + 45 * day}`), ["February"]);
    assert.deepEqual(await titles(`?from=${base + 31 * day}`), ["February", "Later"]);
    assert.deepEqual(await titles(`?to=${base + 31 * day}`), ["New year"]);
    assert.deepEqual(await titles(`?from=${base}&limit=1&offset=1`), ["February"]);
    assert.deepEqual(await titles(`?from=${base + 400 * day}`), []);
    // Visitors read the same span of the open events (web.public.events is on by default).
    const visitor = await g.request("GET", `/api/v1/public/events${jan}`);
    assert.equal(visitor.status, 200, JSON.stringify(visitor.body));
    assert.deepEqual((visitor.body as Json[]).map((e) => e.title), ["New year"]);
    const later = await g.request("GET", `/api/v1/public/events?from=${base + 31 * day}`);
    assert.deepEqual((later.body as Json[]).map((e) => e.title), ["February", "Later"]);
    for (const q of ["?from=soon", `?from=${base}&to=${base}`, "?when=1"]) {
      const r = await g.request("GET", `/api/v1/public/events${q}`);
      assert.equal(r.status, 400, `public ${q}`);
      assert.equal(typeof r.body.error, "string", q);
    }
    for (
      const q of [
        "?from=soon",
        "?from=-5",
        "?to=1e3",
        `?from=${base}&to=${base}`,
        `?from=${base + day}&to=${base}`,
        "?from=99999999999999999",
        "?when=1",
      ]
    ) {
      const r = await g.request("GET", `/api/v1/events${q}`, { as: ann });
      assert.equal(r.status, 400, q);
      assert.equal(typeof r.body.error, "string", q);
    }
  } finally {
    await g.close();
  }
});

Deno.test("events REST: refusals are { error } with the right status and write nothing", async () => {
  const { g, staff, ann } = await game();
  try {
    const start = Date.UTC(2030, 0, 1);
    const ev = (await g.request("POST", "/api/v1/events", {
      as: staff,
      body: { title: "T", description: "d", startTime: start },
    })).body;
    const refused = async (
      who: typeof ann | undefined,
      method: string,
      path: string,
      status: number,
      body?: unknown,
    ) => {
      const r = await g.request(method, path, { as: who, body });
      assert.equal(r.status, status, `${method} ${path} ${JSON.stringify(body)}: ${r.body?.error}`);
      assert.equal(typeof r.body.error, "string");
      return r.body.error as string;
    };
    await refused(undefined, "GET", "/api/v1/events", 401);
    await refused(ann, "POST", "/api/v1/events", 403, { title: "x", startTime: start });
    await refused(ann, "PATCH", `/api/v1/events/${ev.id}`, 403, { title: "x" });
    await refused(ann, "DELETE", `/api/v1/events/${ev.id}`, 403);
    for (
      const body of [
        { title: "x", startTime: "tomorrow" },
        { title: "x", startTime: "2026-13-40" },
        { title: "x", startTime: -5 },
        { title: "x", startTime: 1.5 },
        { title: "", startTime: start },
        { startTime: start },
        { title: "x" },
        { title: "x", startTime: start, maxAttendees: -1 },
        { title: "x", startTime: start, maxAttendees: "lots" },
        { title: "x", startTime: start, endTime: start - 1 },
        { title: "x".repeat(201), startTime: start },
        { title: "x", startTime: start, tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
        { title: "x", startTime: start, status: "active" },
        { title: "x", startTime: start, owner: "#1" },
      ]
    ) {
      await refused(staff, "POST", "/api/v1/events", 400, body);
    }
    assert.match(
      await refused(staff, "PATCH", `/api/v1/events/${ev.id}`, 400, { status: "finished" }),
      /status must be one of upcoming, active, completed, cancelled/,
    );
    await refused(staff, "PATCH", `/api/v1/events/${ev.id}`, 400, {});
    await refused(staff, "PATCH", `/api/v1/events/${ev.id}`, 400, { maxAttendees: -3 });
    await refused(staff, "PATCH", `/api/v1/events/${ev.id}`, 400, { endTime: start });
    await refused(staff, "PATCH", "/api/v1/events/nope", 404, { title: "x" });
    await refused(staff, "DELETE", "/api/v1/events/nope", 404);
    await refused(ann, "GET", "/api/v1/events/nope", 404);
    await refused(ann, "POST", "/api/v1/events/nope/rsvp", 404, { status: "maybe" });
    await refused(ann, "POST", `/api/v1/events/${ev.id}/rsvp`, 400, { status: "sure" });
    await refused(ann, "DELETE", `/api/v1/events/${ev.id}/rsvp`, 404);
    await refused(staff, "POST", "/api/v1/events", 400, "not json");

    // Nothing was written by any of it.
    const all = (await g.request("GET", "/api/v1/events", { as: staff })).body as Json[];
    assert.equal(all.length, 1);
    const { updatedAt: _u, ...same } = all[0];
    const { updatedAt: _v, ...before } = ev;
    assert.deepEqual({ ...same, rsvps: [] }, before);
    assert.deepEqual((await hooks(g)).map((h) => h.event), ["event:created"]);
  } finally {
    await g.close();
  }
});

Deno.test("events RSVP: default, replace, capacity 409, closed events 400, withdraw", async () => {
  const { g, staff, ann, bob } = await game();
  try {
    const carl = await g.player("Carl");
    const ev = (await g.request("POST", "/api/v1/events", {
      as: staff,
      body: { title: "Small", description: "", startTime: Date.UTC(2030, 0, 1), maxAttendees: 2 },
    })).body;
    const rsvp = (who: typeof ann, body?: unknown) =>
      g.request("POST", `/api/v1/events/${ev.id}/rsvp`, { as: who, body });
    const a = await rsvp(ann);
    assert.equal(a.status, 200);
    assert.deepEqual([a.body.playerId, a.body.name, a.body.status], [ann.id, "Ann", "attending"]);
    assert.equal(typeof a.body.time, "number");
    assert.equal((await rsvp(ann, { status: "maybe" })).body.status, "maybe", "replaced");
    assert.equal((await rsvp(ann, { status: "attending" })).status, 200);
    assert.equal((await rsvp(bob, {})).status, 200);
    // Full: attending refused, maybe and declined still taken, a re-RSVP of an attendee is fine.
    const full = await rsvp(carl, { status: "attending" });
    assert.deepEqual([full.status, full.body], [409, {
      error: "That event is full (2 attending).",
    }]);
    assert.equal((await rsvp(carl, { status: "maybe" })).status, 200);
    assert.equal((await rsvp(carl, { status: "declined" })).status, 200);
    assert.equal((await rsvp(bob, { status: "attending" })).status, 200);

    const view = (await g.request("GET", `/api/v1/events/${ev.id}`, { as: carl })).body;
    assert.deepEqual(view.rsvpCounts, { attending: 2, maybe: 0, declined: 1 });
    assert.deepEqual(
      view.rsvps.map((r: Json) => [r.name, r.status]).sort(),
      [["Ann", "attending"], ["Bob", "attending"], ["Carl", "declined"]],
    );
    for (const r of view.rsvps) {
      assert.deepEqual(Object.keys(r).sort(), ["name", "playerId", "status", "time"]);
    }

    // Withdrawing frees the seat.
    const un = await g.request("DELETE", `/api/v1/events/${ev.id}/rsvp`, { as: bob });
    assert.deepEqual([un.status, un.body], [200, { deleted: true }]);
    assert.equal((await rsvp(carl, { status: "attending" })).status, 200);

    // A toaded attendee gives up their seat (Ann and Carl held both).
    assert.equal((await rsvp(bob)).status, 409);
    assert.match((await g.run(staff, "@toad Carl")).text("Wiz"), /toad/i);
    let counts: Json = null;
    for (let i = 0; i < 50 && counts?.attending !== 1; i++) {
      await new Promise((r) => setTimeout(r, 20));
      counts = (await g.request("GET", `/api/v1/events/${ev.id}`, { as: ann })).body.rsvpCounts;
    }
    assert.deepEqual(counts, { attending: 1, maybe: 0, declined: 0 });
    assert.equal((await rsvp(bob)).status, 200);

    // Parallel attempts at the last seat: exactly one wins.
    await g.request("PATCH", `/api/v1/events/${ev.id}`, { as: staff, body: { maxAttendees: 3 } });
    const racers = await Promise.all(["D1", "D2", "D3", "D4"].map((n) => g.player(n)));
    const got = await Promise.all(racers.map((p) => rsvp(p)));
    assert.deepEqual(got.map((r) => r.status).sort(), [200, 409, 409, 409]);

    for (const status of ["completed", "cancelled"]) {
      await g.request("PATCH", `/api/v1/events/${ev.id}`, { as: staff, body: { status } });
      const r = await rsvp(bob, { status: "maybe" });
      assert.equal(r.status, 400, status);
      assert.match(r.body.error, /RSVPs are closed/);
    }
  } finally {
    await g.close();
  }
});

Deno.test("events in game: +event commands with dates in the game's time zone", async () => {
  const { g, staff, ann, bob } = await game({
    config: { plugins: { events: { timezone: "America/New_York" } } },
  });
  try {
    const made = await g.run(staff, "+event/create Harvest Ball=2030-10-31 20:00/Masks required.");
    assert.equal(made.text("Wiz"), "Event #1 'Harvest Ball' created for Thu 2030-10-31 20:00 EDT.");
    const ev = (await g.request("GET", "/api/v1/events", { as: ann })).body[0];
    assert.equal(ev.startTime, Date.UTC(2030, 10, 1, 0), "20:00 in New York is midnight UTC");
    assert.equal(ev.description, "Masks required.");

    await g.run(staff, "+event/create Tea=2030-06-01/");
    const list = (await g.run(ann, "+event")).text("Ann");
    assert.match(list, /#2 +Tea +Sat 2030-06-01 00:00 EDT +upcoming +0/);
    assert.ok(list.indexOf("Tea") < list.indexOf("Harvest Ball"), "soonest first");
    assert.match(list, /Times are America\/New_York/);
    assert.equal((await g.run(ann, "+event/list")).text("Ann"), list);

    assert.equal(
      (await g.run(ann, "+event/rsvp 1")).text("Ann"),
      "You RSVP attending to #1 'Harvest Ball'.",
    );
    assert.equal(
      (await g.run(bob, "+event/rsvp #1=decline")).text("Bob"),
      "You RSVP declined to #1 'Harvest Ball'.",
    );
    assert.equal(
      (await g.run(bob, "+event/rsvp 1=maybe")).text("Bob"),
      "You RSVP maybe to #1 'Harvest Ball'.",
    );
    assert.equal(
      (await g.run(bob, "+event/rsvp 1=sure")).text("Bob"),
      "RSVP with attending, maybe or decline.",
    );
    assert.match((await g.run(ann, "+event/list")).text("Ann"), /Harvest Ball .* 1 +attending/);
    const view = (await g.run(bob, "+event/view 1")).text("Bob");
    assert.match(view, /#1 'Harvest Ball' +\[upcoming\]/);
    assert.match(view, /Starts: +Thu 2030-10-31 20:00 EDT/);
    assert.match(view, /Ends: +Thu 2030-10-31 23:00 EDT \(3 hours after the start\)/);
    assert.match(view, /Organizer: Wiz/);
    assert.match(view, /Attending: 1 \(Ann\)/);
    assert.match(view, /Maybe: +Bob/);
    assert.match(view, /Masks required\./);
    assert.equal(
      (await g.run(bob, "+event/unrsvp 1")).text("Bob"),
      "You withdraw your RSVP to #1 'Harvest Ball'.",
    );
    assert.equal(
      (await g.run(bob, "+event/unrsvp 1")).text("Bob"),
      "You have not RSVPed to that event.",
    );

    // Staff edits, field by field.
    const edit = async (line: string) => (await g.run(staff, line)).text("Wiz");
    assert.equal(
      await edit("+event/edit 1/location=Great Hall"),
      "#1 'Harvest Ball': location set to Great Hall.",
    );
    assert.equal(
      await edit("+event/edit 1/tags=social, dance,social"),
      "#1 'Harvest Ball': tags set to social, dance.",
    );
    assert.equal(
      await edit("+event/edit 1/maxattendees=1"),
      "#1 'Harvest Ball': maxAttendees set to 1.",
    );
    assert.equal(
      await edit("+event/edit 1/endTime=2030-11-01 01:30"),
      "#1 'Harvest Ball': endTime set to Fri 2030-11-01 01:30 EDT.",
    );
    assert.equal(
      await edit("+event/edit 1/startTime=2030-10-31 21:00"),
      "#1 'Harvest Ball': startTime set to Thu 2030-10-31 21:00 EDT.",
    );
    assert.equal(
      await edit("+event/edit 1/title=Autumn Ball"),
      "#1 'Autumn Ball': title set to Autumn Ball.",
    );
    assert.equal(
      await edit("+event/edit 1/description=New text"),
      "#1 'Autumn Ball': description set to New text.",
    );
    const after = (await g.request("GET", `/api/v1/events/${ev.id}`, { as: ann })).body;
    assert.deepEqual(
      [
        after.location,
        after.tags,
        after.maxAttendees,
        after.startTime,
        after.endTime,
        after.description,
      ],
      [
        "Great Hall",
        ["social", "dance"],
        1,
        Date.UTC(2030, 10, 1, 1),
        Date.UTC(2030, 10, 1, 5, 30),
        "New text",
      ],
    );
    // Full now (Ann attends, one seat).
    assert.equal(
      (await g.run(bob, "+event/rsvp 1")).text("Bob"),
      "That event is full (1 attending).",
    );
    assert.equal(
      await edit("+event/edit 1/endTime=none"),
      "#1 'Autumn Ball': endTime set to (none).",
    );

    // Refusals, each a clear message and no change.
    assert.equal(
      await edit("+event/create Bad=2026-13-40/x"),
      "'2026-13-40' is not a date: use YYYY-MM-DD, today, tomorrow or a weekday, with an " +
        "optional HH:MM (America/New_York).",
    );
    assert.equal(
      await edit("+event/create Bad=someday/x"),
      "'someday' is not a date: use YYYY-MM-DD, today, tomorrow or a weekday, with an " +
        "optional HH:MM (America/New_York).",
    );
    // A new event in the past is refused; so is one over REST.
    assert.match(
      await edit("+event/create Bad=2020-10-31 20:00/x"),
      /^The start time \(Sat 2020-10-31 20:00 EDT\) is in the past; give a future date\.$/,
    );
    const pastRest = await g.request("POST", "/api/v1/events", {
      as: staff,
      body: { title: "Bad", startTime: Date.UTC(2020, 0, 1) },
    });
    assert.equal(pastRest.status, 400);
    assert.match(pastRest.body.error, /in the past/);
    assert.match(await edit("+event/create Bad"), /^Usage: \+event\/create/);
    assert.match(await edit("+event/edit 1/colour=red"), /^Usage: \+event\/edit/);
    assert.match(
      await edit("+event/edit 1/maxAttendees=-2"),
      /maxAttendees must be a whole number/,
    );
    assert.match(await edit("+event/status 1=done"), /status must be one of/);
    assert.equal(await edit("+event/view 99"), "There is no event #99.");
    assert.equal(
      (await g.run(ann, "+event/create Mine=2030-01-01/x")).text("Ann"),
      "Only staff can do that.",
    );
    assert.equal((await g.run(ann, "+event/cancel 1")).text("Ann"), "Only staff can do that.");
    assert.equal((await g.run(ann, "+event/delete 1")).text("Ann"), "Only staff can do that.");
    assert.equal(
      (await g.run(ann, "+event/status 1=active")).text("Ann"),
      "Only staff can do that.",
    );
    assert.equal((await g.request("GET", "/api/v1/events", { as: staff })).body.length, 2);

    assert.equal(await edit("+event/status 2=active"), "#2 'Tea' is now active.");
    assert.equal(await edit("+event/cancel 2"), "#2 'Tea' is cancelled.");
    assert.equal((await g.run(ann, "+event/view 2")).text("Ann"), "There is no event #2.");
    assert.equal(
      (await g.run(ann, "+event/rsvp 2")).text("Ann"),
      "That event was cancelled; RSVPs are closed.",
    );
    assert.doesNotMatch((await g.run(ann, "+event")).text("Ann"), /Tea/);
    assert.equal(await edit("+event/delete 1"), "#1 'Autumn Ball' is deleted, with its RSVPs.");
    assert.equal((await g.run(ann, "+event")).text("Ann"), "No upcoming events.");
    assert.match((await g.run(ann, "help events")).text("Ann"), /plugins\.events\.timezone/);

    // Days named from today, as the help's examples do; a time edited into the past is noted.
    const tomorrow = await edit("+event/create Council=tomorrow 19:30/Open to all.");
    assert.match(tomorrow, /^Event #3 'Council' created for \w{3} \d{4}-\d\d-\d\d 19:30 E[SD]T\.$/);
    const when = (await g.request("GET", "/api/v1/events", { as: ann })).body[0].startTime;
    assert.ok(when > Date.now() && when < Date.now() + 2 * 86_400_000, String(when));
    assert.match(await edit("+event/create Ball=saturday 20:00/Masks."), /created for Sat /);
    assert.equal(
      await edit("+event/edit 3/startTime=2020-10-31 20:00"),
      "#3 'Council': startTime set to Sat 2020-10-31 20:00 EDT. Note: that time is in the past.",
    );
    // The help's examples are dates that never go stale.
    const help = (await g.run(ann, "help events")).text("Ann");
    assert.match(help, /\+event\/create Harvest Ball=saturday 20:00\//);
    assert.doesNotMatch(help, /\b20\d\d-\d\d-\d\d\b/);
  } finally {
    await g.close();
  }
});

Deno.test("events scheduler: active at the start, completed at the end, once, with reminders", async () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12));
  const { g, staff, ann, bob } = await game({ clock });
  const tick = async (ms: number) => {
    clock.advance(ms);
    await g.engine.timers.runDue();
  };
  const status = async (id: string) =>
    (await g.request("GET", `/api/v1/events/${id}`, { as: staff })).body.status;
  try {
    const t0 = clock.now();
    const make = async (title: string, startTime: number, extra: Record<string, unknown> = {}) =>
      (await g.request("POST", "/api/v1/events", {
        as: staff,
        body: { title, description: "", startTime, ...extra },
      })).body;
    const plain = await make("Plain", t0 + HOUR);
    const ended = await make("Ended", t0 + HOUR, { endTime: t0 + 90 * MIN });
    await g.request("POST", `/api/v1/events/${plain.id}/rsvp`, { as: ann });
    await g.request("POST", `/api/v1/events/${plain.id}/rsvp`, {
      as: bob,
      body: { status: "maybe" },
    });
    await g.connect(ann);
    await g.connect(bob);

    // The reminder comes 15 minutes before, to attending players who are online.
    await g.received();
    await tick(44 * MIN);
    assert.equal(await status(plain.id), "upcoming");
    let heard = await g.received();
    assert.equal(heard.text("Ann"), "");
    await tick(1 * MIN);
    heard = await g.received();
    assert.match(
      heard.text("Ann"),
      /Reminder: #1 'Plain' starts in 15 minutes, at Tue 2030-01-01 13:00 UTC\./,
    );
    assert.equal(heard.text("Bob"), "", "maybe is not attending");

    await tick(15 * MIN);
    assert.equal(await status(plain.id), "active");
    assert.equal(await status(ended.id), "active");
    heard = await g.received();
    assert.match(heard.text("Ann"), /\[Events\] #1 'Plain' is starting now\./);
    assert.equal(heard.text("Bob"), "");

    await tick(30 * MIN);
    assert.equal(await status(ended.id), "completed", "at its end time");
    assert.equal(await status(plain.id), "active");
    await tick(150 * MIN);
    assert.equal(await status(plain.id), "completed", "three hours after the start");
    await tick(10 * HOUR);

    const fired = (await hooks(g, "event:started", "event:ended")).map((
      h,
    ) => [h.event, h.payload.name]);
    // Both start at the same time (in either order), then each ends once at its own end.
    assert.deepEqual(fired.slice(0, 2).sort(), [
      ["event:started", "Ended"],
      ["event:started", "Plain"],
    ]);
    assert.deepEqual(fired.slice(2), [["event:ended", "Ended"], ["event:ended", "Plain"]]);
    assert.deepEqual(await g.engine.timers.list("events"), [], "no timer left behind");
    // Players see completed events; the in-game list only open ones.
    assert.equal((await g.request("GET", "/api/v1/events", { as: ann })).body.length, 2);
    assert.equal((await g.run(ann, "+event")).text("Ann"), "No upcoming events.");
  } finally {
    await g.close();
  }
});

Deno.test("events scheduler: edits reschedule; cancelled, deleted and hand-set events are respected", async () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12));
  const { g, staff } = await game({ clock });
  const tick = async (ms: number) => {
    clock.advance(ms);
    await g.engine.timers.runDue();
  };
  const get = async (id: string) =>
    (await g.request("GET", `/api/v1/events/${id}`, { as: staff })).body;
  const patch = (id: string, body: unknown) =>
    g.request("PATCH", `/api/v1/events/${id}`, { as: staff, body });
  try {
    const t0 = clock.now();
    const make = async (title: string, startTime: number, extra: Record<string, unknown> = {}) =>
      (await g.request("POST", "/api/v1/events", {
        as: staff,
        body: { title, description: "", startTime, ...extra },
      })).body;
    const moved = await make("Moved", t0 + HOUR);
    const cancelled = await make("Cancelled", t0 + HOUR);
    const deleted = await make("Deleted", t0 + HOUR);
    const early = await make("Early", t0 + 2 * HOUR, { endTime: t0 + 3 * HOUR });
    const closed = await make("Closed", t0 + HOUR);

    assert.equal((await patch(moved.id, { startTime: t0 + 5 * HOUR })).status, 200);
    await g.run(staff, `+event/cancel ${cancelled.number}`);
    await g.run(staff, `+event/delete ${deleted.number}`);
    await patch(early.id, { status: "active" });
    await patch(closed.id, { status: "completed" });

    await tick(90 * MIN);
    assert.equal((await get(moved.id)).status, "upcoming", "its old start time no longer counts");
    assert.equal((await get(cancelled.id)).status, "cancelled");
    assert.equal((await get(closed.id)).status, "completed");
    assert.equal((await get(early.id)).status, "active");
    await tick(90 * MIN);
    assert.equal(
      (await get(early.id)).status,
      "completed",
      "made active early, still ends on time",
    );
    await tick(2 * HOUR);
    assert.equal((await get(moved.id)).status, "active", "starts at its new time");
    // Staff reopen a finished event: it runs again from its new times.
    await patch(closed.id, { status: "upcoming", startTime: t0 + 6 * HOUR });
    await tick(HOUR);
    assert.equal((await get(closed.id)).status, "active");
    await tick(4 * HOUR);
    assert.equal((await get(moved.id)).status, "completed");
    assert.equal((await get(closed.id)).status, "completed");
    await tick(24 * HOUR);

    const fired = (await hooks(g, "event:started", "event:ended")).map((h) =>
      `${h.event} ${h.payload.name}`
    );
    assert.deepEqual(fired, [
      "event:ended Early",
      "event:started Moved",
      "event:started Closed",
      "event:ended Moved",
      "event:ended Closed",
    ]);
    assert.deepEqual(await g.engine.timers.list("events"), []);
  } finally {
    await g.close();
  }
});

Deno.test("events scheduler: an event whose start falls during @reboot starts once (and mail over telnet)", async () => {
  const game = await startHeldGame(["events", "mail"]);
  const srv = game.srv;
  try {
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const login = await api(srv.base, "POST", "/api/v1/auth/login", ADMIN);
    const token = login.body.token as string;
    // Far enough out for a loaded machine's @reboot to reach the sidecar's notice first.
    const startTime = Date.now() + 8000;
    const made = await api(srv.base, "POST", "/api/v1/events", {
      title: "Reboot Party",
      description: "",
      startTime,
    }, token);
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.equal(
      (await api(srv.base, "POST", `/api/v1/events/${made.body.id}/rsvp`, {}, token)).status,
      200,
    );
    await game.rebootThrough(admin, startTime);
    await admin.waitFor(/Your session continues/, 30_000);
    await admin.waitFor(/'Reboot Party' is starting now/, 30_000);
    const ev = await api(srv.base, "GET", `/api/v1/events/${made.body.id}`, undefined, token);
    assert.equal(ev.body.status, "active");

    // Another restart starts nothing again.
    await admin.send("@reboot");
    await admin.waitFor(/Your session continues[\s\S]*Your session continues/, 30_000);
    await admin.send("+event/view 1");
    await admin.waitFor(/\[active\]/, 10_000);
    assert.equal(count(admin.plain, /is starting now/), 1, "the start line came once");

    // Mail on a real telnet client: told at once; the resume after a restart tells nothing,
    // a fresh login tells the unread count.
    await admin.send("@mail me=Hello/From telnet.");
    await admin.waitFor(/\[Mail\] You have new mail \(1\) from Admin: Hello/);
    await admin.send("@reboot");
    await admin.waitFor(/(Your session continues[\s\S]*){3}/, 30_000);
    await admin.send("@mail");
    await admin.waitFor(/1 message, 1 unread/);
    assert.equal(count(admin.plain, /unread message/), 0, "a resumed session is no login");
    const again = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    await again.waitFor(/\[Mail\] You have 1 unread message\. Type @mail to read it\./);
    await again.send("@mail 1");
    await again.waitFor(/Subject: Hello\s+From telnet\./);
    await again.close();
    await admin.close();
  } finally {
    await game.close();
  }
});

/**
 * A game directory with the events plugin (and the calspy fixture) whose in-process engines
 * open one database file on `clock`, one after another, as across a full stop; `call` is REST
 * with a token, `staff` registers an admin and answers their token.
 */
async function gameDir(prefix: string, clock: ManualClock) {
  const dir = await Deno.makeTempDir({ prefix });
  const plugins = join(dir, "plugins");
  await Deno.mkdir(plugins);
  await Deno.symlink(join(ROOT, "plugins/events"), join(plugins, "events"));
  await Deno.symlink(SPY, join(plugins, "calspy"));
  const open = () =>
    createEngine({
      root: dir,
      clock,
      env: {
        URSAMU_SERVER_DB: join(dir, "ursamu.db"),
        URSAMU_SERVER_PLUGINSDIR: plugins,
        JWT_SECRET: "events-engine-secret",
      },
    });
  const call = async (
    engine: Engine,
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ) => {
    const res = await engine.app.request(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }, { remoteAddr: { hostname: "127.0.0.1" } });
    return { status: res.status, body: await res.json() };
  };
  const staff = async (engine: Engine) => {
    const wiz = await engine.services.accounts.register("Wiz", "wizard-password", {
      location: "1",
      flags: ["admin"],
    });
    return await engine.services.tokens.sign(wiz.id);
  };
  return { dir, open, call, staff };
}

Deno.test("events scheduler: what came due during a full stop moves at the next start, once", async () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12));
  const { dir, open, call, staff } = await gameDir("ursamu-events-stop-", clock);
  try {
    let engine = await open();
    const token = await staff(engine);
    const made = await call(engine, token, "POST", "/api/v1/events", {
      title: "Missed",
      startTime: clock.now() + HOUR,
    });
    assert.equal(made.status, 201);
    const later = await call(engine, token, "POST", "/api/v1/events", {
      title: "Later",
      startTime: clock.now() + 10 * HOUR,
    });
    await engine.close();

    // Down across the whole of "Missed" and the start of "Later".
    clock.advance(5 * HOUR);
    engine = await open();
    await engine.timers.runDue();
    const get = async (id: string) =>
      (await call(engine, token, "GET", `/api/v1/events/${id}`)).body.status;
    assert.equal(await get(made.body.id), "completed");
    assert.equal(await get(later.body.id), "upcoming");
    const seen = (await call(engine, token, "GET", "/api/v1/calspy")).body as Json[];
    assert.deepEqual(seen.map((h) => `${h.event} ${h.payload.name}`), [
      "event:started Missed",
      "event:ended Missed",
    ], "started before ended, once each");
    await engine.close();

    clock.advance(6 * HOUR);
    engine = await open();
    await engine.timers.runDue();
    assert.equal(await get(made.body.id), "completed");
    assert.equal(await get(later.body.id), "active");
    const again = (await call(engine, token, "GET", "/api/v1/calspy")).body as Json[];
    assert.deepEqual(again.map((h) => `${h.event} ${h.payload.name}`), ["event:started Later"]);
    await engine.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("events scheduler: open events that lost their timers get them back at the next start", async () => {
  const clock = new ManualClock(Date.UTC(2030, 0, 1, 12));
  const { dir, open, call, staff } = await gameDir("ursamu-events-repair-", clock);
  try {
    let engine = await open();
    const token = await staff(engine);
    // More open events than one KV read holds, so the start-up check spans several reads.
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await call(engine, token, "POST", "/api/v1/events", {
        title: `Event ${i}`,
        startTime: clock.now() + (i + 1) * HOUR,
      });
      assert.equal(res.status, 201);
      ids.push(res.body.id);
    }
    const jobs = (await engine.timers.list("events")).map((t) => t.id);
    assert(jobs.length >= ids.length * 2, "each event has its start and end");
    // As if the engine had stopped between an event's commit and its timers: every third
    // event loses its jobs and its record of them.
    const lost = ids.filter((_, i) => i % 3 === 0);
    for (const t of await engine.timers.list("events")) {
      if (lost.some((id) => JSON.stringify(t).includes(`"${id}"`))) {
        await engine.timers.cancel("events", t.id);
      }
    }
    for (const id of lost) await engine.services.kv.delete(["plugin", "events", "timers", id]);
    const fewer = (await engine.timers.list("events")).length;
    assert(fewer < jobs.length, "the jobs of the lost events are gone");
    await engine.close();

    engine = await open();
    assert.equal((await engine.timers.list("events")).length, jobs.length, "all timers are back");
    for (const id of lost) {
      assert(await engine.services.kv.get(["plugin", "events", "timers", id]).then((e) => e.value));
    }
    await engine.close();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
