// A child process for v8_helpers_test.ts: lowering threads is per process, so not the runner's.
// Argument: JSON { mainNice?, helperNice?, offset? }, applied in that order before the calls.
import { openLibcSymbols } from "./libc.ts";
import { currentTid, readTaskSched } from "./task_stat.ts";
import { lowerV8Helpers, v8HelperThreads as helpers } from "./v8_helpers.ts";

const opts = JSON.parse(Deno.args[0] ?? "{}");
const lib = openLibcSymbols({ setpriority: { parameters: ["i32", "u32", "i32"], result: "i32" } });
if (typeof lib === "string") throw new Error(lib);
// A setting the kernel refuses (say, a nice value below the runner's, unprivileged) fails the test.
const set = (tid: number, nice: number) => {
  if (lib.symbols.setpriority(0, tid, nice) !== 0) throw new Error(`setpriority(${tid}, ${nice})`);
};
if (opts.mainNice !== undefined) set(0, opts.mainNice);
if (opts.helperNice !== undefined) { for (const tid of helpers()) set(tid, opts.helperNice); }
lib.close();
const first = lowerV8Helpers(opts.offset);
const second = lowerV8Helpers(opts.offset);
console.log(JSON.stringify({
  first,
  second,
  main: readTaskSched(currentTid()!)!.nice,
  helpers: helpers().map((tid) => readTaskSched(tid)!.nice),
}));
