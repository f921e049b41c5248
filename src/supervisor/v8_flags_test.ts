import assert from "node:assert/strict";
import { CHILD_V8_FLAGS, childV8Flags } from "./v8_flags.ts";

Deno.test("v8 flags: children run in memory saver mode", () => {
  assert.ok(CHILD_V8_FLAGS.includes("--memory-saver-mode"));
  assert.equal(childV8Flags(undefined), "--memory-saver-mode");
  assert.equal(childV8Flags(""), "--memory-saver-mode");
});

Deno.test("v8 flags: the operator's DENO_V8_FLAGS come after ours, so they win", () => {
  assert.equal(
    childV8Flags("--no-memory-saver-mode, --max-old-space-size=512"),
    "--memory-saver-mode,--no-memory-saver-mode,--max-old-space-size=512",
  );
});

Deno.test("v8 flags: a deno child accepts them (an unknown flag would stop it from starting)", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "console.log('started')"],
    env: { DENO_V8_FLAGS: childV8Flags(undefined) },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(new TextDecoder().decode(out.stderr), "");
  assert.equal(new TextDecoder().decode(out.stdout).trim(), "started");
});
