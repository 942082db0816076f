import { createTransport } from 'nodemailer';
import type { Mailer } from '../../ports/mailer.ts';

/**
 * A Mailer over SMTP (nodemailer): SPQ_SMTP_URL names the relay, its credentials and TLS
 * (smtps:// is TLS from the start; smtp:// upgrades with STARTTLS when the relay offers it).
 * One connection per message (reset emails are rare), with short timeouts, so a dead relay fails a send instead of holding it.
 */
export function createSmtpMailer(options: { readonly url: string; readonly from: string }): Mailer {
  const where = new URL(options.url);
  const secure = where.protocol === 'smtps:';
  const port = where.port === '' ? (secure ? 465 : 587) : Number(where.port);
  const user = decodeURIComponent(where.username);
  const transport = createTransport(
    {
      host: where.hostname,
      port,
      secure,
      ...(user !== '' ? { auth: { user, pass: decodeURIComponent(where.password) } } : {}),
      connectionTimeout: 5_000,
      greetingTimeout: 5_000,
      socketTimeout: 10_000,
    },
    { from: options.from },
  );
  return {
    description: `mail: SMTP ${where.protocol}//${where.hostname}:${port} from ${options.from}`,
    async send(message) {
      await transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
    },
    async close() {
      transport.close();
    },
  };
}
