import assert from "node:assert/strict";
import type { DbObject } from "../../src/plugins/mod.ts";
import { MailMirror } from "./mirror.ts";
import { mailFunction } from "./function.ts";

function player(id: string, flags: string[] = []): DbObject {
  return {
    id,
    name: `P${id}`,
    flags: ["player", ...flags],
    owner: id,
    location: "1",
    data: {},
    createdAt: 0,
    updatedAt: 0,
  };
}

Deno.test("mail(): MUX's four forms, who may see what, and the mirror's order", () => {
  const mirror = new MailMirror();
  const bob = player("2"), ann = player("3"), wiz = player("4", ["wizard"]);
  const god = player("5", ["superuser"]);
  const box = new Map([bob, ann, wiz, god].map((p) => [p.id, p]));
  // Out of order on purpose: the mirror keeps message order.
  mirror.put(bob.id, { n: 9, read: false, body: "second" });
  mirror.put(bob.id, { n: 4, read: true, body: "first" });
  const fn = mailFunction(mirror);
  const call = (caller: DbObject, ...args: string[]) =>
    fn.call({ caller, player: (ref) => box.get(ref.replace(/^\*?P/, "")) ?? null }, args);
  assert.equal(call(bob), "2");
  assert.equal(call(bob, ""), "2");
  assert.equal(call(bob, "1"), "first");
  assert.equal(call(bob, "2"), "second");
  assert.equal(call(bob, "3"), "#-1 NO SUCH MESSAGE");
  assert.equal(call(bob, "0"), "#-1 NO SUCH MESSAGE");
  assert.equal(call(bob, "*P2"), "1 1 0");
  assert.equal(call(ann, "*P2"), "#-1 PERMISSION DENIED");
  assert.equal(call(wiz, "*P2"), "1 1 0", "staff count anyone's");
  assert.equal(call(wiz, "*P2", "1"), "#-1 PERMISSION DENIED", "only the superuser reads");
  assert.equal(call(god, "*P2", "2"), "second");
  assert.equal(call(bob, "*P2", "1"), "first");
  assert.equal(call(bob, "*Nobody"), "#-1 NO SUCH PLAYER");
  mirror.setRead(bob.id, 9, true);
  assert.equal(call(bob, "me"), "#-1 NO SUCH PLAYER", "the lookup decides what me is");
  assert.equal(call(bob, "*P2"), "2 0 0");
  mirror.delete(bob.id, 4);
  assert.equal(call(bob, "1"), "second");
  mirror.drop(bob.id);
  assert.equal(call(bob), "0");
  assert.match(mailFunction(null).call({ caller: bob, player: () => null }, []), /^#-1 /);
});
