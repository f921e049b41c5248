/**
 * Telnet protocol layer for the telnet sidecar: parsing, line framing, options, MCCP2, GMCP, MSSP.
 * No sockets here. A socket loop needs only {@linkcode TelnetSession}:
 *
 * ```ts ignore
 * const session = new TelnetSession({ write: (b) => socket.write(b), mssp: () => table() });
 * session.start();
 * socket.on("data", (chunk) => {
 *   const { lines, events } = session.receive(chunk);
 *   for (const line of lines) hub.send(line);
 * });
 * hub.onMessage((text) => session.send(text));
 * socket.on("close", () => session.close());
 * ```
 *
 * @module
 */

export * from "./constants.ts";
export { concatBytes, escapeIac, negotiationBytes, subnegotiationBytes } from "./bytes.ts";
export {
  DEFAULT_MAX_SUBNEGOTIATION,
  type ParserEvent,
  TelnetParser,
  type TelnetParserOptions,
} from "./parser.ts";
export {
  DEFAULT_MAX_LINE_BYTES,
  type FramedLine,
  LineFramer,
  type LineFramerOptions,
} from "./lines.ts";
export {
  type NegotiationPolicy,
  type NegotiationResult,
  type OptionChange,
  OptionTable,
  type QState,
  type Side,
} from "./negotiation.ts";
export { decodeNaws, encodeNaws, type WindowSize } from "./naws.ts";
export { decodeTtype, encodeTtypeIs, MAX_TTYPE_NAME, MTTS, parseMtts, ttypeSend } from "./ttype.ts";
export {
  charsetAccepted,
  type CharsetMessage,
  charsetRejected,
  charsetRequest,
  charsetTtableRejected,
  decodeCharset,
  isUtf8,
} from "./charset.ts";
export { decodeGmcp, encodeGmcp, type GmcpMessage, MAX_GMCP_PACKAGE } from "./gmcp.ts";
export { decodeMssp, encodeMssp, type MsspTable } from "./mssp.ts";
export { Mccp2Compressor, type Mccp2CompressorOptions } from "./mccp.ts";
export { OutputPipe, type OutputPipeOptions } from "./output.ts";
export { encodeText } from "./text.ts";
export {
  type ReceiveResult,
  type TelnetEvent,
  TelnetSession,
  type TelnetSessionOptions,
} from "./session.ts";
