/**
 * The password hasher on threads of its own: it hashes and checks as core/password.ts does, refuses
 * at once when its queue is full, and never holds up Node's shared thread pool, where file reads
 * and writes wait (the fourth probe: 16 parallel guesses moved download p50 from 8 ms to 4.3 s).
 */
import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createThreadHasher } from '../../../src/adapters/password/hasher-thread.ts';
import { hashPassword, verifyPassword } from '../../../src/core/password.ts';
import type { PasswordHasher } from '../../../src/ports/password-hasher.ts';

let hasher: PasswordHasher | undefined;
afterEach(async () => {
  await hasher?.close();
  hasher = undefined;
});

describe('thread password hasher', () => {
  it('hashes and checks as the core does (each reads the other\'s hashes)', async () => {
    hasher = createThreadHasher();
    const made = await hasher.hash('four unrelated words');
    expect(made.ok).toBe(true);
    const stored = made.ok ? made.value : '';
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword('four unrelated words', stored)).toBe(true);
    expect(await hasher.verify('four unrelated words', stored)).toEqual({ ok: true, value: true });
    expect(await hasher.verify('four unrelated word', stored)).toEqual({ ok: true, value: false });
    expect(await hasher.verify('x', await hashPassword('x'))).toEqual({ ok: true, value: true });
    for (const foreign of ['', 'scrypt$1$2$3', '$2b$10$abcdefghijklmnopqrstuv', 'scrypt$99999999$8$1$AAAA$AAAA']) {
      expect(await hasher.verify('x', foreign), foreign).toEqual({ ok: true, value: false });
    }
  });

  it('refuses at once, as busy, past its threads and queue; the rest complete', async () => {
    hasher = createThreadHasher({ threads: 1, queue: 2 });
    const stored = await hashPassword('a password');
    const all = await Promise.all(Array.from({ length: 6 }, () => hasher!.verify('a password', stored)));
    expect(all.filter((r) => r.ok && r.value)).toHaveLength(3); // one running, two queued
    const refused = all.filter((r) => !r.ok);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r).toEqual({ ok: false, error: { kind: 'busy', retryAfterSeconds: expect.any(Number) } });
    expect(hasher.load()).toEqual({ running: 0, queued: 0, capacity: 3, refused: 3 });
    // Once the queue has drained, it takes requests again.
    expect(await hasher.verify('a password', stored)).toEqual({ ok: true, value: true });
  });

  it('leaves Node\'s shared thread pool free: a file read while 12 checks wait finishes before the second check', async () => {
    hasher = createThreadHasher({ threads: 1, queue: 16 });
    const stored = await hashPassword('a password');
    const order: string[] = [];
    const checks = Array.from({ length: 12 }, (_, k) => hasher!.verify('a password', stored).then(() => order.push(`check ${k}`)));
    const read = readFile(import.meta.filename).then(() => order.push('read'));
    await Promise.all([...checks, read]);
    // On the shared pool (Node's scrypt), the read would queue behind four 32 MiB scrypts at least.
    expect(order.indexOf('read')).toBeLessThanOrEqual(1);
  });

  it('answers queued requests with an error when closed, and refuses new ones', async () => {
    const closing = createThreadHasher({ threads: 1, queue: 4 });
    const stored = await hashPassword('a password');
    const settled = Promise.allSettled(Array.from({ length: 3 }, () => closing.verify('a password', stored)));
    await closing.close();
    expect((await settled).every((s) => s.status === 'rejected')).toBe(true);
    await expect(closing.verify('a password', stored)).rejects.toThrow('closed');
  });
});
