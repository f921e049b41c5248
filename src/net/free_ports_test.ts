import assert from "node:assert/strict";
import { freeListenPorts } from "./free_ports.ts";

const RANGE = "/proc/sys/net/ipv4/ip_local_port_range";

Deno.test("free ports are distinct, free, and below the range of outgoing connections' ports", () => {
  const ports = freeListenPorts(5);
  assert.equal(new Set(ports).size, 5);
  // Each can be opened now (all at once: none was handed out twice).
  const held = ports.map((port) => Deno.listen({ hostname: "127.0.0.1", port }));
  for (const l of held) l.close();
  let low: number | null = null;
  try {
    low = Number(Deno.readTextFileSync(RANGE).trim().split(/\s+/)[0]);
  } catch { /* not Linux: the kernel picked them */ }
  if (low !== null && low > 11_000) {
    for (const p of ports) assert.ok(p >= 10_000 && p < low, `${p} below ${low}`);
  }
});

Deno.test("a port that is taken is not handed out; the picks are bounded", () => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: freeListenPorts(1)[0] });
  try {
    const port = (taken.addr as Deno.NetAddr).port;
    // Every random pick lands on the taken port: after its bounded picks the kernel chooses.
    let low: number | null = null;
    try {
      low = Number(Deno.readTextFileSync(RANGE).trim().split(/\s+/)[0]);
    } catch { /* not Linux */ }
    const random = low === null ? Math.random : () => (port - 10_000 + 0.5) / (low! - 10_000);
    const [got] = freeListenPorts(1, "127.0.0.1", random);
    assert.notEqual(got, port);
  } finally {
    taken.close();
  }
});
