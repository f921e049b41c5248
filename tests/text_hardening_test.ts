/**
 * Black-box tests of issue 8's text holes: who may see whom online (REST and `who` agree),
 * spoofed lines in speech, and invisible or invalid characters in names and stored text.
 */
import { assert, assertEquals } from "./assert.ts";
import { isType, startWorld } from "./commands_world.ts";
import { api } from "./harness.ts";

Deno.test("players/online follows the visibility rules of who", async () => {
  const w = await startWorld(["Alice", "Bob"]);
  try {
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    const root = await w.login("Root");
    await root.cmd("@set Bob=dark", /set|Set/);
    const names = async (token?: string) => {
      const r = await api(w.srv.base, "GET", "/api/v1/players/online", undefined, token);
      assertEquals(r.status, 200);
      return (r.body as { name: string }[]).map((p) => p.name).sort();
    };
    const whoNames = async (p: typeof alice) => {
      const m = await p.cmd("who", isType("who"));
      return (m.data.players as { name: string }[]).map((x) => x.name).sort();
    };
    const token = async (name: string, password: string) =>
      (await api(w.srv.base, "POST", "/api/v1/auth/login", { name, password })).body.token;

    // An anonymous caller and an ordinary player see what an ordinary player's `who` shows.
    assertEquals(await whoNames(alice), ["Alice", "Root"]);
    assertEquals(await names(), ["Alice", "Root"]);
    assertEquals(await names(await token("Alice", "password123")), ["Alice", "Root"]);
    // The dark player sees itself; staff see everyone, in `who` and over REST.
    assertEquals(await whoNames(bob), ["Alice", "Bob", "Root"]);
    assertEquals(await whoNames(root), ["Alice", "Bob", "Root"]);
    assertEquals(await names(await token("Root", "rootpassword1")), ["Alice", "Bob", "Root"]);
    const entries = (await api(w.srv.base, "GET", "/api/v1/players/online")).body;
    assert(!JSON.stringify(entries).includes(w.seed.players.Bob), "no trace of the dark player");
    // A bad token is no error on a public route: it sees the anonymous view.
    assertEquals(await names("not-a-token"), ["Alice", "Root"]);
  } finally {
    await w.stop();
  }
});
