// A child process for v8_helpers_test.ts: lowering threads is per process, so not the runner's.
// Argument: JSON { mainNice?, helperNice?, offset? }, applied in that order before the calls.
import { openLibcSymbols } from "./libc.ts";
import { currentTid, readTaskSched } from "./task_stat.ts";
import { lowerV8Helpers } from "./v8_helpers.ts";

const opts = JSON.parse(Deno.args[0] ?? "{}");
const helpers = () =>
  [...Deno.readDirSync("/proc/self/task")].map((e) => Number(e.name)).filter((tid) =>
    Deno.readTextFileSync(`/proc/self/task/${tid}/comm`).trim() === "V8 DefaultWorke"
  );
const lib = openLibcSymbols({ setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" } });
if (typeof lib === "string") throw new Error(lib);
if (opts.mainNice !== undefined) lib.symbols.setpriority(0, 0, opts.mainNice);
if (opts.helperNice !== undefined) {
  for (const tid of helpers()) lib.symbols.setpriority(0, tid, opts.helperNice);
}
lib.close();
const first = lowerV8Helpers(opts.offset);
const second = lowerV8Helpers(opts.offset);
console.log(JSON.stringify({
  first,
  second,
  main: readTaskSched(currentTid()!)!.nice,
  helpers: helpers().map((tid) => readTaskSched(tid)!.nice),
}));
