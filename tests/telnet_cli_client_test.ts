/**
 * End to end with the plain `telnet` command (Debian's inetutils or netkit telnet, installed by
 * .ci/run): a line-mode client that agrees to almost nothing, driven line by line through its
 * stdin. It logs in, lives through an `@reboot` with a line typed while the engine was down, and
 * quits.
 */
import { assert } from "./assert.ts";
import { ADMIN, startSupervised } from "./supervised.ts";

function findTelnet(): string | null {
  for (const dir of (Deno.env.get("PATH") ?? "/usr/bin").split(":")) {
    try {
      if (dir && Deno.statSync(`${dir}/telnet`).isFile) return `${dir}/telnet`;
    } catch { /* not here */ }
  }
  return null;
}

const TELNET = findTelnet();
if (!TELNET) {
  console.warn("telnet_cli_client_test: SKIPPED — no telnet command (apt-get install -y telnet).");
}

Deno.test({
  name: "the telnet command logs in, types through an @reboot and quits",
  ignore: TELNET === null,
  async fn() {
    const srv = await startSupervised();
    const child = new Deno.Command(TELNET!, {
      args: ["127.0.0.1", String(srv.telnet)],
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const waitFor = async (needle: string, ms = 20_000) => {
      const end = Date.now() + ms;
      while (!seen.includes(needle)) {
        const left = end - Date.now();
        if (left <= 0) throw new Error(`never saw ${JSON.stringify(needle)} in:\n${seen}`);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const r = await Promise.race([
          reader.read(),
          new Promise<null>((ok) => timer = setTimeout(() => ok(null), left)),
        ]);
        clearTimeout(timer);
        if (r === null) continue;
        if (r.done) throw new Error(`the client ended before ${JSON.stringify(needle)}:\n${seen}`);
        seen += r.value;
      }
    };
    const type = (line: string) => writer.write(new TextEncoder().encode(line + "\n"));
    try {
      await waitFor("connect <name>");
      await type(`connect ${ADMIN.name} ${ADMIN.password}`);
      await waitFor("Limbo");
      await type("@reboot");
      await waitFor("game server is restarting");
      await type("say typed while it was down");
      await waitFor("Your session continues");
      await waitFor('You say, "typed while it was down');
      await type("quit");
      await waitFor("Goodbye!");
      // deno-lint-ignore no-control-regex
      const plain = seen.replace(/\x1b\[[0-9;]*m/g, "");
      // Negotiation the client did not take would show as undecodable bytes (IAC is 0xFF).
      assert(!plain.includes("\uFFFD"), "no telnet negotiation shown as text");
      assert(plain.indexOf("Your session continues") < plain.indexOf("You say"));
    } finally {
      await writer.close().catch(() => {});
      await reader.cancel().catch(() => {});
      try {
        child.kill("SIGKILL");
      } catch { /* ended */ }
      await child.status;
      await child.stderr.cancel().catch(() => {});
      await srv.stop();
    }
  },
});
