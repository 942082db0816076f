/**
 * Issue 31, item 3: "Forgot your password?" answers after the same work whether or not the email
 * has an account: the account is looked up, and a link written and sent, only after the answer,
 * so its timing cannot tell who holds an account (bench/reset-timing.ts measures the medians).
 * The test holds the account store's answers back: the page must come anyway, for a holder's
 * email and for an unknown one alike, and the link must follow once the store answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryMailer, type MemoryMailer } from '../../src/adapters/mail/memory.ts';
import { startTestServer, type TestServer } from './harness.ts';

let s: TestServer;
let mailer: MemoryMailer;
beforeAll(async () => {
  mailer = createMemoryMailer({ from: 'spq <no-reply@spq.test>' });
  s = await startTestServer({ mailer });
});
afterAll(async () => s?.close());

const forgot = (email: string) =>
  fetch(`${s.baseUrl}/console/forgot`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: s.baseUrl }, body: new URLSearchParams({ email }).toString() });
const within = <T>(ms: number, promise: Promise<T>): Promise<T | 'no answer'> => Promise.race([promise, new Promise<'no answer'>((r) => setTimeout(() => r('no answer'), ms))]);

describe('password reset: constant work before the answer', () => {
  it('the page comes while the account store is held back, for a holder and for nobody alike; the link follows', async () => {
    const holder = `holder-${Math.random().toString(36).slice(2, 10)}@example.org`;
    await s.store.createAccount({ email: holder, now: s.clock.now() });
    const store = s.store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const originals = new Map<string, (...args: unknown[]) => Promise<unknown>>();
    for (const name of ['findAccountByEmail', 'getAccount', 'addOneTimeLink']) {
      const original = store[name]!.bind(s.store);
      originals.set(name, store[name]!);
      store[name] = async (...args: unknown[]) => {
        await held;
        return original(...args);
      };
    }
    try {
      for (const email of [holder, `nobody-${holder}`]) {
        const answer = await within(3000, forgot(email));
        expect(answer, email).not.toBe('no answer');
        const res = answer as Response;
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('Check your email');
      }
      expect(mailer.outbox).toHaveLength(0);
    } finally {
      release();
      for (const [name, original] of originals) store[name] = original;
    }
    for (let i = 0; i < 100 && mailer.outbox.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(mailer.outbox.map((m) => m.to)).toEqual([holder]);
    expect(mailer.outbox[0]!.text).toMatch(/\/console\/welcome\/[0-9A-Za-z]{32}/);
  });
});
