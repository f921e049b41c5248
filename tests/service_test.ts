/**
 * Running as a service (issue 16, item 7): deploy/systemd/ursamu.service passes
 * `systemd-analyze verify` (where installed; a visible skip otherwise), and its restart policy,
 * applied to the supervisor's real exit codes, restarts a crash, never a clean stop or a start
 * that cannot succeed as configured, and gives up after the crash-loop limit. A small service
 * manager that follows the unit's own ExecStart, Restart and RestartPreventExitStatus brings a
 * crashed game back so that players can log in again.
 */
import { join } from "node:path";
import { assert, assertEquals, assertMatch } from "./assert.ts";
import { cleanEnv, freePort, freePorts, ROOT, startServer, waitHealthy } from "./harness.ts";
import { TelnetClient } from "./telnet_client.ts";

const UNIT = join(ROOT, "deploy", "systemd", "ursamu.service");

/** The [Service] and [Unit] settings of the unit (last value wins, as in systemd). */
async function unitSettings(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const line of (await Deno.readTextFile(UNIT)).split("\n")) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/** systemd's decision for Restart=on-failure with RestartPreventExitStatus, for an exit code. */
function restarts(unit: Record<string, string>, code: number): boolean {
  assertEquals(unit.Restart, "on-failure");
  const prevented = (unit.RestartPreventExitStatus ?? "").split(/\s+/).filter(Boolean).map(Number);
  return code !== 0 && !prevented.includes(code);
}

/** The unit with its paths pointed at this checkout (what an installer's edit does). */
async function installedCopy(dir: string): Promise<string> {
  const deno = await Deno.realPath(Deno.execPath());
  const text = (await Deno.readTextFile(UNIT))
    .replaceAll("/srv/ursamu/node_modules/.bin/deno", deno)
    .replaceAll("/srv/ursamu", ROOT.replace(/\/$/, ""));
  const path = join(dir, "ursamu.service");
  await Deno.writeTextFile(path, text);
  return path;
}

