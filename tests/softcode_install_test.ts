/**
 * What softcode installers type, end to end over telnet on the whole stack: a paste is kept
 * whole and fed to the hub at its rate; `@@` comments say
 * nothing; a built-in command's arguments are evaluated as MUX does (the part before `=` always,
 * the rest of an interpreted command such as `@lock` and `@name` always, the rest of `&` and
 * `@set` only when queued); `@tel` puts an object inside a thing, and never inside itself; a
 * wizard's object set `inherit` acts with the wizard's rank (sets a player's attributes, creates
 * objects), one that is not does not.
 */
import { assert } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";

Deno.test("installer commands: @@, MUX's argument evaluation, @tel into a thing", async () => {
  const srv = await startSupervised();
  const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
  try {
    /** Runs a line and answers the first match after it. */
    const run = async (line: string, want: RegExp) => {
      const from = admin.mark();
      await admin.send(line);
      return await admin.waitFor(want, 10_000, from);
    };

    // A paste of 120 lines in one write (over the hub's 10 a second): every line runs, in order.
    const pasted = admin.mark();
    const paste = Array.from({ length: 120 }, (_, i) => `think pasted-${i}-end`).join("\r\n");
    await admin.write(new TextEncoder().encode(paste + "\r\n"));
    await admin.waitFor(/pasted-119-end/, 60_000, pasted);
    const seen = [...admin.plain.slice(pasted).matchAll(/pasted-(\d+)-end/g)].map((m) => +m[1]);
    assert(seen.join() === Array.from({ length: 120 }, (_, i) => i).join(), seen.join());

    // Lines pasted together: each runs after the queue's turn for the one before, so a line
    // sees what the @switch just before it set (as an installer's next line reads it).
    const turn = admin.mark();
    await admin.write(new TextEncoder().encode("@switch 1=1,{&QQ me=set}\r\nthink q=[v(QQ)]|\r\n"));
    await admin.waitFor(/q=set\|/, 10_000, turn);

    // A comment: nothing at all comes back (the think after it answers first).
    const from = admin.mark();
    await admin.send("@@ Creating [add(1,2)] objects.");
    await run("think after", /after/);
    assert(!/Huh\?|3 objects/.test(admin.text.slice(from)), admin.text.slice(from));

    const box = (await run("@create Box=10", /Box created as object #(\d+)/))[1];
    const gem = (await run("@create Gem", /Gem created as object #(\d+)/))[1];
    // Typed &: the object is evaluated, the value kept as typed.
    await run("&REF me=[num(Box)]", /Set\./);
    await run("think [get(me/REF)]", /\[num\(Box\)\]/);
    await run("&BOX [num(Box)]=[add(1,2)]", /Set\./);
    await run("think [get(#" + box + "/BOX)]", /\[add\(1,2\)\]/);
    // Queued: both sides evaluated, as MUX runs an action list.
    await run("@force me=&REF me=[num(Box)]", /Set\./);
    await run("think ref=[get(me/REF)]", new RegExp(`ref=#${box}\\b`));
    // Interpreted commands evaluate both sides even when typed.
    await run("@lock [v(REF)]=me", /^Locked\.\r?$/m);
    await run(`think lock=[lock(#${box})]`, /lock=#\d+\r?$/m);
    await run("@name [v(REF)]=Box [add(1,1)]", /Name set\./);
    await run("@set [v(REF)]=SAFE", /^Set\.\r?$/m);

    // @tel into a thing (an installer keeps its database inside its global object).
    await run(`@tel #${gem}=[v(REF)]`, /^Teleported\.\r?$/m);
    await run(`think [loc(#${gem})] [lcon(#${box})]`, new RegExp(`#${box} #${gem}`));
    await run(`@tel #${box}=#${gem}`, /cannot go inside itself/);
    await run(`think [loc(#${box})]`, /#\d+/);
    await run(`@tel #${box}=#${box}`, /Bad destination\./);

    // Rank: a wizard's inherit object sets a player's attribute (a BBS's &bb_read %#) and
    // creates things; the same object without inherit may not.
    await register(srv.base, "Pat");
    await run("@create Global", /Global created as object/);
    await run("&FN Global=[set(*Pat,SEEN:%0)]", /Set\./);
    await admin.send("@force/now Global=&BB_READ *Pat=1 2");
    await run("think [get(*Pat/BB_READ)]|", /^\|/m);
    await run("think [u(Global/FN,x)]", /#-1 PERMISSION DENIED/);
    await run("@set Global=inherit", /^Set\.\r?$/m);
    await admin.send("@force/now Global=&BB_READ *Pat=1 2");
    await run("think [get(*Pat/BB_READ)]|", /^1 2\|/m);
    await run("think [u(Global/FN,y)][get(*Pat/SEEN)]|", /^y\|/m);
    // ...and reads what only staff read (a BBS's hidden &bb_read on the player).
    await run("@set *Pat/BB_READ=hidden", /./);
    await run("&FN2 Global=[get(*Pat/BB_READ)]", /Set\./);
    await run("think [u(Global/FN2)]|", /^1 2\|/m);
    await admin.send("@force/now Global=@create Made");
    await run("think [words(lcon(Global))] made", /^1 made/m);
  } finally {
    await admin.close();
    await srv.stop();
  }
});
