import assert from "node:assert/strict";
import type { DbObject } from "../../src/plugins/mod.ts";
import { MailMirror } from "./mirror.ts";
import { mailDetailFunctions, mailFunction } from "./function.ts";

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
  mirror.put(bob.id, { n: 9, read: false, body: "second", fromId: "3", subject: "Two" });
  mirror.put(bob.id, { n: 4, read: true, body: "first", fromId: "4", subject: "One" });
  const fn = mailFunction(mirror);
  const call = (caller: DbObject, ...args: string[]) =>
    fn.call({
      caller,
      player: (ref) => box.get(ref.replace(/^\*?P/, "")) ?? null,
      target: () => null,
      tell: () => {},
    }, args);
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
  assert.match(
    mailFunction(null).call(
      { caller: bob, player: () => null, target: () => null, tell: () => {} },
      [],
    ),
    /^#-1 /,
  );
});

Deno.test("mailfrom(), mailsubj(), mailsize(): MUX's forms and its Wizard rule", () => {
  const mirror = new MailMirror();
  const bob = player("2"), ann = player("3"), wiz = player("4", ["wizard"]);
  const box = new Map([bob, ann, wiz].map((p) => [p.id, p]));
  mirror.put(bob.id, { n: 4, read: true, body: "A body of text.", fromId: "4", subject: "Hi" });
  mirror.put(bob.id, { n: 9, read: false, body: "日本語 body", fromId: "3", subject: "Ünï" });
  const [from, subj, size] = mailDetailFunctions(mirror);
  const lookup = (ref: string) => box.get(ref.replace(/^\*?P/, "")) ?? null;
  const call = (fn: typeof from, caller: DbObject, ...args: string[]) =>
    fn.call({ caller, player: lookup, target: () => null, tell: () => {} }, args);
  assert.equal(call(from, bob, "1"), "#4");
  assert.equal(call(from, bob, "2"), "#3");
  assert.equal(call(subj, bob, "2"), "Ünï");
  assert.equal(call(subj, bob, " 1.5 "), "Hi", "read as MUX's atol reads it");
  for (const n of ["0", "3", "-1", "abc", ""]) {
    assert.equal(call(from, bob, n), "#-1 NO SUCH MESSAGE", n);
    assert.equal(call(subj, bob, n), "#-1 NO SUCH MESSAGE", n);
  }
  assert.equal(call(subj, bob, "*P2", "1"), "Hi");
  assert.equal(call(subj, ann, "*P2", "1"), "#-1 PERMISSION DENIED");
  assert.equal(call(from, wiz, "*P2", "2"), "#3", "staff read anyone's (MUX: Wizard)");
  assert.equal(call(from, bob, "*Nobody", "1"), "#-1 NO SUCH PLAYER");
  assert.equal(call(subj, ann, "1"), "#-1 NO SUCH MESSAGE", "an empty box");
  // MUX counts each message's bytes and 2 more: 15 + 2 and 14 + 2.
  assert.equal(call(size, bob, "*P2"), "33");
  assert.equal(call(size, wiz, "*P2"), "33");
  assert.equal(call(size, ann, "*P2"), "#-1 PERMISSION DENIED");
  assert.equal(call(size, ann, "*P3"), "0");
  assert.equal(call(size, ann, "*Nobody"), "#-1 NO SUCH PLAYER");
  const [gone] = mailDetailFunctions(null);
  assert.match(
    gone.call({ caller: bob, player: lookup, target: () => null, tell: () => {} }, ["1"]),
    /^#-1 /,
  );
});
