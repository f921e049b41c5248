/**
 * The time budget's owner (docs/softcode.md, "Limits"), on the whole stack over telnet and
 * WebSocket: evaluation time is charged to the player whose line began the chain, so a player who
 * spends a global's time is stopped and told while another player's use of the same global still
 * works; a self-triggering loop is still stopped as a runaway.
 */
import { assert } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";
import type { TelnetClient } from "./telnet_client.ts";

async function run(t: TelnetClient, line: string, want: RegExp, ms = 10_000): Promise<string> {
  const from = t.mark();
  await t.send(line);
  await t.waitFor(want, ms, from);
  return t.plain.slice(from);
}

/** A global of the wizard's, dropped in the room: `+burn <n>` spends about n² function calls. */
async function dropBurner(admin: TelnetClient): Promise<void> {
  await run(admin, "@create Burner", /Burner created as object/);
  await run(
    admin,
    "&CMD burner=$+burn *:@pemit %#=[null(iter(lnum(%0),null(iter(lnum(%0),add(1,1)))))]burnt %0",
    /Set\./,
  );
  await run(admin, "drop Burner", /Dropped\./);
}

Deno.test("time budget: the player who began the chain pays, not the global's owner", async () => {
  const srv = await startSupervised({
    config: {
      // A budget a test spends in two commands, over a window that does not refill meanwhile.
      softcode: {
        actorMs: 300,
        actorWindowMs: 600_000,
        evaluationMs: 200,
        functionInvocations: 100_000_000,
      },
      queue: { chainLimit: 200 },
    },
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const bobToken = await register(srv.base, "Bob");
    const carolToken = await register(srv.base, "Carol");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const bob = await connectWs(srv.ws, { token: bobToken, client: "web" });
    closers.push(() => bob.close());
    const carol = await connectWs(srv.ws, { token: carolToken, client: "web" });
    closers.push(() => carol.close());
    await bob.expect(/Limbo/);
    await carol.expect(/Limbo/);
    // A global of the wizard's, in the room: `+burn <n>` spends about n² function calls.
    await dropBurner(admin);
    carol.send("+burn 2");
    await carol.expect(/^burnt 2$/);

    // Bob spends his budget: each +burn is cut at evaluationMs; then he is refused and told.
    let told = false;
    for (let i = 0; i < 8 && !told; i++) {
      bob.send("+burn 3000");
      const m = await bob.expect(/burnt 3000|CPU LIMITED|used its time/);
      if (/used its time/.test(m.msg)) told = true;
    }
    assert(told, "Bob was told his softcode used its time");
    // Stopped: his own evaluations are refused (a +burn's `%#` no longer names him either).
    bob.send("think [add(1,1)]");
    await bob.expect(/^#-1 CPU LIMITED$/);
    // Carol's use of the same global still works, and so does its owner's own softcode.
    carol.send("+burn 1");
    await carol.expect(/^burnt 1$/);
    await run(admin, "think [add(20,22)]", /^42$/m);

    // A self-triggering loop is still stopped and reported to its owner.
    await run(admin, "@create Loop", /Loop created as object/);
    await run(admin, "&LOOP loop=@trigger me/loop", /Set\./);
    await run(
      admin,
      "@trigger loop/loop",
      /Run away objects: Loop\(#\d+\) ran 200 queue entries in a chain/,
      20_000,
    );
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});

Deno.test("time budget: a lock, a description or a zone's lock checked for a player's command is charged to that player", async () => {
  const srv = await startSupervised({
    config: {
      softcode: {
        actorMs: 300,
        actorWindowMs: 600_000,
        evaluationMs: 200,
        functionInvocations: 100_000_000,
      },
    },
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const token = (name: string) => register(srv.base, name);
    const [bobT, carolT, daveT, erinT, finnT] = await Promise.all(
      ["Bob", "Carol", "Dave", "Erin", "Finn"].map(token),
    );
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const ws = async (t: string) => {
      const c = await connectWs(srv.ws, { token: t, client: "web" });
      closers.push(() => c.close());
      await c.expect(/Limbo/);
      return c;
    };
    const [bob, carol, dave, erin, finn] = [
      await ws(bobT),
      await ws(carolT),
      await ws(daveT),
      await ws(erinT),
      await ws(finnT),
    ];
    // The wizard's world: a gate with an evaluated lock, a statue with an evaluated description
    // and a zone master whose enter lock evaluates; each heavy for Bob, Dave and Erin alone.
    const burn = "null(iter(lnum(3000),null(iter(lnum(3000),add(1,1)))))";
    const heavy = `[switch(name(%#),Bob,${burn},Dave,${burn},Erin,${burn},Finn,${burn})]`;
    const dbref = async (line: string, re: RegExp) => re.exec(await run(admin, line, re))![1];
    await run(admin, "@dig Vault=Gate;gate,Out;out", /Opened\.\r?\nLinked\.\r?\nOpened\./);
    await run(admin, "@lock gate=PASS/1", /^Locked\.\r?$/m);
    await run(admin, `&PASS gate=${heavy}1`, /Set\./);
    await run(admin, "@create Statue", /Statue created as object/);
    await run(admin, `@desc statue=${heavy}A marble statue.`, /Set\./);
    await run(admin, "drop statue", /Dropped\./);
    const zmo = await dbref("@create Estate", /Estate created as object #(\d+)/);
    const relic = await dbref("@create Relic", /Relic created as object #(\d+)/);
    await run(admin, `@chzone #${relic}=#${zmo}`, /Zone changed\./);
    await run(admin, `@lock/enter #${zmo}=PASS/1`, /Locked/);
    await run(admin, `&PASS #${zmo}=${heavy}0`, /Set\./);
    await run(admin, "drop relic", /Dropped\./);

    // Each probes until told the time is spent: the prober's own, not the wizard's.
    const probe = async (who: typeof bob, line: string, answer: RegExp) => {
      for (let i = 0; i < 8; i++) {
        who.send(line);
        await who.expect(answer);
        if (await who.sees(/used its time/, 0)) return;
      }
      throw new Error(`never told its time was spent probing '${line}'`);
    };
    await probe(bob, "gate", /can't go that way/);
    await probe(dave, "look statue", /Statue%cn\n/);
    await probe(erin, `@desc #${relic}=Mine.`, /Permission denied|I don.t see that here/);
    // Over REST, the player a token names pays for the control check's zone lock.
    for (let i = 0; i < 8 && !(await finn.sees(/used its time/, 0)); i++) {
      const res = await fetch(`${srv.base}/api/v1/dbobj/${relic}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${finnT}`, "content-type": "application/json" },
        body: JSON.stringify({ description: "Mine." }),
      });
      assert(res.status === 403, `Finn may not change the relic (${res.status})`);
      await res.body?.cancel();
    }
    await finn.expect(/used its time/, 2000);
    for (const spent of [bob, dave, erin, finn]) {
      spent.send("think [add(1,1)]");
      await spent.expect(/^#-1 CPU LIMITED$/);
    }
    // The wizard's gate, statue and softcode still work for everyone else.
    await run(admin, "think [add(20,22)]", /^42$/m);
    await run(admin, "look statue", /^A marble statue\./m);
    carol.send("look statue");
    await carol.expect(/\nA marble statue\.$/);
    carol.send("gate");
    await carol.expect(/Vault/);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});

Deno.test("time budget: accounts that together pass the game's time are held to a share; a light player runs on", async () => {
  const srv = await startSupervised({
    config: {
      // Each player's own time is far off; the game's is passed within a few +burns.
      softcode: {
        actorMs: 5_000,
        gameMs: 500,
        actorWindowMs: 600_000,
        evaluationMs: 200,
        functionInvocations: 100_000_000,
      },
    },
  });
  const closers: (() => Promise<void>)[] = [];
  try {
    const tokens = await Promise.all(["Bob", "Dan", "Carol"].map((n) => register(srv.base, n)));
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    closers.push(() => admin.close());
    const [bob, dan, carol] = await Promise.all(
      tokens.map((token) => connectWs(srv.ws, { token, client: "web" })),
    );
    for (const c of [bob, dan, carol]) {
      closers.push(() => c.close());
      await c.expect(/Limbo/);
    }
    await dropBurner(admin);
    carol.send("+burn 2");
    await carol.expect(/^burnt 2$/);

    // Bob and Dan burn by turns, each far within his own time, until the game's is passed and
    // one of them is told (a refused +burn says nothing more: its `%#` names no one).
    let busy = false;
    for (let i = 0; i < 10 && !busy; i++) {
      for (const p of [bob, dan]) {
        p.send("+burn 3000");
        const m = await p.expect(/burnt 3000|softcode is busy/);
        if (/softcode is busy.*its share/.test(m.msg)) {
          busy = true;
          break;
        }
      }
    }
    assert(busy, "a heavy player was told the game's softcode is busy and his share is used");
    for (const p of [bob, dan]) {
      p.send("think [add(1,1)]");
      await p.expect(/^#-1 CPU LIMITED$/);
    }
    // Carol has spent little: she is under any share, and the global still answers her.
    carol.send("+burn 1");
    await carol.expect(/^burnt 1$/);
    carol.send("think [add(20,22)]");
    await carol.expect(/^42$/);
  } finally {
    for (const c of closers) await c();
    await srv.stop();
  }
});
