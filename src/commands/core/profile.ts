/**
 * `+profile`: a character's profile in game (AresMUSH's `profile`; named so as not to shadow a
 * game's own softcoded `+finger`, which reads the same attributes), the fields `web.profileFields` names read from their
 * attributes (`FULL_NAME`, `PLAYED_BY`), the same values the character's web page shows and
 * softcode's `get()` reads (docs/web.md, "Character pages and profile fields").
 */
import type { CommandSpec } from "../types.ts";
import { findPlayer } from "../target.ts";
import { profileFieldAttr } from "../../config/defaults.ts";
import { hiddenFrom } from "../../world/visibility.ts";
import { isStaff } from "../../world/flags.ts";

/** The profile family. */
export const commands: CommandSpec[] = [
  {
    name: "+profile",
    guests: true,
    category: "General",
    help: `+profile [<player>]

Shows a character's profile: the fields this game defines (web.profileFields: full name, age,
position, ...), as the character's page on the game's website shows them. Each field is an
attribute of the character, so you fill yours in with &<FIELD> me=<value> (your own +profile
names the attributes) and a softcoded +finger reads them with get(). Without a name, your own.

Example:
  &FULL_NAME me=Annabel Quill
  +profile Ann`,
    async exec(u) {
      const who = u.cmd.args.trim() ? await findPlayer(u, u.me, u.cmd.args) : u.me;
      const cfg = u.engine.config.value;
      // Whether a dark player is connected is not everyone's to know.
      const online = u.presence.isOnline(who.id) && !hiddenFrom(u.me, who);
      const lines = [`%ch${u.players.displayName(who)}%cn${online ? "  (online)" : ""}`];
      const labels = cfg.web.profileFields;
      const width = Math.max(0, ...labels.map((l) => l.length));
      for (const label of labels) {
        const attr = profileFieldAttr(label);
        const a = await u.attributes.get(who.id, attr);
        // A field hidden by staff stays hidden, as on the web page.
        const value = a && (!a.flags.includes("hidden") || isStaff(u.me.flags)) ? a.value : "";
        const own = who.id === u.me.id;
        if (!value && !own) continue;
        lines.push(`  ${`${label}:`.padEnd(width + 2)}${value || `(empty: &${attr} me=...)`}`);
      }
      if (!labels.length) lines.push("  This game defines no profile fields.");
      else if (lines.length === 1) lines.push("  No profile fields filled in yet.");
      const base = cfg.web.publicUrl.trim().replace(/\/+$/, "");
      if (base) lines.push(`Web page: ${base}/profile/${who.id}`);
      u.send(lines.join("\n"));
    },
  },
];
