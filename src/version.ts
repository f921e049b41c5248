/** The engine's own version, matched against each plugin manifest's `ursamu` range. */
export const ENGINE_VERSION = "1.0.0";
