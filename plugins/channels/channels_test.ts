import assert from "node:assert/strict";
import { memoryPluginKv } from "../../src/plugins/testing.ts";
import {
  type DbObject,
  displayName,
  type Outbound,
  type PlayerIds,
} from "../../src/plugins/mod.ts";
import { ChannelStore } from "./store.ts";
import { ChannelService, playerCheck } from "./service.ts";
import { talkCommands } from "./commands.ts";

function player(id: string, flags: string[] = ["player"]): DbObject {
  return {
    id,
    name: `P${id}`,
    flags,
    location: "1",
    owner: id,
    data: {},
    createdAt: 0,
    updatedAt: 0,
  };
}

async function setup(online: string[], announceJoins?: number) {
  const kv = await memoryPluginKv("channels");
  const store = new ChannelStore(kv.kv);
  const sent: [string, Outbound][] = [];
  const on = new Set(online);
  const toPlayers = (ids: PlayerIds, out: Outbound) => {
    const list = ids instanceof Map ? [...ids.keys()] : [...ids as Iterable<string>];
    for (const id of list) if (on.has(id)) sent.push([id, out]);
  };
  const svc = new ChannelService({
    store,
    deliver: { toPlayers },
    players: { isConnected: (id) => on.has(id), displayName },
    isCommand: (w) => w === "look" || w === "ooc",
    historyLimit: () => 3,
    onChange: () => {},
    defaultAlias: (lower) => lower === "ooc" ? "o" : undefined,
    ...(announceJoins === undefined ? {} : { announceJoins: () => announceJoins }),
  });
  return { kv, store, svc, sent };
}

Deno.test("channels: delivery reaches online members only", async () => {
  const t = await setup(["1", "2"]);
  try {
    const ch = await t.svc.create(player("9", ["player", "admin"]), "Public", {});
    for (const id of ["1", "2", "3"]) await t.svc.join(player(id), "public");
    t.sent.length = 0;
    await t.svc.talk(player("1"), ch, "hi");
    assert.deepEqual(t.sent.map(([id]) => id).sort(), ["1", "2"]);
    assert.equal(t.sent[0][1].msg, `[Public] P1 says, "hi"`);
    assert.deepEqual(t.sent[0][1].data, {
      type: "channel",
      channel: "Public",
      sender: "P1",
      text: "hi",
      kind: "say",
      header: "[Public]",
    });
  } finally {
    t.kv.close();
  }
});

Deno.test("channels: history keeps the newest messages after pruning", async () => {
  const t = await setup(["1"]);
  try {
    const ch = await t.svc.create(player("9"), "Ooc", {});
    await t.svc.join(player("1"), "ooc");
    for (let i = 0; i < 6; i++) await t.svc.talk(player("1"), ch, `m${i}`);
    assert.equal(await t.store.prune("ooc", 3), 3);
    const h = await t.svc.history(player("1"), ch, { limit: 10, offset: 0 });
    assert.deepEqual(h.map((e) => e.message), ["m3", "m4", "m5"]);
  } finally {
    t.kv.close();
  }
});

Deno.test("channels: aliases default to three letters and never shadow commands", async () => {
  const t = await setup([]);
  try {
    await t.svc.create(player("9"), "Gossip", {});
    assert.equal((await t.svc.join(player("1"), "gossip")).alias, "gos");
    await assert.rejects(t.svc.join(player("2"), "gossip", "look"), /is a command/);
    // A header stays on one line, also when rendered (`%r`); a literal `%%r` is fine.
    await assert.rejects(t.svc.create(player("9"), "Two", { header: "[a%rb]" }), /one line/);
    await assert.rejects(t.svc.set("Gossip", "header", "x\ny"), /one line/);
    assert.equal((await t.svc.set("Gossip", "header", "[100%%r]")).header, "[100%%r]");
    const [talk, byName] = talkCommands(t.svc, { getMany: () => Promise.resolve([]) });
    assert.equal(talk.pattern?.test("gos hello"), true);
    assert.equal(talk.pattern?.test("gossip hello"), false);
    assert.equal(talk.pattern?.test("look"), false);
    assert.equal(talk.accepts?.(player("1"), ["GOS"]), true);
    assert.equal(talk.accepts?.(player("2"), ["gos"]), false, "not player 2's alias");
    assert.equal(byName.pattern?.test("+gossip hello"), true);
    // State survives a reload from KV.
    const again = new ChannelStore(t.kv.kv);
    await again.load();
    assert.equal(again.aliases.get("1")?.get("gos"), "gossip");
  } finally {
    t.kv.close();
  }
});

