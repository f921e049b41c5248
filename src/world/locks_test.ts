import assert from "node:assert/strict";
import {
  checkLock,
  evaluateLock,
  type LockNode,
  type LockSubject,
  LockSyntaxError,
  MAX_LOCK_DEPTH,
  MAX_LOCK_LENGTH,
  parseLock,
} from "./locks.ts";
import { FLAG_LEVELS_TABLE } from "./flag_levels.ts";
import { levelOf } from "./flags.ts";

function subject(flags: string[], id = "#5", connected = true): LockSubject {
  return { id, flags, connected };
}

const player = subject(["player"]);
const builder = subject(["player", "builder"]);
const admin = subject(["player", "admin"]);
const wizard = subject(["player", "wizard"]);
const superuser = subject(["player", "superuser"]);
const storyteller = subject(["player", "storyteller"]);

Deno.test("FLAG_LEVELS_TABLE: matches the spec table", () => {
  assert.deepEqual({ ...FLAG_LEVELS_TABLE }, {
    superuser: 10,
    admin: 9,
    wizard: 9,
    storyteller: 8,
    builder: 7,
    player: 1,
  });
});

Deno.test("levelOf: highest known level, 0 when none", () => {
  assert.equal(levelOf([]), 0);
  assert.equal(levelOf(["dark", "haven"]), 0);
  assert.equal(levelOf(["player"]), 1);
  assert.equal(levelOf(["player", "builder", "admin"]), 9);
  assert.equal(levelOf(["SUPERUSER"]), 10);
});

Deno.test("levelOf: prototype names are not levels", () => {
  assert.equal(levelOf(["constructor", "__proto__", "toString", "hasOwnProperty"]), 0);
});

Deno.test("checkLock: empty or whitespace lock is unlocked", () => {
  assert.equal(checkLock("", player), true);
  assert.equal(checkLock("   \t", player), true);
  assert.equal(checkLock(undefined as unknown as string, player), true);
});

Deno.test("checkLock: flag atoms are whole-name and case-insensitive", () => {
  assert.equal(checkLock("builder", builder), true);
  assert.equal(checkLock("BUILDER", builder), true);
  assert.equal(checkLock("builder", subject(["Builder"])), true);
  assert.equal(checkLock("build", builder), false);
  assert.equal(checkLock("builders", builder), false);
  assert.equal(checkLock("uilder", builder), false);
  assert.equal(checkLock("builder", player), false);
});

Deno.test("checkLock: a flag set never grants by substring of a longer flag", () => {
  assert.equal(checkLock("admin", subject(["administrator"])), false);
  assert.equal(checkLock("admin+", subject(["notadmin"])), false);
});

Deno.test("checkLock: unknown flags are allowed and false unless held", () => {
  assert.equal(checkLock("dark", player), false);
  assert.equal(checkLock("dark", subject(["dark"])), true);
  assert.equal(checkLock("my_flag-2", subject(["MY_FLAG-2"])), true);
});

Deno.test("checkLock: level atoms compare against the highest level", () => {
  assert.equal(checkLock("builder+", player), false);
  assert.equal(checkLock("builder+", builder), true);
  assert.equal(checkLock("builder+", storyteller), true);
  assert.equal(checkLock("builder+", admin), true);
  assert.equal(checkLock("builder+", superuser), true);
  assert.equal(checkLock("admin+", wizard), true);
  assert.equal(checkLock("wizard+", admin), true);
  assert.equal(checkLock("admin+", storyteller), false);
  assert.equal(checkLock("superuser+", admin), false);
  assert.equal(checkLock("superuser+", superuser), true);
  assert.equal(checkLock("player+", player), true);
  assert.equal(checkLock("player+", subject([])), false);
});

Deno.test("checkLock: level of an unknown flag needs the flag itself", () => {
  assert.equal(checkLock("dark+", superuser), false);
  assert.equal(checkLock("dark+", subject(["dark"])), true);
  assert.equal(checkLock("constructor+", superuser), false);
  assert.equal(checkLock("__proto__+", superuser), false);
});

