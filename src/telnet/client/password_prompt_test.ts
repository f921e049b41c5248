/** Tests of hidden password entry for `connect`/`create` without a password. */
import assert from "node:assert/strict";
import { PasswordPrompt } from "./password_prompt.ts";

Deno.test("password prompt: a login without password waits for it, then sends the whole line", () => {
  const p = new PasswordPrompt();
  assert.equal(p.complete("connect Ann"), null);
  assert.equal(p.ask("  CO  Ann "), true);
  assert.equal(p.complete("secret word"), "CO Ann secret word");
  assert.equal(p.complete("look"), null);
  assert.equal(p.ask("create Bob"), true);
  assert.equal(p.complete(""), "create Bob ");
});

Deno.test("password prompt: other lines and full logins are not asked about", () => {
  const p = new PasswordPrompt();
  const lines = [
    "connect Ann pw",
    "connect",
    "look",
    "cr",
    "connectAnn",
    "say connect Ann",
    // A guest has no password.
    "connect guest",
    "CO Guest",
  ];
  for (const line of lines) {
    assert.equal(p.ask(line), false, line);
  }
  assert.equal(p.complete("anything"), null);
});
