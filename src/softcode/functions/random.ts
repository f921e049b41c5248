/** Random numbers: lrand(), distribute(), successes() (rand() and die() are in math.ts). */
import { define } from "./define.ts";
import type { FunctionDef } from "../types.ts";
import { isInteger, toInt32 } from "../numbers.ts";
import { sepOf, splitList } from "../list.ts";

/** A uniformly random integer from `lo` to `hi`, both included. */
export function randomInt(lo: number, hi: number): number {
  return lo + Math.floor(Math.random() * (hi - lo + 1));
}

/** Most points distribute() spreads, and most bins (MUX's limits). */
const MAX_POINTS = 1_000_000;
const MAX_BINS = 2000;

/** Sides of a successes() die. */
const D10 = 10;

/** The random family. */
export const randomFunctions: FunctionDef[] = [
  define("lrand", 3, 4, {
    family: "random",
    args: "lrand(<low>, <high>, <count>[, <output separator>])",
    summary: "count random integers from low to high.",
    example: { think: "lrand(1,6,3)", gives: "4 1 6", varies: true },
  }, (ev, _f, args) => {
    const sep = sepOf(args[3], { allowNull: true });
    if (typeof sep !== "string") return sep.error;
    const n = Math.min(toInt32(args[2]), ev.lbuf);
    if (n < 1) return "";
    const lo = toInt32(args[0]), hi = toInt32(args[1]);
    if (lo > hi) return "";
    let out = String(randomInt(lo, hi));
    for (let i = 1; i < n && out.length < ev.lbuf; i++) out += sep + randomInt(lo, hi);
    return out;
  }),
  define("distribute", 2, 3, {
    family: "random",
    args: "distribute(<points>, <bins>[, <output separator>])",
    summary: "The points spread at random over the bins: how many fell in each.",
    example: { think: "distribute(10,3)", gives: "3 4 3", varies: true },
  }, (ev, _f, args) => {
    const osep = sepOf(args[2], { allowNull: true });
    if (typeof osep !== "string") return osep.error;
    if (!isInteger(args[0])) return "#-1 ARG1 IS NOT AN INTEGER";
    if (!isInteger(args[1])) return "#-1 ARG2 IS NOT AN INTEGER";
    const points = toInt32(args[0]), bins = toInt32(args[1]);
    if (points < 0 || points > MAX_POINTS || bins <= 0 || bins > MAX_BINS) {
      return "#-1 OUT OF RANGE";
    }
    const counts = new Array<number>(bins).fill(0);
    for (let i = 0; i < points; i++) {
      // A million points take milliseconds: count them as work, so the budget still holds.
      if ((i & 0x3fff) === 0 && !ev.tick()) return "";
      counts[Math.floor(Math.random() * bins)]++;
    }
    return counts.join(osep);
  }),
  define("choose", 2, 3, {
    family: "random",
    args: "choose(<list>, <weights>[, <delimiter>])",
    summary: "One item of the list at random, each as likely as its weight.",
    example: { think: "choose(common rare,9 1)", gives: "common", varies: true },
  }, (_ev, _f, args) => {
    const sep = sepOf(args[2]);
    if (typeof sep !== "string") return sep.error;
    const items = splitList(args[0], sep);
    // The weights are always a space-separated list, whatever the items' delimiter.
    const weights = splitList(args[1], " ");
    if (items.length !== weights.length) return "#-1 LISTS MUST BE OF EQUAL SIZE";
    let total = 0;
    const upTo = weights.map((w) => (total += Math.max(0, toInt32(w))));
    if (total <= 0) return "";
    const pick = randomInt(1, total);
    return items[upTo.findIndex((t) => pick <= t)];
  }),
  define("successes", 2, 3, {
    family: "random",
    args: "successes(<dice>, <target>[, <sides>])",
    summary:
      "Rolls the ten-sided dice: each at or over the target is a success, each 1 takes one away.",
    example: { think: "successes(5,7)", gives: "2", varies: true },
  }, (_ev, _f, args) => {
    if (!isInteger(args[0]) || !isInteger(args[1])) return "#-1 ARGUMENTS MUST BE INTEGERS";
    const dice = toInt32(args[0]);
    if (dice === 0) return "0";
    if (dice < 0) return "#-1 NUMBER OF DICE SHOULD BE > 0";
    if (dice > 100) return "#-1 TOO MANY DICE FOR ME TO ROLL";
    const target = toInt32(args[1]);
    // Each die from the target up is a success, each 1 a botch (MUX's version 0; its
    // default table smooths the odds, the rolls here are plain d10s).
    if (target <= 0) return String(dice);
    if (target > D10) return "0";
    let net = 0;
    for (let i = 0; i < dice; i++) {
      const roll = randomInt(1, D10);
      if (roll === 1) net--;
      else if (roll >= target) net++;
    }
    return String(net);
  }),
];
