import assert from "node:assert/strict";
import {
  CHILD_V8_FLAGS_ENV,
  childV8Flags,
  flagSetting,
  OUR_V8_FLAGS,
  REGEXP_FLAGS,
} from "./v8_flags.ts";

const OURS =
  "--max-semi-space-size=4,--memory-reducer-delay-ms=2000,--gc-memory-reducer-start-delay-ms=2000," +
  "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1";
const REGEXP = "--enable-experimental-regexp-engine," +
  "--enable-experimental-regexp-engine-on-excessive-backtracks";
/** Ours for a child: the engine's regular expressions have two more. */
const ours = (kind: "engine" | "telnet") => kind === "engine" ? `${OURS},${REGEXP}` : OURS;

Deno.test("v8 flags: both children run with a capped young generation and a prompt, short memory reducer", () => {
  for (const kind of ["engine", "telnet"] as const) {
    assert.deepEqual(OUR_V8_FLAGS[kind], [
      "--max-semi-space-size=4",
      "--memory-reducer-delay-ms=2000",
      "--gc-memory-reducer-start-delay-ms=2000",
      "--compaction-max-evacuated-bytes-mb-for-reduce-memory=1",
      ...(kind === "engine" ? REGEXP_FLAGS : []),
    ]);
  }
  assert.equal(childV8Flags("engine", {}), ours("engine"));
  assert.equal(childV8Flags("telnet", { DENO_V8_FLAGS: "" }), OURS);
});

Deno.test("v8 flags: the operator's DENO_V8_FLAGS come after ours in both children, so they win", () => {
  const env = { DENO_V8_FLAGS: "--max-semi-space-size=16, --max-old-space-size=512" };
  for (const kind of ["engine", "telnet"] as const) {
    assert.equal(
      childV8Flags(kind, env),
      `${ours(kind)},--max-semi-space-size=16,--max-old-space-size=512`,
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
  assert.equal(childV8Flags("engine", env), `${ours("engine")},--max-old-space-size=512`);
  assert.equal(
    childV8Flags("engine", { [CHILD_V8_FLAGS_ENV.engine]: "--memory-saver-mode" }),
    `${ours("engine")},--memory-saver-mode`,
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

Deno.test("v8 flags: an operator who turns the regexp fallback off turns the flag `l` off too", () => {
  const off = "--no-enable-experimental-regexp-engine";
  for (
    const given of [
      "--no-enable-experimental-regexp-engine-on-excessive-backtracks",
      "--noenable_experimental_regexp_engine_on_excessive_backtracks",
      "--enable-experimental-regexp-engine-on-excessive-backtracks=false",
    ]
  ) {
    const flags = childV8Flags("engine", { DENO_V8_FLAGS: given });
    assert.equal(flags, `${ours("engine")},${given},${off}`);
    assert.equal(flagSetting(flags.split(","), "enable-experimental-regexp-engine"), false);
  }
  // Turned back on after, or only the fallback's limit changed: nothing added.
  for (
    const given of [
      "--no-enable-experimental-regexp-engine-on-excessive-backtracks," +
      "--enable-experimental-regexp-engine-on-excessive-backtracks",
      "--regexp-backtracks-before-fallback=10000",
    ]
  ) {
    assert.equal(childV8Flags("engine", { DENO_V8_FLAGS: given }), `${ours("engine")},${given}`);
  }
  assert.equal(
    flagSetting(["--max-semi-space-size=4"], "enable-experimental-regexp-engine"),
    undefined,
  );
});
