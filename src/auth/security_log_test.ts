import assert from "node:assert/strict";
import { REFUSAL_EVERY_MS, SecurityLog } from "./security_log.ts";

Deno.test("security log: a flood of refusals from one address writes a line a minute, with a count", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  try {
    let now = 1_000_000;
    const log = new SecurityLog(`${dir}/security.log`, { now: () => now });
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