Deno.test("channels: a removed player's memberships go, at once in memory and then in KV", async () => {
  const t = await setup(["1", "2"]);
  let changes = 0;
  try {
    const pub = await t.svc.create(player("9"), "Public", {});
    await t.svc.create(player("9"), "Ooc", {});
    await t.svc.join(player("1"), "public");
    await t.svc.join(player("1"), "ooc", "o");
    await t.svc.join(player("2"), "public", "p");
    const svc = new ChannelService({
      store: t.store,
      deliver: { toPlayers: () => {} },
      players: { isConnected: () => true, displayName },
      isCommand: () => false,
      historyLimit: () => 3,
      onChange: () => changes++,
    });
    const pending = svc.forget("1");
    // Before the KV write settles, talk and lists already see the change.
    assert.equal(svc.isMember(pub, "1"), false);
    assert.equal(t.store.aliases.has("1"), false);
    assert.equal(changes, 1);
    assert.equal(await pending, 2);
    assert.equal(await svc.forget("1"), 0);
    assert.equal(changes, 1, "nothing to forget, nothing changed");
    const again = new ChannelStore(t.kv.kv);
    await again.load();
    assert.deepEqual([...again.aliases.keys()], ["2"]);

    // At start: members that are no longer players are dropped.
    await svc.join(player("3"), "ooc");
    await svc.join(player("4"), "ooc");
    const asked: string[][] = [];
    const dropped = await svc.forgetMissing((ids) => {
      asked.push(ids);
      return Promise.resolve(new Set(ids.filter((id) => id !== "3")));
    });
    assert.equal(dropped, 1);
    assert.deepEqual(asked, [["2", "3", "4"]]);
    assert.deepEqual([...t.store.aliases.keys()].sort(), ["2", "4"]);
  } finally {
    t.kv.close();
  }
});

Deno.test("channels: the start-up check reads few members, or scans the player index for many", async () => {
  const calls: string[] = [];
  const objects = {
    flagged: (ids: readonly string[], flag: string) => {
      calls.push(`flagged ${flag} ${ids.length}`);
      return Promise.resolve(new Set(ids.filter((id) => id !== "3")));
    },
    idsWithFlag: (flag: string) => {
      calls.push(`scan ${flag}`);
      return Promise.resolve(["1", "2", "4"]);
    },
  };
  const few = playerCheck(objects, 3);
  assert.deepEqual([...await few(["1", "3"])], ["1"]);
  const many = playerCheck(objects, 5000);
  assert.deepEqual([...await many(["1", "3"])], ["1"]);
  assert.deepEqual([...await many(["4", "5"])], ["4"]);
  assert.deepEqual(calls, ["flagged player 2", "scan player"], "one scan serves every batch");
});

Deno.test("channels: a line is stored before anyone hears it (heard means kept after a crash)", async () => {
  const t = await setup(["1", "2"]);
  try {
    const ch = await t.svc.create(player("9", ["player", "admin"]), "Public", {});
    for (const id of ["1", "2"]) await t.svc.join(player(id), "public");
    t.sent.length = 0;
    // A write that fails stands for an engine that dies before the write lands.
    t.store.append = () => Promise.reject(new Error("disk gone"));
    await assert.rejects(() => t.svc.talk(player("1"), ch, "hi"), /disk gone/);
    assert.deepEqual(t.sent, []);
  } finally {
    t.kv.close();
  }
});

