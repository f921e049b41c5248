/**
 * Softcode end to end: think, @pemit, @npemit, @remit and @oemit over telnet and WebSocket on the
 * whole stack; what evaluation gives reaches the player once (an evaluated `%%r` shows as `%r`);
 * a runaway evaluation stops with MUX's error and others carry on; players' say stays as typed.
 */
import { assert, assertEquals } from "./assert.ts";
import { register } from "./harness.ts";
import { startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

const ESC = "\x1b[";

Deno.test("softcode commands over telnet and WebSocket", async (t) => {
  const srv = await startSupervised();
  const closers: (() => Promise<void>)[] = [];
  try {
    await register(srv.base, "Alice");
    const bobToken = await register(srv.base, "Bob");
    const alice = await telnetLogin(srv, "Alice", "password123", { ttype: "XTERM" });
    closers.push(() => alice.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    await bob.expect(/Limbo/);

    /** Alice runs a line over telnet and gets the text after it. */
    const run = async (line: string, want: RegExp) => {
      const from = alice.mark();
      await alice.send(line);
      return (await alice.waitFor(want, 10_000, from))[0];
    };

    await t.step("think evaluates, once", async () => {
      await run("think [add(1,2)]-[iter(a b,[ucstr(##)])]-[u(me/nothing)]end", /3-A B-end/);
      await run("think 100%% and %%r stay", /100% and %r stay/);
      await run("think [lit([add(1,2)])]", /\[add\(1,2\)\]/);
      await run("think a%rb", /a\r?\nb/);
    });

    await t.step("colour reaches the terminal as ANSI", async () => {
      const from = alice.text.length;
      await run("think [ansi(r,red)] %xhbold%xn %x<#bb0000>rgb%xn done1", /done1/);
      const raw = alice.text.slice(from);
      assert(raw.includes(`${ESC}31mred${ESC}0m`), JSON.stringify(raw));
      assert(raw.includes(`${ESC}1mbold`), JSON.stringify(raw));
      assert(raw.includes(`${ESC}31mrgb`), JSON.stringify(raw));
    });

    await t.step("attributes set by softcode are read back by u() and get()", async () => {
      await run("think [set(me,DOUBLE:\\[mul(\\%0,2)\\])]set", /set/);
      await run("think [u(me/DOUBLE,21)] [get(me/DOUBLE)]", /42 \[mul\(%0,2\)\]/);
    });

    await t.step("@pemit reaches its target alone, evaluated; @npemit as typed", async () => {
      bob.send("@pemit Alice=Hi from [name(me)], [add(2,2)]!");
      await alice.waitFor(/Hi from Bob, 4!/);
      bob.send("@npemit Alice=Raw [add(2,2)] %r stays");
      await alice.waitFor(/Raw \[add\(2,2\)\] %r stays/);
      await alice.send("@pemit Bob=[repeat(-,3)] to Bob");
      const got = await bob.expect(/--- to Bob/);
      assertEquals(got.msg, "--- to Bob");
      await run("@pemit Nobody=x", /^Emit error\(s\): Nobody \(unknown\)\r?$/m);
    });

    await t.step("@remit and @oemit reach the room", async () => {
      await run("@remit here=The floor [lcstr(SHAKES)].", /The floor shakes\./);
      await bob.expect(/The floor shakes\./);
      await run("@oemit Bob=Only Alice sees [name(me)] here.", /Only Alice sees Alice here\./);
      assert(!(await bob.sees(/Only Alice sees/, 300)), "@oemit leaves its object out");
    });

    await t.step("runaway softcode stops with MUX's errors; others carry on", async () => {
      await run("think [set(me,LOOP:\\[u(me/LOOP)\\])]ok", /ok/);
      await run("think [u(me/LOOP)]", /#-1 FUNCTION RECURSION LIMIT EXCEEDED/);
      await run("think [strlen(repeat(x,1000000000))]", /7999/);
      await run("think [[[[[[[[[[add(1,2", /\[\[\[\[\[\[\[\[\[\[add\(1,2/);
      await run(`think [${"x".repeat(5000)}(1)]`, /#-1 FUNCTION \(XXXX/);
      bob.send("think still here [add(40,2)]");
      await bob.expect(/still here 42/);
    });

    await t.step("players' say stays as typed unless the game turns evaluation on", async () => {
      await run("say [add(1,1)] %%", /You say, "\[add\(1,1\)\] %/);
      await bob.expect(/Alice says, "\[add\(1,1\)\] %/);
    });
  } finally {
    for (const c of closers) await c().catch(() => {});
    await srv.stop();
  }
});

Deno.test("softcode.evaluatePlayerText evaluates say and pose, as MUX does", async () => {
  const srv = await startSupervised({ env: { URSAMU_SOFTCODE_EVALUATEPLAYERTEXT: "true" } });
  try {
    const token = await register(srv.base, "Carol");
    const carol = await connectWs(srv.ws, { token, client: "web" });
    try {
      await carol.expect(/Limbo/);
      carol.send("say [add(1,1)] and 50%% off");
      // The web client gets the wire form: a literal percent is doubled for its renderer.
      await carol.expect(/You say, "2 and 50%% off/);
      carol.send(":waves [repeat(!,3)]");
      await carol.expect(/Carol waves !!!/);
    } finally {
      await carol.close();
    }
  } finally {
    await srv.stop();
  }
});
