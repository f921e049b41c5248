/**
 * End to end with a real MUD client: Debian's TinTin++ (`apt-get install -y tintin++`, binary
 * `tt++`, in /usr/games) runs headless through a scripted session: connect at the password
 * prompt, say something, quit. A web player in the same room must hear it. And with MCCP2 on
 * (TinTin++ takes it), through an `@reboot` and out again without a decompression error.
 */
import { join } from "node:path";
import { assert, assertMatch } from "./assert.ts";
import { register } from "./harness.ts";
import { connectWs } from "./ws_client.ts";
import { ADMIN, startSupervised } from "./supervised.ts";
import { apart } from "./apart.ts";
import { handoffUnavailable } from "../src/telnet/handoff/support.ts";

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

/** Writes `lines` as a TinTin++ script in `dir` and starts tt++ headless on it. */
async function startTintin(dir: string, name: string, lines: string[]): Promise<Deno.ChildProcess> {
  const script = join(dir, name);
  await Deno.writeTextFile(script, [...lines, ""].join("\n"));
  return new Deno.Command(TT!, {
    args: ["-G", "-H", script],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { TERM: "xterm", COLUMNS: "100", LINES: "30" },
  }).spawn();
}

/** Everything tt++ printed until it ended, without terminal escapes. */
async function plainOutput(tt: Deno.ChildProcess): Promise<string> {
  const out = await tt.output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  // deno-lint-ignore no-control-regex
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "");
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
    try {
      await register(srv.base, "Alice", "alice-password");
      await bob.expect((m) => m.data.type === "session");
      // Typed like a person: the name first, the password at the (echo-off) prompt.
      const plain = await plainOutput(
        await startTintin(srv.dir, "session.tin", [
          "#config {verbose} {off}",
          "#action {connect <name>} {connect Alice}",
          "#action {Password:} {alice-password}",
          "#action {Limbo} {say hello from tintin}",
          '#action {You say, "hello from tintin} {quit}',
          "#action {Goodbye} {#end}",
          "#delay 30 {#end}",
          `#session t 127.0.0.1 ${srv.telnet}`,
        ]),
      );
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

Deno.test({
  name: "TinTin++ with MCCP2 on plays through an @reboot and quits without a decompression error",
  ignore: TT === null,
  async fn() {
    const srv = await startSupervised();
    try {
      const plain = await plainOutput(
        await startTintin(srv.dir, "reboot.tin", [
          "#config {verbose} {off}",
          `#action {connect <name>} {connect ${ADMIN.name}}`,
          `#action {Password:} {${ADMIN.password}}`,
          "#action {Limbo} {#unaction {Limbo}; @reboot}",
          "#action {Your session continues} {say still here}",
          '#action {You say, "still here} {quit}',
          // Once the connection is gone (its last bytes read), not at the goodbye line.
          "#event {SESSION DISCONNECTED} {#end}",
          "#delay 60 {#end}",
          `#session t 127.0.0.1 ${srv.telnet}`,
        ]),
      );
      assertMatch(plain, /Your session continues/);
      assertMatch(plain, /You say, "still here/);
      // TinTin++ takes MCCP2 when offered; the stream the next engine continued must not end in
      // a checksum it cannot have ("#COMPRESSION ERROR, DISABLING MCCP2", and the goodbye lost).
      assert(!/COMPRESSION ERROR/i.test(plain), `no decompression error: ${plain.slice(-800)}`);
      assertMatch(plain, /Goodbye!/);
    } finally {
      await srv.stop();
    }
  },
});

Deno.test({
  name: "TinTin++ with MCCP2 on hears a crash in its compressed stream and plays on after it",
  ignore: TT === null || handoffUnavailable() !== null,
  async fn() {
    // Apart: the test kills the engine and starts the next (the supervisor stops on a crash).
    const { engine, sidecar, restart } = await apart();
    let current = engine;
    let tt: Deno.ChildProcess | null = null;
    try {
      await register(engine.base, "Alice", "alice-password");
      tt = await startTintin(engine.dir, "crash.tin", [
        "#config {verbose} {off}",
        "#action {connect <name>} {connect Alice}",
        "#action {Password:} {alice-password}",
        "#action {Your session continues} {say after the crash}",
        '#action {You say, "after the crash} {quit}',
        "#event {SESSION DISCONNECTED} {#end}",
        "#delay 60 {#end}",
        `#session t 127.0.0.1 ${sidecar.telnet}`,
      ]);
      await engine.waitFor(/hub: Alice\(#\d+\) connected/, 30_000);
      // What a crash must not lose reaches the sidecar within a second (the settled negotiation).
      await new Promise((r) => setTimeout(r, 1_500));
      engine.child.kill("SIGKILL");
      await engine.status;
      current = await restart();
      const running = tt;
      tt = null;
      const plain = await plainOutput(running);
      // The sidecar's notice and the next engine's output, in the one compressed stream.
      assertMatch(plain, /game server is restarting/);
      assertMatch(plain, /Your session continues/);
      assertMatch(plain, /You say, "after the crash/);
      assert(!/COMPRESSION ERROR/i.test(plain), `no decompression error: ${plain.slice(-800)}`);
      assertMatch(plain, /Goodbye!/);
    } finally {
      if (tt) {
        try {
          tt.kill("SIGKILL");
        } catch { /* gone */ }
        await tt.output().catch(() => {});
      }
      await sidecar.stop();
      await current.stop();
      if (current !== engine) await engine.stop().catch(() => {});
    }
  },
});

Deno.test({
  name: "TinTin++ comes in as a guest, and \\; sends a semicolon as help clients says",
  ignore: TT === null,
  async fn() {
    const srv = await startSupervised({ config: { game: { guestEnabled: true } } });
    const bob = await connectWs(srv, {
      token: await register(srv.base, "Bob", "bob-password"),
      client: "web",
    });
    try {
      await bob.expect((m) => m.data.type === "session");
      // The connect screen's own line is the trigger; no password prompt follows.
      const plain = await plainOutput(
        await startTintin(srv.dir, "guest.tin", [
          "#config {verbose} {off}",
          "#action {to look around as a guest} {connect guest}",
          "#action {Welcome, guest!} {say North\\;n,South\\;s}",
          '#action {You say, "North;n,South;s"} {quit}',
          "#action {Goodbye} {#end}",
          "#delay 30 {#end}",
          `#session t 127.0.0.1 ${srv.telnet}`,
        ]),
      );
      assertMatch(plain, /Welcome, guest!/);
      assert(!/Password:/.test(plain), "no password prompt for a guest");
      await bob.expect(/Guest1 says, "North;n,South;s/);
      await bob.expect(/Guest1 has disconnected\./);
    } finally {
      await bob.close();
      await srv.stop();
    }
  },
});
