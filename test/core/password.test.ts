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

  it('refuse common passwords and ones glued from them (password123456), and keep unrelated words', () => {
    for (const common of ['password123456', 'Password123456!', 'qwerty123456', 'iloveyou2024!', 'sunshine.football', 'Trustno1Trustno1', 'monkey-dragon-master', '1234567890123']) {
      expect(passwordProblem(common, 'a@b.org'), common).toMatch(/most common/);
    }
    // Three common words and a number: four pieces, each common, make a passphrase long enough to keep.
    for (const fine of ['violet kettle harbour 42', 'four unrelated words', 'correct horse battery staple', 'plinth quagmire osprey', 'passwordxq7wlmzk']) {
      expect(passwordProblem(fine, 'a@b.org'), fine).toBeUndefined();
    }
  });
});
