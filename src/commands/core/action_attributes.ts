/**
 * MUX's commands that set the attributes the engine uses (`@succ <object>=<text>` is
 * `&SUCC <object>=<text>`): a player's gender and page replies, and the messages, formats and
 * actions of looking, moving, getting, dropping and giving, entering and leaving, connecting, and
 * starting up. Where and how each runs: src/commands/did_it.ts and
 * docs/softcode.md, "Actions the engine fires".
 */
import type { CommandSdk, CommandSpec } from "../types.ts";
import { CommandError } from "../errors.ts";
import { confirm } from "../confirm.ts";

/**
 * Each attribute's command (`@succ` sets SUCC; MUX's full names, `@success`, as aliases) and when
 * the engine uses the attribute. The names are written out so the fuzzer's catalog
 * (tests/fuzz/catalog.ts) finds them.
 */
const ACTION_ATTRIBUTES: readonly {
  name: string;
  aliases?: string[];
  about: string;
  see?: string;
  /** The help's last line, where the attribute is no message the engine evaluates. */
  note?: string;
  category?: string;
}[] = [
  {
    name: "@sex",
    about: "Your gender, for the pronouns poses and messages use (%s, %o, %p, %a; subj()...): " +
      "male, female, plural (they), or anything else (it).",
    note: "Example: @sex me=female.",
    see: "subj()",
    category: "World",
  },
  {
    name: "@away",
    about: "Told to whoever pages you while you are not connected, as " +
      "'Away message from <you>: <text>'.",
    see: "page",
    category: "Communication",
  },
  {
    name: "@idle",
    about: "Told to whoever pages you, after the page, as 'Idle message from <you>: <text>' " +
      "(with &IDLETIMEOUT me=<seconds>, only once you have been idle that long).",
    see: "page",
    category: "Communication",
  },
  {
    name: "@reject",
    about: "Told to whoever pages you when you do not accept it (haven, or your page lock), " +
      "as 'Reject message from <you>: <text>'.",
    see: "page",
    category: "Communication",
  },
  {
    name: "@succ",
    aliases: ["@success"],
    about: "Shown to whoever passes its lock: picks it up, goes through it, looks at the room.",
  },
  {
    name: "@osucc",
    aliases: ["@osuccess"],
    about: "Shown to the others there, after the name, when someone passes its lock.",
  },
  {
    name: "@asucc",
    aliases: ["@asuccess"],
    about: "Run by the object when someone passes its lock.",
  },
  {
    name: "@fail",
    aliases: ["@failure"],
    about: "Shown to whoever fails its lock (get, an exit, looking at the room).",
  },
  {
    name: "@ofail",
    aliases: ["@ofailure"],
    about: "Shown to the others there, after the name, when someone fails its lock.",
  },
  {
    name: "@afail",
    aliases: ["@afailure"],
    about: "Run by the object when someone fails its lock.",
  },
  { name: "@drop", about: "Shown to whoever drops it, or arrives through it (an exit)." },
  {
    name: "@odrop",
    about: "Shown to the others, after the name, when it is dropped or an exit brings someone.",
  },
  {
    name: "@adrop",
    about: "Run by the object when it is dropped or someone arrives through it (an exit).",
  },
  { name: "@enter", about: "Shown to whoever arrives in it (a room, or a thing)." },
  { name: "@oenter", about: "Shown to the others inside, after the name, when someone arrives." },
  { name: "@aenter", about: "Run by the place when someone arrives in it." },
  { name: "@oxenter", about: "Shown in the place someone leaves to come here, after the name." },
  { name: "@leave", about: "Shown to whoever leaves it (a room, or a thing)." },
  { name: "@oleave", about: "Shown to the others inside, after the name, when someone leaves." },
  { name: "@aleave", about: "Run by the place when someone leaves it." },
  {
    name: "@oxleave",
    about: "Shown in the place someone arrives in after leaving here, after the name.",
  },
  { name: "@move", about: "Shown to the object itself (a player) whenever it moves." },
  {
    name: "@omove",
    about: "Shown to the others where it arrives, after its name, whenever it moves.",
  },
  { name: "@amove", about: "Run by the object itself whenever it moves." },
  {
    name: "@odesc",
    aliases: ["@odescribe"],
    about: "Shown to the others there, after the name, when someone looks at it.",
  },
  { name: "@adesc", aliases: ["@adescribe"], about: "Run by the object when someone looks at it." },
  {
    name: "@idesc",
    aliases: ["@idescribe"],
    about: "The description shown to who is inside it (a thing), instead of its DESC.",
  },
  { name: "@efail", about: "Shown to whoever may not enter it (a thing: enter_ok or its lock)." },
  {
    name: "@oefail",
    about: "Shown to the others there, after the name, when someone may not enter.",
  },
  { name: "@aefail", about: "Run by the thing when someone may not enter it." },
  { name: "@lfail", about: "Shown to whoever may not leave it (a thing, by its leave lock)." },
  {
    name: "@olfail",
    about: "Shown to the others inside, after the name, when someone may not leave.",
  },
  { name: "@alfail", about: "Run by the thing when someone may not leave it." },
  { name: "@gfail", about: "Shown to whoever may not give it away (its give lock)." },
  {
    name: "@ogfail",
    about: "Shown to the others there, after the name, when someone may not give it away.",
  },
  { name: "@agfail", about: "Run by the thing when someone may not give it away." },
  {
    name: "@rfail",
    about: "Shown to whoever gives you (or it) what its receive lock refuses.",
  },
  {
    name: "@orfail",
    about: "Shown to the others there, after the name, when a gift is refused.",
  },
  { name: "@arfail", about: "Run by the receiver when it refuses a gift." },
  {
    name: "@tfail",
    about: "Shown to whoever may not teleport into it (not jump_ok, or its teleport lock).",
  },
  {
    name: "@otfail",
    about: "Shown to the others there, after the name, when someone may not teleport in.",
  },
  { name: "@atfail", about: "Run by the place when someone may not teleport into it." },
  { name: "@tofail", about: "Shown to whoever may not teleport out of it (its telout lock)." },
  {
    name: "@otofail",
    about: "Shown to the others there, after the name, when someone may not teleport out.",
  },
  { name: "@atofail", about: "Run by the place when someone may not teleport out of it." },
  {
    name: "@descformat",
    about: "Shows the description instead: %0 the description, %1 DESC or IDESC.",
  },
  {
    name: "@nameformat",
    about: "Shows the room's name line instead, to whoever looks at the room.",
  },
  {
    name: "@conformat",
    about: "Shows the room's contents instead: %0 the ids of those seen there.",
  },
  { name: "@exitformat", about: "Shows the room's exits instead: %0 the ids of the exits seen." },
  {
    name: "@aconnect",
    about: "Run when the player connects (on a master-room object: when anyone does; on a " +
      "zone master: when anyone does in a room of its zone).",
  },
  {
    name: "@adisconnect",
    about: "Run when the player's last connection goes (master room: anyone's; zone master: " +
      "anyone's in a room of its zone).",
  },
  {
    name: "@startup",
    about:
      "Run by the object whenever the game starts; its waits of earlier runs are dropped first.",
  },
  // Listening (src/softcode/programs): what the object hears in its room.
  {
    name: "@listen",
    about: "A wildcard pattern: a message heard in its room that matches runs @ahear and the rest.",
    see: "listening",
  },
  {
    name: "@ahear",
    about: "Run by the object when its @listen matches what someone else said.",
    see: "listening",
  },
  {
    name: "@amhear",
    about: "Run by the object when its @listen matches what it said itself.",
    see: "listening",
  },
  {
    name: "@aahear",
    about: "Run by the object when its @listen matches anything it heard.",
    see: "listening",
  },
  {
    name: "@inprefix",
    about: "Put before what a thing's @listen matched as the thing passes it on to what is " +
      "inside it (evaluated as the thing, %# the speaker), as 'On the bus: Bob says, \"hi\"'.",
    see: "listening",
  },
];

