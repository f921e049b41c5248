/**
 * A count and its noun: `1 player`, `2 players`, `0 players`. English plural unless the count is
 * exactly one; `nouns` for a plural that is not the noun with an `s`.
 */
export function counted(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}
