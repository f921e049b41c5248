import assert from "node:assert/strict";
import { canonicalFlag, flagChangeProblem, isKnownFlag } from "./flags.ts";

Deno.test("flags: the flags packages rely on are known and settable by who controls", () => {
  for (
    const f of [
      "inherit",
      "halt",
      "safe",
      "quiet",
      "sticky",
      "puppet",
      "visual",
      "opaque",
      "monitor",
      "unfindable",
      "parent_ok",
    ]
  ) {
    assert.ok(isKnownFlag(f), f);
    assert.equal(flagChangeProblem(["player"], f, ["thing"]), null, f);
  }
  assert.equal(canonicalFlag(" HALTED "), "halt");
  assert.equal(isKnownFlag("me"), false);
});

Deno.test("flags: MUX's exceptions: inherit by a player or an inheriting object; monitor on a player by staff", () => {
  assert.match(flagChangeProblem(["thing"], "inherit")!, /Only a player/);
  assert.equal(flagChangeProblem(["thing", "inherit"], "inherit"), null);
  assert.equal(flagChangeProblem(["player"], "inherit"), null);
  assert.match(flagChangeProblem(["player"], "monitor", ["player"])!, /Only staff/);
  assert.equal(flagChangeProblem(["player", "wizard"], "monitor", ["player"]), null);
  assert.match(flagChangeProblem(["player"], "admin")!, /superuser/);
});
