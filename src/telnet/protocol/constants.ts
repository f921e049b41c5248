/** Telnet byte codes (RFC 854) and the option numbers this server speaks. */

/** Interpret As Command: starts every telnet command; doubled to send a literal 0xFF. */
export const IAC = 255;
/** Refuse or stop: "please do not perform this option". */
export const DONT = 254;
/** Request: "please perform this option". */
export const DO = 253;
/** Refuse or stop: "I will not perform this option". */
export const WONT = 252;
/** Offer: "I will perform this option". */
export const WILL = 251;
/** Start of subnegotiation. */
export const SB = 250;
/** Go Ahead. */
export const GA = 249;
/** Erase Line. */
export const EL = 248;
/** Erase Character. */
export const EC = 247;
/** Are You There. */
export const AYT = 246;
/** Abort Output. */
export const AO = 245;
/** Interrupt Process. */
export const IP = 244;
/** Break. */
export const BRK = 243;
/** Data Mark. */
export const DM = 242;
/** No Operation (often used as a keep-alive). */
export const NOP = 241;
/** End of subnegotiation. */
export const SE = 240;
/** End Of Record command (the byte sent after IAC once the EOR option is on). */
export const EOR_COMMAND = 239;

/** Option: binary transmission (RFC 856). */
export const BINARY = 0;
/** Option: echo (RFC 857); server WILL ECHO makes clients hide what is typed. */
export const ECHO = 1;
/** Option: suppress go-ahead (RFC 858). */
export const SGA = 3;
/** Option: status (RFC 859). */
export const STATUS = 5;
/** Option: timing mark (RFC 860). */
export const TIMING_MARK = 6;
/** Option: terminal type (RFC 1091), also carries MTTS. */
export const TTYPE = 24;
/** Option: end of record (RFC 885). */
export const EOR = 25;
/** Option: negotiate about window size (RFC 1073). */
export const NAWS = 31;
/** Option: linemode (RFC 1184). */
export const LINEMODE = 34;
/** Option: new environment (RFC 1572). */
export const NEW_ENVIRON = 39;
/** Option: character set (RFC 2066). */
export const CHARSET = 42;
/** Option: MUD Server Data Protocol. */
export const MSDP = 69;
/** Option: MUD Server Status Protocol. */
export const MSSP = 70;
/** Option: MUD Client Compression Protocol v2 (server-to-client zlib). */
export const MCCP2 = 86;
/** Option: MUD Client Compression Protocol v3 (client-to-server zlib). */
export const MCCP3 = 87;
/** Option: Generic MUD Communication Protocol. */
export const GMCP = 201;

/** TTYPE subnegotiation: "my terminal type is". */
export const TTYPE_IS = 0;
/** TTYPE subnegotiation: "send me your terminal type". */
export const TTYPE_SEND = 1;

/** CHARSET subnegotiation: offer a list of character sets. */
export const CHARSET_REQUEST = 1;
/** CHARSET subnegotiation: one offered character set was accepted. */
export const CHARSET_ACCEPTED = 2;
/** CHARSET subnegotiation: none of the offered character sets is acceptable. */
export const CHARSET_REJECTED = 3;
/** CHARSET subnegotiation: a translation table follows. */
export const CHARSET_TTABLE_IS = 4;
/** CHARSET subnegotiation: translation table refused. */
export const CHARSET_TTABLE_REJECTED = 5;

/** MSSP: a variable name follows. */
export const MSSP_VAR = 1;
/** MSSP: a value of the preceding variable follows. */
export const MSSP_VAL = 2;

/** The four negotiation verbs. */
export type Verb = "WILL" | "WONT" | "DO" | "DONT";

const OPTION_NAMES: Readonly<Record<number, string>> = {
  [BINARY]: "BINARY",
  [ECHO]: "ECHO",
  [SGA]: "SGA",
  [STATUS]: "STATUS",
  [TIMING_MARK]: "TIMING-MARK",
  [TTYPE]: "TTYPE",
  [EOR]: "EOR",
  [NAWS]: "NAWS",
  [LINEMODE]: "LINEMODE",
  [NEW_ENVIRON]: "NEW-ENVIRON",
  [CHARSET]: "CHARSET",
  [MSDP]: "MSDP",
  [MSSP]: "MSSP",
  [MCCP2]: "MCCP2",
  [MCCP3]: "MCCP3",
  [GMCP]: "GMCP",
};

/** A readable name for an option code, for logs ("NAWS", or "OPT-123" when unknown). */
export function optionName(option: number): string {
  return OPTION_NAMES[option] ?? `OPT-${option}`;
}

/** The wire byte of a verb. */
export function verbByte(verb: Verb): number {
  switch (verb) {
    case "WILL":
      return WILL;
    case "WONT":
      return WONT;
    case "DO":
      return DO;
    case "DONT":
      return DONT;
  }
}
