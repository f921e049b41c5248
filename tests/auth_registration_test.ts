/**
 * Registrations per client address (issue 31, item 6), from outside: REST `register`, and
 * `create` over WebSocket and telnet, share `game.registrationsPerHour` per address; beyond it
 * REST answers 429 `{error}` and the game a clear line; a flood of parallel requests creates no
 * more than the limit (40 at once: under the 50 connections an address may hold); failed
 * registrations do not count.
 */
import { assert, assertEquals } from "./assert.ts";
import { api, startServer } from "./harness.ts";
import { startSupervised } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";
import { TelnetClient } from "./telnet_client.ts";

const LIMITED =
  "Too many characters were created from your address in the last hour. Try again later.";

Deno.test("registration: an address creates at most game.registrationsPerHour characters, whatever the interface", async () => {
  const srv = await startSupervised({ env: { URSAMU_GAME_REGISTRATIONSPERHOUR: "4" } });
  try {
    const reg = (name: string, password = "password123") =>
      api(srv.base, "POST", "/api/v1/auth/register", { name, password });
    // Refused registrations change nothing and use up nothing.
    assertEquals((await reg("Ann", "short")).status, 400);
    assertEquals((await reg("Ann")).status, 200);
    assertEquals((await reg("Ann")).status, 409);
    assertEquals((await reg("Ben")).status, 200);

    const ws = await connectWs(srv, { client: "web" });
    try {
      await ws.expect((m) => m.data.type === "connect", 15_000);
      ws.send("create Cat password123");
      await ws.expect((m) => m.data.type === "session", 15_000);
    } finally {
      await ws.close();
    }
    const telnet = await TelnetClient.connect(srv.telnet);
    try {
      await telnet.waitFor(/connect <name>/, 15_000);
      await telnet.send("create Dan password123");
      await telnet.waitFor(/Limbo/, 15_000);
    } finally {
      await telnet.close();
    }

    // Four made: the fifth is refused on every interface, with a clear message.
    const rest = await reg("Eve");
    assertEquals(rest.status, 429);
    assertEquals(rest.body, { error: LIMITED });
    assertEquals(
      (await api(srv.base, "POST", "/api/v1/auth/login", {
        name: "Eve",
        password: "password123",
      })).status,
      401,
      "nothing was created",
    );
    const ws2 = await connectWs(srv, { client: "web" });
    try {
      await ws2.expect((m) => m.data.type === "connect", 15_000);
      ws2.send("create Fay password123");
      const m = await ws2.expect((x) => x.data.type === "error", 15_000);
      assertEquals(m.msg, LIMITED);
    } finally {
      await ws2.close();
    }
    const t2 = await TelnetClient.connect(srv.telnet);
    try {
      await t2.waitFor(/connect <name>/, 15_000);
      await t2.send("create Gus password123");
      await t2.waitFor(/Too many characters were created from your address/, 15_000);
    } finally {
      await t2.close();
    }
    // Logging in is not registering.
    assertEquals(
      (await api(srv.base, "POST", "/api/v1/auth/login", {
        name: "Ann",
        password: "password123",
      })).status,
      200,
    );
    const log = await Deno.readTextFile(`${srv.dir}/logs/security.log`);
    assert(/"event":"REGISTER_RATE_LIMITED"[^\n]*"ip":"127\.0\.0\.1"/.test(log), log);
  } finally {
    await srv.stop();
  }
});

Deno.test("registration: a parallel flood from one address creates no more than the limit", async () => {
  const srv = await startSupervised({ env: { URSAMU_GAME_REGISTRATIONSPERHOUR: "5" } });
  try {
    const answers = await Promise.all(
      Array.from(
        { length: 40 },
        (_, i) =>
          api(srv.base, "POST", "/api/v1/auth/register", {
            name: `Flood${i}`,
            password: "password123",
          }),
      ),
    );
    const statuses = answers.map((a) => a.status);
    assertEquals(statuses.filter((s) => s === 200).length, 5, statuses.join(","));
    assertEquals(statuses.filter((s) => s === 429).length, 35, statuses.join(","));
    for (const a of answers) if (a.status === 429) assertEquals(a.body, { error: LIMITED });
    assertEquals((await api(srv.base, "GET", "/health")).status, 200);
  } finally {
    await srv.stop();
  }
});

Deno.test("registration: names registered at once make one player, and the refused ones use up no dbref", async () => {
  const srv = await startServer({ env: { URSAMU_GAME_REGISTRATIONSPERHOUR: "100" } });
  try {
    const reg = (name: string) =>
      api(srv.base, "POST", "/api/v1/auth/register", { name, password: "password123" });
    const me = async (token: string) =>
      (await api(srv.base, "GET", "/api/v1/me", undefined, token)).body.id as string;
    // Each passes the name check while the others hash their password; all but one are then
    // refused in the create's commit, where a taken number used to stay taken.
    const same = await Promise.all(Array.from({ length: 4 }, () => reg("Twin")));
    const statuses = same.map((r) => r.status).sort();
    assertEquals(statuses, [200, 409, 409, 409]);
    const twin = Number(await me(same.find((r) => r.status === 200)!.body.token));
    const next = Number(await me((await reg("Single")).body.token));
    assertEquals(next, twin + 1, "the next player takes the number after Twin's");
  } finally {
    await srv.stop();
  }
});
