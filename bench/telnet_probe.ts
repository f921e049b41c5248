/**
 * The round-trip probes of bench/telnet.ts, in a process of their own (see bench/telnet_rtt.ts).
 * One argument, JSON: `{ port, names, arrived, n, tag }`; the players log in with the bench's
 * password. Prints `ready` once they are in, then the round trips' summary: after `n` samples,
 * or (`n` 0) once stdin ends.
 */
import { loginMany } from "./telnet_client.ts";
import { TELNET_PASSWORD } from "./telnet_seed.ts";
import { roundTrips } from "./telnet_rtt.ts";

const { port, names, arrived, n, tag } = JSON.parse(Deno.args[0] ?? "{}");
const clients = await loginMany(port, names, TELNET_PASSWORD, arrived);
let ended = false;
const stdinEnded = (async () => {
  for await (const _ of Deno.stdin.readable) { /* only its end matters */ }
  ended = true;
})();
console.log("ready");
try {
  const summary = n > 0 ? await roundTrips(clients, tag, n) : await roundTrips(
    clients,
    tag,
    0,
    0,
    () => ended,
  );
  console.log(JSON.stringify(summary));
} finally {
  await Promise.all(clients.map((c) => c.close()));
}
await stdinEnded;
