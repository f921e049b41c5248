/** The benchmarks' `--help`: each prints its usage and stops, and names what it takes. */
import assert from "node:assert/strict";
import { OPTIONS } from "./sgp_who.ts";
import { SITTING_OPTIONS } from "./sitting.ts";

/** What `deno run -A bench/<file> --help` prints; fails unless it exits 0. */
async function help(file: string): Promise<string> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(file, import.meta.url).pathname, "--help"],
    env: { DENO_NO_PACKAGE_JSON: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return text;
}

Deno.test("bench/sgp_who.ts --help prints its usage, every option named", async () => {
  const text = await help("./sgp_who.ts");
  for (const name of [...OPTIONS, "help"]) assert.match(text, new RegExp(`--${name}\\b`), name);
});

Deno.test("bench/main.ts --help says the paired figure is the mean of the pairs' differences", async () => {
  // As bench/softcode.ts computes it (each run's figure `full.mean`; docs/bench.md).
  const text = (await help("./main.ts")).replace(/\s+/g, " ");
  assert.match(text, /the mean of the pairs' differences/);
  assert.doesNotMatch(text, /median of the pairs' differences/);
});

Deno.test("bench/sitting.ts --help prints its usage, every option named", async () => {
  const text = await help("./sitting.ts");
  for (const name of [...SITTING_OPTIONS, "help"]) {
    assert.match(text, new RegExp(`--${name}\\b`), name);
  }
});

Deno.test("bench/main.ts --help names the interleaved method's options", async () => {
  const text = await help("./main.ts");
  for (const name of ["blocks", "block-pairs", "warmup", "self-check", "side-lines"]) {
    assert.match(text, new RegExp(`--softcode-${name}\\b`), name);
  }
});
