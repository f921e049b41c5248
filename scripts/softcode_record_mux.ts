/**
 * Records what TinyMUX 2.12 answers to softcode expressions, as test data for the evaluator's
 * differential test (src/softcode/differential_test.ts). Only the outputs are kept.
 *
 *   ../shared/bench/tinymux.sh start 4711       # a local TinyMUX 2.12 (see its README)
 *   deno run -A scripts/softcode_record_mux.ts --port 4711 \
 *     --cases src/softcode/testdata/mux_cases.txt --out src/softcode/testdata/mux212.json
 *
 * The cases file holds one expression per line (as `think` would take it); lines starting
 * with `!` are setup commands run first (`!&TEST me=...`), `#` lines are comments. It logs in
 * as the game's first wizard (`Wizard`/`potrzebie` unless --user/--password), sets ANSI and
 * COLOR256 on it so colour shows as escapes and UNICODE so text is UTF-8 both ways, and sends
 * each case between markers.
 */
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "4711" },
    cases: { type: "string" },
    out: { type: "string" },
    user: { type: "string", default: "Wizard" },
    password: { type: "string", default: "potrzebie" },
  },
});
if (!values.cases || !values.out) {
  console.error("usage: softcode_record_mux.ts --cases FILE --out FILE [--port N]");
  Deno.exit(2);
}

const lines = (await Deno.readTextFile(values.cases)).split("\n");
const setup = lines.filter((l) => l.startsWith("!")).map((l) => l.slice(1));
const cases = lines.filter((l) => l.trim() && !l.startsWith("!") && !l.startsWith("#"));

const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(values.port) });
const enc = new TextEncoder();
const dec = new TextDecoder();
let buffer = "";
const reader = conn.readable.getReader();

async function until(marker: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!buffer.includes(marker)) {
    if (Date.now() > deadline) throw new Error(`no ${marker} from the server`);
    const { value, done } = await reader.read();
    if (done) throw new Error("connection closed");
    // Telnet negotiation bytes are dropped; the rest is UTF-8 text.
    const bytes = value.filter((b, i, a) => b !== 255 && (i === 0 || a[i - 1] !== 255));
    buffer += dec.decode(bytes, { stream: true });
  }
  const at = buffer.indexOf(marker);
  const before = buffer.slice(0, at);
  buffer = buffer.slice(at + marker.length);
  return before;
}

async function send(line: string): Promise<void> {
  await conn.write(enc.encode(line + "\r\n"));
}

await send(`connect ${values.user} ${values.password}`);
await send("think LOGGED-IN-MARK");
await until("LOGGED-IN-MARK");
// UNICODE makes the session UTF-8 both ways (the recorder negotiates no charset).
for (const cmd of ["@set me=ANSI", "@set me=COLOR256", "@set me=UNICODE", ...setup]) {
  await send(cmd);
}
await send("think SETUP-DONE-MARK");
await until("SETUP-DONE-MARK");
await until("\n");

const results: [string, string][] = [];
for (const [i, expr] of cases.entries()) {
  const begin = `BEGIN-${i}-MARK`, end = `END-${i}-MARK`;
  await send(`think ${begin}`);
  await until(begin);
  await until("\n");
  await send(`think ${expr}`);
  await send(`think ${end}`);
  let out = await until(end);
  // The output line(s) end with CR LF before the marker's own line.
  out = out.replace(/\r\n$/, "");
  results.push([expr, out]);
}
await send("QUIT");
conn.close();
await Deno.writeTextFile(
  values.out,
  JSON.stringify({ server: "TinyMUX 2.12.0.10", setup, cases: results }, null, 1) + "\n",
);
console.log(`recorded ${results.length} cases to ${values.out}`);
