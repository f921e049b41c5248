import assert from "node:assert/strict";
import { testWorld } from "../_test_util.ts";
import { DENIED } from "../dispatch.ts";

async function logLines(w: Awaited<ReturnType<typeof testWorld>>) {
  await w.services.securityLog.flush();
  const text = await Deno.readTextFile(`${w.logDir}/security.log`).catch(() => "");
  return text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

Deno.test("admin: @set follows the flag table", async () => {
  const w = await testWorld();
  try {
    const su = await w.player("Root", { flags: ["superuser"] });
    const ad = await w.player("Ada", { flags: ["admin"] });
    const pl = await w.player("Pat");
    const flags = async (id: string) => (await w.services.objects.get(id))!.flags;
    assert.deepEqual(await w.run(pl.conn, "@set Pat=builder"), ["Only an admin may set builder."]);
    assert.deepEqual(await w.run(ad.conn, "@set Pat=admin"), ["Only the superuser may set admin."]);
    assert.deepEqual(await w.run(ad.conn, "@set Pat=builder"), ["Set."]);
    assert.ok((await flags(pl.obj.id)).includes("builder"));
    assert.equal(w.hub.last(pl.obj.id)?.msg, "Ada gave you the builder flag.");
    assert.deepEqual(await w.run(ad.conn, "@set Pat=!builder"), ["Cleared."]);
    assert.ok(!(await flags(pl.obj.id)).includes("builder"));
    assert.deepEqual(await w.run(su.conn, "@set Pat=wizard"), ["Set."]);
    assert.deepEqual(await w.run(ad.conn, "@set Pat=storyteller"), [
      "Permission denied: Pat is staff of your rank or higher.",
    ]);
    assert.deepEqual(await w.run(su.conn, "@set Pat=superuser"), [
      "The superuser flag cannot be set or cleared in-game.",
    ]);
    assert.deepEqual(await w.run(su.conn, "@set Root=!superuser"), [
      "The superuser flag cannot be set or cleared in-game.",
    ]);
    const q = await w.player("Quinn");
    assert.deepEqual(await w.run(q.conn, "@set me=haven"), ["Set."]);
    // A flag already as asked answers as a change does (MUX's `Set.`/`Cleared.`), nothing written.
    assert.deepEqual(await w.run(q.conn, "@set me=haven"), ["Set."]);
    assert.deepEqual(await w.run(q.conn, "@set me=!halt"), ["Cleared."]);
    assert.deepEqual(await w.run(q.conn, "@set me=!no_command"), ["Cleared."]);
    assert.deepEqual(await w.run(q.conn, "@set Ada=haven"), ["Permission denied."]);
    assert.deepEqual(await w.run(q.conn, "@set Ada=bogus"), ["Permission denied."]);
    assert.deepEqual(await w.run(q.conn, "@set me=bogus"), ["I do not understand that flag."]);
    assert.deepEqual(await w.run(q.conn, "@set me=thing"), ["I do not understand that flag."]);
    // MUX's flag_set: several words, each answered; a `!` may stand apart from its flag.
    assert.deepEqual(await w.run(q.conn, "@set me=opaque bogus ! haven !"), [
      "Set.\nI do not understand that flag.\nCleared.\nYou must specify a flag to clear.",
    ]);
    assert.deepEqual(await flags(q.obj.id), ["player", "opaque"]);
    assert.deepEqual(await w.run(q.conn, "@set me="), ["You must specify a flag to set."]);
    assert.deepEqual(await w.run(q.conn, "@set me"), ["You must specify a flag to set."]);
    assert.deepEqual(await w.run(q.conn, "@set nosuch=dark"), ["I don't see that here."]);
    const lines = await logLines(w);
    const sets = lines.filter((l) => l.event === "ADMIN_SET_FLAG");
    assert.ok(
      sets.some((l) => l.actor === ad.obj.id && l.target === pl.obj.id && l.detail === "builder"),
    );
    assert.ok(sets.some((l) => l.detail === "refused admin" && l.ip === "203.0.113.9"));
  } finally {
    await w.close();
  }
});

Deno.test("admin: staff-only commands refuse players", async () => {
  const w = await testWorld();
  try {
    const pl = await w.player("Pat");
    for (
      const line of [
        "@boot Pat",
        "@toad Pat",
        "@newpassword Pat=password999",
        "@resettoken Pat",
        "@chown me=Pat",
        "@moniker Pat=%crPat",
        "@site",
      ]
    ) {
      assert.deepEqual(await w.run(pl.conn, line), [DENIED], line);
    }
    assert.deepEqual(await logLines(w), []);
  } finally {
    await w.close();
  }
});

Deno.test("admin: @boot, @toad, @newpassword, @resettoken log and act", async () => {
  const w = await testWorld();
  try {
    const s = w.services;
    const su = await w.player("Root", { flags: ["superuser"] });
    const wiz = await w.player("Wiz", { flags: ["wizard"] });
    const ad = await w.player("Ada", { flags: ["admin"] });
    const pl = await w.player("Pat");
    const toad = await w.player("Toady");
    assert.deepEqual(await w.run(wiz.conn, "@boot Pat"), ["You booted Pat."]);
    assert.equal(w.hub.disconnected.at(-1)?.[0], pl.obj.id);
    assert.deepEqual(await w.run(wiz.conn, "@boot Pat"), ["Pat is not connected."]);
    assert.deepEqual(await w.run(wiz.conn, "@boot Ada"), [
      "Permission denied: Ada is staff of your rank or higher.",
    ]);
    assert.deepEqual(await w.run(ad.conn, "@boot Nobody"), [
      "I don't recognize a player named 'Nobody'.",
    ]);

    const out = await w.run(ad.conn, "@newpassword Pat=short");
    assert.equal(out.length, 1);
    assert.doesNotMatch(out[0], /short/);
    assert.deepEqual(await w.run(ad.conn, "@newpassword Pat=n3w-passw0rd"), [
      "Password for Pat changed.",
    ]);
    assert.ok(await s.accounts.authenticate("Pat", "n3w-passw0rd"));
    assert.deepEqual(await w.run(ad.conn, "@newpassword Root=n3w-passw0rd"), [
      "Permission denied: Root is staff of your rank or higher.",
    ]);

    assert.deepEqual(await w.run(ad.conn, "@resettoken Pat"), []);
    const direct = ad.conn.direct.at(-1)!;
    const token = /([0-9a-f-]{36})$/.exec(direct.msg)![1];
    assert.equal(await s.accounts.consumeResetToken(token, "another-pass1"), pl.obj.id);

    assert.deepEqual(await w.run(ad.conn, "@toad Root"), ["The superuser cannot be toaded."]);
    assert.deepEqual(await w.run(ad.conn, "@toad Toady"), ["You turned Toady into a toad."]);
    const t = (await s.objects.get(toad.obj.id))!;
    assert.ok(t.flags.includes("thing") && !t.flags.includes("player"));
    assert.equal(t.owner, ad.obj.id);
    assert.equal(await s.objects.playerByName("Toady"), null);
    assert.equal(await s.accounts.authenticate("Toady", "password123"), null);
    assert.equal(w.hub.disconnected.at(-1)?.[0], toad.obj.id);

    const lines = await logLines(w);
    const find = (event: string, target: string) =>
      lines.find((l) => l.event === event && l.target === target);
    assert.equal(find("ADMIN_BOOT", pl.obj.id)?.actor, wiz.obj.id);
    assert.equal(find("ADMIN_NEWPASSWORD", pl.obj.id)?.actor, ad.obj.id);
    assert.equal(find("ADMIN_RESETTOKEN", pl.obj.id)?.ip, "203.0.113.9");
    assert.equal(find("ADMIN_TOAD", toad.obj.id)?.actor, ad.obj.id);
    const raw = await Deno.readTextFile(`${w.logDir}/security.log`);
    assert.doesNotMatch(raw, /n3w-passw0rd|short/);
    assert.ok(!raw.includes(token));
    void su;
  } finally {
    await w.close();
  }
});

Deno.test("admin: @chown, @moniker and @site", async () => {
  const w = await testWorld();
  try {
    const s = w.services;
    const ad = await w.player("Ada", { flags: ["admin"] });
    const pl = await w.player("Pat");
    const box = await s.objects.create({
      name: "Box",
      type: "thing",
      location: "1",
      owner: ad.obj.id,
    });
    assert.deepEqual(await w.run(ad.conn, "@chown box=Pat"), [
      `Box(#${box.id}) now belongs to Pat.`,
    ]);
    assert.equal((await s.objects.get(box.id))?.owner, pl.obj.id);
    assert.deepEqual(await w.run(ad.conn, "@chown Pat=Ada"), ["Players always own themselves."]);

    assert.deepEqual(await w.run(ad.conn, "@moniker Pat=%crP%cga%cbt"), [
      "Moniker for Pat set to: %crP%cga%cbt%cn",
    ]);
    assert.match(
      (await w.run(ad.conn, "@moniker Pat=%crSomeoneElse"))[0],
      /must spell the name 'Pat'/,
    );
    await w.run(pl.conn, "say hi");
    assert.equal(w.hub.last(ad.obj.id)?.msg, 'Pat says, "hi%cn"'.replace("Pat", "%crP%cga%cbt"));

    assert.match((await w.run(ad.conn, "@site")).join("\n"), /game\.maxPlayers = 0/);
    assert.deepEqual(await w.run(ad.conn, "@site game.maxplayers=25"), [
      "Site setting game.maxPlayers is now: 25",
    ]);
    assert.equal(s.config.value.game.maxPlayers, 25);
    assert.deepEqual(await w.run(ad.conn, "@site game.maxPlayers=lots"), [
      "game.maxPlayers needs a number.",
    ]);
    assert.match(
      (await w.run(ad.conn, "@site server.db=/tmp/evil"))[0],
      /cannot be changed with @site/,
    );
    assert.match((await w.run(ad.conn, "@site jwt.secret=abc"))[0], /cannot be changed with @site/);
    assert.notEqual(s.config.value.server.db, "/tmp/evil");
    assert.deepEqual(
      await w.run(ad.conn, "@site server.corsOrigins=https://a.example, https://b.example"),
      [
        "Site setting server.corsOrigins is now: https://a.example, https://b.example",
      ],
    );

    const lines = await logLines(w);
    assert.ok(lines.some((l) => l.event === "ADMIN_CHOWN" && l.target === box.id));
    assert.ok(lines.some((l) => l.event === "ADMIN_MONIKER" && l.target === pl.obj.id));
    assert.ok(lines.some((l) => l.event === "ADMIN_SITE_SET" && l.detail === "game.maxPlayers=25"));
    const blocked = lines.filter((l) => l.event === "ADMIN_SITE_BLOCKED");
    assert.deepEqual(blocked.map((l) => l.detail), ["server.db", "jwt.secret"]);
    assert.ok(!JSON.stringify(lines).includes("abc"));
  } finally {
    await w.close();
  }
});
