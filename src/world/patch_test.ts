import assert from "node:assert/strict";
import { ValidationError } from "../errors.ts";
import { checkState, MAX_STATE_BYTES } from "./patch.ts";

Deno.test("patch: checkState takes a plain object within the limit and refuses others", () => {
  const ok = { mood: "fine", n: 1 };
  assert.equal(checkState(ok), ok);
  assert.throws(() => checkState([1]), ValidationError);
  assert.throws(() => checkState("x"), ValidationError);
  assert.throws(
    () => checkState({ big: "x".repeat(MAX_STATE_BYTES) }),
    (e: Error) => e instanceof ValidationError && /bytes or fewer as JSON/.test(e.message),
  );
});
