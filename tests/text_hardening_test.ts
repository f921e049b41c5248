/**
 * Black-box tests of issue 8's text holes: who may see whom online (REST and `who` agree),
 * spoofed lines in speech, and invisible or invalid characters in names and stored text.
 */
import { assert, assertEquals } from "./assert.ts";
import { isType, startWorld } from "./commands_world.ts";
import { api } from "./harness.ts";
import { connectWs } from "./ws_client.ts";
import { stripColour } from "../src/text/colour.ts";

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

Deno.test("spoofing: continuation lines of speech are indented for every listener", async () => {
  const w = await startWorld(["Alice", "Bob"]);
  try {
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    /** The lines a listener sees once colour codes are rendered away. */
    const lines = (msg: string) => stripColour(msg).split("\n");

    await alice.send("say A%r%cr[fake] Wiz pages: hi");
    const said = await bob.ws.expect(isType("say"));
    assertEquals(lines(said.msg), ['Alice says, "A', '  [fake] Wiz pages: hi"']);
    assertEquals(said.data.text, "A%r%cr[fake] Wiz pages: hi", "the structured text is as typed");

    await alice.send(":waves.%RWiz pages: hi");
    assertEquals(lines((await bob.ws.expect(isType("pose"))).msg), [
      "Alice waves.",
      "  Wiz pages: hi",
    ]);
    await alice.send("@emit Thunder.%rWiz pages: hi");
    assertEquals(lines((await bob.ws.expect(isType("emit"))).msg), ["Thunder.", "  Wiz pages: hi"]);
    await alice.send("page Bob=hi%rRoot pages: give me your password");
    assertEquals(lines((await bob.ws.expect(isType("page"))).msg), [
      "Alice pages: hi",
      "  Root pages: give me your password",
    ]);
    await alice.send('pub hi%r[Public] Root says, "fake"');
    const chan = await bob.ws.expect(isType("channel"));
    assertEquals(lines(chan.msg).slice(1), ['  [Public] Root says, "fake""']);
    // Text that is not speech keeps its line breaks as written.
    await alice.cmd("think one%rtwo", (m) => m.data.type === "think");
    const thought = alice.ws.all.findLast((m) => m.data.type === "think")!;
    assertEquals(lines(thought.msg), ["one", "two"]);

    // A plain (ANSI text) listener gets the same indented line.
    const plain = await connectWs(w.srv, { token: await login(w, "Bob"), client: "plain" });
    try {
      await plain.expect(/Limbo/);
      await alice.send("say x%ry");
      const got = await plain.expect(/says/);
      assertEquals(got.msg.split(/\r?\n/), ['Alice says, "x', '  y"']);
    } finally {
      await plain.close();
    }
  } finally {
    await w.stop();
  }
});

Deno.test("bidi overrides and invalid code points never reach names or stored text", async () => {
  const w = await startWorld(["Alice", "Bob"]);
  try {
    const base = w.srv.base;
    // A name with U+202E is refused: names are checked, not quietly changed.
    const refused = await api(base, "POST", "/api/v1/auth/register", {
      name: "Mal\u202Elory",
      password: "password123",
    });
    assertEquals(refused.status, 400);
    // Every other REST string is sanitised on the way in.
    const reg = await api(base, "POST", "/api/v1/auth/register", {
      name: "Mallory",
      password: "password123",
    });
    assertEquals(reg.status, 200);
    const me = await api(base, "GET", "/api/v1/me", undefined, reg.body.token);
    assertEquals(me.body.name, "Mallory");
    // Descriptions and notes lose overrides, isolates, lone surrogates and noncharacters.
    const patched = await api(base, "PATCH", `/api/v1/dbobj/${me.body.id}`, {
      data: { description: "left\u202Eright\u2066\ud800 end\uFFFF" },
    }, reg.body.token);
    assertEquals(patched.status, 200);
    const obj = await api(base, "GET", `/api/v1/dbobj/${me.body.id}`, undefined, reg.body.token);
    assertEquals(obj.body.data.description, "leftright end");
    const note = await api(base, "POST", "/api/v1/notes", {
      text: "secret\u202E\udc00 plan",
    }, reg.body.token);
    assertEquals(note.status, 201);
    assertEquals(note.body.text, "secret plan");
    // Passwords are compared, never shown: they are kept exactly as typed.
    const odd = await api(base, "POST", "/api/v1/auth/register", {
      name: "Oddpass",
      password: "pass\u202Eword1",
    });
    assertEquals(odd.status, 200);
    const bad = await api(base, "POST", "/api/v1/auth/login", {
      name: "Oddpass",
      password: "password1",
    });
    assertEquals(bad.status, 401);
    // Room names with an override or an invisible character are refused, not stored.
    const rootToken = await login(w, "Root");
    for (
      const [name, why] of [["Evil\u202Elab", /override/], ["W\u200Biz", /invisible/]] as const
    ) {
      const room = await api(base, "POST", "/api/v1/building/room", { name }, rootToken);
      assertEquals(room.status, 400);
      assert(why.test(room.body.error), room.body.error);
    }
    const patchName = await api(base, "PATCH", `/api/v1/dbobj/${me.body.id}`, {
      name: "Mal\u202Elory",
    }, reg.body.token);
    assertEquals(patchName.status, 400);

    // In game: speech and descriptions typed with U+202E lose it.
    const alice = await w.login("Alice");
    const bob = await w.login("Bob");
    await alice.send("say evil\u202Etext");
    assertEquals((await bob.ws.expect(isType("say"))).data.text, "eviltext");
    await alice.cmd("@describe me=mirror\u202Eimage\u2067", /Described|set/i);
    const alicesDesc = await api(base, "GET", `/api/v1/dbobj/${alice.id}`, undefined, rootToken);
    assertEquals(alicesDesc.body.data.description, "mirrorimage");
  } finally {
    await w.stop();
  }
});

async function login(w: { srv: { base: string } }, name: string): Promise<string> {
  const password = name === "Root" ? "rootpassword1" : "password123";
  const r = await api(w.srv.base, "POST", "/api/v1/auth/login", { name, password });
  return r.body.token;
}