Deno.test("channels bridge: speakAs says literal text as name@Source; onLine hears every line", async () => {
  const t = await setup(["1"]);
  try {
    const ch = await t.svc.create(player("9", ["player", "admin"]), "Public", {});
    await t.svc.join(player("1"), "public");
    const heard: unknown[] = [];
    const off = t.svc.onLine((l) => heard.push(l));
    t.sent.length = 0;
    await t.svc.talk(player("1"), ch, ":waves %chhi%cn");
    await t.svc.speakAs({
      channel: "PUBLIC",
      source: "Discord",
      name: "Ann [ansi(r,x)] %r\x1b[31m",
      text: "50% %r%ch[ansi(r,red)]\x1b[2J\u00ff\nline two\x07",
    });
    const lines = t.sent.map(([, out]) => out.msg);
    assert.equal(lines[0], "[Public] P1 waves %chhi%cn%cn");
    // Every % doubled (no code applies), controls and escapes gone, one line; [..] literal.
    assert.equal(
      lines[1],
      `[Public] Ann ansirx r@Discord says, "50%% %%r%%ch[ansi(r,red)]\u00ff line two"`,
    );
    assert.deepEqual(heard, [
      {
        channel: "Public",
        sender: "P1",
        senderId: "1",
        text: "waves %chhi%cn",
        kind: "pose",
        masked: false,
        source: null,
      },
      {
        channel: "Public",
        sender: "Ann ansirx r@Discord",
        senderId: "",
        text: "50%% %%r%%ch[ansi(r,red)]\u00ff line two",
        kind: "say",
        masked: false,
        source: "Discord",
      },
    ]);
    const hist = await t.svc.history({ id: "1", flags: ["player"] }, ch, { limit: 5, offset: 0 });
    assert.equal(hist[1].sender, "Ann ansirx r@Discord");
    await assert.rejects(
      t.svc.speakAs({ channel: "Nowhere", source: "Discord", name: "a", text: "b" }),
      /no channel called Nowhere/,
    );
    await assert.rejects(
      t.svc.speakAs({ channel: "Public", source: "Dis cord", name: "a", text: "b" }),
      /bridge source/,
    );
    await assert.rejects(
      t.svc.speakAs({ channel: "Public", source: "Discord", name: "a", text: " \x1b[0m\n " }),
      /What do you want to say/,
    );
    // A masked channel hides the bridge speaker too.
    await t.svc.set("Public", "masking", "yes");
    await t.svc.speakAs({ channel: "Public", source: "Discord", name: "Ann", text: "psst" });
    assert.equal(t.sent.at(-1)![1].msg, `[Public] Someone says, "psst"`);
    assert.equal((heard.at(-1) as { sender: string }).sender, "Someone");
    off();
    await t.svc.talk(player("1"), ch, "after");
    assert.equal(heard.length, 3, "a removed listener hears nothing");
  } finally {
    t.kv.close();
  }
});

Deno.test("channels: a default channel's alias, and joining again keeps the alias one has", async () => {
  const t = await setup([]);
  try {
    await t.svc.create(player("9"), "OOC", {});
    // `ooc` is a command: the configured default alias is used instead.
    assert.equal((await t.svc.join(player("1"), "ooc")).alias, "o");
    await assert.rejects(t.svc.join(player("2"), "OOC", "ooc"), /is a command/);
    assert.equal((await t.svc.join(player("2"), "OOC", "chat")).alias, "chat");
    // Joining again without an alias (the web client's Join button) is no error.
    assert.equal((await t.svc.join(player("2"), "OOC")).alias, "chat");
  } finally {
    t.kv.close();
  }
});

Deno.test("channels: joins and leaves are announced only on channels up to announceJoins members", async () => {
  const t = await setup(["1", "2", "3", "4"], 2);
  try {
    await t.svc.create(player("9", ["player", "admin"]), "Public", {});
    const joined = () => t.sent.filter(([, o]) => /has (joined|left) this channel/.test(o.msg));
    await t.svc.join(player("1"), "public");
    await t.svc.join(player("2"), "public");
    assert.deepEqual(joined().map(([id]) => id), ["1", "1", "2"], "up to 2 members: announced");
    t.sent.length = 0;
    await t.svc.join(player("3"), "public");
    await t.svc.leave(player("2"), "public");
    assert.deepEqual(joined(), [], "3 members: neither the join nor the leave");
    await t.svc.leave(player("3"), "public");
    assert.deepEqual(joined().map(([id]) => id), ["1", "3"], "back to 2: announced again");
    // Talk still reaches everyone, whatever the size.
    t.sent.length = 0;
    await t.svc.join(player("4"), "public");
    await t.svc.talk(player("1"), t.svc.byName("Public")!, "hi");
    assert.equal(t.sent.filter(([, o]) => /says/.test(o.msg)).length, 2, "members 1 and 4");
  } finally {
    t.kv.close();
  }
});

Deno.test("channels: the talk pattern is made from the aliases in use, counted as players join and leave", async () => {
  const t = await setup(["1", "2"]);
  try {
    await t.svc.create(player("9", ["player", "admin"]), "Public", {});
    await t.svc.join(player("1"), "public", "pub");
    await t.svc.join(player("2"), "public", "pp");
    assert.deepEqual([...t.store.aliasUse].sort(), [["pp", 1], ["pub", 1]]);
    await t.svc.join(player("2"), "public", "pub");
    assert.deepEqual([...t.store.aliasUse], [["pub", 2]], "a changed alias moves its count");
    await t.svc.leave(player("1"), "public");
    await t.svc.forget("2");
    assert.equal(t.store.aliasUse.size, 0);
  } finally {
    t.kv.close();
  }
});
