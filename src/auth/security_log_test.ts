import assert from "node:assert/strict";
import { REFUSAL_EVERY_MS, SecurityLog } from "./security_log.ts";
import { FIRST_RETRY_MS } from "../logging/rotation_retry.ts";

Deno.test("security log: a flood of refusals from one address writes a line a minute, with a count", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  let log: SecurityLog | undefined;
  try {
    let now = 1_000_000;
    log = new SecurityLog(`${dir}/security.log`, { now: () => now });
    for (let i = 0; i < 500; i++) await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.1" });
    // Another address, and another event of the same address, have lines of their own.
    await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.2" });
    await log.refused("REGISTER_RATE_LIMITED", { ip: "192.0.2.1", detail: "rest" });
    now += REFUSAL_EVERY_MS;
    await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.1", detail: "websocket" });
    await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.1" });
    const lines = (await Deno.readTextFile(`${dir}/security.log`)).trim().split("\n")
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      lines.map((l) => [l.event, l.ip, l.detail ?? null]),
      [
        ["LOGIN_RATE_LIMITED", "192.0.2.1", null],
        ["LOGIN_RATE_LIMITED", "192.0.2.2", null],
        ["REGISTER_RATE_LIMITED", "192.0.2.1", "rest"],
        ["LOGIN_RATE_LIMITED", "192.0.2.1", "websocket; 499 more refused since the last entry"],
      ],
    );
  } finally {
    await log?.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** Every line of the log and its rotated files, oldest first, and each file's size. */
async function readAll(
  file: string,
  maxFiles: number,
): Promise<{ lines: string[]; sizes: number[] }> {
  const lines: string[] = [];
  const sizes: number[] = [];
  for (let i = maxFiles; i >= 0; i--) {
    const path = i ? `${file}.${i}` : file;
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) continue;
      throw e;
    }
    sizes.push(new TextEncoder().encode(text).length);
    lines.push(...text.split("\n").filter(Boolean));
  }
  return { lines, sizes };
}

