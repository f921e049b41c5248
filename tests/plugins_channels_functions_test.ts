/**
 * The comsys functions (plugins/channels/functions.ts) through the real evaluator, over a channel service in
 * memory: MUX 2.12's answers (recorded from TinyMUX 2.12 where the two games can be alike: the
 * error forms, a member's alias), who may ask what, and bad arguments.
 */
import assert from "node:assert/strict";
import { memoryPluginKv } from "../src/plugins/testing.ts";
import { pluginFunction } from "../src/plugins/functions.ts";
import { testSoftcode } from "../src/softcode/_test_world.ts";
import { displayName, type Outbound, type PlayerIds } from "../src/plugins/mod.ts";
import { ChannelStore } from "../plugins/channels/store.ts";
import { ChannelService } from "../plugins/channels/service.ts";
import { channelFunctions } from "../plugins/channels/functions.ts";

async function setup() {
  const t = testSoftcode();
  const kv = await memoryPluginKv("channels");
  const store = new ChannelStore(kv.kv);
  const sent: [string, Outbound][] = [];
  const toPlayers = (ids: PlayerIds, out: Outbound) => {
    const list = ids instanceof Map ? [...ids.keys()] : [...ids as Iterable<string>];
    for (const id of list) if (t.world.online.has(id)) sent.push([id, out]);
  };
  const svc = new ChannelService({
    store,
    deliver: { toPlayers },
    players: { isConnected: (id) => t.world.online.has(id), displayName },
    isCommand: () => false,
    historyLimit: () => 100,
    onChange: () => {},
  });
  for (const spec of channelFunctions(svc)) t.functions.add(pluginFunction(spec, "channels"));
  const wiz = t.world.objects.get(t.wiz)!;
  const alice = t.world.add("Alice", "player", { location: t.room });
  const bob = t.world.add("Bob", "player", { location: t.room });
  const carol = t.world.add("Carol", "player", { location: t.room });
  const pet = t.world.add("Pet", "thing", { location: t.room, owner: alice, flags: ["inherit"] });
  t.world.online.add(t.wiz);
  t.world.online.add(alice);
  const obj = (id: string) => t.world.objects.get(id)!;
  await svc.create(wiz, "Public", {});
  await svc.create(wiz, "Secret", { hidden: true });
  await svc.create(obj(carol), "Carols", {});
  await svc.join(wiz, "Public", "pub");
  await svc.join(obj(alice), "Public", "p");
  await svc.join(obj(bob), "Public", "pub");
  await svc.join(obj(carol), "Carols", "c");
  sent.length = 0;
  return { t, kv, svc, sent, alice, bob, carol, pet, close: () => kv.close() };
}

Deno.test("channels(): what the caller may see, or the ones a player made", async () => {
  const s = await setup();
  try {
    const { t } = s;
    assert.equal(t.run("[channels()]"), "Carols Public Secret", "staff see hidden channels");
    assert.equal(t.run("[channels(all)]"), "Carols Public Secret");
    assert.equal(t.run("[channels()]", s.alice), "Carols Public");
    assert.equal(t.run("[channels(*Carol)]", s.alice), "Carols");
    assert.equal(t.run("[channels(me)]", s.alice), "");
    assert.equal(t.run("[channels(nobody)]"), "#-1 PLAYER NOT FOUND");
    assert.equal(t.run("[channels(#-1)]"), "#-1 PLAYER NOT FOUND");
    assert.equal(t.run("[channels(a,b)]"), "#-1 FUNCTION (CHANNELS) EXPECTS 0 OR 1 ARGUMENTS");
  } finally {
    s.close();
  }
});

Deno.test("cwho(): members on, all or off; staff only", async () => {
  const s = await setup();
  try {
    const { t } = s;
    const on = t.run("[cwho(Public)]").split(" ").sort();
    assert.deepEqual(on, [`#${s.alice}`, `#${t.wiz}`].sort());
    assert.equal(t.run("[cwho(public,all)]").split(" ").length, 3, "names are any case");
    assert.equal(t.run("[cwho(Public,off)]"), "");
    assert.equal(t.run("[cwho(Public,bogus)]").split(" ").length, 2, "anything else is on");
    assert.equal(t.run("[cwho(Nope)]"), "#-1 CHANNEL NOT FOUND");
    assert.equal(t.run("[cwho(Public)]", s.alice), "#-1 PERMISSION DENIED");
    assert.equal(t.run("[cwho(Secret)]", s.alice), "#-1 CHANNEL NOT FOUND", "hidden: absent");
    // Carol made Carols (as staff, once; the service does not ask): she is not staff now.
    assert.equal(t.run("[cwho(Carols,all)]", s.carol), "#-1 PERMISSION DENIED", "rank, not maker");
    assert.equal(t.run("[cwho()]"), "#-1 FUNCTION (CWHO) EXPECTS 1 OR 2 ARGUMENTS");
  } finally {
    s.close();
  }
});

