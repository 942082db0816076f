import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from '../../src/core/password.ts';

describe('passwords', () => {
  it('hash with scrypt (N=2^15, r=8, p=1), a fresh salt each time, and verify only the right password', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct');
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('correct horse battery', 'plain text')).toBe(false);
    expect(await verifyPassword('x', 'scrypt$1048577$8$1$AAAA$AAAA')).toBe(false); // parameters beyond the cap are not run
  });

  it('Unicode forms of the same password verify alike (NFKC)', async () => {
    const composed = await hashPassword('café au lait 2026');
    expect(await verifyPassword('cafe\u0301 au lait 2026', composed)).toBe(true);
  });

  it('refuse short, email-like and monotonous passwords with what to do', () => {
    expect(passwordProblem('short', 'a@b.org')).toMatch(/at least 12/);
    expect(passwordProblem('someone@example.org', 'Someone@example.org')).toMatch(/other than your email/);
    expect(passwordProblem('aaaaaaaaaaaaaaaa', 'a@b.org')).toMatch(/different characters/);
    expect(passwordProblem('x'.repeat(201), 'a@b.org')).toMatch(/at most 200/);
    expect(passwordProblem('four unrelated words', 'a@b.org')).toBeUndefined();
  });
});
