/** Every built-in softcode function, and MUX's default aliases (its alias.conf). */
import { FunctionRegistry } from "./define.ts";
import { mathFunctions } from "./math.ts";
import { stringFunctions } from "./strings.ts";
import { listFunctions } from "./lists.ts";
import { controlFunctions } from "./control.ts";
import { objectFunctions } from "./objects.ts";
import { regexpFunctions } from "./regexp.ts";
import { geometryFunctions } from "./geometry.ts";
import { radixFunctions } from "./radix.ts";
import { randomFunctions } from "./random.ts";
import { digestFunctions } from "./digest.ts";
import { textFunctions } from "./text.ts";
import { listApplyFunctions } from "./listapply.ts";
import { jsonFunctions } from "./json.ts";
import { registerFunctions } from "./registers.ts";
import { formatFunctions } from "./format.ts";
import { timeFunctions } from "./time.ts";
import { durationFunctions } from "./durations.ts";
import { spellFunctions } from "./spell.ts";
import { databaseFunctions } from "./database.ts";
import { buildingFunctions } from "./building.ts";
import { lookupFunctions } from "./lookups.ts";
import { connectionFunctions } from "./connections.ts";
import { gameFunctions } from "./game.ts";

export { FunctionRegistry } from "./define.ts";

/** The aliases TinyMUX 2.12 ships (game/alias.conf), for the functions this engine has. */
const ALIASES: readonly [string, string][] = [
  ["ansiname", "moniker"],
  ["connsecs", "conn"],
  ["div", "idiv"],
  ["flip", "reverse"],
  ["hasattrval", "hasattr"],
  ["idlesecs", "idle"],
  ["iname", "moniker"],
  ["lastmod", "mtime"],
  ["left", "strtrunc"],
  ["lsearch", "search"],
  ["modifytime", "mtime"],
  ["modulo", "mod"],
  ["modulus", "mod"],
  ["nattr", "attrcnt"],
  ["nonzero", "ifelse"],
  ["parse", "iter"],
  ["ptimefmt", "timefmt"],
  ["secs2time", "convsecs"],
  ["time2secs", "convtime"],
  ["ufun", "u"],
  ["who", "lwho"],
];

/** A table holding every built-in function. */
export function builtinFunctions(): FunctionRegistry {
  const table = new FunctionRegistry();
  table.add(
    ...mathFunctions,
    ...stringFunctions,
    ...listFunctions,
    ...controlFunctions,
    ...objectFunctions,
    ...regexpFunctions,
    ...geometryFunctions,
    ...radixFunctions,
    ...randomFunctions,
    ...digestFunctions,
    ...textFunctions,
    ...listApplyFunctions,
    ...jsonFunctions,
    ...registerFunctions,
    ...formatFunctions,
    ...timeFunctions,
    ...durationFunctions,
    ...spellFunctions,
    ...databaseFunctions,
    ...buildingFunctions,
    ...lookupFunctions,
    ...connectionFunctions,
    ...gameFunctions,
  );
  for (const [alias, target] of ALIASES) table.alias(alias, target);
  return table;
}
