/// <reference path="./sdk.d.ts" />
/**
 * +roll <dice>: rolls dice such as 2d6, 1d20+3 or 3d6-1 and shows the result to the room
 * (+roll/private: to you alone).
 */

export const help = `+roll <dice>
+roll/private <dice>

Rolls dice and shows everyone in the room the result: <count>d<sides>, with an optional
+ or - modifier. Up to 100 dice of up to 1000 sides.

Examples:
  +roll 2d6
  +roll 1d20+3
  +roll/private 3d6-1`;
export const aliases = ["+dice"];
export const switches = ["private"];
export const category = "Games";
/** Guests may use it. */
export const guests = true;

const DICE = /^(\d{1,3})?d(\d{1,4})\s*(?:([+-])\s*(\d{1,6}))?$/i;

/** A fair whole number from 1 to `sides`. */
function die(sides: number): number {
  const buf = new Uint32Array(1);
  const limit = Math.floor(0x1_0000_0000 / sides) * sides;
  do crypto.getRandomValues(buf); while (buf[0] >= limit);
  return (buf[0] % sides) + 1;
}

export default async function roll(u: ScriptSdk): Promise<void> {
  const spec = u.cmd.args.trim();
  const m = DICE.exec(spec);
  if (!m) return u.send("Usage: +roll <count>d<sides>[+|-<modifier>], e.g. +roll 2d6+1");
  const count = Number(m[1] ?? 1), sides = Number(m[2]);
  const mod = m[3] ? Number(m[4]) * (m[3] === "-" ? -1 : 1) : 0;
  if (count < 1 || count > 100 || sides < 2 || sides > 1000) {
    return u.send("Roll 1 to 100 dice of 2 to 1000 sides.");
  }
  const rolls = Array.from({ length: count }, () => die(sides));
  const total = rolls.reduce((a, b) => a + b, 0) + mod;
  const shown = `${count}d${sides}${mod ? (mod > 0 ? `+${mod}` : `${mod}`) : ""}`;
  const detail = rolls.length > 1 || mod
    ? ` (${rolls.join(" + ")}${mod ? ` ${m[3]} ${Math.abs(mod)}` : ""})`
    : "";
  const data = { type: "roll", dice: shown, rolls, modifier: mod, total, by: u.me.name };
  if (u.cmd.switches.includes("private") || !u.here) {
    return u.send(`%ch[Roll]%cn You roll ${shown}: %ch${total}%cn${detail}`, data);
  }
  await u.here.broadcast(
    `%ch[Roll]%cn ${u.me.displayName} rolls ${shown}: %ch${total}%cn${detail}`,
  );
}
