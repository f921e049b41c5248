import { assert, assertEquals, assertMatch } from "../../tests/assert.ts";
import { join } from "node:path";
import { Logger, secretsFrom } from "./logger.ts";
import { FIRST_RETRY_MS, MAX_RETRY_MS, RotationRetry } from "./rotation_retry.ts";

const at = () => new Date("2026-01-02T03:04:05.678Z");

function capture(opts: Partial<ConstructorParameters<typeof Logger>[0]> = {}) {
  const lines: string[] = [];
  const logger = new Logger({
    subsystem: "engine",
    now: at,
    console: (l) => lines.push(l),
    ...opts,
  });
  return { logger, lines };
}

Deno.test("logger: one line per event with time, level and subsystem", () => {
  const { logger, lines } = capture();
  logger.log("info", "hub: closing c1");
  logger.log("warn", "no prefix here");
  logger.log("error", "[supervisor] engine crashed");
  logger.log("info", "two\nlines", { a: 1 });
  assertEquals(lines, [
    "2026-01-02T03:04:05.678Z INFO  hub: closing c1",
    "2026-01-02T03:04:05.678Z WARN  engine: no prefix here",
    "2026-01-02T03:04:05.678Z ERROR [supervisor] engine crashed",
    "2026-01-02T03:04:05.678Z INFO  engine: two\\nlines { a: 1 }",
  ]);
});

Deno.test("logger: the level filters less severe events", () => {
  const { logger, lines } = capture({ level: "warn" });
  logger.log("debug", "d");
  logger.log("info", "i");
  logger.log("warn", "w");
  logger.log("error", "e");
  assertEquals(lines.map((l) => l.split(" ")[1]), ["WARN", "ERROR"]);
});

Deno.test("logger: secrets, JWTs and bearer credentials never reach a line", () => {
  const { logger, lines } = capture({ secrets: ["s3cret-value-123", "short"] });
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIyIn0.abcdefghijklmnop";
  logger.log("info", `secret s3cret-value-123 token ${jwt} header Bearer abc.def`);
  logger.passThrough(`child said s3cret-value-123`, "info", "telnet");
  assertEquals(
    lines[0],
    `${at().toISOString()} INFO  engine: secret [secret] token [token] header Bearer [token]`,
  );
  assertMatch(lines[1], /INFO {2}telnet: child said \[secret\]$/);
  // A value under six characters would scrub ordinary words; it is not treated as a secret.
  logger.log("info", "a short word");
  assertMatch(lines[2], /a short word/);
});

Deno.test("logger: secrets added later (a plugin's) are scrubbed, once each, longest first", () => {
  const { logger, lines } = capture();
  const url = "https://discord.example/api/webhooks/123/tok-abcdef";
  logger.addSecrets(["tok-abcdef", url, "tok-abcdef", ""]);
  logger.addSecrets(["tok-abcdef"]);
  logger.log("error", `posting to ${url} failed; token tok-abcdef`);
  assertEquals(lines[0].split("ERROR ")[1], "engine: posting to [secret] failed; token [secret]");
});

Deno.test("logger: plugin keys named as secrets in the environment are secrets", () => {
  const env = {
    JWT_SECRET: "jwt-secret-1",
    URSAMU_PLUGINS_DISCORD_TOKEN: "bot-token-1",
    URSAMU_PLUGINS_X_Y_SECRET: "x-secret-1",
    URSAMU_PLUGINS_DISCORD_API_BASE: "http://127.0.0.1:1/api",
  };
  assertEquals(secretsFrom(env).sort(), ["bot-token-1", "jwt-secret-1", "x-secret-1"]);
});

Deno.test("logger: passThrough keeps a formatted child line and stamps a raw one", () => {
  const { logger, lines } = capture({ subsystem: "supervisor" });
  logger.passThrough("2026-01-01T00:00:00.000Z WARN  hub: x", "info", "engine");
  logger.passThrough("thread 'main' panicked", "error", "engine");
  logger.passThrough("", "error", "engine");
  assertEquals(lines, [
    "2026-01-01T00:00:00.000Z WARN  hub: x",
    `${at().toISOString()} ERROR engine: thread 'main' panicked`,
  ]);
});

