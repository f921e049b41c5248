import assert from "node:assert/strict";
import { PROCESS_ENV, processEnv, SECRET_VARS } from "./process_env.ts";

Deno.test("process env: the plumbing is read from the named variables, with safe defaults", () => {
  const none = processEnv({});
  assert.equal(none.supervised, false);
  assert.equal(none.sidecarSecret, "");
  assert.equal(none.hubLinkPort, null);
  assert.equal(none.telnetHandoff, true);
  assert.deepEqual(none.runFlags, []);
  assert.match(none.updateDir, /\/$/, "the engine's own folder");
  const set = processEnv({
    [PROCESS_ENV.supervised]: "1",
    [PROCESS_ENV.sidecarSecret]: "s".repeat(40),
    [PROCESS_ENV.hubLinkPort]: "40123",
    [PROCESS_ENV.telnetHandoff]: "0",
    [PROCESS_ENV.runFlags]: " --cached-only  --no-remote ",
    [PROCESS_ENV.updateDir]: "/tmp/checkout",
    [PROCESS_ENV.superuserName]: "Root",
    [PROCESS_ENV.npmScript]: "start",
  });
  assert.equal(set.supervised, true);
  assert.equal(set.hubLinkPort, 40123);
  assert.equal(set.telnetHandoff, false);
  assert.deepEqual(set.runFlags, ["--cached-only", "--no-remote"]);
  assert.equal(set.updateDir, "/tmp/checkout");
  assert.equal(set.superuser.name, "Root");
  assert.equal(set.launcher.script, "start");
  for (const bad of ["0", "-1", "70000", "x", "1.5"]) {
    assert.equal(processEnv({ [PROCESS_ENV.hubLinkPort]: bad }).hubLinkPort, null, bad);
  }
  assert.deepEqual(
    [...SECRET_VARS].sort(),
    ["JWT_SECRET", "URSAMU_SIDECAR_SECRET", "URSAMU_SUPERUSER_PASSWORD"],
  );
});
