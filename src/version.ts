/** The engine's own version, matched against each plugin manifest's `ursamu` range. */
export const ENGINE_VERSION = "1.0.0";

/** What version() and `version` answer: MUX's form, whose first word packages branch on. */
export const VERSION_TEXT = `MUX 2.12.0.10 #1 [UrsaMU ${ENGINE_VERSION}]`;
