/** Line framing of decoded telnet data: UTF-8, line ends, backspace, a length cap. */

/** One complete input line. */
export interface FramedLine {
  /** The line without its terminator, control characters removed. */
  text: string;
  /** True when the line was longer than the cap and its tail was dropped. */
  truncated: boolean;
}

/** Limits for {@linkcode LineFramer}. */
export interface LineFramerOptions {
  /** Longest line kept, in UTF-8 bytes (default 8192); the rest of a longer line is dropped. */
  maxLineBytes?: number;
}

/** Default cap on one input line. */
export const DEFAULT_MAX_LINE_BYTES = 8192;

/** Code points turned into text per call (under any engine's limit on arguments). */
const TEXT_CHUNK = 4096;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
const BS = 0x08;
const DEL = 0x7f;

function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i] >= 0x80) return false;
  return true;
}

function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/**
 * Turns data bytes (after telnet unescaping) into lines, however the bytes are split.
 *
 * A line ends at CR, LF, CRLF or CR NUL; the pair counts once even when split between chunks.
 * BS and DEL erase the previous code point. Other C0 and C1 controls except TAB are dropped, so a
 * player cannot smuggle terminal escape sequences into text that others will see. Invalid UTF-8
 * becomes U+FFFD. Memory held between calls is bounded by the cap.
 */
export class LineFramer {
  readonly #max: number;
  readonly #decoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });
  // Code points rather than a string so that backspace is O(1) and never splits a character.
  #line: number[] = [];
  #bytes = 0;
  #truncated = false;
  #afterCr = false;
  /** The last read ended inside a multi-byte character, which the decoder holds. */
  #decoding = false;

  /** Creates a framer; see {@linkcode LineFramerOptions}. */
  constructor(options: LineFramerOptions = {}) {
    this.#max = Math.max(0, Math.floor(options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES));
  }

  /** UTF-8 bytes of the unfinished line currently held (never more than the cap). */
  get pendingBytes(): number {
    return this.#bytes;
  }

  /** The unfinished line held so far (to carry it to another process; see `resume`). */
  pending(): string {
    return this.#truncated ? "" : this.#text();
  }

  /** Starts the unfinished line with `text` (what another process's `pending` gave). */
  resume(text: string): void {
    for (const ch of text) this.#take(ch.codePointAt(0) ?? 0, []);
  }

  /** Adds data bytes and returns the lines they completed. */
  push(bytes: Uint8Array): FramedLine[] {
    const whole = this.whole(bytes);
    if (whole !== null) return [{ text: whole, truncated: false }];
    const lines: FramedLine[] = [];
    // ASCII (what nearly every typed line is) needs no decoder, unless the decoder holds the
    // first bytes of a character cut by the previous read.
    if (!this.#decoding && isAscii(bytes)) {
      for (let i = 0; i < bytes.length; i++) this.#take(bytes[i], lines);
      return lines;
    }
    this.#decoding = bytes.length > 0 && bytes[bytes.length - 1] >= 0x80;
    const text = this.#decoder.decode(bytes, { stream: true });
    for (let i = 0; i < text.length; i++) {
      const cp = text.codePointAt(i) ?? 0;
      if (cp > 0xffff) i++;
      this.#take(cp, lines);
    }
    return lines;
  }

  /**
   * The one line a read holds whole, when it is printable ASCII ending at its line end (CRLF, CR
   * NUL or LF) with nothing held before it: what a typed command nearly always is, made into text
   * at once instead of a code point at a time (its text: such a line is never truncated). Null
   * for anything else, which `push` frames as ever.
   */
  whole(bytes: Uint8Array): string | null {
    if (this.#line.length !== 0 || this.#truncated || this.#decoding || this.#afterCr) return null;
    const n = bytes.length;
    let end: number;
    if (n >= 2 && bytes[n - 2] === CR && (bytes[n - 1] === LF || bytes[n - 1] === NUL)) end = n - 2;
    else if (n >= 1 && bytes[n - 1] === LF) end = n - 1;
    else return null;
    if (end > this.#max) return null;
    for (let i = 0; i < end; i++) {
      const b = bytes[i];
      if (b < 0x20 || b >= 0x7f) return null;
    }
    return end === 0 ? "" : Reflect.apply(String.fromCharCode, null, bytes.subarray(0, end));
  }

  /** Ends the input: returns the unfinished line, if any, and resets the framer. */
  flush(): FramedLine | null {
    this.#decoding = false;
    const tail = this.#decoder.decode();
    const lines: FramedLine[] = [];
    for (const ch of tail) this.#take(ch.codePointAt(0) ?? 0, lines);
    this.#afterCr = false;
    if (lines.length > 0) return lines[0];
    if (this.#line.length === 0 && !this.#truncated) return null;
    return this.#finish();
  }

  #take(cp: number, lines: FramedLine[]): void {
    const afterCr = this.#afterCr;
    this.#afterCr = false;
    if (cp === CR) {
      lines.push(this.#finish());
      this.#afterCr = true;
    } else if (cp === LF) {
      if (!afterCr) lines.push(this.#finish());
    } else if (cp === NUL) {
      // CR NUL is a bare carriage return; a NUL anywhere else carries no meaning.
    } else if (cp === BS || cp === DEL) {
      // Once truncated, the erased character may be one we already dropped: keep what we have.
      if (!this.#truncated && this.#line.length > 0) {
        this.#bytes -= utf8Length(this.#line.pop() ?? 0);
      }
    } else if ((cp < 0x20 && cp !== TAB) || (cp >= 0x80 && cp < 0xa0)) {
      // Dropped: see the class comment.
    } else if (this.#truncated) {
      // Discarding the tail of an overlong line until its end.
    } else {
      const size = utf8Length(cp);
      if (this.#bytes + size > this.#max) {
        this.#truncated = true;
      } else {
        this.#line.push(cp);
        this.#bytes += size;
      }
    }
  }

  #text(): string {
    const line = this.#line;
    // One byte a code point: all ASCII, which `fromCharCode` builds without calling into the
    // runtime (`fromCodePoint` does not).
    const from = this.#bytes === line.length ? String.fromCharCode : String.fromCodePoint;
    if (line.length <= TEXT_CHUNK) return from.apply(null, line);
    let text = "";
    // Chunked so a long line never hits the engine's argument-count limit.
    for (let i = 0; i < line.length; i += TEXT_CHUNK) {
      text += from.apply(null, line.slice(i, i + TEXT_CHUNK));
    }
    return text;
  }

  #finish(): FramedLine {
    const line = { text: this.#text(), truncated: this.#truncated };
    this.#line = [];
    this.#bytes = 0;
    this.#truncated = false;
    return line;
  }
}
