import { assert, assertEquals } from "../../tests/assert.ts";
import { join } from "node:path";
import { LINES } from "./_console_fixture.ts";

const FIXTURE = new URL("./_console_fixture.ts", import.meta.url).pathname;

/** The time the file `path` appears, or null when it has not within `ms`. */
async function appears(path: string, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await Deno.stat(path).then(() => true, () => false)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
}

/** Runs the fixture with its stdout unread until `read` says so; returns its stdout lines. */
async function run(mode: string, whileUnread: (done: string) => Promise<void>): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-console-" });
  try {
    const done = join(dir, "done");
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", FIXTURE, done, mode],
      stdin: "null",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    await whileUnread(done);
    const out = await child.output();
    assert(out.success, `the fixture exited with ${out.code}`);
    return new TextDecoder().decode(out.stdout).split("\n").filter((l) => l);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every line, once, in the order it was logged. */
function assertAllInOrder(lines: string[]): void {
  assertEquals(lines.length, LINES);
  lines.forEach((l, i) => assert(l.includes(` line ${i} `), `line ${i} is: ${l}`));
}

Deno.test("console writer: a pipe nobody reads does not hold up the logging process", async () => {
  const lines = await run("roomy", async (done) => {
    // ~300 KB of lines, several times what the pipe holds, all logged while nothing is read.
    assert(await appears(done, 10_000), "the logging loop was blocked by the unread pipe");
  });
  assertAllInOrder(lines);
});

Deno.test("console writer: a full queue drops lines, in order, and says how many", async () => {
  const lines = await run("tight", async (done) => {
    assert(await appears(done, 10_000), "a full queue held up the logging loop");
  });
  const notice = lines.findIndex((l) => /^log: \d+ console line\(s\) dropped/.test(l));
  assert(notice > 0, "no line says how many were dropped");
  const logged = lines.filter((l) => l.includes(" line "));
  const numbers = logged.map((l) => Number(/ line (\d+) /.exec(l)![1]));
  assert(numbers.length < LINES, "nothing was dropped from a 4 KiB queue");
  numbers.forEach((n, i) => i === 0 || assert(n > numbers[i - 1], `line ${n} out of order`));
  const dropped = Number(/^log: (\d+)/.exec(lines[notice])![1]);
  assertEquals(numbers.length + dropped, LINES);
});
