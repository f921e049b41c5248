/**
 * A request's registers (a queue entry's frame, which the commands of one entry share) are
 * written by the evaluation in place: what it leaves in them must be what the evaluation's own
 * registers hold at its end, through every function that restores them (localize(), ulocal(),
 * letq(), a `/preserve` user function) or empties them (unsetq()).
 */
import assert from "node:assert/strict";
import { testSoftcode } from "./_test_world.ts";
import { kvUserFunctionStore, UserFunctions } from "./user_functions.ts";

/** The registers an evaluation ends with, printed by the evaluation itself (its reference). */
const SHOW = "|[iter(listq(),%i0=[r(%i0)],%b,:)]";

/** The map's contents printed as SHOW prints them (listq()'s order: 0-9, then a-z, names). */
function shown(regs: Map<string, string>): string {
  const names = [...regs.keys()].filter((k) => regs.get(k) !== "");
  names.sort((a, b) => (a.length - b.length) || (a < b ? -1 : a > b ? 1 : 0));
  return names.map((k) => `${k.toUpperCase()}=${regs.get(k)}`).join(":");
}

/** A small deterministic generator (the same cases on every run). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const NAMES = ["0", "1", "a", "z", "total"];

/** A random text over the registers, nesting the functions that save and restore them. */
function gen(r: () => number, depth: number): string {
  const name = () => NAMES[Math.floor(r() * NAMES.length)];
  const value = () => ["3", "x", "", "%q0", "[add(%q1,1)]"][Math.floor(r() * 5)];
  const parts: string[] = [];
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    const k = depth <= 0 ? Math.floor(r() * 4) : Math.floor(r() * 10);
    const inner = () => gen(r, depth - 1);
    switch (k) {
      case 0:
        parts.push(`[setq(${name()},${value()})]`);
        break;
      case 1:
        parts.push(`[setr(${name()},${value()})]`);
        break;
      case 2:
        parts.push(`%q0-[r(${name()})]`);
        break;
      case 3:
        parts.push(r() < 0.5 ? `[unsetq(${name()})]` : "[add(%q0,%q1)]");
        break;
      case 4:
        parts.push(`[localize(${inner()})]`);
        break;
      case 5:
        parts.push(`[letq(${name()},${value()},${inner()})]`);
        break;
      case 6:
        parts.push(`[ulocal(me/SET,${value()})]`);
        break;
      case 7:
        parts.push(`[u(me/SET,${value()})]`);
        break;
      case 8:
        parts.push(`[keep(${value()})][spill(${value()})]`);
        break;
      default:
        parts.push(r() < 0.2 ? "[unsetq()]" : `[regmatch(ab,(.)(.),0 ${name()})]`);
    }
  }
  return parts.join("");
}

Deno.test("softcode: a request's registers end as the evaluation's own, through every nesting", async () => {
  // Thousands of evaluations by one player in a moment: no time limit here.
  const t = testSoftcode({ actorMs: 1e9, gameMs: 1e9, evaluationMs: 1e9 });
  const kv = await Deno.openKv(":memory:");
  try {
    const fns = new UserFunctions(t.functions, kvUserFunctionStore(kv));
    t.world.set(t.wiz, "SET", "[setq(1,%0)][setq(z,%q1%q1)]%q1");
    const base = { obj: t.wiz, attr: "SET", privileged: false };
    await fns.define({ ...base, name: "KEEP", preserve: true });
    await fns.define({ ...base, name: "SPILL", preserve: false });
    const r = rng(36);
    let restored = 0;
    for (let i = 0; i < 3000; i++) {
      const text = gen(r, 3);
      const start = new Map<string, string>();
      if (r() < 0.5) start.set("0", "7");
      if (r() < 0.3) start.set("total", "t");
      // The reference: the same start set by the text itself, and the end printed by it.
      const seed = [...start].map(([k, v]) => `[setq(${k},${v})]`).join("");
      const want = t.run(seed + text + SHOW);
      const regs = new Map(start);
      const out = t.sc.evaluate(text, { executor: t.wiz, regs });
      assert.equal(`${out}|${shown(regs)}`, want, text);
      if (/localize|ulocal|keep/.test(text)) restored++;
    }
    assert.ok(restored > 1000, `only ${restored} texts restored registers`);
  } finally {
    kv.close();
  }
});

Deno.test("softcode: a localize() around the whole text leaves the request's registers as they were", () => {
  const t = testSoftcode();
  // localize() puts a copy in place of the map: what the evaluation ends with is copied back.
  const mine = new Map([["0", "in"]]);
  assert.equal(
    t.sc.evaluate("[localize(setq(0,x)[setq(2,y)])][setq(1,out)]%q0", {
      executor: t.wiz,
      regs: mine,
    }),
    "in",
  );
  assert.deepEqual([...mine], [["0", "in"], ["1", "out"]]);
  const none = new Map<string, string>();
  assert.equal(t.sc.evaluate("[localize(setq(0,x))]%q0", { executor: t.wiz, regs: none }), "");
  assert.equal(none.size, 0);
});
