/**
 * TypeScript to JavaScript for the sandbox, with sucrase (pure JavaScript, about a millisecond
 * a file): types are removed, `import type` goes, everything else is left as written (the
 * module keeps its `export`s, and its line numbers, so errors point at the file's lines).
 * Each version is transpiled once: results are kept by the hash of the source.
 */
import { transform } from "sucrase";

/** Versions kept (a live edit makes a new one; the oldest is forgotten first). */
const MAX_KEPT = 1000;

/** A transpile error: the message and where, as one line. */
export class TranspileError extends Error {}

/** Transpiles sources, keeping results by source hash. */
export class Transpiler {
  readonly #kept = new Map<string, string>();

  /** The JavaScript of `src` (TypeScript unless `js`); throws TranspileError on a syntax error. */
  javascript(hash: string, src: string, label: string, js: boolean): string {
    const key = `${js ? "js" : "ts"}:${hash}`;
    const kept = this.#kept.get(key);
    if (kept !== undefined) return kept;
    let code: string;
    if (js) code = src;
    else {
      try {
        code = transform(src, {
          transforms: ["typescript"],
          disableESTransforms: true,
          filePath: label,
        }).code;
      } catch (e) {
        const loc = (e as { loc?: { line: number; column: number } }).loc;
        const message = String((e as Error).message ?? e)
          .replace(/^Error transforming [^:]*: /, "")
          .replace(/ \(\d+:\d+\)$/, "");
        throw new TranspileError(
          `SyntaxError: ${message}${loc ? ` (${label}:${loc.line}:${loc.column + 1})` : ""}`,
        );
      }
    }
    if (this.#kept.size >= MAX_KEPT) this.#kept.delete(this.#kept.keys().next().value!);
    this.#kept.set(key, code);
    return code;
  }
}
