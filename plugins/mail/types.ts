/** Mail records as stored, and the API other plugins call. */

/** A recipient's inbox entry (stored). */
export interface MailHead {
  /** The message number (the REST id, as a string). */
  n: number;
  /** The sender's name at the time of sending. */
  from: string;
  fromId: string;
  subject: string;
  read: boolean;
  receivedAt: number;
}

/** The rest of a recipient's copy (stored). */
export interface MailBody {
  /** Recipients' names. */
  to: string[];
  toIds: string[];
  body: string;
  sentAt: number;
}

/** A recipient's counts. */
export interface MailCounts {
  total: number;
  unread: number;
}

/** An inbox entry as the API answers it. */
export interface InboxEntry {
  id: string;
  from: string;
  subject: string;
  read: boolean;
  receivedAt: number;
}

/** A whole message as the API answers it. */
export interface MailMessage extends InboxEntry {
  to: string[];
  body: string;
  sentAt: number;
}

/** What `send` of the exported API takes: player ids, and the text. */
export interface SendInput {
  /** The sender's player id. */
  from: string;
  /** Recipients' player ids. */
  to: string[];
  subject: string;
  body: string;
}

/**
 * The mail plugin's API for other plugins: `ctx.api<MailApi>("mail")?.send({...})`. It resolves
 * once every copy is stored; an unknown sender or recipient, or a subject or body over the
 * limits, rejects with a ValidationError and nothing is sent.
 */
export interface MailApi {
  send(input: SendInput): Promise<void>;
}
