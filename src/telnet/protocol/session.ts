/** One telnet connection's protocol state: bytes in, lines and events out, replies to the sink. */

import { concatBytes, subnegotiationBytes } from "./bytes.ts";
import {
  charsetAccepted,
  charsetRejected,
  charsetRequest,
  charsetTtableRejected,
  decodeCharset,
  isUtf8,
} from "./charset.ts";
import {
  AYT,
  BINARY,
  CHARSET,
  ECHO,
  GMCP,
  MCCP2,
  MSSP,
  NAWS,
  optionName,
  SGA,
  TTYPE,
} from "./constants.ts";
import { decodeGmcp, encodeGmcp } from "./gmcp.ts";
import { LineFramer } from "./lines.ts";
import { encodeMssp, type MsspTable } from "./mssp.ts";
import { decodeNaws } from "./naws.ts";
import {
  type NegotiationPolicy,
  type OptionChange,
  OptionTable,
  type Side,
  TABLE_BYTES,
} from "./negotiation.ts";
import { OutputPipe } from "./output.ts";
import { TelnetParser } from "./parser.ts";
import { encodeText } from "./text.ts";
import { decodeTtype, parseMtts, ttypeSend } from "./ttype.ts";

/** Settings for {@linkcode TelnetSession}. */
export interface TelnetSessionOptions {
  /** Receives every outgoing byte, in order; usually the socket's write. May be called later
   * than the call that caused it once MCCP2 is on (zlib is asynchronous). */
  write: (bytes: Uint8Array) => void;
  /** Supplies the MSSP table when a crawler asks; without it MSSP is neither offered nor accepted. */
  mssp?: () => MsspTable;
  /** Offer MCCP2 compression (default true). */
  compression?: boolean;
  /** zlib level for MCCP2 (default 6). */
  compressionLevel?: number;
  /** Longest input line kept, in UTF-8 bytes (default 8192). */
  maxLineBytes?: number;
  /** Longest subnegotiation kept, in bytes (default 8192). */
  maxSubnegotiation?: number;
  /** Called when `write` throws, zlib fails or the MSSP supplier throws. */
  onError?: (error: unknown) => void;
}

/** Something that arrived from the client, in stream order. */
export type TelnetEvent =
  /** A complete input line (also listed in {@linkcode ReceiveResult.lines}). */
  | { type: "line"; text: string; truncated: boolean }
  /** The client reported its window size (0 = unknown). */
  | { type: "naws"; width: number; height: number }
  /** A terminal type; index 0 is the client name, then the terminal, then `MTTS <n>`. */
  | { type: "ttype"; name: string; index: number }
  /** The client's MTTS capability bits (see `MTTS` in ttype.ts). */
  | { type: "mtts"; flags: number }
  /** Character set agreed (`UTF-8`), or null when the client rejected ours. */
  | { type: "charset"; name: string | null }
  /** The client accepted GMCP: GMCP messages may be sent now. */
  | { type: "gmcpEnabled" }
  /** A GMCP message; `data` is undefined when absent or not valid JSON. */
  | { type: "gmcp"; package: string; data: unknown; raw: string }
  /** Output is zlib-compressed from here on. */
  | { type: "mccpStarted" }
  /** Output is plain again. */
  | { type: "mccpStopped" }
  /** Any option turned on or off; `local` options are performed by the server. */
  | { type: "option"; side: Side; option: number; name: string; enabled: boolean }
  /** A bare telnet command (NOP, AYT, BRK, IP, ...); AYT is already answered. */
  | { type: "command"; code: number }
  /** Malformed or oversized input that was dropped. */
  | { type: "error"; reason: string };

/**
 * What a connection has agreed with its client, carried to the process that takes the socket over
 * (src/telnet/handoff/messages.ts): that process answers as if it had negotiated itself, sends no offers,
 * and keeps compressing when MCCP2 is on.
 */