Deno.test("security log: rotates past its size, keeping every line queued meanwhile and maxFiles old files", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  try {
    const file = `${dir}/security.log`;
    let limits = { maxSize: 600, maxFiles: 20 };
    const log = new SecurityLog(file, { limits: () => limits });
    // Queued at once, as a burst of admin actions is: the renames happen between them.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => log.write("ADMIN_BOOT", { target: String(i) })),
    );
    let { lines, sizes } = await readAll(file, 20);
    assert.deepEqual(
      lines.map((l) => JSON.parse(l).target),
      Array.from({ length: 40 }, (_, i) => String(i)),
    );
    assert.ok(sizes.length > 3, `rotated into ${sizes.length} files`);
    for (const size of sizes) assert.ok(size <= 600, `a file of ${size} bytes`);

    // Fewer files kept (read at each line): the oldest go, the live file and two old ones stay.
    limits = { maxSize: 600, maxFiles: 2 };
    for (let i = 40; i < 80; i++) await log.write("ADMIN_BOOT", { target: String(i) });
    ({ lines, sizes } = await readAll(file, 2));
    assert.equal(sizes.length, 3);
    assert.equal(JSON.parse(lines.at(-1)!).target, "79");
    const targets = lines.map((l) => Number(JSON.parse(l).target));
    assert.deepEqual(targets, targets.toSorted((a, b) => a - b));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("security log: a file already past the size at start rotates at the first line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  try {
    const file = `${dir}/security.log`;
    await Deno.writeTextFile(file, "x".repeat(1000) + "\n");
    const log = new SecurityLog(file, { limits: () => ({ maxSize: 600, maxFiles: 1 }) });
    await log.write("ADMIN_BOOT", { target: "1" });
    assert.equal((await Deno.readTextFile(`${file}.1`)).length, 1001);
    assert.equal(JSON.parse(await Deno.readTextFile(file)).target, "1");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** The log's lines as [event, ip, detail], once `until` holds of them (or the wait runs out). */
async function linesWhen(
  file: string,
  until: (lines: string[][]) => boolean,
): Promise<string[][]> {
  let lines: string[][] = [];
  for (let i = 0; i < 400; i++) {
    const text = await Deno.readTextFile(file).catch(() => "");
    lines = text.split("\n").filter(Boolean).map((l) => JSON.parse(l))
      .map((l) => [l.event, l.ip, l.detail ?? null]);
    if (until(lines)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return lines;
}

/** Refusals of `ip` the lines account for: 1 for a first line, N for "N more refused". */
function refusalsOf(lines: string[][], ip: string): number {
  return lines.filter((l) => l[1] === ip)
    .reduce((n, l) => n + (Number(/(\d+) more refused/.exec(l[2] ?? "")?.[1] ?? 0) || 1), 0);
}

Deno.test("security log: a folded count is written when its minute ends, with no refusal after it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  const file = `${dir}/security.log`;
  // A shortened minute, so the test waits for the log's own timer.
  const log = new SecurityLog(file, { refusalEveryMs: 300 });
  try {
    for (let i = 0; i < 30; i++) await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.1" });
    for (let i = 0; i < 5; i++) {
      await log.refused("WS_RATE_LIMITED", { ip: "192.0.2.2", detail: "websocket" });
    }
    let lines = await linesWhen(file, (l) => l.length >= 4);
    assert.deepEqual(lines.toSorted(), [
      ["LOGIN_RATE_LIMITED", "192.0.2.1", null],
      ["LOGIN_RATE_LIMITED", "192.0.2.1", "29 more refused since the last entry"],
      ["WS_RATE_LIMITED", "192.0.2.2", "websocket"],
      ["WS_RATE_LIMITED", "192.0.2.2", "websocket; 4 more refused since the last entry"],
    ]);
    // The flood goes on: its refusals are all written, a line a minute, with none after them.
    for (let i = 0; i < 7; i++) await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.1" });
    lines = await linesWhen(file, (l) => refusalsOf(l, "192.0.2.1") >= 37);
    assert.equal(refusalsOf(lines, "192.0.2.1"), 37);
    assert.equal(refusalsOf(lines, "192.0.2.2"), 5);
  } finally {
    await log.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("security log: an address forgotten to make room has its count written", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  const file = `${dir}/security.log`;
  const log = new SecurityLog(file, { maxRefusalKeys: 3 });
  try {
    for (let i = 0; i < 4; i++) await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.1" });
    for (const ip of ["192.0.2.2", "192.0.2.3", "192.0.2.4"]) {
      await log.refused("LOGIN_RATE_LIMITED", { ip });
    }
    await log.flush();
    const lines = await linesWhen(file, () => true);
    assert.equal(refusalsOf(lines, "192.0.2.1"), 4);
  } finally {
    await log.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("security log: closing writes the counts still held", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  const file = `${dir}/security.log`;
  const log = new SecurityLog(file);
  try {
    for (let i = 0; i < 3; i++) await log.refused("LOGIN_RATE_LIMITED", { ip: "192.0.2.1" });
  } finally {
    await log.close();
  }
  const lines = await linesWhen(file, () => true);
  await Deno.remove(dir, { recursive: true });
  assert.deepEqual(lines.at(-1), [
    "LOGIN_RATE_LIMITED",
    "192.0.2.1",
    "2 more refused since the last entry",
  ]);
});

Deno.test("security log: a rotation shifts old files only up to the first free number", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  try {
    const file = `${dir}/security.log`;
    // As a rotation that failed half way leaves them: .1 free, .2 and .3 kept.
    await Deno.writeTextFile(file, "x".repeat(500) + "\n");
    await Deno.writeTextFile(`${file}.2`, "two\n");
    await Deno.writeTextFile(`${file}.3`, "three\n");
    const log = new SecurityLog(file, { limits: () => ({ maxSize: 400, maxFiles: 3 }) });
    await log.write("ADMIN_BOOT", { target: "after" });
    assert.equal(await Deno.readTextFile(`${file}.1`), "x".repeat(500) + "\n");
    assert.equal(await Deno.readTextFile(`${file}.2`), "two\n");
    assert.equal(await Deno.readTextFile(`${file}.3`), "three\n");
    assert.equal(JSON.parse(await Deno.readTextFile(file)).target, "after");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("security log: a rotation that keeps failing is tried again after a wait, not at every line", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  try {
    const file = `${dir}/security.log`;
    // security.log.1 is a directory with a file in it: the live file cannot move there.
    await Deno.mkdir(`${file}.1`);
    await Deno.writeTextFile(`${file}.1/keep`, "kept");
    let now = 1_000_000;
    const log = new SecurityLog(file, {
      now: () => now,
      limits: () => ({ maxSize: 300, maxFiles: 1 }),
    });
    const write = (i: number) => log.write("ADMIN_BOOT", { target: String(i) });
    for (let i = 0; i < 10; i++) await write(i);
    // Freed within the wait: the next line still goes to the live file, nothing tried.
    await Deno.remove(`${file}.1`, { recursive: true });
    now += FIRST_RETRY_MS - 1;
    await write(10);
    await assert.rejects(Deno.lstat(`${file}.1`), Deno.errors.NotFound);
    // Past the wait the next line rotates; every line is in the two files, in order.
    now += 1;
    await write(11);
    const { lines, sizes } = await readAll(file, 1);
    assert.equal(sizes.length, 2);
    assert.deepEqual(
      lines.map((l) => Number(JSON.parse(l).target)),
      Array.from({ length: 12 }, (_, i) => i),
    );
    assert.equal(JSON.parse(await Deno.readTextFile(file)).target, "11");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
