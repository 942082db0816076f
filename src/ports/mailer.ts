/**
 * Email to account holders (password-reset links). Plain text only: the messages carry a link and
 * a few sentences, and a text part is what every client shows the same way.
 * Contract: mailerContract in test/adapters/mail/mailer.test.ts (memory, and SMTP against a real SMTP server).
 */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

export interface Mailer {
  /** Resolves once the relay (or the memory outbox) has accepted the message; rejects when refused or unreachable. */
  send(message: MailMessage): Promise<void>;
  /** One line for the start-up banner, e.g. "mail: smtp relay.example.org:587". */
  readonly description: string;
  close(): Promise<void>;
}