export interface TelnetSessionState {
  /** The option table's non-zero cells, as `[index, value]` (see OptionTable.cells). */
  options: [number, number][];
  width: number | null;
  height: number | null;
  ttypes: string[];
  ttypeRequests: number;
  ttypeReplies: number;
  mtts: number | null;
  charset: string | null;
  charsetRequested: boolean;
  charsetPending: boolean;
  /** Output was being compressed: the stream goes on (never a second start marker). */
  compressing: boolean;
  /** The unfinished input line. */
  pending: string;
}

/** What one call to {@linkcode TelnetSession.receive} produced. */
export interface ReceiveResult {
  /** Complete input lines, in order. */
  lines: string[];
  /** Everything that happened, in stream order, lines included. */
  events: TelnetEvent[];
}

/** Terminal type requests per connection: client name, terminal, MTTS. */
const MAX_TTYPE_REQUESTS = 3;

const MCCP2_START = subnegotiationBytes(MCCP2, new Uint8Array(0));

/** Options the client may perform when it offers them. */
const REMOTE_OPTIONS: ReadonlySet<number> = new Set([NAWS, TTYPE, CHARSET, SGA, BINARY]);

/**
 * What the server agrees to when the client asks unprompted, for each combination of MSSP (a
 * supplier given) and MCCP2 (index `2 * mssp + mccp`): built once and shared by every connection
 * (two sets each were ~0.4 KiB of the sidecar's memory per player). Never changed.
 */
const POLICIES: readonly NegotiationPolicy[] = [false, true].flatMap((mssp) =>
  [false, true].map((mccp) => ({
    local: new Set([SGA, CHARSET, GMCP, BINARY, ...(mssp ? [MSSP] : []), ...(mccp ? [MCCP2] : [])]),
    remote: REMOTE_OPTIONS,
  }))
);

/**
 * The protocol side of one telnet connection. Feed it each TCP read with `receive`; it answers
 * negotiation through the `write` sink (one write per read) and returns lines and events.
 *
 * Offers at `start()`: WILL CHARSET, WILL GMCP, WILL MSSP (with a supplier),
 * WILL MCCP2 (unless disabled), DO NAWS, DO TTYPE. ECHO is only offered on `hideInput()`.
 * EOR is not offered (a MUSH has no prompts to mark) and is refused, as is everything else.
 */
export class TelnetSession {
  readonly #parser: TelnetParser;
  readonly #framer: LineFramer;
  readonly #table: OptionTable;
  readonly #out: OutputPipe;
  readonly #mssp: (() => MsspTable) | undefined;
  readonly #compression: boolean;
  readonly #onError: ((error: unknown) => void) | undefined;
  #batch: Uint8Array[] | null = null;
  #started = false;
  #width: number | null = null;
  #height: number | null = null;
  #ttypes: string[] = [];
  #ttypeRequests = 0;
  #ttypeReplies = 0;
  #mtts: number | null = null;
  #charset: string | null = null;
  #charsetRequested = false;
  #charsetPending = false;

  /**
   * Creates the session; nothing is sent until {@linkcode TelnetSession.start}. With `state`
   * (another process's {@linkcode TelnetSession.snapshot}) the connection goes on where it was:
   * already started, nothing sent.
   */
  constructor(options: TelnetSessionOptions, state?: TelnetSessionState) {
    this.#mssp = options.mssp;
    this.#compression = options.compression ?? true;
    this.#onError = options.onError;
    this.#parser = new TelnetParser({ maxSubnegotiation: options.maxSubnegotiation });
    this.#framer = new LineFramer({ maxLineBytes: options.maxLineBytes });
    const policy = POLICIES[(this.#mssp ? 2 : 0) + (this.#compression ? 1 : 0)];
    let cells: Uint8Array | undefined;
    if (state) {
      cells = new Uint8Array(TABLE_BYTES);
      for (const [i, v] of state.options) cells[i] = v;
    }
    this.#table = new OptionTable(policy, cells);
    this.#out = new OutputPipe(options.write, {
      compressionLevel: options.compressionLevel,
      onError: options.onError,
    });
    if (state) this.#restore(state);
  }

