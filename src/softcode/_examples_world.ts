/**
 * The world every function's help example runs in (src/softcode/help.ts says so to readers):
 * a wizard, #1, standing in Limbo, #0, with Alice, #2, a connected player, a box, #3, and an
 * exit North, #4. The help test runs each example here and checks what it shows.
 */
import { testSoftcode } from "./_test_world.ts";
import type { FunctionExample } from "./types.ts";
import { stripMarkup } from "./markup.ts";

/** The examples' world, with a function to run one example. */
export function examplesWorld() {
  const t = testSoftcode();
  const alice = t.world.add("Alice", "player", { location: t.room });
  const box = t.world.add("box", "thing", { location: t.room, owner: t.wiz });
  t.world.add("North;n", "exit", { location: t.room, owner: t.wiz, data: { destination: t.room } });
  t.world.set(t.wiz, "SEX", "male");
  t.world.set(alice, "SEX", "female");
  t.world.online.add(t.wiz).add(alice);
  /** Runs an example's setup (`&ATTR obj=value` lines) and its `think`; the text shown. */
  const run = (ex: FunctionExample): string => {
    for (const line of ex.setup ?? []) {
      const m = /^&(\S+) (me|here|box)=(.*)$/s.exec(line);
      if (!m) throw new Error(`example setup not understood: ${line}`);
      const on = m[2] === "me" ? t.wiz : m[2] === "here" ? t.room : box;
      // `&` stores the value as typed, escapes and all, as the command does.
      t.world.set(on, m[1], m[3]);
    }
    return stripMarkup(t.sc.evaluate(ex.think, { executor: t.wiz })).replaceAll("\r\n", "\n");
  };
  return { ...t, alice, box, run };
}