Deno.test("checkLock: dbref atoms match the actor id", () => {
  assert.equal(checkLock("#5", player), true);
  assert.equal(checkLock("#6", player), false);
  assert.equal(checkLock("#05", player), true);
  assert.equal(checkLock("#5", subject([], "#005")), true);
  assert.equal(checkLock("#0", subject([], "#0")), true);
  assert.equal(checkLock("#50", player), false);
  assert.equal(
    checkLock("#123456789012345678901234567890", subject([], "#123456789012345678901234567891")),
    false,
  );
});

Deno.test("checkLock: connected literal", () => {
  assert.equal(checkLock("connected", subject([], "#5", true)), true);
  assert.equal(checkLock("connected", subject([], "#5", false)), false);
  assert.equal(checkLock("CONNECTED", subject([], "#5", true)), true);
  // A flag that happens to be called "connected" does not satisfy the literal.
  assert.equal(checkLock("connected", subject(["connected"], "#5", false)), false);
});

Deno.test("checkLock: #true and #false", () => {
  assert.equal(checkLock("#true", player), true);
  assert.equal(checkLock("#false", superuser), false);
  assert.equal(checkLock("#TRUE", player), true);
});

Deno.test("checkLock: boolean operators", () => {
  assert.equal(checkLock("builder|admin", builder), true);
  assert.equal(checkLock("builder|admin", player), false);
  assert.equal(checkLock("player&connected", player), true);
  assert.equal(checkLock("player&connected", subject(["player"], "#5", false)), false);
  assert.equal(checkLock("!builder", player), true);
  assert.equal(checkLock("!builder", builder), false);
  assert.equal(checkLock("!!builder", builder), true);
  assert.equal(checkLock("!!!builder", builder), false);
});

Deno.test("checkLock: & binds tighter than |", () => {
  // #true | (#false & #false) → true; ((#true | #false) & #false) would be false.
  assert.equal(checkLock("#true | #false & #false", player), true);
  assert.equal(checkLock("(#true | #false) & #false", player), false);
  // ! binds tighter than &.
  assert.equal(checkLock("!#false & #true", player), true);
  assert.equal(checkLock("!(#true & #false)", player), true);
});

Deno.test("checkLock: whitespace is ignored between tokens", () => {
  assert.equal(checkLock("  ( builder+ |#5 )&\n!dark\t", player), true);
  assert.equal(checkLock("( builder+ | #5 ) & ! dark", subject(["dark"])), false);
});

Deno.test("checkLock: bad syntax fails closed", () => {
  assert.equal(checkLock("builder|", superuser), false);
  assert.equal(checkLock("(#true", superuser), false);
  assert.equal(checkLock("#true)", superuser), false);
});

Deno.test("parseLock: builds a flat AST", () => {
  const node = parseLock("a | b | c & !d & (#12 | connected)");
  const expected: LockNode = {
    kind: "or",
    children: [
      { kind: "flag", name: "a" },
      { kind: "flag", name: "b" },
      {
        kind: "and",
        children: [
          { kind: "flag", name: "c" },
          { kind: "not", child: { kind: "flag", name: "d" } },
          {
            kind: "or",
            children: [{ kind: "dbref", id: "#12" }, { kind: "connected" }],
          },
        ],
      },
    ],
  };
  assert.deepEqual(node, expected);
});

Deno.test("parseLock: atoms are normalised", () => {
  assert.deepEqual(parseLock("Builder+"), { kind: "level", name: "builder" });
  assert.deepEqual(parseLock("#007"), { kind: "dbref", id: "#7" });
  assert.deepEqual(parseLock("#000"), { kind: "dbref", id: "#0" });
  assert.deepEqual(parseLock("#False"), { kind: "const", value: false });
  assert.deepEqual(parseLock("((x))"), { kind: "flag", name: "x" });
});

function syntaxError(src: string): LockSyntaxError {
  try {
    parseLock(src);
  } catch (err) {
    assert.ok(
      err instanceof LockSyntaxError,
      `expected LockSyntaxError for ${JSON.stringify(src)}`,
    );
    return err;
  }
  assert.fail(`expected ${JSON.stringify(src)} to throw`);
}

