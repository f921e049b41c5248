/**
 * The short fuzz pass of CI: the fuzzer of `deno task fuzz` for a few seconds with a fixed
 * seed and with a random one (printed, so a failure replays with `deno task fuzz --seed N`).
 */
import { formatReport, runFuzz } from "./fuzz/run.ts";
import { randomSeed } from "./fuzz/rng.ts";

const SECONDS = 12;
const FIXED_SEED = 20_240_808;

for (const [what, seed] of [["a fixed", FIXED_SEED], ["a random", randomSeed()]] as const) {
  Deno.test({
    name:
      `fuzz: ${SECONDS} s with ${what} seed (${seed}) finds no 5xx, crash, hang, unreadable value or lost login`,
    // The fuzzer closes what it opens; raw resets and aborted requests can leave the runtime's
    // bookkeeping of ops a moment behind, which is not what this test checks.
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const report = await runFuzz({ seconds: SECONDS, seed });
      if (report.failures.length) throw new Error(formatReport(report));
    },
  });
}
