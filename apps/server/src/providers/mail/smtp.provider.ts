import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, MailProvider } from './mail.provider.js';

/** Sends mail through an SMTP server (`SMTP_URL`, e.g. smtp://user:pass@host:587). */
export class SmtpMailProvider implements MailProvider {
  readonly name = 'smtp';
  private readonly transport: Transporter;

  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({
      from: this.from,
      to: message.to,
      subject: message.subject,
      html: message.html,
      text: message.text,
      headers: message.headers,
    });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