Deno.test("parseLock: rejects bad input with LockSyntaxError", () => {
  const bad = [
    "",
    "   ",
    "|",
    "&builder",
    "builder|",
    "builder&&admin",
    "builder admin",
    "()",
    "(builder",
    "builder)",
    ")(",
    "!",
    "#",
    "#12a",
    "#-1",
    "#tru",
    "builder++",
    "+builder",
    "bui+lder",
    "builder+admin",
    "flag.name",
    "flag=1",
    "ädmin",
    "#true#false",
  ];
  for (const src of bad) syntaxError(src);
});

Deno.test("LockSyntaxError: is an Error with a message naming the position", () => {
  const err = syntaxError("builder & (admin | )");
  assert.ok(err instanceof Error);
  assert.equal(err.name, "LockSyntaxError");
  assert.equal(err.position, 19);
  assert.match(err.message, /position 20/);
  assert.match(err.message, /"\)"/);
});

Deno.test("LockSyntaxError: unclosed paren names the end and the opening", () => {
  const err = syntaxError("(builder");
  assert.equal(err.position, 8);
  assert.match(err.message, /end of lock/);
  assert.match(err.message, /position 1/);
});

Deno.test("LockSyntaxError: invalid atom names it", () => {
  const err = syntaxError("player & flag.name");
  assert.equal(err.position, 9);
  assert.match(err.message, /flag\.name/);
});

Deno.test("parseLock: length limit", () => {
  const ok = "a|".repeat((MAX_LOCK_LENGTH - 1) / 2 | 0) + "a";
  assert.ok(ok.length <= MAX_LOCK_LENGTH);
  parseLock(ok);
  const err = syntaxError("a".repeat(MAX_LOCK_LENGTH + 1));
  assert.match(err.message, /longer than/);
  syntaxError("a|".repeat(50_000) + "a");
});

Deno.test("parseLock: nesting limit", () => {
  const atLimit = "(".repeat(MAX_LOCK_DEPTH) + "#true" + ")".repeat(MAX_LOCK_DEPTH);
  assert.deepEqual(parseLock(atLimit), { kind: "const", value: true });
  const over = "(".repeat(MAX_LOCK_DEPTH + 1) + "#true" + ")".repeat(MAX_LOCK_DEPTH + 1);
  const err = syntaxError(over);
  assert.match(err.message, /nested/);
  assert.equal(err.position, MAX_LOCK_DEPTH);
  syntaxError("(".repeat(MAX_LOCK_LENGTH));
  syntaxError("!(".repeat(MAX_LOCK_LENGTH / 2));
});

Deno.test("parseLock: long runs of ! collapse without recursion", () => {
  assert.deepEqual(parseLock("!".repeat(998) + "x"), { kind: "flag", name: "x" });
  assert.deepEqual(parseLock("!".repeat(997) + "x"), {
    kind: "not",
    child: { kind: "flag", name: "x" },
  });
});

Deno.test("evaluateLock: evaluates a parsed lock", () => {
  const node = parseLock("(builder+ | #5) & connected");
  assert.equal(evaluateLock(node, player), true);
  assert.equal(evaluateLock(node, subject(["player"], "#6")), false);
  assert.equal(evaluateLock(node, subject(["builder"], "#6")), true);
  assert.equal(evaluateLock(node, subject(["builder"], "#6", false)), false);
});

Deno.test("evaluateLock: a pathologically deep hand-built AST fails closed", () => {
  let node: LockNode = { kind: "const", value: true };
  for (let i = 0; i < 100_000; i++) node = { kind: "not", child: { kind: "not", child: node } };
  assert.equal(evaluateLock(node, player), false);
});

Deno.test("evaluateLock: tolerates malformed subjects without throwing", () => {
  const node = parseLock("builder | #5 | connected");
  const bad = { id: 5, flags: null, connected: "yes" } as unknown as LockSubject;
  assert.equal(evaluateLock(node, bad), false);
});
