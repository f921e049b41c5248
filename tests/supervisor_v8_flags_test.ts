/** The V8 flags each child of the supervisor gets: its own, then the operator's (src/supervisor/v8_flags.ts). */
import { assertEquals } from "./assert.ts";
import { startServer } from "./harness.ts";
import { OUR_V8_FLAGS } from "../src/supervisor/v8_flags.ts";

Deno.test("supervisor: each child gets its own V8 flags, then DENO_V8_FLAGS, then its own variable", async () => {
  const dir = await Deno.makeTempDir({ prefix: "ursamu-sup-" });
  const child = "tests/fixtures/v8_flags_child.ts";
  const srv = await startServer({
    dir,
    entry: "src/supervisor/main.ts",
    args: ["--engine", child, "--sidecar", child],
    env: {
      DENO_V8_FLAGS: "--stack-size=900",
      URSAMU_ENGINE_V8_FLAGS: "--max-old-space-size=111",
      URSAMU_TELNET_V8_FLAGS: "--max-old-space-size=222",
    },
  });
  try {
    const status = await srv.status;
    assertEquals(status.code, 0);
    const seen = [...srv.output().matchAll(/child v8 flags: (\S*)/g)].map((m) => m[1]).sort();
    assertEquals(
      seen,
      [
        [...OUR_V8_FLAGS.engine, "--stack-size=900", "--max-old-space-size=111"].join(","),
        [...OUR_V8_FLAGS.telnet, "--stack-size=900", "--max-old-space-size=222"].join(","),
      ].sort(),
    );
  } finally {
    await srv.stop();
  }
});
