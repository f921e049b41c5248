/** The Discord plugin's keys, relative to its KV space (`["plugin", "discord", ...]`). */
export const discordKeys = {
  /** A link by the game channel's lower-cased name. */
  link: (channelLower: string) => ["link", channelLower],
  /** Prefix of every link. */
  links: () => ["link"],
};
