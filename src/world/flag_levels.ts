/** Flag → permission level table. */
export const FLAG_LEVELS_TABLE: Readonly<Record<string, number>> = Object.freeze({
  superuser: 10,
  admin: 9,
  wizard: 9,
  storyteller: 8,
  builder: 7,
  player: 1,
});
