/** UTF-8 sizes of strings, without encoding them. */

/** UTF-8 length of a string, counting only until it passes `limit`. */
export function utf8Length(s: string, limit = Infinity): number {
  let n = 0;
  for (let i = 0; i < s.length && n <= limit; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && isLowSurrogate(s.charCodeAt(i + 1))) {
      n += 4;
      i++;
    } else n += 3; // a lone surrogate is encoded as U+FFFD, three bytes
  }
  return n;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}
