import assert from "node:assert/strict";
import { hasSuperuser, runFirstRunSetup, SetupCancelled, type SetupIO } from "./setup.ts";
import { announcePending } from "../auth/announce.ts";
import { ObjectStore } from "../world/objects.ts";
import { Accounts } from "../auth/accounts.ts";

/** A scripted person at the terminal. */
function scripted(answers: (string | null)[], interactive = true) {
  const printed: string[] = [];
  const asked: { q: string; secret: boolean }[] = [];
  const io: SetupIO = {
    interactive,
    print: (m) => printed.push(m),
    ask: (q, secret) => {
      asked.push({ q, secret: Boolean(secret) });
      return Promise.resolve(answers.length ? answers.shift()! : null);
    },
  };
  return { io, printed, asked };
}

async function world() {
  const kv = await Deno.openKv(":memory:");
  const objects = new ObjectStore(kv);
  const room = await objects.create({ name: "Limbo", type: "room" });
  return { kv, objects, accounts: new Accounts(kv, objects), startRoom: room.id };
}

Deno.test("setup: interactive prompts create the superuser; the password is asked without echo", async () => {
  const w = await world();
  try {
    const t = scripted([
      "not-an-email",
      "owner@example.com",
      "x",
      "Owner",
      "short",
      "longenough1",
      "longenuogh1", // a typo in the second: both again
      "longenough1",
      "longenough1",
    ]);
    assert.equal(await runFirstRunSetup(w, {}, t.io), "created");
    const su = await w.objects.playerByName("owner");
    assert.deepEqual(su?.flags.sort(), ["player", "superuser"]);
    assert.equal((await w.accounts.credentials(su!.id))?.email, "owner@example.com");
    assert.ok(await w.accounts.authenticate("Owner", "longenough1"));
    assert.deepEqual(t.asked.map((a) => a.secret), [
      false,
      false,
      false,
      false,
      true,
      true,
      true,
      true,
      true,
    ]);
    assert.deepEqual(t.asked.slice(5, 7).map((a) => a.q), [
      "Password (8-512 characters): ",
      "Password again: ",
    ]);
    assert.ok(t.printed.includes("The two passwords are not the same; type them again."));
    assert.ok(t.printed.some((m) => m.includes("e-mail")));
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: nothing happens when a superuser exists", async () => {
  const w = await world();
  try {
    await w.accounts.register("Someone", "password123", { location: w.startRoom });
    await w.accounts.register("Boss", "password123", {
      location: w.startRoom,
      flags: ["superuser"],
    });
    const t = scripted(["a@b.c", "Owner", "password123"]);
    const env = { URSAMU_SUPERUSER_NAME: "Other", URSAMU_SUPERUSER_PASSWORD: "password123" };
    assert.equal(await runFirstRunSetup(w, env, t.io), "has-superuser");
    assert.equal(t.asked.length, 0);
    assert.equal(t.printed.length, 0);
    assert.equal(await w.objects.playerByName("other"), null);
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: players but no superuser: the environment still creates one; a taken name is refused", async () => {
  const w = await world();
  try {
    await w.accounts.register("Someone", "password123", { location: w.startRoom });
    const taken = scripted([], false);
    const clash = { URSAMU_SUPERUSER_NAME: "someone", URSAMU_SUPERUSER_PASSWORD: "rootpass1" };
    assert.equal(await runFirstRunSetup(w, clash, taken.io), "skipped");
    const said = taken.printed.join("\n");
    assert.match(said, /someone is already taken by another player/);
    assert.match(said, /no superuser yet/);
    assert.deepEqual((await w.objects.playerByName("someone"))?.flags, ["player"]);

    const half = scripted([], false);
    const onlyName = { URSAMU_SUPERUSER_NAME: "Root" };
    assert.equal(await runFirstRunSetup(w, onlyName, half.io), "skipped");
    assert.match(half.printed.join("\n"), /must both be set/);

    const env = { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: "rootpass1" };
    assert.equal(await runFirstRunSetup(w, env, scripted([], false).io), "created");
    assert.ok((await w.objects.playerByName("root"))?.flags.includes("superuser"));
    assert.equal(await hasSuperuser(w.objects), true);
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: a toaded superuser no longer counts", async () => {
  const w = await world();
  try {
    const su = await w.accounts.register("Boss", "password123", {
      location: w.startRoom,
      flags: ["superuser"],
    });
    assert.equal(await hasSuperuser(w.objects), true);
    await w.objects.update(su.id, (o) => {
      o.flags = o.flags.filter((f) => f !== "player");
    });
    assert.equal(await hasSuperuser(w.objects), false);
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: the interactive name prompt refuses a name another player has", async () => {
  const w = await world();
  try {
    await w.accounts.register("Someone", "password123", { location: w.startRoom });
    const t = scripted(["owner@example.com", "Someone", "Owner", "longenough1", "longenough1"]);
    assert.equal(await runFirstRunSetup(w, {}, t.io), "created");
    assert.ok(t.printed.some((m) => /Someone is already taken/.test(m)));
    assert.ok((await w.objects.playerByName("owner"))?.flags.includes("superuser"));
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: made while no engine runs, the superuser is marked for announcement", async () => {
  const w = await world();
  try {
    const env = { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: "rootpass1" };
    await runFirstRunSetup(w, env, scripted([], false).io, { announceLater: true });
    const root = await w.objects.playerByName("root");
    const heard: string[] = [];
    const n = await announcePending(w.kv, w.objects, (p) => {
      heard.push(p.name);
      return Promise.resolve();
    });
    assert.equal(n, 1);
    assert.deepEqual(heard, [root!.name]);
    assert.equal(await announcePending(w.kv, w.objects, () => Promise.resolve()), 0, "once");
    // Without the option (the engine's own setup) there is nothing to replay.
    const w2 = await world();
    try {
      await runFirstRunSetup(w2, env, scripted([], false).io);
      assert.equal(await announcePending(w2.kv, w2.objects, () => Promise.resolve()), 0);
    } finally {
      w2.kv.close();
    }
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: without a terminal, the environment creates the superuser or setup says how", async () => {
  const w = await world();
  try {
    const quiet = scripted([], false);
    assert.equal(await runFirstRunSetup(w, {}, quiet.io), "skipped");
    assert.ok(quiet.printed.join("\n").includes("URSAMU_SUPERUSER_NAME"));
    assert.equal(await w.objects.playerByName("root"), null);

    const bad = scripted([], false);
    const badEnv = { URSAMU_SUPERUSER_NAME: "Root", URSAMU_SUPERUSER_PASSWORD: "short" };
    assert.equal(await runFirstRunSetup(w, badEnv, bad.io), "skipped");
    assert.equal(await w.objects.playerByName("root"), null);

    const env = {
      URSAMU_SUPERUSER_NAME: "Root",
      URSAMU_SUPERUSER_PASSWORD: "rootpass1",
      URSAMU_SUPERUSER_EMAIL: "root@example.com",
    };
    assert.equal(await runFirstRunSetup(w, env, scripted([], false).io), "created");
    assert.ok((await w.objects.playerByName("root"))?.flags.includes("superuser"));
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: input ending midway creates nothing", async () => {
  const w = await world();
  try {
    const t = scripted(["owner@example.com", "Owner"]);
    assert.equal(await runFirstRunSetup(w, {}, t.io), "skipped");
    assert.equal(await w.objects.playerByName("owner"), null);
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: Ctrl-D at the first prompt skips setup at once (no further prompt)", async () => {
  const w = await world();
  try {
    const t = scripted([null, "Owner", "longenough1"]);
    let prepared = 0;
    const result = await runFirstRunSetup(w, {}, t.io, {
      beforePrompt: () => Promise.resolve(void prepared++),
    });
    assert.equal(result, "skipped");
    assert.equal(prepared, 1, "modules loaded before the first prompt");
    assert.deepEqual(t.asked.map((a) => a.q), ["E-mail address: "]);
    assert.ok(t.printed.some((m) => /skipped; no superuser was created/.test(m)));
    assert.ok(t.printed.some((m) => /deno task setup/.test(m)));
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: messages name npm's commands for npm users", async () => {
  const w = await world();
  try {
    const t = scripted([], false);
    await runFirstRunSetup(w, { npm_lifecycle_event: "start", npm_command: "run-script" }, t.io);
    const said = t.printed.join("\n");
    assert.match(said, /`npm run setup`/);
    assert.match(said, /`npm start`/);
    assert.doesNotMatch(said, /deno task/);
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: Ctrl-C at a prompt cancels the start instead of going on without a superuser", async () => {
  const w = await world();
  try {
    const io: SetupIO = {
      interactive: true,
      print: () => {},
      ask: (q) =>
        q.startsWith("Password") ? Promise.reject(new SetupCancelled()) : Promise.resolve(
          q.startsWith("E-mail") ? "owner@example.com" : "Owner",
        ),
    };
    await assert.rejects(runFirstRunSetup(w, {}, io), SetupCancelled);
    assert.equal(await w.objects.playerByName("owner"), null);
  } finally {
    w.kv.close();
  }
});
