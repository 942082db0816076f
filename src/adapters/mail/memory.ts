import type { MailMessage, Mailer } from '../../ports/mailer.ts';

/**
 * A Mailer that keeps what it is given (with the From address it would send as) instead of
 * sending it: for tests, and for a service started without SMTP by code that still wants to
 * see what would have gone out. Nothing leaves the process.
 */
export interface MemoryMailer extends Mailer {
  readonly outbox: readonly (MailMessage & { readonly from: string })[];
}

export function createMemoryMailer(options: { readonly from: string }): MemoryMailer {
  const outbox: (MailMessage & { readonly from: string })[] = [];
  return {
    outbox,
    description: 'mail: in memory (nothing is sent)',
    async send(message) {
      outbox.push({ ...message, from: options.from });
    },
    async close() {},
  };
}
