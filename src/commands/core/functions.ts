/**
 * `@function`: the game's global user-defined softcode functions, as MUX has them (its
 * messages, its listing, built-ins first), kept in the database so they survive a restart.
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { found, matchThing } from "../../softcode/match.ts";
import { userFunctionName, type UserFunctionRecord } from "../../softcode/user_functions.ts";
import { upperAscii } from "../../softcode/compile.ts";

const STAFF_LOCK = "admin+";
const USAGE = "Usage: @function[/privileged][/preserve] <name>=<object>/<attribute>";

/** A text shown as written (a `%` in an attribute name is not a colour code). */
function plain(s: string): string {
  return s.replaceAll("%", "%%");
}

/** MUX 2.12's table of the game's functions. */
function listing(defs: readonly UserFunctionRecord[]): string {
  const rule = `${"-".repeat(28)}   ${"-".repeat(8)}  ${"-".repeat(30)}  -- `;
  const rows = defs.map((d) =>
    `${d.name.padEnd(28)}   ${("#" + d.obj).padEnd(8)}  ${plain(d.attr).padEnd(30)}  ` +
    `${d.privileged ? "W" : "-"}${d.preserve ? "p" : "-"}`
  );
  return [
    `${"Function Name".padEnd(28)}   ${"DBref#".padEnd(8)}  ${"Attribute".padEnd(30)} Flgs`,
    rule,
    ...rows,
    rule,
    `Total User-Defined Functions: ${defs.length}`,
  ].join("\n");
}

/** `@function <name>=<object>/<attribute>`: checks as MUX does, then defines. */
async function define(u: CommandSdk, name: string, target: string): Promise<void> {
  const fns = u.engine.userFunctions;
  const sc = u.softcode;
  const slash = target.indexOf("/");
  const id = slash < 0 ? "#-1" : matchThing(sc.ports.world, u.me.id, target.slice(0, slash).trim());
  const obj = found(id) ? sc.ports.world.object(id) : null;
  if (!obj) throw new CommandError("I don't see that here.");
  const attrName = upperAscii(target.slice(slash + 1).trim());
  const attr = attrName ? sc.ports.attributes.get(obj.id, attrName) : null;
  if (!attr) throw new CommandError("No such attribute.");
  if (!sc.ports.access.canSeeAttr(u.me, obj, attr)) throw new CommandError("Permission denied.");
  const privileged = u.cmd.switches.includes("privileged");
  // Code that runs as the object needs the definer to control it.
  if (privileged && !sc.ports.access.controls(u.me, obj)) {
    throw new CommandError("Permission denied.");
  }
  await fns.define({
    name,
    obj: obj.id,
    attr: attr.name,
    privileged,
    preserve: u.cmd.switches.includes("preserve"),
  });
  u.send(`Function ${name} defined.`);
}

/** The @function command. */
export const commands: CommandSpec[] = [
  {
    name: "@function",
    lock: STAFF_LOCK,
    category: "Softcode",
    switches: ["privileged", "preserve", "delete", "list"],
    help: `@function[/privileged][/preserve] <name>=<object>/<attribute>
@function/delete <name>
@function

Makes a global softcode function: [<name>(a,b)] anywhere in the game runs <attribute> of
<object> with its arguments as %%0-%%9 and gives what it evaluates to. Without arguments (or with
/list), lists the game's functions. Staff only.

Switches:
  /privileged  the code runs as <object> (which you must control), not as the caller (W)
  /preserve    the caller's registers (%%q0...) are left as they were after it runs (p)
  /delete      removes the function (so does '@function <name>=' with nothing after '=')

A built-in function's name cannot be taken. Unlike MUX, functions are kept in the database
and are there again after a restart.

Examples:
  &DOUBLE #12=mul(%%0,2)
  @function double=#12/double
  think double(21)            (you see: 42)`,
    async exec(u) {
      const fns = u.engine.userFunctions;
      if (u.cmd.switches.includes("list") || !u.cmd.args.trim()) {
        u.send(listing(fns.list()));
        return;
      }
      const name = userFunctionName(u.cmd.lhs);
      if (!name) {
        throw new CommandError(
          "Function name is not valid: a letter or _, then letters, digits, _ . or - (up to 63).",
        );
      }
      if (fns.isBuiltin(name)) {
        throw new CommandError("Function already defined in builtin function table.");
      }
      if (u.cmd.switches.includes("delete") || u.cmd.rhs?.trim() === "") {
        if (!(await fns.delete(name))) throw new CommandError(`Function ${name} not found.`);
        u.send(`Function ${name} deleted.`);
        return;
      }
      if (u.cmd.rhs === null) throw new CommandError(USAGE);
      await define(u, name, u.cmd.rhs.trim());
    },
  },
];
