import assert from "node:assert/strict";
import { cardOf, PlayerCards } from "./cards.ts";
import type { DbObject } from "../world/types.ts";

function player(updatedAt: number, name = "Ann", moniker?: string): DbObject {
  return {
    id: "7",
    name,
    flags: ["player"],
    location: "1",
    owner: "7",
    data: { description: "a long description the card does not keep", moniker },
    createdAt: 0,
    updatedAt,
  };
}

Deno.test("cards: a card keeps only what output reads, frozen", () => {
  const card = cardOf(player(5, "Ann", "%crAnn"));
  assert.deepEqual(card, {
    id: "7",
    name: "Ann",
    flags: ["player"],
    owner: "7",
    data: { moniker: "%crAnn" },
    updatedAt: 5,
    colour: "auto",
    doing: "",
  });
  assert.ok(Object.isFrozen(card) && Object.isFrozen(card.flags));
  assert.deepEqual(cardOf(player(5, "Ann", "")).data, {});
});

Deno.test("cards: reads never replace a newer card; committed changes always do", () => {
  const cards = new PlayerCards();
  assert.equal(cards.refresh(player(1)), false);
  assert.equal(cards.has("7"), false, "refresh does not track an offline player");
  assert.equal(cards.offer(player(10)), true);
  assert.equal(cards.offer(player(5, "Stale")), false);
  assert.equal(cards.offer(player(10, "Same version")), false);
  assert.equal(cards.get("7")?.name, "Ann", "an older read is ignored");
  assert.equal(cards.refresh(player(11, "Anna")), true);
  assert.equal(cards.get("7")?.name, "Anna");
  const after = player(12, "Annie", "%cgAnnie");
  assert.equal(cards.apply({ before: player(11, "Anna"), after })?.data.moniker, "%cgAnnie");
  assert.equal(cards.apply({ before: after, after: null }), null, "a delete keeps the card");
  assert.equal(cards.get("7")?.name, "Annie");
  assert.equal(cards.apply({ before: null, after: { ...after, id: "8" } }), null);
  assert.equal(cards.has("8"), false, "untracked objects are ignored");
  cards.delete("7");
  assert.equal(cards.size, 0);
});

Deno.test("cards: a connected player is found by name in any case, and renames follow", () => {
  const cards = new PlayerCards();
  cards.offer(player(1, "Ann"));
  assert.equal(cards.byName("ANN")?.id, "7");
  cards.apply({ before: player(1, "Ann"), after: player(2, "Bea") });
  assert.equal(cards.byName("ann"), undefined, "the old name is gone");
  assert.equal(cards.byName("bea")?.id, "7");
  // Another player takes the old name while this card is still held: both stay findable.
  cards.offer({ ...player(3, "Ann"), id: "8" });
  cards.refresh(player(4, "Bea"));
  assert.equal(cards.byName("ann")?.id, "8");
  cards.delete("7");
  assert.equal(cards.byName("bea"), undefined);
  assert.equal(cards.byName("ann")?.id, "8", "deleting one card keeps another's name");
});
