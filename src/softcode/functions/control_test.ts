import assert from "node:assert/strict";
import { regKey, validAttrName } from "./control.ts";
import type { Evaluation } from "../eval.ts";
import { testSoftcode } from "../_test_world.ts";

/** The rule as it was written: MUX's attribute names. */
const ATTR_NAME = /^[A-Za-z_~][A-Za-z0-9_\-.'`~!@#$%^&*+=|?:;<>]{0,63}$/;

Deno.test("control: validAttrName's table gives what the regular expression gives", () => {
  // Every name of one and two characters from ASCII and the edges beyond it.
  const units: string[] = [];
  for (let c = 0; c < 160; c++) units.push(String.fromCharCode(c));
  units.push("é", "ſ", "K", "\u0130", "\uFDD0", "\uD83D", "😀");
  for (const a of units) {
    assert.equal(validAttrName(a), ATTR_NAME.test(a), JSON.stringify(a));
    for (const b of units) {
      assert.equal(validAttrName(a + b), ATTR_NAME.test(a + b), JSON.stringify(a + b));
    }
  }
  // Lengths at the limit, and random names.
  for (const n of [63, 64, 65, 200]) {
    const s = "A" + "b".repeat(n - 1);
    assert.equal(validAttrName(s), ATTR_NAME.test(s), `length ${n}`);
  }
  assert.equal(validAttrName(""), false);
  let seed = 7;
  const rnd = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let i = 0; i < 20_000; i++) {
    let s = "";
    const len = rnd(70);
    for (let j = 0; j < len; j++) s += units[rnd(units.length)];
    assert.equal(validAttrName(s), ATTR_NAME.test(s), JSON.stringify(s));
    // Mostly valid names with one unit changed.
    const ok = "SECS2HRS_x-1".slice(0, 1 + rnd(12));
    const at = rnd(ok.length);
    const t = ok.slice(0, at) + units[rnd(units.length)] + ok.slice(at + 1);
    assert.equal(validAttrName(t), ATTR_NAME.test(t), JSON.stringify(t));
  }
});

/** regKey() as it was written: lower-cased, then MUX's names, then named registers. */
function regKeyByRule(named: boolean, name: string): string | null {
  const n = name.toLowerCase();
  if (/^[0-9a-z]$/.test(n)) return n;
  if (named && /^[a-z0-9_]{2,32}$/.test(n)) return n;
  return null;
}

Deno.test("control: regKey's quick path for one character gives what the rule gives", () => {
  // Every UTF-16 unit alone (K the Kelvin sign and İ lower-case to other texts), then pairs
  // and longer names from a few units, with named registers on and off.
  const few = ["0", "9", "a", "z", "A", "Z", "_", " ", "\u212A", "\u0130", "é", "/"];
  for (const named of [true, false]) {
    const ev = { sc: { namedRegisters: named } } as unknown as Evaluation;
    for (let c = 0; c < 0x10000; c++) {
      const s = String.fromCharCode(c);
      assert.equal(regKey(ev, s), regKeyByRule(named, s), `${named} ${c}`);
    }
    for (const a of few) {
      for (const b of few) {
        assert.equal(regKey(ev, a + b), regKeyByRule(named, a + b), `${named} ${a}${b}`);
        const long = (a + b).repeat(17);
        assert.equal(regKey(ev, long), regKeyByRule(named, long), `${named} ${long}`);
      }
    }
    assert.equal(regKey(ev, ""), regKeyByRule(named, ""));
  }
});

Deno.test("iter(): a loop stopped early gives the results made so far, and no more separators", () => {
  const t = testSoftcode({ functionInvocations: 60 });
  const out = t.run("[iter(lnum(100),[add(##,0)],,|)]");
  const items = out.split("|");
  assert.ok(items.length > 10 && items.length < 100, out);
  // The invocation limit's error may end the last result; every other one is its number.
  for (let i = 0; i < items.length - 1; i++) assert.equal(items[i], String(i), out);
  assert.notEqual(items[items.length - 1], "", out);
  const long = testSoftcode();
  const lbuf = long.sc.limits.outputLength - 1;
  const want = Array.from({ length: 3000 }, () => "abcdefghij").join(" ").slice(0, lbuf);
  assert.equal(long.run("[iter(lnum(3000),abcdefghij)]"), want);
});
