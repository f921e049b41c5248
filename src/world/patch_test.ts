import assert from "node:assert/strict";
import { ValidationError } from "../errors.ts";
import { checkAvatar, checkState, MAX_STATE_BYTES } from "./patch.ts";

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

Deno.test("patch: checkAvatar takes web addresses and site paths, refuses scripts and other hosts' tricks", () => {
  for (
    const ok of [
      "",
      "https://example.com/a.png",
      "HTTP://example.com/a.png?x=1",
      "/api/v1/avatars/12-0123456789abcdef.png",
      "/uploads/portraits/ann.png",
    ]
  ) {
    assert.equal(checkAvatar(ok), ok);
  }
  const bad = [
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "data:image/png;base64,AAAA",
    "//evil.example/x.png",
    "/\\evil.example/x.png",
    "https:evil.example/x.png",
    "https:///x.png",
    "ftp://example.com/a.png",
    "https://user:pw@example.com/a.png",
    " https://example.com/a.png",
    "java\tscript:alert(1)",
    "a.png",
    "https://example.com/" + "x".repeat(512),
    42,
    null,
  ];
  for (const v of bad) {
    assert.throws(
      () => checkAvatar(v),
      (e: Error) => e instanceof ValidationError && /http: or https: address/.test(e.message),
      String(v),
    );
  }
});
