import assert from "node:assert/strict";
import { CHILD_V8_FLAGS_ENV, childV8Flags, OUR_V8_FLAGS } from "./v8_flags.ts";

const OURS =
  "--max-semi-space-size=4,--memory-reducer-delay-ms=2000,--gc-memory-reducer-start-delay-ms=2000," +
  "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1";

Deno.test("v8 flags: both children run with a capped young generation and a prompt, short memory reducer", () => {
  for (const kind of ["engine", "telnet"] as const) {
    assert.deepEqual(OUR_V8_FLAGS[kind], [
      "--max-semi-space-size=4",
      "--memory-reducer-delay-ms=2000",
      "--gc-memory-reducer-start-delay-ms=2000",
      "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1",
    ]);
  }
  assert.equal(childV8Flags("engine", {}), OURS);
  assert.equal(childV8Flags("telnet", { DENO_V8_FLAGS: "" }), OURS);
});

Deno.test("v8 flags: the operator's DENO_V8_FLAGS come after ours in both children, so they win", () => {
  const env = { DENO_V8_FLAGS: "--max-semi-space-size=16, --max-old-space-size=512" };
  for (const kind of ["engine", "telnet"] as const) {
    assert.equal(
      childV8Flags(kind, env),
      `${OURS},--max-semi-space-size=16,--max-old-space-size=512`,
    );
  }
});

Deno.test("v8 flags: a child's own variable comes last and reaches that child only", () => {
  const env = {
    DENO_V8_FLAGS: "--max-old-space-size=512",
    [CHILD_V8_FLAGS_ENV.telnet]: "--max-semi-space-size=8,",
  };
  assert.equal(CHILD_V8_FLAGS_ENV.telnet, "URSAMU_TELNET_V8_FLAGS");
  assert.equal(CHILD_V8_FLAGS_ENV.engine, "URSAMU_ENGINE_V8_FLAGS");
  assert.equal(
    childV8Flags("telnet", env),
    `${OURS},--max-old-space-size=512,--max-semi-space-size=8`,
  );
  assert.equal(childV8Flags("engine", env), `${OURS},--max-old-space-size=512`);
  assert.equal(
    childV8Flags("engine", { [CHILD_V8_FLAGS_ENV.engine]: "--memory-saver-mode" }),
    `${OURS},--memory-saver-mode`,
  );
});

Deno.test("v8 flags: a deno child accepts each child's (an unknown flag would stop it from starting)", async () => {
  for (const kind of ["engine", "telnet"] as const) {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "console.log('started')"],
      env: { DENO_V8_FLAGS: childV8Flags(kind, {}) },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(new TextDecoder().decode(out.stderr), "", kind);
    assert.equal(new TextDecoder().decode(out.stdout).trim(), "started", kind);
  }
});
