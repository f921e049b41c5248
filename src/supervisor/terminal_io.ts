/**
 * Setup prompts on the terminal. Each answer is read in raw mode and edited here, so Ctrl-C
 * and Ctrl-D mean the same at every prompt: Ctrl-C cancels the start (it arrives as a byte,
 * not as a signal that would end the process before it could say so), Ctrl-D on an empty line
 * ends input (setup is skipped). Raw mode also turns off the terminal's own echo, which is how
 * the password stays hidden.
 */
import { SetupCancelled, type SetupIO } from "./setup.ts";

/** Longest answer kept, in bytes. */
const MAX_LINE = 1024;

const CTRL_C = 3;
const CTRL_D = 4;
const BACKSPACE = 8;
const LF = 10;
const CR = 13;
const CTRL_U = 21;
const ESC = 27;
const DEL = 127;
/** Moves back over a character and blanks it. */
const RUBOUT = [BACKSPACE, 32, BACKSPACE];

/** Reads edited lines from a raw byte source, echoing what is typed unless it is secret. */
export class LineReader {
  #buf = new Uint8Array(0);
  #skipLf = false;

  constructor(
    private readonly read: (into: Uint8Array) => Promise<number | null>,
    private readonly writeBytes: (bytes: Uint8Array) => Promise<void>,
  ) {}

  /**
   * One line without its ending; null when input ends (Ctrl-D on an empty line, or end of
   * file). Throws {@linkcode SetupCancelled} on Ctrl-C. Bytes typed ahead are kept for the
   * next line.
   */
  async readLine(secret: boolean): Promise<string | null> {
    const line: number[] = [];
    // 0: plain, 1: after ESC, 2: inside an escape sequence (arrow keys and the like).
    let esc = 0;
    for (;;) {
      if (!this.#buf.length && !(await this.#fill())) {
        if (line.length) {
          await this.#write([], "\r\n");
          return decode(line);
        }
        return null;
      }
      const echo: number[] = [];
      while (this.#buf.length) {
        const b = this.#buf[0];
        this.#buf = this.#buf.subarray(1);
        const skip = this.#skipLf && b === LF;
        this.#skipLf = false;
        if (skip) continue;
        if (esc === 1) {
          esc = b === 0x5b || b === 0x4f ? 2 : 0;
          continue;
        }
        if (esc === 2) {
          if (b >= 0x40 && b <= 0x7e) esc = 0;
          continue;
        }
        if (b === CTRL_C) {
          await this.#write(echo, "^C\r\n");
          throw new SetupCancelled();
        }
        if (b === CTRL_D) {
          if (line.length) continue;
          await this.#write(echo, "\r\n");
          return null;
        }
        if (b === CR || b === LF) {
          this.#skipLf = b === CR;
          await this.#write(echo, "\r\n");
          return decode(line);
        }
        if (b === DEL || b === BACKSPACE) {
          if (dropLastChar(line) && !secret) echo.push(...RUBOUT);
          continue;
        }
        if (b === CTRL_U) {
          while (dropLastChar(line)) if (!secret) echo.push(...RUBOUT);
          continue;
        }
        if (b === ESC) {
          esc = 1;
          continue;
        }
        if (b < 32 || line.length >= MAX_LINE) continue;
        line.push(b);
        if (!secret) echo.push(b);
      }
      if (echo.length) await this.#write(echo, "");
    }
  }

  /** Writes echoed bytes (passed through as typed, so UTF-8 stays whole) and then `text`. */
  #write(echo: number[], text: string): Promise<void> {
    const tail = new TextEncoder().encode(text);
    const out = new Uint8Array(echo.length + tail.length);
    out.set(echo);
    out.set(tail, echo.length);
    return this.writeBytes(out);
  }

  async #fill(): Promise<boolean> {
    const chunk = new Uint8Array(256);
    const n = await this.read(chunk);
    if (n === null || n === 0) return false;
    this.#buf = chunk.subarray(0, n);
    return true;
  }
}

/** Removes the last character (all bytes of a UTF-8 sequence); false when the line is empty. */
function dropLastChar(line: number[]): boolean {
  if (!line.length) return false;
  while (line.length && (line[line.length - 1] & 0xc0) === 0x80) line.pop();
  line.pop();
  return true;
}

function decode(bytes: number[]): string {
  return new TextDecoder().decode(new Uint8Array(bytes));
}

/** Setup IO over the process's standard streams. */
export function terminalIO(): SetupIO {
  const interactive = Deno.stdin.isTerminal();
  const write = async (bytes: Uint8Array) => {
    for (let done = 0; done < bytes.length;) done += await Deno.stdout.write(bytes.subarray(done));
  };
  const reader = new LineReader((into) => Deno.stdin.read(into), write);
  return {
    interactive,
    print: (m) => console.log(m),
    async ask(question, secret) {
      // Raw before the question shows, so a key pressed as soon as it appears is read as a byte.
      Deno.stdin.setRaw(true);
      try {
        await write(new TextEncoder().encode(question));
        return await reader.readLine(Boolean(secret));
      } finally {
        Deno.stdin.setRaw(false);
      }
    },
  };
}
