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
 * The Markdown log of rule 6 in pieces, for a stream: title, type and status, location, times,
 * participants, a rule, one entry per pose (OOC entries italic), a rule, and the export date,
 * each block followed by a blank line so every line renders as its own paragraph. Colour codes
 * are stripped. The poses are read as the stream is consumed: a long scene is never held whole.
 */
export async function* markdownPieces(
  s: SceneRecord,
  poses: AsyncIterable<Pose>,
  names: ExportNames,
): AsyncGenerator<string> {
  for (const line of markdownHead(s, names)) yield line + "\n\n";
  for await (const p of poses) yield markdownEntry(p) + "\n\n";
  yield markdownFoot(names).join("\n\n") + "\n";
}

/** The blocks before the poses. */
function markdownHead(s: SceneRecord, names: ExportNames): string[] {
  const plain = (t: string) => stripColour(t);
  const where = names.room === null ? `#${s.location}` : `${plain(names.room)} (#${s.location})`;
  return [
    `# ${plain(s.name)}`,
    `**Type:** ${s.sceneType} | **Status:** ${s.status}`,
    `**Location:** ${where}`,
    `**Started:** ${stamp(s.startTime)}`,
    `**Ended:** ${s.endTime === undefined ? "-" : stamp(s.endTime)}`,
    `**Participants:** ${names.participants.map(plain).join(", ")}`,
    "---",
  ];
}

/** One pose's entry. */
function markdownEntry(p: Pose): string {
  return p.type === "ooc"
    ? `_[OOC] ${stripColour(p.charName)}: ${stripColour(p.msg)}_`
    : `**${stripColour(p.charName)}** ${stripColour(p.msg)}`;
}

/** The blocks after the poses. */
function markdownFoot(names: ExportNames): string[] {
  return ["---", `_Exported ${stamp(names.exportedAt)}_`];
}

/**
 * The JSON export in pieces: the scene's view with `poses` filled as the stream is consumed
 * (the same object `JSON.stringify(sceneView(s, poses))` would give).
 */
export async function* jsonPieces(
  view: object,
  poses: AsyncIterable<Pose>,
): AsyncGenerator<string> {
  const whole = JSON.stringify({ ...view, poses: [] });
  const at = whole.lastIndexOf(`"poses":[]`) + `"poses":[`.length;
  yield whole.slice(0, at);
  let first = true;
  for await (const p of poses) {
    yield (first ? "" : ",") + JSON.stringify(p);
    first = false;
  }
  yield whole.slice(at);
}

/** Pieces of text as a byte stream, read only as fast as the client takes it. */
export function textStream(pieces: AsyncIterable<string>): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let it: AsyncIterator<string> | null = null;
  return new ReadableStream<Uint8Array>({
    async pull(ctrl) {
      // Made at the first read: a HEAD answer, which reads nothing, reads no pose.
      it ??= pieces[Symbol.asyncIterator]();
      let chunk = "";
      while (chunk.length < CHUNK) {
        const r = await it.next();
        if (r.done) {
          if (chunk) ctrl.enqueue(enc.encode(chunk));
          ctrl.close();
          return;
        }
        chunk += r.value;
      }
      ctrl.enqueue(enc.encode(chunk));
    },
    async cancel() {
      await it?.return?.();
    },
  });
}

/** Characters gathered into one chunk of a stream. */
const CHUNK = 64 * 1024;