Deno.test("service: the unit passes systemd-analyze verify (skipped where systemd is absent)", async () => {
  const analyze = await new Deno.Command("systemd-analyze", { args: ["--version"], stdout: "null" })
    .output().then((o) => o.success).catch(() => false);
  if (!analyze) {
    console.log("SKIPPED: systemd-analyze is not installed here; the unit was not verified");
    return;
  }
  const dir = await Deno.makeTempDir({ prefix: "ursamu-unit-" });
  try {
    const verify = async (path: string) => {
      const o = await new Deno.Command("systemd-analyze", {
        args: ["verify", path],
        stdout: "piped",
        stderr: "piped",
      }).output();
      const dec = new TextDecoder();
      return { code: o.code, text: (dec.decode(o.stdout) + dec.decode(o.stderr)).trim() };
    };
    const good = await verify(await installedCopy(dir));
    // verify exits 0 even for settings it ignores; silence is the pass.
    assertEquals(good, { code: 0, text: "" });
    // The check can fail: a broken copy is reported.
    const broken = join(dir, "broken.service");
    await Deno.writeTextFile(
      broken,
      (await Deno.readTextFile(join(dir, "ursamu.service"))).replace(
        "KillMode=mixed",
        "KillMode=x",
      ),
    );
    assertMatch((await verify(broken)).text, /kill mode/i);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** Runs the supervisor over the fake engine with `codes`; resolves with its exit code. */
async function supervisorExit(codes: string): Promise<{ code: number; out: string }> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-svc-" });
  const srv = await startServer({
    dir,
    entry: "src/supervisor/main.ts",
    args: ["--engine", "tests/fixtures/exit_engine.ts"],
    env: { FAKE_ENGINE_LOG: join(dir, "runs.log"), FAKE_ENGINE_CODES: codes },
  });
  const status = await srv.status;
  await srv.stop();
  return { code: status.code, out: srv.output() };
}

Deno.test("service: the unit restarts a crash, not a clean stop or a configuration failure", async () => {
  const unit = await unitSettings();
  assertEquals(unit.RestartPreventExitStatus, "78");
  assert(Number(unit.StartLimitBurst) > 0 && Number(unit.StartLimitIntervalSec) > 0, "a limit");
  assertEquals(unit.KillMode, "mixed");
  const crash = await supervisorExit("3");
  assert(restarts(unit, crash.code), `a crash (exit ${crash.code}) is restarted`);
  const clean = await supervisorExit("0");
  assertEquals(clean.code, 0);
  assert(!restarts(unit, clean.code), "a clean stop is not restarted");
  const config = await supervisorExit("78");
  assertEquals(config.code, 78, config.out);
  assertMatch(config.out, /engine cannot start as configured/);
  assert(!restarts(unit, config.code), "a configuration failure is not restarted");
});

Deno.test("service: following the unit, a crashed game comes back and players log in again", async () => {
  const unit = await unitSettings();
  const dir = await Deno.makeTempDir({ prefix: "ursamu-svc-" });
  const [http, telnet] = freePorts(2);
  const env: Record<string, string> = {
    ...cleanEnv(),
    DENO_NO_PACKAGE_JSON: "1",
    NO_COLOR: "1",
    JWT_SECRET: "service-test-secret",
    URSAMU_SERVER_HOST: "127.0.0.1",
    URSAMU_SERVER_HTTP: String(http),
    URSAMU_SERVER_WS: String(freePort()),
    URSAMU_SERVER_TELNET: String(telnet),
    URSAMU_SERVER_DB: join(dir, "data", "ursamu.db"),
    URSAMU_LOGGING_DIR: join(dir, "logs"),
    URSAMU_DATABASE_BACKUPDIR: join(dir, "backups"),
    URSAMU_SUPERUSER_NAME: "Admin",
    URSAMU_SUPERUSER_PASSWORD: "admin-password-1",
  };
  // ExecStart as the unit has it, run by this checkout's Deno in the unit's working directory.
  const [exe, ...args] = unit.ExecStart.split(/\s+/);
  assertMatch(exe, /deno$/);
  const starts: number[] = [];
  let child: Deno.ChildProcess | null = null;
  let stopping = false;
  // The manager: start, and on an exit the policy restarts, start again (RestartSec shortened).
  const manager = (async () => {
    while (!stopping && starts.length < Number(unit.StartLimitBurst)) {
      starts.push(Date.now());
      child = new Deno.Command(Deno.execPath(), {
        args,
        cwd: ROOT,
        env,
        clearEnv: true,
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn();
      const { code } = await child.status;
      if (stopping || !restarts(unit, code)) return code;
      await new Promise((r) => setTimeout(r, 200));
    }
    return null;
  })();
  try {
    await waitHealthy(`http://127.0.0.1:${http}`);
    const login = async () => {
      const t = await TelnetClient.connect(telnet);
      try {
        await t.waitFor(/connect <name>/);
        await t.send("connect Admin admin-password-1");
        await t.waitFor(/Limbo/);
      } finally {
        await t.close();
      }
    };
    await login();
    // A crash: the engine dies by SIGKILL; the supervisor exits 137 and the manager restarts it.
    const engine = await enginePidUnder(child!);
    assert(engine, "found the engine process");
    Deno.kill(engine, "SIGKILL");
    const end = Date.now() + 20_000;
    while (starts.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    assertEquals(starts.length, 2, "the manager started the game again");
    await waitHealthy(`http://127.0.0.1:${http}`);
    await login();
  } finally {
    stopping = true;
    try {
      (child as Deno.ChildProcess | null)?.kill("SIGTERM");
    } catch { /* gone */ }
    const code = await manager;
    assertEquals(code, 0, "systemctl stop: SIGTERM ends the supervisor with 0 (not restarted)");
    await Deno.remove(dir, { recursive: true });
  }
});

/** The engine process (main.ts) whose parent is the supervisor `sup` (Linux /proc). */
async function enginePidUnder(sup: Deno.ChildProcess): Promise<number | null> {
  for await (const e of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${e.name}/stat`).catch(() => "");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (ppid !== sup.pid) continue;
    const cmd = await Deno.readTextFile(`/proc/${e.name}/cmdline`).catch(() => "");
    if (cmd.includes("main.ts") && !cmd.includes("telnet.ts")) return Number(e.name);
  }
  return null;
}
