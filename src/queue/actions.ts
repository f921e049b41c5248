/** Action lists: commands separated by `;`, split as TinyMUX's queue splits them. */
import { scanTo } from "../softcode/scan.ts";

const SEMICOLON = 0x3b;

/**
 * The commands of an action list, in order: split at each `;` outside braces, brackets and
 * parentheses (`%;` and `\;` are not separators), each trimmed, empty ones dropped.
 */
export function splitActions(action: string): string[] {
  const out: string[] = [];
  let pos = 0;
  while (pos <= action.length) {
    const hit = scanTo(action, pos, SEMICOLON, -1);
    const end = hit ? hit.end : action.length;
    const piece = action.slice(pos, end).trim();
    if (piece) out.push(piece);
    if (!hit) break;
    pos = end + 1;
  }
  return out;
}