Deno.test("logger: the file rotates at maxSize and keeps maxFiles old files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "logs", "game.log");
    const logger = new Logger({
      subsystem: "engine",
      now: at,
      console: () => {},
      file: { path, maxSize: 200, maxFiles: 2 },
    });
    for (let i = 0; i < 20; i++) logger.log("info", `event number ${String(i).padStart(2, "0")}`);
    logger.close();
    const names = [...Deno.readDirSync(join(dir, "logs"))].map((e) => e.name).sort();
    assertEquals(names, ["game.log", "game.log.1", "game.log.2"]);
    for (const n of names) assert(Deno.statSync(join(dir, "logs", n)).size <= 200, n);
    const newest = Deno.readTextFileSync(path).trim().split("\n");
    assertMatch(newest[newest.length - 1], /event number 19$/);
    const older = Deno.readTextFileSync(`${path}.1`).trim().split("\n");
    // Nothing is lost between the live file and the one before it.
    const first = Number(newest[0].slice(-2));
    assertEquals(Number(older[older.length - 1].slice(-2)), first - 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("logger: a rotation that fails keeps every line, and a retry drops no old file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const logs = join(dir, "logs"), path = join(logs, "game.log");
    // game.log.1 is a directory with a file in it: the live file cannot move there.
    Deno.mkdirSync(`${path}.1`, { recursive: true });
    Deno.writeTextFileSync(join(`${path}.1`, "keep"), "kept");
    let ms = Date.parse("2026-01-02T03:04:05.678Z");
    const log = (maxFiles: number) =>
      new Logger({
        subsystem: "engine",
        now: () => new Date(ms),
        console: () => {},
        file: { path, maxSize: 200, maxFiles },
      });
    const one = log(1);
    for (let i = 0; i < 10; i++) one.log("info", `event number ${String(i).padStart(2, "0")}`);
    const lines = Deno.readTextFileSync(path).trim().split("\n");
    assertEquals(lines.map((l) => l.slice(-2)), [...Array(10).keys()].map((i) => `0${i}`));
    assertEquals(Deno.readTextFileSync(join(`${path}.1`, "keep")), "kept");
    // Freed, a line within the retry wait still goes to the live file: a failing rotation is
    // not tried at every line (rotation_retry.ts).
    Deno.removeSync(`${path}.1`, { recursive: true });
    ms += FIRST_RETRY_MS - 1;
    one.log("info", "event number 10");
    assertEquals(Deno.readTextFileSync(path).trim().split("\n").length, 11);
    assertEquals(existsNow(`${path}.1`), false, "not tried again within the wait");
    // Past it, the next line rotates: the eleven lines move to .1.
    ms += 1;
    one.log("info", "event number 11");
    one.close();
    assertEquals(Deno.readTextFileSync(`${path}.1`).trim().split("\n").length, 11);
    assertMatch(Deno.readTextFileSync(path), /event number 11\n$/);
    // As a rotation that failed half way leaves them (.1 free): only the live file moves.
    Deno.renameSync(`${path}.1`, `${path}.2`);
    Deno.writeTextFileSync(`${path}.3`, "three\n");
    Deno.writeTextFileSync(path, "x".repeat(300) + "\n");
    const three = log(3);
    three.log("info", "event number 12");
    three.close();
    assertEquals(Deno.readTextFileSync(`${path}.1`), "x".repeat(300) + "\n");
    assertEquals(Deno.readTextFileSync(`${path}.2`).trim().split("\n").length, 11);
    assertEquals(Deno.readTextFileSync(`${path}.3`), "three\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("logger: a console line logged just before an exit reaches the reader", async () => {
  // The process exits in the same task as it logs, with no chance to finish a queued write.
  const code = `import { Logger } from ${
    JSON.stringify(new URL("./logger.ts", import.meta.url).href)
  };
const logger = new Logger({ subsystem: "engine" });
for (let i = 0; i < 200; i++) logger.log("info", "line " + i);
logger.log("error", "startup: the last words");
Deno.exit(78);`;
  for (let run = 0; run < 3; run++) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    assertEquals(out.code, 78);
    const stdout = new TextDecoder().decode(out.stdout);
    assertEquals(stdout.split("\n").filter((l) => / line \d+$/.test(l)).length, 200);
    assertMatch(new TextDecoder().decode(out.stderr), /ERROR startup: the last words\n$/);
  }
});

/** Whether anything has the name `path`. */
function existsNow(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("rotation retry: a failing rotation waits 1 s, doubling to a minute; a success resets", () => {
  const r = new RotationRetry();
  assert(r.due(0) && !r.failing);
  let now = 0;
  const waits: number[] = [];
  for (let i = 0; i < 10; i++) {
    r.failed(now);
    let wait = 0;
    while (!r.due(now + wait)) wait += 250;
    waits.push(wait);
    now += wait;
  }
  assertEquals(waits, [1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000]);
  assertEquals(MAX_RETRY_MS, 60_000);
  assert(r.failing);
  r.succeeded();
  assert(!r.failing && r.due(now));
  r.failed(now);
  assert(!r.due(now + FIRST_RETRY_MS - 1) && r.due(now + FIRST_RETRY_MS));
});
