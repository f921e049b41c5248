/** Telling one object something the way MUX's notify does. */
import type { Outbound } from "../hub/types.ts";
import type { CommandPorts } from "./types.ts";
import { hearerOf } from "../world/hearing.ts";

/**
 * Tells `id` something as MUX's notify does (`hearerOf`): a player on every connection, a
 * puppet's owner with its name in front, nobody for other objects.
 */
export function tell(ports: Pick<CommandPorts, "objects" | "deliver">, id: string, out: Outbound) {
  const o = ports.objects.world?.object(id);
  if (!o) return ports.deliver.toPlayer(id, out);
  const h = hearerOf(o);
  if (h) ports.deliver.toPlayer(h.player, h.prefix ? { ...out, msg: h.prefix + out.msg } : out);
}
