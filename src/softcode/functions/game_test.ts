import assert from "node:assert/strict";
import { testSoftcode } from "../_test_world.ts";
import { MUX_PARAMS } from "../config_params.ts";

/** A game with a wizard (#1) and a mortal, Bob (#2), who owns a thing and a room. */
function game() {
  const t = testSoftcode();
  const bob = t.world.add("Bob", "player", { location: t.room });
  const rock = t.world.add("rock", "thing", { location: bob, owner: bob });
  const den = t.world.add("Den", "room", { owner: bob });
  const exit = t.world.add("Out", "exit", { location: den, owner: bob });
  const asBob = (code: string) => t.run(code, bob);
  return { ...t, bob, rock, den, exit, asBob };
}

Deno.test("config(): MUX's parameter names for the game's settings, staff ones for staff", () => {
  const g = game();
  g.world.config.game.name = "Ursa Test";
  g.world.config.softcode.masterRoom = "#0";
  g.world.config.game.maxPlayers = 0;
  assert.equal(g.run("config(mud_name)"), "Ursa Test");
  assert.equal(g.run("config(MUD_NAME)"), "Ursa Test", "any case");
  g.world.config.game.objectQuota = 0;
  assert.equal(g.run("config(have_zones)|[config(quotas)]|[config(starting_quota)]"), "1|0|0");
  g.world.config.game.objectQuota = 50;
  assert.equal(g.run("config(quotas)|[config(starting_quota)]"), "1|50");
  assert.equal(g.run("config(lbuf_size)"), String(g.world.config.softcode.outputLength));
  assert.equal(g.run("config(master_room)|[config(max_players)]"), "#0|-1");
  assert.equal(g.asBob("config(mud_name)"), "Ursa Test");
  assert.equal(g.asBob("config(master_room)"), "#-1 PERMISSION DENIED");
  assert.equal(g.asBob("config(motd_message)"), "#-1 PERMISSION DENIED");
  // What the game does not have is no match, for anyone: MUX's files and databases among it.
  for (const name of ["input_database", "sql_password", "nosuch", "constructor", "__proto__"]) {
    assert.equal(g.run(`config(${name})`), "#-1 NO MATCH", name);
  }
  const staffList = g.run("config()").split(" ");
  const mortalList = g.asBob("config()").split(" ");
  assert.deepEqual(staffList, Object.keys(MUX_PARAMS).filter((n) => MUX_PARAMS[n].readers));
  // Only @admin's: config() has not shown it.
  assert.equal(g.run("config(wizard_queue_limit)"), "#-1 NO MATCH");
  assert.ok(mortalList.includes("mud_name") && !mortalList.includes("master_room"));
  assert.ok(mortalList.every((n) => MUX_PARAMS[n].readers === "public"));
  assert.equal(g.run("config(a,b)"), "#-1 FUNCTION (CONFIG) EXPECTS 0 OR 1 ARGUMENTS");
});

Deno.test("config(): no parameter shows a path, an address, a secret or a plugin's setting", () => {
  const g = game();
  const c = g.world.config;
  c.server.db = "/secret/place/game.db";
  c.server.host = "10.9.8.7";
  c.game.loginMessage = "hello all";
  c.plugins.mail = { enabled: true, password: "hunter2-secret" };
  const values = Object.keys(MUX_PARAMS).map((n) => g.run(`config(${n})`)).join("\n");
  for (const secret of ["/secret/place", "10.9.8.7", "hunter2"]) {
    assert.ok(!values.includes(secret), secret);
  }
  assert.ok(values.includes("hello all"), "motd_message is there, for staff");
  c.plugins.mail = { enabled: false };
  assert.equal(g.asBob("config(have_mailer)|[config(have_comsys)]"), "0|1");
});

Deno.test("stats(): counts by type, the whole game's or an owner's, with MUX's refusals", () => {
  const g = game();
  // Limbo, Wizard, Bob, rock, Den, Out.
  assert.equal(g.run("stats()"), "6 2 1 1 2 0");
  assert.equal(g.run("stats(all)"), g.run("stats()"));
  assert.equal(g.asBob("stats()"), "6 2 1 1 2 0", "anyone may count the whole game");
  assert.equal(g.asBob("stats(me)"), "4 1 1 1 1 0", "Bob, his rock, his Den and its exit");
  assert.equal(g.run("stats(Bob)"), "4 1 1 1 1 0", "staff: anyone's");
  assert.equal(g.run("stats(*bob)"), "4 1 1 1 1 0");
  assert.equal(g.run(`stats(#${g.bob})`), "4 1 1 1 1 0");
  assert.equal(g.run("stats(nobody)"), "#-1 PLAYER NOT FOUND");
  g.world.sent.length = 0;
  assert.equal(g.asBob("stats(Wizard)"), "#-1 ERROR GETTING STATS");
  assert.deepEqual(g.world.sent, [{ to: g.bob, msg: "Permission denied." }]);
});

