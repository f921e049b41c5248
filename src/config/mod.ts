/** Configuration: defaults, layered loading and validation. */
export * from "./defaults.ts";
export * from "./load.ts";
