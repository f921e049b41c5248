/** Text forms of scenes and poses: the line the room hears, and the Markdown export (rule 6). */
import { stripColour } from "../../src/plugins/mod.ts";
import type { Pose, SceneRecord } from "./types.ts";

/** What the room hears of a pose (rule 2); `name` may carry colour codes. */
export function poseLine(pose: Pose): string {
  if (pose.type === "ooc") return `[OOC] ${pose.moniker}: ${pose.msg}%cn`;
  if (pose.type === "set") return `[Scene Set] ${pose.msg}%cn`;
  return `${pose.moniker} ${pose.msg}%cn`;
}

/** `2026-01-01 12:30 UTC`: the same for every reader, whatever the server's zone. */
export function stamp(ms: number): string {
  // A record written before endTime was bounded may hold a time no Date can print.
  if (!Number.isFinite(new Date(ms).getTime())) return "-";
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ") + " UTC";
}

/** What the export needs beside the scene and its poses. */
export interface ExportNames {
  /** The room's name, when the room still exists. */
  room: string | null;
  /** Names of the participants, in order. */
  participants: string[];
  /** When the export was made. */
  exportedAt: number;
}

/**
 * The Markdown log of rule 6: title, type and status, location, times, participants, a rule,
 * one entry per pose (OOC entries italic), a rule, and the export date. Colour codes are
 * stripped; blocks are separated by blank lines so every line renders as its own paragraph.
 */
export function sceneMarkdown(s: SceneRecord, poses: readonly Pose[], names: ExportNames): string {
  const plain = (t: string) => stripColour(t);
  const where = names.room === null ? `#${s.location}` : `${plain(names.room)} (#${s.location})`;
  const lines = [
    `# ${plain(s.name)}`,
    `**Type:** ${s.sceneType} | **Status:** ${s.status}`,
    `**Location:** ${where}`,
    `**Started:** ${stamp(s.startTime)}`,
    `**Ended:** ${s.endTime === undefined ? "-" : stamp(s.endTime)}`,
    `**Participants:** ${names.participants.map(plain).join(", ")}`,
    "---",
    ...poses.map((p) =>
      p.type === "ooc"
        ? `_[OOC] ${plain(p.charName)}: ${plain(p.msg)}_`
        : `**${plain(p.charName)}** ${plain(p.msg)}`
    ),
    "---",
    `_Exported ${stamp(names.exportedAt)}_`,
  ];
  return lines.join("\n\n") + "\n";
}
