/** Lower-casing for names, commands and flags on every command's path. */

/**
 * `s.toLowerCase()`, returning `s` itself when it has no upper-case ASCII and nothing beyond
 * ASCII (most names, flags and command words): a scan in JavaScript instead of a call into the
 * runtime's case mapping, which costs several times more on a command that finds it out of cache.
 */
export function lowerCase(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 65 && c <= 90) || c >= 0x80) return s.toLowerCase();
  }
  return s;
}
