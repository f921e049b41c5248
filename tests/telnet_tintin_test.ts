/**
 * End to end with a real MUD client: Debian's TinTin++ (`apt-get install -y tintin++`, binary
 * `tt++`, in /usr/games) runs headless through a scripted session: connect at the password
 * prompt, say something, quit. A web player in the same room must hear it.
 */
import { join } from "node:path";
import { assert, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { connectWs } from "./ws_client.ts";
import { startSupervised } from "./supervised.ts";

function findTintin(): string | null {
  const dirs = [...(Deno.env.get("PATH") ?? "").split(":"), "/usr/games", "/usr/local/games"];
  for (const dir of dirs) {
    if (!dir) continue;
    try {
      if (Deno.statSync(join(dir, "tt++")).isFile) return join(dir, "tt++");
    } catch { /* not here */ }
  }
  return null;
}

const TT = findTintin();
if (!TT) {
  console.warn(
    "telnet_tintin_test: SKIPPED — tt++ is not installed (apt-get install -y tintin++).",
  );
}

Deno.test({
  name: "TinTin++ logs in through the sidecar and is heard by a web player",
  ignore: TT === null,
  async fn() {
    const srv = await startSupervised();
    const bob = await connectWs(srv, {
      token: await register(srv.base, "Bob", "bob-password"),
      client: "web",
    });
    const script = join(srv.dir, "session.tin");
    try {
      await register(srv.base, "Alice", "alice-password");
      await bob.expect((m) => m.data.type === "session");
      // Typed like a person: the name first, the password at the (echo-off) prompt.
      await Deno.writeTextFile(
        script,
        [
          "#config {verbose} {off}",
          "#action {connect <name>} {connect Alice}",
          "#action {Password:} {alice-password}",
          "#action {Limbo} {say hello from tintin}",
          '#action {You say, "hello from tintin} {quit}',
          "#action {Goodbye} {#end}",
          "#delay 30 {#end}",
          `#session t 127.0.0.1 ${srv.telnet}`,
          "",
        ].join("\n"),
      );
      const out = await new Deno.Command(TT!, {
        args: ["-G", "-H", script],
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
        env: { TERM: "xterm", COLUMNS: "100", LINES: "30" },
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      // deno-lint-ignore no-control-regex
      const plain = text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
      assertMatch(plain, /Password:/);
      assertMatch(plain, /Limbo/);
      assertMatch(plain, /You say, "hello from tintin/);
      assert(!plain.includes("alice-password"), "the password is not shown");
      const heard = await bob.expect(/Alice says, "hello from tintin/, 10_000);
      assert(heard);
      await bob.expect(/Alice has disconnected/, 10_000);
    } finally {
      await bob.close();
      await srv.stop();
    }
  },
});
