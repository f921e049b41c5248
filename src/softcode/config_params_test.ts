import assert from "node:assert/strict";
import { defaultConfig, SITE_KEYS } from "../config/defaults.ts";
import { adminParams, MUX_PARAMS, paramNames, paramValue } from "./config_params.ts";

Deno.test("MUX parameters: @admin's come from the one table, and each is a site setting", () => {
  assert.deepEqual(adminParams(), {
    player_queue_limit: "queue.playerLimit",
    wizard_queue_limit: "queue.staffLimit",
  });
  for (const key of Object.values(adminParams())) assert.ok(SITE_KEYS.includes(key), key);
  const c = defaultConfig();
  c.queue.playerLimit = 123;
  c.queue.staffLimit = 4567;
  // What @admin sets is what config() reads, where config() has it.
  assert.deepEqual(paramValue(c, "player_queue_limit", false), "123");
  assert.deepEqual(MUX_PARAMS.wizard_queue_limit.value(c), "4567");
  assert.deepEqual(paramValue(c, "wizard_queue_limit", true), undefined);
  assert.ok(!paramNames(true).includes("wizard_queue_limit"));
});