Deno.test("cemit(): the channel's header and the message to its members, as @cemit", async () => {
  const s = await setup();
  try {
    const { t } = s;
    assert.equal(t.run("[cemit(Public,hello [ansi(r,there)] 100%%)]"), "");
    assert.deepEqual(s.sent.map(([id]) => id).sort(), [s.alice, t.wiz].sort());
    assert.equal(s.sent[0][1].msg, "[Public] hello %crthere%cn 100%%%cn");
    assert.equal(s.sent[0][1].data?.kind, "system");
    s.sent.length = 0;
    assert.equal(t.run("[cemit(Public,)]"), "", "an empty message is sent, as MUX's");
    assert.equal(s.sent[0][1].msg, "[Public] ");
    s.sent.length = 0;
    assert.equal(t.run("[cemit(Nope,hi)]"), "#-1 CHANNEL NOT FOUND");
    assert.equal(t.run("[cemit(Public,hi)]", s.alice), "#-1 PERMISSION DENIED");
    assert.equal(t.run("[cemit(Secret,hi)]", s.alice), "#-1 CHANNEL NOT FOUND");
    assert.equal(t.run("[cemit(Carols,mine)]", s.carol), "#-1 PERMISSION DENIED", "nor the maker");
    assert.equal(
      t.run(`[cemit(Public,${"x".repeat(4001)})]`),
      "#-1 MESSAGES ARE AT MOST 4000 CHARACTERS",
    );
    assert.equal(t.run("[cemit(a)]"), "#-1 FUNCTION (CEMIT) EXPECTS 2 ARGUMENTS");
    assert.deepEqual(s.sent.map(([, o]) => o.msg), []);
  } finally {
    s.close();
  }
});

Deno.test("chanobj(), comalias(), comtitle(): MUX's answers and rules", async () => {
  const s = await setup();
  try {
    const { t } = s;
    assert.equal(t.run("[chanobj(Public)]"), "#-1", "channels have no object");
    assert.equal(t.run("[chanobj(Nope)]"), "#-1 CHANNEL NOT FOUND");
    assert.equal(t.run("[chanobj(Public)]", s.alice), "#-1 PERMISSION DENIED");
    assert.equal(t.run("[comalias(me,Public)]"), "pub");
    assert.equal(t.run("[comalias(*Alice,Public)]"), "p", "staff ask anyone's");
    assert.equal(t.run("[comalias(me,Public)]", s.alice), "p");
    assert.equal(t.run("[comalias(*Alice,Public)]", s.pet), "p", "an inherit object its owner's");
    assert.equal(t.run("[comalias(*Bob,Public)]", s.alice), "#-1 PERMISSION DENIED");
    assert.equal(t.run("[comalias(me,Secret)]"), "#-1 OBJECT NOT ON THAT CHANNEL");
    assert.equal(t.run("[comalias(nobody,Public)]"), "#-1 OBJECT DOES NOT EXIST");
    assert.equal(t.run("[comalias(me,Nope)]"), "#-1 CHANNEL DOES NOT EXIST");
    assert.equal(t.run("[comalias(me,Secret)]", s.alice), "#-1 CHANNEL DOES NOT EXIST");
    assert.equal(t.run("[comalias(me)]"), "#-1 FUNCTION (COMALIAS) EXPECTS 2 ARGUMENTS");
    assert.equal(t.run("[comtitle(me,Public)]"), "", "a member: no title is kept");
    assert.equal(t.run("[comtitle(*Bob,Public)]", s.alice), "", "a member asks of another");
    assert.equal(t.run("[comtitle(*Alice,Carols)]", s.carol), "#-1 OBJECT NOT ON THAT CHANNEL");
    assert.equal(t.run("[comtitle(*Carol,Carols)]", s.alice), "#-1 PERMISSION DENIED");
    assert.equal(t.run("[comtitle(nobody,Public)]"), "#-1 OBJECT DOES NOT EXIST");
    assert.equal(t.run("[comtitle(me,Nope)]"), "#-1 CHANNEL DOES NOT EXIST");
    assert.equal(t.run("[comtitle(me,a,b)]"), "#-1 FUNCTION (COMTITLE) EXPECTS 2 ARGUMENTS");
  } finally {
    s.close();
  }
});

Deno.test("comsys functions: bad arguments give values, never a failure", async () => {
  const s = await setup();
  try {
    const bad = ["", "abc", "#-1", "-5", "日本語é☃", "[ansi(hr,red)]", "[repeat(x,7000)]", "all"];
    for (const name of ["channels", "cwho", "cemit", "chanobj", "comalias", "comtitle"]) {
      for (const a of bad) {
        for (const args of [[a], [a, a], [a, a, a]]) {
          for (const who of [s.t.wiz, s.alice]) {
            const got = s.t.run(`[${name}(${args.join(",")})]`, who);
            assert.ok(!/FAILED/.test(got), `${name}(${args}) as #${who}: ${got}`);
            assert.ok(got.length <= 8000, `${name}(${args}): ${got.length} characters`);
          }
        }
      }
    }
  } finally {
    s.close();
  }
});
