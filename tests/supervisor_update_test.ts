/**
 * `@update [branch]`: refusals that change nothing (bad branch name, not a git checkout, failed
 * pull) and a successful pull that restarts the engine while telnet players stay connected.
 * The update directory is a throwaway git checkout (URSAMU_UPDATE_DIR), never this repository.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { ADMIN, count, startSupervised, telnetLogin } from "./supervised.ts";

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.email=test@example.com", "-c", "user.name=Test", ...args],
    cwd,
    stdin: "null",
    env: { GIT_TERMINAL_PROMPT: "0" },
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${text}`);
  return text;
}

Deno.test("@update: refuses without restarting, then pulls and restarts", async () => {
  const work = await Deno.makeTempDir({ prefix: "ursamu-update-" });
  const bare = join(work, "remote.git");
  const author = join(work, "author");
  const install = join(work, "install");
  await Deno.mkdir(install);
  await git(work, "init", "-q", "--bare", "-b", "main", bare);
  await git(work, "clone", "-q", bare, author);
  await Deno.writeTextFile(join(author, "VERSION"), "1\n");
  await git(author, "add", "VERSION");
  await git(author, "commit", "-q", "-m", "one");
  await git(author, "push", "-q", "origin", "main");

  const srv = await startSupervised({ env: { URSAMU_UPDATE_DIR: install } });
  try {
    await register(srv.base, "Alice", "alice-password");
    const admin = await telnetLogin(srv, ADMIN.name, ADMIN.password);
    const alice = await telnetLogin(srv, "Alice", "alice-password");
    try {
      const says = async (line: string, re: RegExp) => {
        const from = admin.mark();
        await admin.send(line);
        await admin.waitFor(re, 15_000, from);
      };
      await says("@update", /Update refused: this installation is not a git checkout/);
      await says("@update ../main;rm", /Update refused: Branch names use letters.*digit\.\r?\n/);
      await says("@update --upload-pack=x", /Update refused: Branch names use letters/);
      assert(!/\.\./.test(admin.plain.match(/Update refused: Branch.*/)![0]), "one full stop");
      // Refused before anything was announced: the other players heard nothing.
      await says("look", /Limbo/);
      assert(!/\[Update\]/.test(alice.plain), "no announcement for a refusal of the caller's own");

      // Now make the install a checkout of the remote, one commit behind.
      await git(install, "clone", "-q", bare, ".");
      await Deno.writeTextFile(join(author, "VERSION"), "2\n");
      await git(author, "commit", "-q", "-am", "two");
      await git(author, "push", "-q", "origin", "main");

      await says("@update no-such-branch", /Update refused: git pull failed/);
      await alice.waitFor(/\[Update\] Admin is updating[\s\S]*The update did not happen/);
      await says("look", /Limbo/);
      assertEquals(count(srv.output(), /engine started/g), 1, "no restart after refusals");
      assertEquals(await Deno.readTextFile(join(install, "VERSION")), "1\n");

      // A slow remote (its upload-pack waits a while): nobody may restart in the middle.
      const slow = join(work, "slow-upload-pack");
      await Deno.writeTextFile(slow, '#!/bin/sh\nsleep 1.5\nexec git-upload-pack "$@"\n');
      await Deno.chmod(slow, 0o755);
      await git(install, "config", "remote.origin.uploadpack", slow);
      const admin2 = await telnetLogin(srv, ADMIN.name, ADMIN.password);
      try {
        await admin.send("@upgrade main");
        await admin.waitFor(/\[Update\] Admin is updating the server \(branch main\)/);
        await admin2.send("@reboot");
        await admin2.waitFor(/An update is running; wait for it to finish\./);
      } finally {
        await admin2.close();
      }
      await admin.waitFor(/\[Update\] Pulled origin\/main/);
      await admin.waitFor(/Your session continues/, 30_000);
      assertEquals(await Deno.readTextFile(join(install, "VERSION")), "2\n");
      assertEquals(count(srv.output(), /engine started/g), 2);
      assertMatch(srv.output(), /exiting with code 75 \(@update main by Admin/);
      assert(!admin.closed);
    } finally {
      await admin.close();
      await alice.close();
    }
  } finally {
    await srv.stop();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
});
