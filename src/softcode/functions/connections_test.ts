/**
 * The connection functions over a world whose connections the test sets: what each figure is
 * made of, who may ask what, ports and players, as MUX 2.12 answers (its error forms are in
 * testdata/mux_cases_s45fnc.txt).
 */
import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";
import type { SoftSession } from "../ports.ts";

function world() {
  const t = testSoftcode();
  const alice = t.world.add("Alice", "player", { location: t.room });
  const bob = t.world.add("Bob", "player", { location: t.room });
  const ghost = t.world.add("Ghost", "player", { location: t.room, flags: ["dark"] });
  const now = t.world.now;
  const session = (port: number, player: string, more: Partial<SoftSession> = {}) => ({
    port,
    player,
    host: "192.0.2.7",
    kind: "telnet" as const,
    width: 100,
    height: 40,
    terminal: "MUDLET",
    colourDepth: 8,
    commands: 3,
    connectedAt: now - 90_000,
    lastInput: now - 10_000,
    ...more,
  });
  for (const id of [t.wiz, alice, ghost]) t.world.online.add(id);
  t.world.sessions.set(alice, [
    session(12, alice, { host: "198.51.100.4", height: 50, lastInput: now - 1000, commands: 4 }),
    session(9, alice, {
      kind: "web",
      terminal: "",
      colourDepth: 24,
      connectedAt: now - 300_000,
      commands: 2,
    }),
  ]);
  t.world.sessions.set(ghost, [session(20, ghost)]);
  return { t, alice, bob, ghost };
}

Deno.test("connection statistics: what is kept and the sessions going on", () => {
  const { t, alice, bob } = world();
  const o = t.world.objects.get(alice)!;
  t.world.objects.set(alice, {
    ...o,
    data: { conninfo: { connects: 4, total: 1000, longest: 500, last: 30, left: 1_700_000_000 } },
  });
  // Alice is on now, a minute ago by the test world's presence (connectedSeconds: 60).
  assert.equal(t.run("[connnum(*Alice)]"), "6", "4 ended and 2 now");
  assert.equal(t.run("[conntotal(*Alice)]"), "1060");
  assert.equal(t.run("[connmax(*Alice)]"), "500");
  assert.equal(t.run("[connlast(*Alice)]"), "30");
  assert.equal(t.run("[connleft(*Alice)]"), "1700000000");
  assert.equal(
    t.run("[connnum(*Bob)] [conntotal(*Bob)] [connmax(*Bob)] [connleft(*Bob)]"),
    "0 0 0 0",
  );
  assert.equal(t.run("[connmax(me)]"), "60", "the current session when it is the longest");
  assert.equal(t.run("[connnum(al)]"), "6", "a connected player by the start of the name");
  assert.equal(t.run("[connnum(me)]", bob), "0", "anyone may ask");
  assert.equal(t.run("[connnum(nobody)]"), "#-1 PLAYER NOT FOUND");
  assert.equal(t.run("[connrecord()]"), "1");
  t.world.connectionRecord = 17;
  assert.equal(t.run("[connrecord()]"), "17");
});

Deno.test("host(), ports(), lports(): staff, or one's own; ports are connection numbers", () => {
  const { t, alice, bob, ghost } = world();
  assert.equal(t.run("[host(*Alice)]"), "198.51.100.4", "the newest connection");
  assert.equal(t.run("[host(9)]"), "192.0.2.7");
  assert.equal(t.run("[host(9.7)]"), "192.0.2.7", "a rational is a port");
  assert.equal(t.run("[host(77)]"), "#-1 NOT AN ACTIVE PORT");
  assert.equal(t.run("[host(*Bob)]"), "#-1 NOT A CONNECTED PLAYER");
  assert.equal(t.run("[host(nobody)]"), "#-1 PLAYER DOES NOT EXIST");
  assert.equal(t.run("[host(me)]", alice), "#-1 PERMISSION DENIED");
  assert.equal(t.run("[ports(*Alice)]"), "12 9", "newest first");
  assert.equal(t.run("[ports(me)]", alice), "12 9");
  assert.equal(t.run("[ports(*Alice)]", bob), "#-1 PERMISSION DENIED");
  assert.equal(t.run("[ports(me)]", bob), "", "not connected: nothing");
  assert.equal(t.run("[ports(nobody)]"), "#-1 NO MATCH");
  assert.equal(
    t.run("[lports()]"),
    `#${t.wiz}:${Number(t.wiz) + 100} #${alice}:12 #${alice}:9 #${ghost}:20`,
  );
  assert.equal(t.run("[lports()]", alice), "#-1 PERMISSION DENIED");
});

Deno.test("height(), colordepth(), terminfo(), cmds(): by player or by port", () => {
  const { t, alice, bob, ghost } = world();
  assert.equal(t.run("[height(*Alice)]"), "50", "the connection that typed last");
  assert.equal(t.run("[height(9)] [height(77)] [height(*Bob)] [height(nobody)]"), "40 24 24 24");
  assert.equal(t.run("[colordepth(*Alice)] [colordepth(9)] [colordepth(*Bob)]"), "8 24 0");
  assert.equal(t.run("[terminfo(*Alice)]"), "MUDLET telnet unicode");
  assert.equal(t.run("[terminfo(9)]"), "web unicode");
  assert.equal(t.run("[terminfo(9)]", bob), "#-1 PERMISSION DENIED", "another's port");
  assert.equal(t.run("[terminfo(9)]", alice), "web unicode", "one's own port");
  assert.equal(t.run("[terminfo(*Bob)] [terminfo(77)]"), "#-1 NOT CONNECTED #-1 NOT CONNECTED");
  assert.equal(t.run("[terminfo(*Ghost)]", bob), "#-1 NOT CONNECTED", "a dark player is hidden");
  assert.equal(t.run("[terminfo(*Ghost)]"), "MUDLET telnet unicode", "not from staff");
  assert.equal(t.run("[cmds(*Alice)]"), "6", "every connection's commands");
  assert.equal(t.run("[cmds(me)]", alice), "6");
  assert.equal(t.run("[cmds(12)]", alice), "4");
  assert.equal(t.run("[cmds(12)] [cmds(*Alice)]", bob), "-1 -1");
  assert.equal(t.run("[cmds(*Bob)] [cmds(77)]"), "-1 -1");
  assert.equal(t.run(`[cmds(#${ghost})]`), "3");
});

Deno.test("poll(): the doing column's header", () => {
  const { t } = world();
  assert.equal(t.run("[poll()]"), "Doing");
  t.world.pollHeader = "What's the plan?";
  assert.equal(t.run("[poll()]"), "What's the plan?");
});

Deno.test("a dark player's figures do not tell that it is on, as conn() does not", () => {
  const { t, bob, ghost } = world();
  // Bob cannot see Ghost: it reads as offline (nothing ended yet, no screen, no colour).
  assert.equal(
    t.run("[connnum(*Ghost)] [conntotal(*Ghost)] [connmax(*Ghost)]", bob),
    "0 0 0",
  );
  assert.equal(t.run("[height(*Ghost)] [colordepth(*Ghost)] [conn(*Ghost)]", bob), "24 0 -1");
  // Staff see it on.
  assert.equal(t.run("[connnum(*Ghost)] [colordepth(*Ghost)] [height(*Ghost)]"), "1 8 40");
  assert.equal(t.run(`[conntotal(#${ghost})]`), "60");
});
