import assert from "node:assert/strict";
import { REFUSAL_EVERY_MS, SecurityLog } from "./security_log.ts";

Deno.test("security log: a flood of refusals from one address writes a line a minute, with a count", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-seclog-" });
  try {
    let now = 1_000_000;
    const log = new SecurityLog(`${dir}/security.log`, () => now);
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