  /** The state to carry this connection into another process (see TelnetSessionState). */
  snapshot(): TelnetSessionState {
    const cells = this.#table.cells();
    const options: [number, number][] = [];
    for (let i = 0; i < cells.length; i++) if (cells[i] !== 0) options.push([i, cells[i]]);
    return {
      options,
      width: this.#width,
      height: this.#height,
      ttypes: [...this.#ttypes],
      ttypeRequests: this.#ttypeRequests,
      ttypeReplies: this.#ttypeReplies,
      mtts: this.#mtts,
      charset: this.#charset,
      charsetRequested: this.#charsetRequested,
      charsetPending: this.#charsetPending,
      compressing: this.#out.compressing,
      pending: this.#framer.pending(),
    };
  }

  #restore(s: TelnetSessionState): void {
    this.#started = true;
    this.#width = s.width;
    this.#height = s.height;
    this.#ttypes = [...s.ttypes];
    this.#ttypeRequests = s.ttypeRequests;
    this.#ttypeReplies = s.ttypeReplies;
    this.#mtts = s.mtts;
    this.#charset = s.charset;
    this.#charsetRequested = s.charsetRequested;
    this.#charsetPending = s.charsetPending;
    if (s.compressing) this.#out.continueCompression();
    this.#framer.resume(s.pending);
  }

  /** Columns reported by NAWS, or null before any report. */
  get width(): number | null {
    return this.#width;
  }

  /** Rows reported by NAWS, or null before any report. */
  get height(): number | null {
    return this.#height;
  }

  /** Terminal types received so far (client name first). */
  get terminalTypes(): readonly string[] {
    return this.#ttypes;
  }

  /** The client's name from the first TTYPE answer, or null. */
  get clientName(): string | null {
    return this.#ttypes[0] ?? null;
  }

  /** MTTS capability bits, or null when the client did not send them. */
  get mtts(): number | null {
    return this.#mtts;
  }

  /** The character set agreed through CHARSET, or null (output is UTF-8 regardless). */
  get charset(): string | null {
    return this.#charset;
  }

  /** True when GMCP messages may be sent. */
  get gmcp(): boolean {
    return this.#table.isEnabled("local", GMCP);
  }

  /** True while output is MCCP2-compressed. */
  get compressing(): boolean {
    return this.#out.compressing;
  }

  /** True while the client was asked to hide typed input (server WILL ECHO sent or agreed). */
  get inputHidden(): boolean {
    const s = this.#table.state("local", ECHO);
    return s === "yes" || s === "wantyes";
  }

  /** True when the option is on for that side. */
  isEnabled(side: Side, option: number): boolean {
    return this.#table.isEnabled(side, option);
  }

