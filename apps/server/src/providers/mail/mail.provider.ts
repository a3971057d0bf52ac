/** One e-mail, ready to send (rendered subject, HTML and text, extra headers). */
export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  /** Template name (verify, reset, welcome), for the outbox and logs. */
  kind: string;
  /** The recipient's account, when there is one. */
  userId: string | null;
}

/** Where e-mail goes: an SMTP server, or the local outbox. Chosen by configuration. */
export interface MailProvider {
  readonly name: string;
  send(message: MailMessage): Promise<void>;
  close?(): Promise<void>;
}