/** The `@<attr> <object>=<value>` command `name` setting attribute `<ATTR>`. */
function attributeCommand(
  name: string,
  aliases: string[],
  about: string,
  see = "actions",
  note = "Messages are evaluated as the object with %# the one acting.",
  category = "Softcode",
): CommandSpec {
  const attr = name.slice(1).toUpperCase();
  const usage = `${name} <object>=<text>`;
  return {
    name,
    aliases,
    category,
    help: `${usage}

${about}
Sets the attribute ${attr} (the same as &${attr} <object>=<text>); without text it is cleared.
${note} See 'help ${see}'.`,
    exec: (u) => setFromLine(u, attr, usage),
  };
}

/** Sets (or without text clears) attribute `attr` of `<object>` in `<object>=<text>`. */
async function setFromLine(u: CommandSdk, attr: string, usage: string): Promise<void> {
  const args = u.cmd.args;
  const eq = args.indexOf("=");
  const ref = (eq === -1 ? args : args.slice(0, eq)).trim();
  if (!ref) throw new CommandError(`Usage: ${usage}`);
  const value = eq === -1 ? "" : args.slice(eq + 1).trim();
  const obj = await u.target(ref);
  await u.attributes.set(u.me, obj.id, attr, value);
  confirm(u, value === "" ? "Cleared." : "Set.", {
    type: "attribute",
    id: obj.id,
    name: attr,
    set: value !== "",
  }, obj);
}

/**
 * MUX's `@va` to `@vz`: one command, whose name as typed says the attribute (VA to VZ), kept for
 * an object's own code (nothing in the engine reads them).
 */
const variables: CommandSpec = {
  name: "@va",
  aliases: [..."bcdefghijklmnopqrstuvwxyz"].map((l) => `@v${l}`),
  category: "Softcode",
  help: `@va <object>=<text>    (and @vb to @vz)

Sets the attribute VA (@vb sets VB, and so on to VZ), as &VA <object>=<text> does; without text
it is cleared. MUX keeps these for an object's own code ($-commands, u()); nothing else reads
them. See 'help &'.`,
  exec(u) {
    const typed = /^@v[a-z]$/.test(u.cmd.name) ? u.cmd.name : "@va";
    return setFromLine(u, typed.slice(1).toUpperCase(), `${typed} <object>=<text>`);
  },
};

/** The commands. */
export const commands: CommandSpec[] = [
  ...ACTION_ATTRIBUTES.map((a) =>
    attributeCommand(a.name, a.aliases ?? [], a.about, a.see, a.note, a.category)
  ),
  variables,
];
