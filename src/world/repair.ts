/** Staff repair of an object whose stored value cannot be read back (`@repair`, REST). */
import type { DbObject } from "./types.ts";
import type { ObjectStore } from "./objects.ts";
import type { SecurityLog } from "../auth/security_log.ts";
import { dbref } from "./ids.ts";

/** What a repair did, in words fit for staff in game and in the security log. */
export interface RepairResult {
  /** The rebuilt object, or null when it read fine and nothing was done. */
  object: DbObject | null;
  /** One line for the security log. */
  detail: string;
}

/**
 * Repairs `id` and writes the ADMIN_REPAIR security-log entry when something was rebuilt;
 * throws NotFoundError when there is no such object.
 */
export async function repairObject(
  s: { objects: Pick<ObjectStore, "repair">; securityLog: Pick<SecurityLog, "write"> },
  id: string,
  by: { actor: string; ip: string | null },
): Promise<RepairResult> {
  const object = await s.objects.repair(id);
  if (!object) return { object: null, detail: `${dbref(id)} reads fine` };
  const where = object.location ? ` in ${dbref(object.location)}` : "";
  const owner = object.owner ? `, owned by ${dbref(object.owner)}` : "";
  const detail = `rebuilt ${dbref(id)} as '${object.name}' [${
    object.flags.join(" ")
  }]${where}${owner}`;
  await s.securityLog.write("ADMIN_REPAIR", { actor: by.actor, target: id, ip: by.ip, detail });
  return { object, detail };
}
