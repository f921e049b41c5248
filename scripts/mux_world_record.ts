/**
 * Runs a command script (tests/mux_world.ts) against a local TinyMUX 2.12 and records its
 * answers, for tests/mux_world_test.ts; with --engine, runs it against an engine too and prints
 * the lines whose answers differ.
 *
 *   ../shared/bench/tinymux.sh reset; ../shared/bench/tinymux.sh start 4711
 *   deno run -A scripts/mux_world_record.ts --port 4711 \
 *     --script tests/testdata/mux_world_objects.txt --out tests/testdata/mux_world_objects.json
 *
 * Each run creates Bob and Alice, so record in a fresh game (`tinymux.sh reset`).
 */
import { parseArgs } from "node:util";
import { parseScript, runScript } from "../tests/mux_world.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4711" },
    script: { type: "string" },
    out: { type: "string" },
    user: { type: "string", default: "Wizard" },
    password: { type: "string", default: "potrzebie" },
    engine: { type: "string" },
    "engine-user": { type: "string", default: "Admin" },
    "engine-password": { type: "string", default: "admin-password-1" },
  },
});
if (!values.script) {
  console.error("usage: mux_world_record.ts --script FILE [--out FILE] [--port N] [--engine N]");
  Deno.exit(2);
}
const steps = parseScript(await Deno.readTextFile(values.script));
const mux = await runScript(Number(values.port), {
  name: values.user,
  password: values.password,
}, steps);
if (values.out) {
  await Deno.writeTextFile(
    values.out,
    JSON.stringify({ server: "TinyMUX 2.12.0.10", answers: mux }, null, 2) + "\n",
  );
  console.log(`recorded ${mux.length} answers to ${values.out}`);
}
if (values.engine) {
  const ours = await runScript(Number(values.engine), {
    name: values["engine-user"],
    password: values["engine-password"],
  }, steps);
  let differ = 0;
  for (const [i, [line, want]] of mux.entries()) {
    const got = ours[i][1];
    if (got === want) continue;
    differ++;
    console.log(`${line}\n  mux:  ${JSON.stringify(want)}\n  ours: ${JSON.stringify(got)}`);
  }
  console.log(`${differ} of ${mux.length} differ`);
}
