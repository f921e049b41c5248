/** Register scoping beyond setq()/r()/localize(): letq(), listq(), unsetq() (later MUX's). */
import { define } from "./define.ts";
import { EVAL_ARG, type FunctionDef } from "../types.ts";
import { splitList } from "../list.ts";
import { regKey, regRoom, TOO_MANY_REGISTERS } from "./control.ts";

/** Register names in listq()'s order: 0-9, A-Z, then named ones sorted. */
function order(a: string, b: string): number {
  if (a.length !== b.length && (a.length === 1 || b.length === 1)) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The register family. */
export const registerFunctions: FunctionDef[] = [
  define("letq", 3, 100, {
    family: "registers",
    args: "letq(<register>, <value>[, <register>, <value>...], <expression>)",
    summary: "The expression, evaluated with the registers set; they are as they were after it.",
    example: { think: "[letq(0,inside,%q0)]-%q0-", gives: "inside--" },
  }, (ev, f, args) => {
    if (args.length % 2 === 0) return "#-1 FUNCTION (LETQ) EXPECTS AN ODD NUMBER OF ARGUMENTS";
    // Names and values first, then the body with them set; only they are restored after.
    const pairs: [string, string][] = [];
    for (let i = 0; i + 1 < args.length; i += 2) {
      const k = regKey(ev, ev.eval(f, args[i], EVAL_ARG).trim());
      if (k === null) return "#-1 INVALID GLOBAL REGISTER";
      pairs.push([k, ev.eval(f, args[i + 1], EVAL_ARG)]);
    }
    const saved = pairs.map(([k]) => [k, ev.regs.get(k)] as const);
    let full = false;
    for (const [k, v] of pairs) {
      if (v === "") ev.regs.delete(k);
      else if (regRoom(ev.regs, k)) ev.regs.set(k, v);
      else full = true;
    }
    try {
      if (full) return TOO_MANY_REGISTERS;
      return ev.eval(f, args[args.length - 1], EVAL_ARG);
    } finally {
      for (const [k, v] of saved.reverse()) {
        if (v === undefined) ev.regs.delete(k);
        else ev.regs.set(k, v);
      }
    }
  }, { lazy: true }),
  define("listq", 0, 0, {
    family: "registers",
    args: "listq()",
    summary: "The names of the registers that hold a value.",
    example: { think: "[setq(0,a)][setq(x,b)][listq()]", gives: "0 X" },
  }, (ev) => {
    const names = [...ev.regs.keys()].filter((k) => ev.regs.get(k) !== "");
    return names.sort(order).map((k) => k.toUpperCase()).join(" ");
  }),
  define("unsetq", 0, 100, {
    family: "registers",
    args: "unsetq([<registers>...])",
    summary: "Empties the registers named (all of them with none named).",
    example: { think: "[setq(0,a)][unsetq(0)]-%q0-", gives: "--" },
  }, (ev, _f, args) => {
    if (!args.length || (args.length === 1 && args[0].trim() === "")) {
      ev.regs.clear();
      return "";
    }
    for (const a of args) {
      for (const name of splitList(a, " ")) {
        const k = regKey(ev, name);
        if (k !== null) ev.regs.delete(k);
      }
    }
    return "";
  }),
];
