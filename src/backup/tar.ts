/**
 * The few parts of the POSIX tar format (ustar) a backup needs: regular files written as a stream
 * and read back as a stream, so a large database never has to fit in memory. `tar tzf` lists a
 * backup on any machine.
 */

const BLOCK = 512;
const enc = new TextEncoder();
const dec = new TextDecoder();

/** A file to put in an archive: its path inside, size, and a source of its bytes. */
export interface TarSource {
  name: string;
  size: number;
  mtime?: number;
  body: () => AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

function putString(h: Uint8Array, at: number, len: number, s: string): void {
  const b = enc.encode(s);
  if (b.length > len) throw new Error(`tar: '${s}' does not fit in ${len} bytes`);
  h.set(b, at);
}

function putOctal(h: Uint8Array, at: number, len: number, n: number): void {
  putString(h, at, len, n.toString(8).padStart(len - 1, "0") + "\0");
}

/** The header block of one file; names over 100 bytes use the ustar prefix field. */
export function header(name: string, size: number, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  let prefix = "";
  let base = name;
  if (enc.encode(name).length > 100) {
    const cut = name.lastIndexOf("/", 155);
    if (cut <= 0 || enc.encode(name.slice(cut + 1)).length > 100) {
      throw new Error(`tar: the path ${name} is too long for a backup (255 bytes at most)`);
    }
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  putString(h, 0, 100, base);
  putOctal(h, 100, 8, 0o644);
  putOctal(h, 108, 8, 0);
  putOctal(h, 116, 8, 0);
  putOctal(h, 124, 12, size);
  putOctal(h, 136, 12, Math.floor(mtime / 1000));
  h.fill(32, 148, 156); // the checksum counts its own field as spaces
  h[156] = 48; // '0': a regular file
  putString(h, 257, 6, "ustar\0");
  putString(h, 263, 2, "00");
  putString(h, 345, 155, prefix);
  const sum = h.reduce((a, b) => a + b, 0);
  putString(h, 148, 8, sum.toString(8).padStart(6, "0") + "\0 ");
  return h;
}

/** The archive's bytes: each file's header, its body padded to a block, then two empty blocks. */
export async function* tarStream(files: AsyncIterable<TarSource> | Iterable<TarSource>) {
  for await (const f of files) {
    yield header(f.name, f.size, f.mtime ?? Date.now());
    let written = 0;
    for await (const chunk of f.body()) {
      written += chunk.length;
      if (written > f.size) throw new Error(`tar: ${f.name} grew while it was being archived`);
      yield chunk;
    }
    if (written !== f.size) throw new Error(`tar: ${f.name} changed size while it was archived`);
    const pad = (BLOCK - (f.size % BLOCK)) % BLOCK;
    if (pad) yield new Uint8Array(pad);
  }
  yield new Uint8Array(BLOCK * 2);
}

/** Reads exactly n bytes at a time from a byte stream. */
export class ByteReader {
  readonly #it: AsyncIterator<Uint8Array>;
  #buf = new Uint8Array(0);

  constructor(stream: ReadableStream<Uint8Array>) {
    this.#it = stream[Symbol.asyncIterator]();
  }

  /** The next n bytes, or null at the end (a short end is an error). */
  async exact(n: number): Promise<Uint8Array | null> {
    while (this.#buf.length < n) {
      const r = await this.#it.next();
      if (r.done) {
        if (this.#buf.length === 0) return null;
        throw new Error("the archive ends in the middle of a file (truncated?)");
      }
      const joined = new Uint8Array(this.#buf.length + r.value.length);
      joined.set(this.#buf);
      joined.set(r.value, this.#buf.length);
      this.#buf = joined;
    }
    const out = this.#buf.slice(0, n);
    this.#buf = this.#buf.subarray(n);
    return out;
  }
}

/** One file met while reading an archive. */
export interface TarEntry {
  name: string;
  size: number;
  /** The body in chunks; read it (or skip it) before asking for the next entry. */
  chunks(): AsyncGenerator<Uint8Array>;
}

function readString(h: Uint8Array, at: number, len: number): string {
  const end = h.subarray(at, at + len).indexOf(0);
  return dec.decode(h.subarray(at, end < 0 ? at + len : at + end));
}

/** The files of a tar stream in order; anything but regular files is refused. */
export async function* readTar(stream: ReadableStream<Uint8Array>): AsyncGenerator<TarEntry> {
  const r = new ByteReader(stream);
  for (;;) {
    const h = await r.exact(BLOCK);
    if (!h || h.every((b) => b === 0)) return;
    const stored = parseInt(readString(h, 148, 8).trim(), 8);
    const copy = h.slice();
    copy.fill(32, 148, 156);
    if (copy.reduce((a, b) => a + b, 0) !== stored) {
      throw new Error("the archive is damaged (a header checksum does not match)");
    }
    if (h[156] !== 48 && h[156] !== 0) {
      throw new Error("the archive holds something other than files");
    }
    const prefix = readString(h, 345, 155);
    const name = (prefix ? prefix + "/" : "") + readString(h, 0, 100);
    const sizeField = readString(h, 124, 12).trim();
    if (!/^[0-7]+$/.test(sizeField)) {
      throw new Error("the archive is damaged (a header's size is not a number)");
    }
    const size = parseInt(sizeField, 8);
    let consumed = false;
    const pad = (BLOCK - (size % BLOCK)) % BLOCK;
    const chunks = async function* () {
      consumed = true;
      let left = size;
      while (left > 0) {
        const n = Math.min(left, 1 << 16);
        const c = await r.exact(n);
        if (!c) throw new Error("the archive ends in the middle of a file (truncated?)");
        left -= n;
        yield c;
      }
      if (pad) await r.exact(pad);
    };
    yield { name, size, chunks };
    if (!consumed) { for await (const _ of chunks()) { /* skipped */ } }
  }
}