  /** Sends the server's opening offers (once; later calls do nothing). */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#batched(() => {
      // No WILL SGA up front: line-mode clients (netkit telnet) would switch to
      // character mode and echo CR as ^M. A client that asks for SGA still gets it.
      const offers: [Side, number][] = [
        ["local", CHARSET],
        ["local", GMCP],
        ["remote", NAWS],
        ["remote", TTYPE],
      ];
      if (this.#mssp) offers.push(["local", MSSP]);
      // MCCP2 last: once it starts, the offers above must already be on the wire uncompressed.
      if (this.#compression) offers.push(["local", MCCP2]);
      for (const [side, option] of offers) {
        this.#emit(this.#table.request(side, option, true).reply);
      }
    });
  }

  /**
   * The text of a read that is one typed line and nothing else (nearly every read): no telnet
   * command to answer, no batch of replies, no event made. Null for any other read, which
   * `receive` then takes; a read taken here must not be given to `receive` too.
   */
  typedLine(chunk: Uint8Array): string | null {
    return this.#parser.plain(chunk) ? this.#framer.whole(chunk) : null;
  }

  /** Handles one TCP read: replies go to the sink in one write; lines and events come back. */
  receive(chunk: Uint8Array): ReceiveResult {
    const whole = this.typedLine(chunk);
    if (whole !== null) {
      return { lines: [whole], events: [{ type: "line", text: whole, truncated: false }] };
    }
    const lines: string[] = [];
    const events: TelnetEvent[] = [];
    // Collects the replies into one write (as `#batched` does, without a function per read).
    this.#batch = [];
    try {
      for (const ev of this.#parser.feed(chunk)) {
        switch (ev.type) {
          case "data":
            for (const line of this.#framer.push(ev.bytes)) {
              lines.push(line.text);
              events.push({ type: "line", text: line.text, truncated: line.truncated });
            }
            break;
          case "negotiation": {
            const result = this.#table.receive(ev.verb, ev.option);
            this.#emit(result.reply);
            if (result.change) this.#changed(result.change, events);
            break;
          }
          case "subnegotiation":
            this.#subnegotiation(ev.option, ev.data, events);
            break;
          case "command":
            events.push(ev);
            if (ev.code === AYT) this.#emit(encodeText("[Yes]\n"));
            break;
          case "error":
            events.push(ev);
            break;
        }
      }
    } finally {
      this.#flushBatch();
      this.#batch = null;
    }
    return { lines, events };
  }

  /** Sends text: "\n" becomes CRLF, UTF-8, IAC doubled, compressed when MCCP2 is on. */
  send(text: string): void {
    this.#emit(encodeText(text));
  }

  /** Sends bytes that are already telnet-encoded (IAC doubled where it is data). */
  sendBytes(bytes: Uint8Array): void {
    this.#emit(bytes);
  }

  /** Sends a GMCP message; returns false (and sends nothing) when GMCP is off. */
  sendGmcp(pkg: string, data?: unknown): boolean {
    if (!this.gmcp) return false;
    this.#emit(encodeGmcp(pkg, data));
    return true;
  }

  /** Asks the client to stop echoing typed input (IAC WILL ECHO), e.g. before a password. */
  hideInput(): void {
    this.#emit(this.#table.request("local", ECHO, true).reply);
  }

  /** Asks the client to echo typed input again (IAC WONT ECHO). */
  showInput(): void {
    this.#emit(this.#table.request("local", ECHO, false).reply);
  }

  /** Resolves once every byte sent so far has reached the sink. */
  idle(): Promise<void> {
    return this.#out.idle();
  }

  /** Flushes output, ends MCCP2 (Z_FINISH) and ignores later sends; call before closing. */
  close(): Promise<void> {
    return this.#out.close();
  }

  /** Collects what `fn` sends into one write. */
  #batched(fn: () => void): void {
    this.#batch = [];
    try {
      fn();
    } finally {
      this.#flushBatch();
      this.#batch = null;
    }
  }

  #flushBatch(): void {
    if (this.#batch !== null && this.#batch.length > 0) {
      const bytes = concatBytes(this.#batch);
      this.#batch = [];
      this.#out.write(bytes);
    }
  }

  #emit(bytes: Uint8Array | null): void {
    if (bytes === null || bytes.length === 0) return;
    if (this.#batch !== null) this.#batch.push(bytes);
    else this.#out.write(bytes);
  }

  #changed(change: OptionChange, events: TelnetEvent[]): void {
    const { side, option, enabled } = change;
    events.push({ type: "option", side, option, name: optionName(option), enabled });
    if (side === "local") {
      switch (option) {
        case GMCP:
          if (enabled) events.push({ type: "gmcpEnabled" });
          break;
        case MCCP2:
          // Replies queued before the switch must go out plain, ahead of the start marker.
          this.#flushBatch();
          if (enabled) {
            this.#out.startCompression(MCCP2_START);
            events.push({ type: "mccpStarted" });
          } else {
            this.#out.stopCompression();
            events.push({ type: "mccpStopped" });
          }
          break;
        case MSSP:
          if (enabled) this.#sendMssp();
          break;
        case CHARSET:
          if (enabled) this.#requestCharset();
          break;
      }
    } else if (enabled) {
      if (option === TTYPE && this.#ttypeRequests === 0) {
        this.#ttypeRequests = 1;
        this.#emit(ttypeSend());
      } else if (option === CHARSET) {
        this.#requestCharset();
      }
    }
  }

  #subnegotiation(option: number, data: Uint8Array, events: TelnetEvent[]): void {
    switch (option) {
      case NAWS: {
        const size = decodeNaws(data);
        if (size === null) {
          events.push({ type: "error", reason: `bad NAWS payload of ${data.length} bytes` });
        } else {
          this.#width = size.width;
          this.#height = size.height;
          events.push({ type: "naws", width: size.width, height: size.height });
        }
        return;
      }
      case TTYPE:
        return this.#ttype(data, events);
      case CHARSET:
        return this.#charsetMessage(data, events);
      case GMCP: {
        if (!this.gmcp) return;
        const msg = decodeGmcp(data);
        if (msg === null) events.push({ type: "error", reason: "bad GMCP message" });
        else events.push({ type: "gmcp", package: msg.package, data: msg.data, raw: msg.raw });
        return;
      }
    }
  }

  #ttype(data: Uint8Array, events: TelnetEvent[]): void {
    // Only answers to our own SENDs count, so a client cannot make us keep asking.
    if (this.#ttypeReplies >= this.#ttypeRequests) return;
    this.#ttypeReplies++;
    const name = decodeTtype(data);
    // A repeated name means the client's list is exhausted (or it has no list at all).
    if (name === null || this.#ttypes.includes(name)) return;
    this.#ttypes.push(name);
    events.push({ type: "ttype", name, index: this.#ttypes.length - 1 });
    const flags = parseMtts(name);
    if (flags !== null) {
      this.#mtts = flags;
      events.push({ type: "mtts", flags });
      return;
    }
    if (this.#ttypeRequests < MAX_TTYPE_REQUESTS) {
      this.#ttypeRequests++;
      this.#emit(ttypeSend());
    }
  }

  #requestCharset(): void {
    if (this.#charsetRequested) return;
    this.#charsetRequested = true;
    this.#charsetPending = true;
    this.#emit(charsetRequest(["UTF-8"]));
  }

  #charsetMessage(data: Uint8Array, events: TelnetEvent[]): void {
    if (!this.#table.isEnabled("local", CHARSET) && !this.#table.isEnabled("remote", CHARSET)) {
      return;
    }
    const msg = decodeCharset(data);
    if (msg === null) return;
    switch (msg.kind) {
      case "request": {
        // RFC 2066: when both ends ask at once, the server rejects the client's request.
        const name = this.#charsetPending ? undefined : msg.names.find(isUtf8);
        if (name === undefined) {
          this.#emit(charsetRejected());
        } else {
          this.#emit(charsetAccepted(name));
          this.#charset = "UTF-8";
          events.push({ type: "charset", name: "UTF-8" });
        }
        return;
      }
      case "accepted":
        if (!this.#charsetPending) return;
        this.#charsetPending = false;
        this.#charset = msg.name;
        events.push({ type: "charset", name: msg.name });
        return;
      case "rejected":
        if (!this.#charsetPending) return;
        this.#charsetPending = false;
        events.push({ type: "charset", name: null });
        return;
      case "ttable":
        this.#emit(charsetTtableRejected());
        return;
    }
  }

  #sendMssp(): void {
    if (!this.#mssp) return;
    try {
      this.#emit(encodeMssp(this.#mssp()));
    } catch (error) {
      this.#onError?.(error);
    }
  }
}