Deno.test("money(): 0 for what may be examined (there is no money), MUX's errors else", () => {
  const g = game();
  assert.equal(g.run("money(me)"), "0");
  assert.equal(g.asBob("money(me)|[money(rock)]"), "0|0");
  assert.equal(g.asBob(`money(#${g.wiz})`), "#-1 PERMISSION DENIED");
  assert.equal(g.run("money(nothing)"), "#-1 NOT FOUND");
  assert.equal(g.run("money()"), "#-1 FUNCTION (MONEY) EXPECTS 1 ARGUMENTS");
});

Deno.test("lastcreate(): the newest object of a type the object owns", () => {
  const g = game();
  assert.equal(g.asBob("lastcreate()"), `#${g.exit}`);
  assert.equal(g.asBob("lastcreate(me,r)|[lastcreate(me,T)]"), `#${g.den}|#${g.rock}`);
  assert.equal(g.asBob("lastcreate(me,e)|[lastcreate(me,x)]"), `#${g.exit}|#${g.exit}`);
  assert.equal(g.asBob("lastcreate(me,p)"), "#-1", "players own themselves");
  assert.equal(g.asBob("lastcreate(,r)"), `#${g.den}`, "an empty object is the executor");
  assert.equal(g.asBob("lastcreate(rock)"), "#-1", "a thing owns nothing");
  assert.equal(g.run("lastcreate(Bob,t)"), `#${g.rock}`, "staff: anyone's");
  assert.equal(g.run("lastcreate(Nobody,t)"), "#-1 NO MATCH");
  assert.equal(g.asBob(`lastcreate(#${g.wiz})`), "#-1 PERMISSION DENIED");
  assert.equal(g.run("lastcreate(nothing)"), "#-1 NO MATCH");
  const newer = g.world.add("pebble", "thing", { location: g.bob, owner: g.bob });
  assert.equal(g.asBob("lastcreate(me,t)"), `#${newer}`);
});

Deno.test("playmem(): the bytes of what a player owns, as objmem() counts them", () => {
  const g = game();
  g.world.set(g.rock, "NOTE", "x".repeat(100));
  const sum = [g.bob, g.rock, g.den, g.exit]
    .map((id) => Number(g.run(`objmem(#${id})`))).reduce((a, b) => a + b, 0);
  assert.equal(g.asBob("playmem()"), String(sum));
  assert.equal(g.asBob("playmem(me)"), String(sum));
  assert.equal(g.run(`playmem(#${g.bob})`), String(sum));
  assert.equal(g.asBob(`playmem(#${g.wiz})`), "#-1 PERMISSION DENIED");
  assert.equal(g.run("playmem(here)"), "0", "a room owns nothing");
  assert.equal(g.run("playmem(nothing)"), "#-1 NOT FOUND");
});

Deno.test("motd(), dumping(), restarts(), restartsecs(), starttime(): the game's state", () => {
  const g = game();
  assert.equal(g.run("motd()"), "");
  g.world.config.game.loginMessage = "Back up at noon.";
  assert.equal(g.asBob("motd()"), "Back up at noon.");
  assert.equal(g.run("dumping()"), "0");
  g.world.dumping = true;
  assert.equal(g.run("dumping()"), "1");
  assert.equal(g.run("restarts()"), "0");
  g.world.restarts = 2;
  assert.equal(g.run("restarts()"), "2");
  // The test world restarted an hour ago and first started two hours ago.
  const restarted = Math.floor((g.world.now - 3600_000) / 1000);
  assert.equal(g.run("restartsecs()"), String(restarted));
  assert.equal(g.run("convtime(restarttime())"), String(restarted));
  assert.equal(g.run("startsecs()"), String(restarted - 3600));
  assert.equal(g.run("convtime(starttime())"), String(restarted - 3600));
  assert.equal(g.run("restarts(1)"), "#-1 FUNCTION (RESTARTS) EXPECTS 0 ARGUMENTS");
});

Deno.test("siteinfo(): staff only; a connected player has no site flags here", () => {
  const g = game();
  g.world.online.add(g.wiz);
  assert.equal(g.run("siteinfo(me)"), "");
  assert.equal(g.run("siteinfo(Wizard)"), "");
  assert.equal(g.run("siteinfo(Bob)"), "#-1 NOT A CONNECTED PLAYER");
  assert.equal(g.run("siteinfo(nobody)"), "#-1 PLAYER DOES NOT EXIST");
  assert.equal(
    g.run("siteinfo(1)|[siteinfo(2.5)]"),
    "#-1 NOT AN ACTIVE PORT|#-1 NOT AN ACTIVE PORT",
  );
  assert.equal(g.asBob("siteinfo(me)"), "#-1 PERMISSION DENIED");
});

Deno.test("trace(): evaluates its code once, braces stripped", () => {
  const g = game();
  assert.equal(g.run("trace(add(1,2))"), "3");
  assert.equal(g.run("trace({a,b})"), "a,b");
  assert.equal(g.run("[trace([setq(0,x)]%q0)]%q0"), "xx");
  assert.equal(g.run("trace(a,b)"), "#-1 FUNCTION (TRACE) EXPECTS 1 ARGUMENTS");
});
