import { assert, assertEquals } from "../../tests/assert.ts";
import { RefusalLog } from "./refusal_log.ts";

Deno.test("refusal log: the first refusal at once, the rest summed up once per window", async () => {
  const lines: string[] = [];
  const log = new RefusalLog("telnet", (l) => lines.push(l), 50);
  log.note("too many from one address", "10.0.0.1");
  assertEquals(lines.length, 1);
  assert(lines[0].includes("10.0.0.1"), lines[0]);
  for (let i = 0; i < 2000; i++) log.note("too many from one address", "10.0.0.1");
  log.note("server full", "10.0.0.2");
  assertEquals(lines.length, 1, "nothing more until the window ends");
  await new Promise((r) => setTimeout(r, 80));
  assertEquals(lines.length, 2);
  assert(/refused 2001 more connections/.test(lines[1]), lines[1]);
  assert(/too many from one address: 2000, server full: 1/.test(lines[1]), lines[1]);
  assert(/from 2 addresses, most from 10\.0\.0\.1 \(2000\)/.test(lines[1]), lines[1]);
  // A quiet window ends the summing: the next refusal is logged at once again.
  await new Promise((r) => setTimeout(r, 80));
  assertEquals(lines.length, 2);
  log.note("too many from one address", "10.0.0.3");
  assertEquals(lines.length, 3);
  assert(lines[2].includes("10.0.0.3"), lines[2]);
  log.stop();
});

Deno.test("refusal log: a flood from many addresses keeps a bounded count and one line", () => {
  const lines: string[] = [];
  const log = new RefusalLog("engine", (l) => lines.push(l), 60_000);
  log.note("too many from one address", "10.0.0.0");
  for (let i = 0; i < 5000; i++) log.note("too many from one address", `10.1.${i >> 8}.${i & 255}`);
  log.stop();
  assertEquals(lines.length, 2);
  assert(/refused 5000 more connections/.test(lines[1]), lines[1]);
  assert(/from 1024\+ addresses/.test(lines[1]), lines[1]);
});
