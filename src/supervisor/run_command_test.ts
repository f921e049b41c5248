import assert from "node:assert/strict";
import { commandFor } from "./run_command.ts";

Deno.test("run command: deno task by default, npm's own form when started by npm", () => {
  assert.equal(commandFor("start", {}), "deno task start");
  assert.equal(commandFor("setup", {}), "deno task setup");
  const npm = { npm_lifecycle_event: "start", npm_command: "start" };
  assert.equal(commandFor("start", npm), "npm start");
  assert.equal(commandFor("setup", npm), "npm run setup");
  const pnpm = { npm_lifecycle_event: "start", npm_config_user_agent: "pnpm/9.1.0 npm/? node/v22" };
  assert.equal(commandFor("setup", pnpm), "pnpm run setup");
  const yarn = {
    npm_lifecycle_event: "setup",
    npm_config_user_agent: "yarn/1.22.22 npm/? node/v22",
  };
  assert.equal(commandFor("setup", yarn), "yarn setup");
});
