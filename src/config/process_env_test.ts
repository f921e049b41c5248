import assert from "node:assert/strict";
import { engineRunValue, PROCESS_ENV, processEnv, SECRET_VARS } from "./process_env.ts";

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

Deno.test("process env: the engine's run (restarts, first start) is read back as the supervisor wrote it", () => {
  assert.equal(processEnv({}).engineRun, null);
  const want = { restarts: 3, firstStartedAt: 1_767_265_200_000, startedAt: 1_767_265_260_000 };
  const run = processEnv({ [PROCESS_ENV.engineRun]: engineRunValue(want) });
  assert.deepEqual(run.engineRun, want);
  for (const bad of ["", "1", "x 2 3", "-1 5 6", "1 2", "1 2 3 4", "1.5 2 3"]) {
    assert.equal(processEnv({ [PROCESS_ENV.engineRun]: bad }).engineRun, null, bad);
  }
});
