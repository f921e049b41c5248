/**
 * Black-box tests of superuser setup: the supervisor's first run, the `setup` command, and the
 * prompts driven through a real pseudo-terminal (util-linux `script`).
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { api, cleanEnv, DENO, freePort, register, ROOT } from "./harness.ts";
import { ADMIN, startSupervised } from "./supervised.ts";
import { connectWs } from "./ws_client.ts";

/** True when util-linux `script` is installed (it gives a child a pseudo-terminal). */
function hasScript(): boolean {
  try {
    return new Deno.Command("script", { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** A command running on a pseudo-terminal; keys are typed into it. */
class OnTerminal {
  #out = "";
  readonly #child: Deno.ChildProcess;
  readonly #writer: WritableStreamDefaultWriter<Uint8Array>;
  readonly status: Promise<Deno.CommandStatus>;

  constructor(script: string, args: string[], env: Record<string, string>) {
    const cmd = [DENO, "run", "--unstable-kv", "-A", join(ROOT, script), ...args]
      .map((a) => `'${a}'`).join(" ");
    this.#child = new Deno.Command("script", {
      args: ["-qfec", cmd, "/dev/null"],
      cwd: ROOT,
      env: { ...cleanEnv(), ...env, NO_COLOR: "1", TERM: "dumb" },
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.#writer = this.#child.stdin.getWriter();
    const dec = new TextDecoder();
    const pump = async (s: ReadableStream<Uint8Array>) => {
      for await (const c of s) this.#out += dec.decode(c, { stream: true });
    };
    const pumps = Promise.all([pump(this.#child.stdout), pump(this.#child.stderr)]);
    this.status = this.#child.status.then(async (s) => {
      await pumps;
      return s;
    });
  }

  output(): string {
    return this.#out;
  }

  async waitFor(re: RegExp, ms = 30_000): Promise<void> {
    const end = Date.now() + ms;
    while (!re.test(this.#out)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${re}; output:\n${this.#out}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async type(keys: string): Promise<void> {
    await this.#writer.write(new TextEncoder().encode(keys));
  }

  /** Waits for the exit (killing it after `ms`) and closes the input. */
  async exit(ms = 30_000): Promise<Deno.CommandStatus> {
    const t = setTimeout(() => {
      try {
        this.#child.kill("SIGKILL");
      } catch { /* gone */ }
    }, ms);
    const s = await this.status;
    clearTimeout(t);
    await this.#writer.close().catch(() => {});
    return s;
  }
}

/** Environment for a run on a fresh temp database. */
async function tempEnv(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-setup-" });
  return {
    dir,
    env: {
      URSAMU_SERVER_DB: join(dir, "ursamu.db"),
      URSAMU_LOGGING_DIR: join(dir, "logs"),
      URSAMU_CONFIG: join(dir, "config.json"),
      URSAMU_SERVER_HOST: "127.0.0.1",
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: Deno.env.get("HOME") ?? "/tmp",
      DENO_NO_PACKAGE_JSON: "1",
    },
  };
}

const onTerminal = { ignore: !hasScript() };

Deno.test({
  name:
    "setup on a terminal: Ctrl-C at the e-mail prompt of the first start says cancelled, exit 130",
  ...onTerminal,
  async fn() {
    const { dir, env } = await tempEnv();
    try {
      const t = new OnTerminal("src/supervisor/main.ts", [], {
        ...env,
        URSAMU_SERVER_HTTP: String(freePort()),
        URSAMU_SERVER_WS: String(freePort()),
        URSAMU_SERVER_TELNET: String(freePort()),
      });
      await t.waitFor(/E-mail address: $/);
      await t.type("\x03");
      const s = await t.exit();
      assertEquals(s.code, 130, t.output());
      assertMatch(t.output(), /first-run setup cancelled \(Ctrl-C\); nothing was started/);
      assert(!/engine started/.test(t.output()), "nothing started");
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test({
  name: "setup command on a terminal: Ctrl-D skips at once, typed answers create, then it refuses",
  ...onTerminal,
  async fn() {
    const { dir, env } = await tempEnv();
    try {
      const skip = new OnTerminal("src/supervisor/setup_command.ts", [], env);
      await skip.waitFor(/E-mail address: $/);
      await skip.type("\x04");
      assertEquals((await skip.exit()).code, 1, skip.output());
      const out = skip.output();
      assert(!/Username:/.test(out), `no further prompt after Ctrl-D:\n${out}`);
      assertMatch(out, /E-mail address: \r*\n/, "Ctrl-D ends the prompt's line");
      assertMatch(out, /setup: skipped; no superuser was created/);
      assertMatch(out, /deno task setup/);

      const make = new OnTerminal("src/supervisor/setup_command.ts", [], env);
      await make.waitFor(/E-mail address: $/);
      await make.type("owner@example.com\r");
      await make.waitFor(/Username: $/);
      await make.type("Owner\r");
      await make.waitFor(/Password \(8-512 characters\): $/);
      await make.type("owner-pass-1\r");
      await make.waitFor(/Password again: $/);
      await make.type("owner-pass-1\r");
      assertEquals((await make.exit()).code, 0, make.output());
      assertMatch(make.output(), /superuser Owner \(#\d+\) created/);
      assert(!make.output().includes("owner-pass-1"), "the password is not echoed");

      const again = new OnTerminal("src/supervisor/setup_command.ts", [], env);
      assertEquals((await again.exit()).code, 1, again.output());
      assertMatch(again.output(), /already has a superuser; nothing was changed/);
    } finally {
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});

Deno.test("setup: the first-run superuser is on the Public channel (pub works)", async () => {
  const srv = await startSupervised();
  try {
    const c = await connectWs(srv.ws, { client: "web" });
    try {
      await c.expect((m) => m.data.type === "connect");
      c.send(`connect ${ADMIN.name} ${ADMIN.password}`);
      await c.expect((m) => m.data.type === "session");
      c.send("pub hi");
      const heard = await c.expect(/\[Public\]/);
      assertEquals(heard.msg, `[Public] ${ADMIN.name} says, "hi"`);
    } finally {
      await c.close();
    }
  } finally {
    await srv.stop();
  }
});

Deno.test("setup: while no superuser exists every start says so; the environment works even after players exist", async () => {
  const none = { URSAMU_SUPERUSER_NAME: "", URSAMU_SUPERUSER_PASSWORD: "" };
  let srv = await startSupervised({ env: none });
  const dir = srv.dir;
  try {
    assertMatch(srv.output(), /no superuser yet.*`deno task setup`/);
    await register(srv.base, "Early");
    await srv.stop({ keepDir: true });
    srv = await startSupervised({
      dir,
      env: { URSAMU_SUPERUSER_NAME: "early", URSAMU_SUPERUSER_PASSWORD: "whatever-1" },
    });
    assertMatch(srv.output(), /early is already taken by another player/);
    assertMatch(srv.output(), /no superuser yet/);
    await srv.stop({ keepDir: true });
    srv = await startSupervised({ dir, env: { npm_lifecycle_event: "start", ...none } });
    assertMatch(srv.output(), /`npm run setup`.*`npm start`/);
    await srv.stop({ keepDir: true });
    srv = await startSupervised({ dir });
    assertMatch(srv.output(), new RegExp(`superuser ${ADMIN.name} \\(#\\d+\\) created`));
    const login = await api(srv.base, "POST", "/api/v1/auth/login", ADMIN);
    assertEquals(login.status, 200);
    const me = await api(srv.base, "GET", "/api/v1/me", undefined, login.body.token);
    assertEquals(me.body.flags.sort(), ["player", "superuser"]);
    await srv.stop({ keepDir: true });
    srv = await startSupervised({ dir });
    assert(!/no superuser yet/.test(srv.output()), "quiet once a superuser exists");
  } finally {
    await srv.stop();
  }
});
