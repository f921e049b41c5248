/**
 * The three softcode packages MUSH games install most, pasted into a wizard's telnet session
 * and played as their help files say (docs/softcode.md, "Packages"): Myrddin's BBS 4.0.6,
 * Anomaly Jobs 6.5 and the SGP globals. They carry no licence terms, so they are not in the
 * repository: put `bboard-4.0.6.txt`, `jobs-v6-5.txt` and `SGP-Installer.txt` in
 * tests/fixtures/softcode-packages/ (ignored by git) to run this test; without them it is skipped.
 */
import { assert } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, startSupervised, telnetLogin } from "./supervised.ts";
import type { TelnetClient } from "./telnet_client.ts";

const DIR = new URL("./fixtures/softcode-packages/", import.meta.url);
const FILES = ["bboard-4.0.6.txt", "jobs-v6-5.txt", "SGP-Installer.txt"];
const present = FILES.every((f) => {
  try {
    return Deno.statSync(new URL(f, DIR)).isFile;
  } catch {
    return false;
  }
});

Deno.test({
  name: "softcode packages: BBS 4.0.6, Anomaly Jobs 6.5 and SGP install and play",
  ignore: !present,
  async fn() {
    const srv = await startSupervised({
      config: {
        plugins: { boards: { enabled: false }, jobs: { enabled: false } },
        scripts: { disabled: ["+who", "+finger"] },
        // The engine's own +where would answer before SGP's.
        commands: { disabled: ["+where"] },
        softcode: { masterRoom: "#3" },
      },
    });
    const clients: TelnetClient[] = [];
    try {
      const w = await telnetLogin(srv, ADMIN.name, ADMIN.password);
      clients.push(w);
      const run = async (c: TelnetClient, line: string, want: RegExp, ms = 20_000) => {
        const from = c.mark();
        await c.send(line);
        return (await c.waitFor(want, ms, from))[0];
      };
      await run(w, "@dig Master Room", /Master Room created as room #3\./);
      await run(w, "@tel me=#3", /Master Room/);
      const errors: string[] = [];
      for (const f of FILES) {
        const from = w.mark();
        const lines = (await Deno.readTextFile(new URL(f, DIR))).replace(/\r/g, "").split("\n");
        // Pasted whole, as a client quotes a file: the telnet sidecar keeps it and feeds the hub
        // at its rate.
        const body = lines.filter((l) => l.trim() !== "").join("\r\n") + "\r\n";
        await w.write(new TextEncoder().encode(body));
        await run(w, `think ==end ${f}==`, new RegExp(`==end ${f}==`), 180_000);
        // Let the installer's own @waits finish.
        await new Promise((r) => setTimeout(r, 4000));
        for (const l of w.plain.slice(from).split(/\r?\n/)) {
          // `Set - <attr>: <code>` is @edit showing the code it changed, not an answer.
          if (l.startsWith("Set - ")) continue;
          if (/Huh\?|Permission denied|I don't see|Usage:|#-1 |not a valid/i.test(l)) {
            errors.push(`${f}: ${l}`);
          }
        }
      }
      assert(errors.length === 0, errors.join("\n"));
      await run(w, "@tel BBS - Myrddin's Global BBS v4.0.6=#3", /Teleported/);
      await run(w, "@tel Job Global Object <JGO>=#3", /Teleported/);
      await run(w, "@tel me=#1", /Limbo/);
      await register(srv.base, "Pat");
      const p = await telnetLogin(srv, "Pat", "password123");
      clients.push(p);

      // The BBS: a group, a post, reading it, a post built line by line.
      await run(w, "+bbnewgroup Announcements", /Group number 3 added as 'Announcements'/);
      await run(w, "+bbpost 3/Hello=First words.", /as message #1/);
      await run(p, "+bbread 3/1", /First words\./);
      await run(p, "+bbpost 3/Multi", /You start your posting/);
      await run(p, "+bbwrite line one", /Text added/);
      await run(p, "+bbpost", /as message #2/);
      await run(p, "+bbscan", /no unread postings/);
      await run(w, "+bbpost 3/Later=More words.", /as message #3/);
      await run(p, "+bbscan", /Announcements \(#3\): 1 unread \(3\)/);

      // Jobs: a request, claimed, commented and completed (posted to the Job Tracker board).
      const asked = w.mark();
      await p.send("+request Broken lamp=The lamp is broken.");
      await w.waitFor(/Job 2 has been created by Pat/, 20_000, asked);
      await run(w, "+jobs", /2 REQ\s+Broken lamp/);
      await run(w, "+job/assign 2=Admin", /You have claimed Job 2/);
      await run(w, "+job/add 2=Looking into it.", /Comments to Job 2 added/);
      await run(w, "+job/complete 2=Fixed.", /You have completed Job 2/);
      await run(w, "+bbread 1", /C: Broken lamp/);

      // SGP.
      await run(p, "+who", /There are 2 players connected/);
      await run(p, "+where", /There are 2 findable players connected/);
      // SGP's @startup defines IsStaff() with @function after(##,FN_)=me/##: a player is no
      // staff, so the header shows no dbref; mail() fills the Mail line.
      await run(p, "+finger Admin", /---<@ {2}Admin {2}@>---[\s\S]*Mail: {2}0 unread \/ 0 total\./);
      await run(w, "+staff/add Admin", /added Admin to the \+staff listing/);
      await run(p, "+staff", /Admin\s+ON-DUTY/);
      await run(p, "+info", /Your Info/);
    } finally {
      for (const c of clients) await c.close();
      await srv.stop();
    }
  },
});
