import assert from "node:assert/strict";
import { runFirstRunSetup, SetupCancelled, type SetupIO } from "./setup.ts";
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
    const t = scripted(["not-an-email", "owner@example.com", "x", "Owner", "short", "longenough1"]);
    assert.equal(await runFirstRunSetup(w, {}, t.io), "created");
    const su = await w.objects.playerByName("owner");
    assert.deepEqual(su?.flags.sort(), ["player", "superuser"]);
    assert.equal((await w.accounts.credentials(su!.id))?.email, "owner@example.com");
    assert.ok(await w.accounts.authenticate("Owner", "longenough1"));
    assert.deepEqual(t.asked.map((a) => a.secret), [false, false, false, false, true, true]);
    assert.ok(t.printed.some((m) => m.includes("e-mail")));
  } finally {
    w.kv.close();
  }
});

Deno.test("setup: nothing happens when players exist", async () => {
  const w = await world();
  try {
    await w.accounts.register("Someone", "password123", { location: w.startRoom });
    const t = scripted(["a@b.c", "Owner", "password123"]);
    assert.equal(await runFirstRunSetup(w, {}, t.io), "has-players");
    assert.equal(t.asked.length, 0);
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
