/**
 * The Mailer contract, run over the memory adapter and over the SMTP adapter against a real SMTP
 * server started here (the smtp-server package): a message reaches its recipient with its
 * subject and text, unchanged (long lines and non-ASCII included), from the configured sender;
 * a relay that refuses (wrong credentials) or is not there makes send reject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMailer } from '../../../src/adapters/mail/memory.ts';
import { createSmtpMailer } from '../../../src/adapters/mail/smtp.ts';
import type { MailMessage, Mailer } from '../../../src/ports/mailer.ts';
import { freePort } from '../../support/free-port.ts';
import { startSmtpServer, type TestSmtpServer } from '../../support/smtp-server.ts';

const FROM = 'spq <no-reply@spq.example.org>';
const LONG_LINK = `https://spq.example.org/console/welcome/${'Ab9'.repeat(30)}`;
const message = (to: string): MailMessage => ({
  to,
  subject: 'Reset your spq password',
  text: `Hello,\n\nOpen this link within 60 minutes:\n${LONG_LINK}\n\nMerci — ça marche.\n`,
});

interface Harness {
  make(): Promise<Mailer>;
  /** What the recipient got: subject, text, From header. */
  delivered(to: string): Promise<{ subject: string; text: string; from: string }>;
}

function mailerContract(name: string, harness: () => Harness): void {
  describe(`Mailer contract: ${name}`, () => {
    it('delivers subject and text unchanged to the recipient, from the configured sender', async () => {
      const h = harness();
      const mailer = await h.make();
      try {
        await mailer.send(message('holder@example.org'));
        const got = await h.delivered('holder@example.org');
        expect(got.subject).toBe('Reset your spq password');
        expect(got.text.trimEnd()).toBe(message('').text.trimEnd());
        expect(got.from).toContain('no-reply@spq.example.org');
        expect(mailer.description).toMatch(/^mail: /);
      } finally {
        await mailer.close();
      }
    });
  });
}

mailerContract('memory', () => {
  const mailer = createMemoryMailer({ from: FROM });
  return {
    make: async () => mailer,
    delivered: async (to) => {
      const m = mailer.outbox.find((x) => x.to === to)!;
      return { subject: m.subject, text: m.text, from: m.from };
    },
  };
});

describe('SMTP', () => {
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startSmtpServer({ user: { name: 'spq', password: 'relay secret' } });
  });
  afterAll(async () => smtp.close());

  mailerContract('SMTP (real server, AUTH)', () => ({
    make: async () => createSmtpMailer({ url: smtp.url, from: FROM }),
    delivered: async (to) => {
      const m = await smtp.next(to);
      expect(m.user).toBe('spq');
      expect(m.envelopeFrom).toBe('no-reply@spq.example.org');
      return { subject: m.headers.subject!, text: m.text, from: m.headers.from! };
    },
  }));

  it('rejects when the relay refuses the credentials or is not there', async () => {
    const wrong = createSmtpMailer({ url: smtp.url.replace('relay%20secret', 'nope'), from: FROM });
    await expect(wrong.send(message('a@example.org'))).rejects.toThrow();
    await wrong.close();
    const nowhere = createSmtpMailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: FROM });
    await expect(nowhere.send(message('a@example.org'))).rejects.toThrow();
    await nowhere.close();
    expect(smtp.received.filter((m) => m.envelopeTo.includes('a@example.org'))).toHaveLength(0);
  });
});
